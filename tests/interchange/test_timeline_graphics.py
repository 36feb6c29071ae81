"""What an editor's timeline cannot hold: graphics layers listed in warnings, or pre-rendered
with --render-graphics to ProRes 4444 with alpha beside the timeline and placed as clips that
decode to the comp's own pictures of those layers."""

import copy

import numpy as np
import opentimelineio as otio
import pytest

from protocol.cancel import Cancelled
from supervisor.work import Work
from tests.helpers.interchange_projects import RATE, media
from tests.helpers.render_sessions import decode_video, render_session
from workers.compositor import render_frame


@pytest.fixture(scope="module")
def session():
    with render_session(workers=1) as session:
        yield session


def titled_cut(engine, files):
    """A shot under a title (text over a half-transparent plate, 0.5-1.5 s) and a sliding
    badge (a shape moving across, 1-2 s), 2 s at 24 fps."""
    engine.run("project.new", {})
    engine.run("comp.new", {"name": "Cut", "width": 64, "height": 36, "frameRate": RATE,
                            "duration": 2})
    engine.run("layer.add", {"comp": "Cut", "type": "video", "path": files["a"],
                             "name": "Shot"})
    engine.run("layer.add", {"comp": "Cut", "type": "solid", "name": "Plate",
                             "color": [0, 0, 0, 0.5], "width": 64, "height": 14})
    engine.run("layer.add", {"comp": "Cut", "type": "text", "name": "Title", "text": "Hi",
                             "size": 12})
    for name in ("Plate", "Title"):
        engine.run("layer.set", {"comp": "Cut", "layer": name, "inPoint": 0.5,
                                 "outPoint": 1.5})
    engine.run("layer.add", {"comp": "Cut", "type": "shape", "name": "Badge",
                             "shape": "ellipse", "size": [10, 10], "fill": "#ffcc00"})
    engine.run("layer.move", {"comp": "Cut", "layer": "Badge", "index": 4})
    engine.run("layer.set", {"comp": "Cut", "layer": "Badge", "inPoint": 1.0,
                             "outPoint": 2.0})
    engine.run("prop.addKey", {"comp": "Cut", "layer": "Badge", "path": "transform.position",
                               "time": 1.0, "value": [0, 18]})
    engine.run("prop.addKey", {"comp": "Cut", "layer": "Badge", "path": "transform.position",
                               "time": 2.0, "value": [64, 18]})


def test_graphics_layers_are_listed_in_warnings_without_render_graphics(session, tmp_path):
    titled_cut(session.engine, media(tmp_path))
    result = session.engine.run("timeline.export", {"comp": "Cut",
                                                    "path": str(tmp_path / "cut.otio")})
    assert result["graphics"] == []
    named = {name for name in ("Title", "Plate", "Badge")
             if any(f"layer {name!r}" in warning for warning in result["warnings"])}
    assert named == {"Title", "Plate", "Badge"}
    assert any("it is a text layer" in warning for warning in result["warnings"])
    assert result["clips"] == 2  # the shot's picture and its sound


def test_render_graphics_places_prores_4444_clips_that_match_the_comps_frames(session,
                                                                              tmp_path):
    engine = session.engine
    titled_cut(engine, media(tmp_path))
    path = tmp_path / "cut.otio"
    result = engine.run("timeline.export", {"comp": "Cut", "path": str(path),
                                            "renderGraphics": True})
    assert result["warnings"] == []
    assert len(result["graphics"]) == 2, "Title and Plate are one run, Badge another"
    assert all(file.startswith(str(tmp_path / "cut_graphics")) for file in result["graphics"])

    timeline = otio.adapters.read_from_file(str(path))
    placed = {clip.name: clip for clip in timeline.find_clips()
              if clip.media_reference.target_url.endswith(".mov")}
    assert set(placed) == {"Title + Plate", "Badge"}
    title = placed["Title + Plate"]
    assert title.range_in_parent().start_time.to_frames() == 12
    assert title.range_in_parent().duration.to_frames() == 24
    tracks = list(timeline.video_tracks())
    shot_track = next(i for i, t in enumerate(tracks) if any(c.name == "Shot" for c in t))
    title_track = next(i for i, t in enumerate(tracks) if title in list(t))
    assert title_track > shot_track, "the graphics sit above the shot"

    _, document = engine.snapshot()
    comp = document["comps"][0]
    alone = copy.deepcopy(document)
    for layer in alone["comps"][0]["layers"]:
        layer["enabled"] = layer["name"] in ("Title", "Plate")
    file = otio.url_utils.filepath_from_url(title.media_reference.target_url)
    frames, info = decode_video(file)
    assert len(frames) == 24 and (info["width"], info["height"]) == (64, 36)
    for index in (0, 11, 23):
        expected = render_frame(alone, comp["id"], (12 + index) / RATE,
                                transparent=True).pixels.astype(int)
        decoded = frames[index].astype(int)
        assert np.abs(decoded[..., 3] - expected[..., 3]).max() <= 2, "alpha kept"
        assert 0 < expected[..., 3].mean() < 255, "see-through around the plate"
        visible = expected[..., 3] > 128
        assert np.abs(decoded[..., :3] - expected[..., :3])[visible].mean() < 4, index


def test_graphics_inside_a_nested_precomp_are_rendered_into_its_nested_timeline(session,
                                                                                tmp_path):
    engine = session.engine
    files = media(tmp_path)
    engine.run("project.new", {})
    engine.run("comp.new", {"name": "Inner", "width": 64, "height": 36, "frameRate": RATE,
                            "duration": 1})
    engine.run("layer.add", {"comp": "Inner", "type": "video", "path": files["b"],
                             "name": "Plate"})
    engine.run("layer.add", {"comp": "Inner", "type": "text", "name": "Caption", "text": "x",
                             "size": 10, "inPoint": 0.25, "outPoint": 0.75})
    engine.run("comp.new", {"name": "Outer", "width": 64, "height": 36, "frameRate": RATE,
                            "duration": 1})
    engine.run("layer.add", {"comp": "Outer", "type": "precomp", "source": "Inner",
                             "name": "Nest"})
    path = tmp_path / "outer.otio"
    result = engine.run("timeline.export", {"comp": "Outer", "path": str(path),
                                            "renderGraphics": True})
    assert result["warnings"] == [] and len(result["graphics"]) == 1
    timeline = otio.adapters.read_from_file(str(path))
    [nest] = [item for item in timeline.video_tracks()[0] if isinstance(item, otio.schema.Stack)]
    nested = {clip.name: clip for clip in nest.find_clips()}
    assert set(nested) == {"Plate", "Caption"}
    caption = nested["Caption"]
    assert caption.range_in_parent().start_time.to_frames() == 6
    assert caption.range_in_parent().duration.to_frames() == 12
    frames, _ = decode_video(otio.url_utils.filepath_from_url(
        caption.media_reference.target_url))
    assert len(frames) == 12 and frames[6][..., 3].max() > 200


def test_a_cancelled_graphics_render_leaves_no_graphics_and_no_timeline(session, tmp_path):
    engine = session.engine
    titled_cut(engine, media(tmp_path))
    engine.run("comp.set", {"comp": "Cut", "duration": 20})
    engine.run("layer.set", {"comp": "Cut", "layer": "Badge", "outPoint": 20})
    engine.run("effect.add", {"comp": "Cut", "layer": "Badge", "effect": "gaussianBlur",
                              "params": {"radius": 12}})
    work = Work(report_progress=lambda progress, total, message: work.cancel.cancel("test"))
    with pytest.raises(Cancelled):
        engine.run("timeline.export", {"comp": "Cut", "path": str(tmp_path / "cut.otio"),
                                       "renderGraphics": True}, work)
    assert not (tmp_path / "cut.otio").exists()
    assert not (tmp_path / "cut_graphics").exists()
