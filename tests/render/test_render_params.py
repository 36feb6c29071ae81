"""Queue items with template params render through real render workers, each with its own
values on its own snapshot, while the project stays as it was; template.preview draws a row
on the preview worker. Every output is read back and compared with the still renderer's
picture of the document with those values applied."""

import json
import os

import numpy as np
import pytest

from tests.helpers.mcp_images import decode_png
from tests.helpers.render_sessions import decode_video, read_png, render_session
from tests.helpers.template_projects import (ACCENT, BACKGROUND_AT, LOGO_AT, card_template,
                                             close, expected_card, logo_png, pixel)


@pytest.fixture
def session(tmp_path):
    with render_session(workers=2) as made:
        card_template(tmp_path, frames=6, engine=made.engine)
        yield made


def test_each_item_renders_its_own_values_and_the_project_is_unchanged(session, tmp_path):
    engine = session.engine
    rows = [{"title": "One", "accent": "#ff0000", "logo": logo_png(tmp_path / "g.png",
                                                                     (0, 255, 0))},
            {"title": "Two", "accent": "#0000ff"},
            {}]
    for number, row in enumerate(rows):
        engine.run("renderQueue.add", {"comp": "Card", "format": "png", "params": row,
                                       "output": str(tmp_path / f"r{number}_[#].png")})
    engine.run("renderQueue.add", {"comp": "Card", "format": "png",
                                   "output": str(tmp_path / "plain_[#].png")})
    before = json.dumps(engine.doc["comps"]) + json.dumps(engine.doc["footage"])
    report = engine.run("renderQueue.render", {})
    assert report["completed"] == 4 and report["failed"] == 0, report
    for number, row in enumerate(rows):
        for frame in (0, 5):
            written = read_png(str(tmp_path / f"r{number}_{frame}.png"))
            assert np.array_equal(written, expected_card(engine, row, frame)), (number, frame)
    first = read_png(str(tmp_path / "r0_0.png"))
    assert pixel(first, BACKGROUND_AT) == (255, 0, 0) and pixel(first, LOGO_AT) == (0, 255, 0)
    second = read_png(str(tmp_path / "r1_0.png"))
    assert pixel(second, BACKGROUND_AT) == (0, 0, 255)
    assert pixel(second, LOGO_AT) == (255, 255, 255)  # the default logo
    defaults, plain = read_png(str(tmp_path / "r2_0.png")), read_png(str(tmp_path / "plain_0.png"))
    assert np.array_equal(defaults, plain)  # no value given: the defaults, as the project shows
    assert not np.array_equal(first[30:, 40:], second[30:, 40:])  # the titles differ
    assert json.dumps(engine.doc["comps"]) + json.dumps(engine.doc["footage"]) == before


def test_a_video_item_with_params_decodes_to_its_colors(session, tmp_path):
    engine = session.engine
    engine.run("renderQueue.add", {"comp": "Card", "output": str(tmp_path / "[param:title].mp4"),
                                   "params": {"title": "Red", "accent": "#c02020"},
                                   "codecOptions": {"crf": "12"}})
    report = engine.run("renderQueue.render", {})
    assert report["items"][0]["output"] == str(tmp_path / "Red.mp4"), report
    frames, _info = decode_video(str(tmp_path / "Red.mp4"))
    assert len(frames) == 6
    assert close(pixel(frames[3], BACKGROUND_AT), (0xc0, 0x20, 0x20))


def test_an_item_whose_footage_went_fails_alone_naming_its_param(session, tmp_path):
    engine = session.engine
    gone = logo_png(tmp_path / "gone.png", (9, 9, 9))
    engine.run("renderQueue.add", {"comp": "Card", "format": "png", "params": {"logo": gone},
                                   "output": str(tmp_path / "a_[#].png")})
    engine.run("renderQueue.add", {"comp": "Card", "format": "png", "params": {"title": "B"},
                                   "output": str(tmp_path / "b_[#].png")})
    os.remove(gone)
    report = engine.run("renderQueue.render", {})
    failed, done = report["items"]
    assert (failed["status"], done["status"]) == ("failed", "done"), report
    assert failed["error"].startswith(f"{failed['item']} was not rendered: its param 'logo': ")
    assert "there is no such file" in failed["error"]
    assert sorted(os.listdir(tmp_path)) == ["b_0.png", "b_1.png", "b_2.png", "b_3.png",
                                            "b_4.png", "b_5.png", "logo.png"]


def test_two_items_whose_params_name_one_file_refuse_the_render(session, tmp_path):
    engine = session.engine
    for title in ("Same", "Same"):
        engine.run("renderQueue.add", {"comp": "Card", "params": {"title": title},
                                       "output": str(tmp_path / "[param:title].mp4")})
    with pytest.raises(Exception, match="both write .*Same.mp4.*Nothing was rendered"):
        engine.run("renderQueue.render", {})
    assert sorted(os.listdir(tmp_path)) == ["logo.png"]


def test_template_preview_draws_the_row_on_the_preview_worker(session, tmp_path):
    engine = session.engine
    logo = logo_png(tmp_path / "b.png", (0, 0, 255))
    result = engine.run("template.preview", {"comp": "Card", "time": 0.1, "maxSide": 0,
                                             "params": {"accent": "#00ff00", "logo": logo}})
    assert (result["comp"], result["frame"], result["width"]) == ("Card", 3, 96)
    pixels = decode_png(result["image"]["data"])
    want = expected_card(engine, {"accent": [0.0, 1.0, 0.0, 1.0], "logo": logo}, 3)
    assert np.array_equal(pixels, want)
    assert engine.run("template.list")["params"][0]["default"] != [0.0, 1.0, 0.0, 1.0]
    again = engine.run("template.preview", {"params": {}, "maxSide": 0})
    assert pixel(decode_png(again["image"]["data"]), BACKGROUND_AT) == \
        tuple(int(ACCENT[i:i + 2], 16) for i in (1, 3, 5))
    with pytest.raises(Exception, match="param 'accent': expected a color"):
        engine.run("template.preview", {"params": {"accent": "green"}})
