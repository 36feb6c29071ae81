"""Footage params in a confined session: a row's file is footage like any other, so it must be
absolute and inside the read roots when the item is queued, when a row is previewed, and again
on the render's own copy of the document (a link swapped in after the check, a project file
written before the roots existed). No reply and no output may show the outside picture."""

from __future__ import annotations

import os
import shutil

import pytest

from supervisor.engine.engine import Engine
from tests.confinement.test_confinement_sessions import READ_RULE, command, confined
from tests.helpers.confinement_world import OUTSIDE_RGB, build_world, reply_text
from tests.helpers.mcp_process import McpProcess
from tests.helpers.render_sessions import read_png
from tests.helpers.template_projects import LOGO_AT, card_template, logo_png, pixel


@pytest.fixture
def world(tmp_path):
    return build_world(str(tmp_path))


@pytest.fixture
def session(world):
    """A confined session holding the card, its logo inside the read root."""
    card_template(world.read, queue=[{"output": os.path.join(world.write, "plain_[#].png"),
                                      "format": "png", "frames": "0"}])
    shutil.move(os.path.join(world.read, "card.rvproj"), os.path.join(world.write, "card.rvproj"))
    process = confined(world, "--project", os.path.join(world.write, "card.rvproj"))
    yield process
    process.stop()


def refused(result: dict, *fragments: str) -> str:
    text = reply_text(result)
    assert result.get("isError") is True, result
    for fragment in fragments:
        assert fragment in text, text
    return text


@pytest.mark.parametrize("path,fragments", [
    ("{outside}/secret.png", [READ_RULE, "secret.png"]),
    ("{read}/link_secret.png", [READ_RULE]),
    ("logo.png", ["param 'logo'", "must be absolute"]),
])
def test_a_row_file_outside_the_roots_is_refused_everywhere(session, world, path, fragments):
    path = path.format(outside=world.outside, read=world.read)
    output = os.path.join(world.write, "row_[#].png")
    refused(command(session, "renderQueue.add", comp="Card", format="png", output=output,
                    params={"logo": path}), *fragments)
    refused(command(session, "template.preview", params={"logo": path}), *fragments)
    refused(command(session, "template.setParam", name="logo", default=path),
            *[fragment.replace("param 'logo'", "the default of 'logo'")
              for fragment in fragments])
    assert not [name for name in os.listdir(world.write) if name.startswith("row_")]


def test_a_link_swapped_in_after_queueing_is_refused_by_the_render(session, world):
    swap = logo_png(os.path.join(world.read, "swap.png"), (0, 0, 255))
    for name, logo in (("swapped", swap), ("kept", os.path.join(world.read, "logo.png"))):
        added = command(session, "renderQueue.add", comp="Card", format="png", frames="0",
                        output=os.path.join(world.write, f"{name}_[#].png"),
                        params={"logo": logo})
        assert added.get("isError") is not True, added
    os.remove(swap)
    os.symlink(os.path.join(world.outside, "secret.png"), swap)
    report = command(session, "renderQueue.render")["structuredContent"]
    statuses = {os.path.basename(item["output"]): item for item in report["items"]}
    assert statuses["swapped_[#].png"]["status"] == "failed"
    assert READ_RULE in statuses["swapped_[#].png"]["error"]
    assert statuses["kept_[#].png"]["status"] == "done"
    assert not os.path.exists(os.path.join(world.write, "swapped_0.png"))
    assert pixel(read_png(os.path.join(world.write, "kept_0.png")), LOGO_AT) != OUTSIDE_RGB


def test_a_project_file_whose_item_reads_outside_renders_its_other_items(world):
    # Saved without confinement, then opened in a confined session.
    engine = card_template(world.read)
    engine.run("project.save", {"path": os.path.join(world.write, "old.rvproj")})
    engine.run("renderQueue.add", {"comp": "Card", "format": "png", "frames": "0",
                                   "output": os.path.join(world.write, "leak_[#].png"),
                                   "params": {"logo": os.path.join(world.outside,
                                                                   "secret.png")}})
    engine.run("renderQueue.add", {"comp": "Card", "format": "png", "frames": "0",
                                   "output": os.path.join(world.write, "fine_[#].png"),
                                   "params": {"title": "Fine"}})
    engine.run("project.save", {})
    assert Engine(os.path.join(world.write, "old.rvproj")).doc["renderQueue"][0]["params"]
    process = confined(world, "--project", os.path.join(world.write, "old.rvproj"))
    try:
        report = command(process, "renderQueue.render")
    finally:
        process.stop()
    leak, fine = report["structuredContent"]["items"]
    assert leak["status"] == "failed" and READ_RULE in leak["error"], leak
    assert fine["status"] == "done", fine
    assert sorted(name for name in os.listdir(world.write) if name.endswith(".png")) == \
        ["fine_0.png"]


def test_an_unconfined_session_takes_a_relative_row_file_from_the_working_folder(world):
    logo_png(os.path.join(world.base, "here.png"), (0, 0, 255))
    path = os.path.join(world.write, "free.rvproj")
    card_template(world.read).run("project.save", {"path": path})
    process = McpProcess(cwd=world.base)
    process.initialize()
    try:
        command(process, "project.open", path=path)
        result = command(process, "template.preview", maxSide=0, params={"logo": "here.png"})
        assert result.get("isError") is not True, result
        assert result["structuredContent"]["params"]["logo"] == os.path.join(world.base,
                                                                             "here.png")
    finally:
        process.stop()
