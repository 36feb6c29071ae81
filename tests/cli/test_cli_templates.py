"""`rendervisor render --set / --data / --rows` as a farm operator runs it: real processes, real
files, every output decoded and compared with the still renderer's picture of the card with
that row's values. Bad input is exit 2 with one line and nothing written; a row that fails
while rendering fails alone (exit 1)."""

import json
import os
import shutil

import av
import numpy as np
import pytest

from supervisor.engine.engine import Engine
from tests.helpers.cli_projects import error_lines, rendervisor
from tests.helpers.render_sessions import read_png
from tests.helpers.template_projects import (ACCENT, BACKGROUND_AT, LOGO_AT, card_template,
                                             close, expected_card, logo_png, pixel)

DEFAULT_ACCENT = tuple(int(ACCENT[i:i + 2], 16) for i in (1, 3, 5))


@pytest.fixture
def card(tmp_path):
    """The card saved with one queue item: frame 0 as a PNG named by its title and row."""
    card_template(tmp_path, queue=[{"output": "out/[param:title]_[row]_[#].png",
                                    "format": "png", "frames": "0"}])
    return str(tmp_path / "card.rvproj")


def assert_refused(result, folder, *fragments):
    lines = error_lines(result.stderr)
    assert result.returncode == 2, result.stderr
    assert len(lines) == 1 and "Traceback" not in result.stderr, lines
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    assert not os.path.exists(os.path.join(folder, "out")), os.listdir(folder)


def decode_first(path):
    with av.open(path) as container:
        return next(container.decode(video=0)).to_ndarray(format="rgba")


def test_set_changes_the_text_and_the_color_and_defaults_apply_without_it(card, tmp_path):
    engine = Engine(card)
    plain = rendervisor("render", card, "--quiet")
    assert plain.returncode == 0, plain.stderr
    defaults = read_png(str(tmp_path / "out" / "Hello_1_0.png"))
    assert pixel(defaults, BACKGROUND_AT) == DEFAULT_ACCENT
    assert np.array_equal(defaults, expected_card(engine, {}, 0))
    result = rendervisor("render", card, "--set", "title=Bye", "--set", "accent=#ff0000",
                         "--quiet")
    assert result.returncode == 0, result.stderr
    changed = read_png(str(tmp_path / "out" / "Bye_1_0.png"))
    assert pixel(changed, BACKGROUND_AT) == (255, 0, 0)
    assert np.array_equal(changed, expected_card(engine, {"title": "Bye", "accent": "#ff0000"},
                                                 0))
    text = (slice(20, 45), slice(40, 96))  # where the title is drawn
    assert not np.array_equal(changed[text][..., :3] == 255, defaults[text][..., :3] == 255)
    # Only the title given: the color is the default again.
    only = rendervisor("render", card, "--set", "title=Only", "--quiet")
    assert only.returncode == 0, only.stderr
    assert pixel(read_png(str(tmp_path / "out" / "Only_1_0.png")), BACKGROUND_AT) == \
        DEFAULT_ACCENT


def write_rows(folder, kind, rows):
    if kind == "csv":
        lines = ["title,accent,logo"] + [",".join(row.get(k, "") for k in ("title", "accent",
                                                                            "logo"))
                                         for row in rows]
        text = "\n".join(lines) + "\n"
    elif kind == "json":
        text = json.dumps(rows)
    else:
        text = "".join(json.dumps(row) + "\n" for row in rows)
    path = os.path.join(folder, f"rows.{'jsonl' if kind == 'lines' else kind}")
    with open(path, "w") as handle:
        handle.write(text)
    return path


@pytest.mark.parametrize("kind", ["csv", "json", "lines"])
def test_data_renders_one_output_per_row_each_with_its_values(card, tmp_path, kind):
    data = tmp_path / "data"
    (data / "art").mkdir(parents=True)
    logo_png(data / "art" / "green.png", (0, 255, 0))
    rows = [{"title": "Ada", "accent": "#ff0000", "logo": "art/green.png"},
            {"title": "Bo", "accent": "#0000ff"},
            {"title": "Cy"}]
    result = rendervisor("render", card, "--data", write_rows(data, kind, rows), "--json")
    assert result.returncode == 0, result.stderr
    assert sorted(os.listdir(tmp_path / "out")) == ["Ada_1_0.png", "Bo_2_0.png", "Cy_3_0.png"]
    engine = Engine(card)
    for number, row in enumerate(rows, start=1):
        written = read_png(str(tmp_path / "out" / f"{row['title']}_{number}_0.png"))
        given = dict(row, logo=str(data / row["logo"])) if "logo" in row else row
        assert np.array_equal(written, expected_card(engine, given, 0)), row
    ada = read_png(str(tmp_path / "out" / "Ada_1_0.png"))
    assert pixel(ada, LOGO_AT) == (0, 255, 0) and pixel(ada, BACKGROUND_AT) == (255, 0, 0)
    cy = read_png(str(tmp_path / "out" / "Cy_3_0.png"))
    assert pixel(cy, LOGO_AT) == (255, 255, 255) and pixel(cy, BACKGROUND_AT) == DEFAULT_ACCENT
    events = [json.loads(line) for line in result.stdout.splitlines()]
    done = events[-1]
    assert done["event"] == "done" and done["completed"] == 3
    assert [(item["row"], item["status"], os.path.basename(item["output"]))
            for item in done["items"]] == [(1, "done", "Ada_1_[#].png"),
                                          (2, "done", "Bo_2_[#].png"),
                                          (3, "done", "Cy_3_[#].png")]
    for number in (1, 2, 3):
        statuses = [event["status"] for event in events
                    if event["event"] == "row" and event["row"] == number]
        assert statuses[0] == "started" and statuses[-1] == "done", statuses


def test_rows_picks_rows_and_a_video_row_decodes_to_its_color(tmp_path):
    card_template(tmp_path, queue=[{"output": "out/card_[row].mp4",
                                    "codecOptions": {"crf": "12"}}])
    data = write_rows(str(tmp_path), "csv", [{"title": "A", "accent": "#ff0000"},
                                             {"title": "B", "accent": "#00ff00"},
                                             {"title": "C", "accent": "#0000ff"}])
    result = rendervisor("render", tmp_path / "card.rvproj", "--data", data, "--rows", "2-3",
                         "--quiet")
    assert result.returncode == 0, result.stderr
    assert sorted(os.listdir(tmp_path / "out")) == ["card_2.mp4", "card_3.mp4"]
    assert close(pixel(decode_first(str(tmp_path / "out" / "card_2.mp4")), BACKGROUND_AT),
                 (0, 255, 0))
    assert close(pixel(decode_first(str(tmp_path / "out" / "card_3.mp4")), BACKGROUND_AT),
                 (0, 0, 255))


@pytest.mark.parametrize("rows,extra,fragments", [
    ([{"title": "A", "colour": "#ff0000"}], (),
     ["rows.json has a column 'colour', which is not a param", "accent, title, logo"]),
    ([{"title": "A"}, {"title": "B", "accent": "blue"}], (),
     ["row 2 of rows.json, column accent: expected a color", 'got "blue"']),
    ([{"title": "A", "logo": "nowhere.png"}], (),
     ["row 1 of rows.json, column logo:", "there is no such file"]),
    ([{"title": "A"}, {"title": "A"}], (),
     ["rows 1 and 2 both write", "A.mp4", "Nothing was rendered"]),
    ([{"title": "A"}], ("--set", "accent"), ["--set 'accent' is not NAME=VALUE"]),
    ([{"title": "A"}], ("--set", "accent=nope"), ["--set accent: expected a color"]),
    ([{"title": "A"}], ("--rows", "0"), ["asks for row 0"]),
    ([{"title": "A"}], ("--rows", "2-5"), ["--rows '2-5'", "rows 1-1"]),
])
def test_bad_rows_exit_2_with_one_line_and_nothing_written(tmp_path, rows, extra, fragments):
    # Titles alone name the outputs here, so two rows of one title clash.
    card_template(tmp_path, queue=[{"output": "out/[param:title].mp4"}])
    data = write_rows(str(tmp_path), "json", rows)
    result = rendervisor("render", tmp_path / "card.rvproj", "--data", data, *extra)
    assert_refused(result, str(tmp_path), *fragments)


def test_a_missing_required_param_is_one_line_naming_the_row(card, tmp_path):
    engine = Engine(card)
    engine.run("template.setParam", {"name": "title", "required": True})
    engine.run("project.save", {})
    data = write_rows(str(tmp_path), "csv", [{"title": "A"}, {"accent": "#ffffff"}])
    result = rendervisor("render", card, "--data", data)
    assert_refused(result, str(tmp_path), "row 2 of rows.csv gives no value for title",
                   "--set title=VALUE")
    assert rendervisor("render", card, "--data", data, "--set", "title=All",
                       "--quiet").returncode == 0
    assert sorted(os.listdir(tmp_path / "out")) == ["All_1_0.png", "All_2_0.png"]


def test_a_row_that_fails_while_rendering_fails_alone(card, tmp_path):
    # A video that probes (its header is whole) but whose frames are cut off.
    clip = str(tmp_path / "clip.mp4")
    with av.open(clip, "w", options={"movflags": "faststart"}) as container:
        stream = container.add_stream("libx264", rate=30)
        stream.width, stream.height, stream.pix_fmt = 64, 36, "yuv420p"
        for number in range(30):
            frame = av.VideoFrame.from_ndarray(np.full((36, 64, 3), number * 8, np.uint8),
                                               format="rgb24")
            for packet in stream.encode(frame):
                container.mux(packet)
        for packet in stream.encode():
            container.mux(packet)
    with open(clip, "rb") as handle:
        whole = handle.read()
    with open(tmp_path / "cut.mp4", "wb") as handle:  # its index whole, its frames gone
        handle.write(whole[:whole.index(b"mdat") + 16])
    data = write_rows(str(tmp_path), "csv", [{"title": "A"}, {"title": "B", "logo": "cut.mp4"},
                                             {"title": "C"}])
    result = rendervisor("render", card, "--data", data, "--json")
    assert result.returncode == 1, result.stderr
    done = json.loads(result.stdout.splitlines()[-1])
    assert [(item["row"], item["status"]) for item in done["items"]] == [
        (1, "done"), (2, "failed"), (3, "done")]
    assert "footage could not be read" in done["items"][1]["error"]
    assert sorted(os.listdir(tmp_path / "out")) == ["A_1_0.png", "C_3_0.png"]


def test_skip_existing_skips_complete_rows(tmp_path):
    card_template(tmp_path, queue=[{"output": "out/[param:title].mp4"}])
    data = write_rows(str(tmp_path), "csv", [{"title": "A"}, {"title": "B"}])
    project = tmp_path / "card.rvproj"
    assert rendervisor("render", project, "--data", data, "--quiet").returncode == 0
    kept = os.stat(tmp_path / "out" / "A.mp4").st_mtime_ns
    os.remove(tmp_path / "out" / "B.mp4")
    result = rendervisor("render", project, "--data", data, "--skip-existing", "--json")
    assert result.returncode == 0, result.stderr
    done = json.loads(result.stdout.splitlines()[-1])
    assert [(item["row"], item["status"], item.get("skipped", False))
            for item in done["items"]] == [(1, "done", True), (2, "done", False)]
    assert os.stat(tmp_path / "out" / "A.mp4").st_mtime_ns == kept
    assert decode_first(str(tmp_path / "out" / "B.mp4")).shape == (54, 96, 4)


def test_skip_existing_renders_a_row_whose_video_is_cut_short_again(tmp_path):
    # A file left by an interrupted copy, or by another tool, exists without being a video.
    card_template(tmp_path, queue=[{"output": "out/[param:title].mp4"}])
    data = write_rows(str(tmp_path), "csv", [{"title": "A"}, {"title": "B"}])
    project = tmp_path / "card.rvproj"
    assert rendervisor("render", project, "--data", data, "--quiet").returncode == 0
    cut = tmp_path / "out" / "B.mp4"
    cut.write_bytes(cut.read_bytes()[:len(cut.read_bytes()) // 2])
    result = rendervisor("render", project, "--data", data, "--skip-existing", "--json")
    assert result.returncode == 0, result.stderr
    done = json.loads(result.stdout.splitlines()[-1])
    assert [(item["row"], item.get("skipped", False)) for item in done["items"]] == [
        (1, True), (2, False)]
    assert decode_first(str(cut)).shape == (54, 96, 4)


def test_cluster_local_gives_byte_identical_rows(tmp_path):
    pytest.importorskip("distributed")
    card_template(tmp_path, frames=20, queue=[
        {"output": "out/[param:title].mp4"},
        {"output": "out/[param:title]_[##].png", "format": "png"}])
    data = tmp_path / "data"
    data.mkdir()
    logo_png(data / "red.png", (255, 0, 0))
    rows = write_rows(str(data), "csv", [{"title": "A", "accent": "#336699"},
                                         {"title": "B", "logo": "red.png"}])
    project = tmp_path / "card.rvproj"
    local = rendervisor("render", project, "--data", rows, "--workers", "2", "--quiet")
    assert local.returncode == 0, local.stderr
    shutil.move(tmp_path / "out", tmp_path / "local")
    cluster = rendervisor("render", project, "--data", rows, "--workers", "2",
                          "--cluster", "local", "--quiet")
    assert cluster.returncode == 0, cluster.stderr
    names = sorted(os.listdir(tmp_path / "local"))
    assert len(names) == 42 and names == sorted(os.listdir(tmp_path / "out"))
    for name in names:
        assert (tmp_path / "local" / name).read_bytes() == (tmp_path / "out" / name).read_bytes()
    assert pixel(read_png(str(tmp_path / "out" / "B_05.png")), LOGO_AT) == (255, 0, 0)
