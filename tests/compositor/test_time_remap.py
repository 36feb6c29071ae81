"""timeRemap, speed and loop on precomp and video layers, read back from the pixels: the inner
comp's dot moves 50 px a second, so where it is drawn says which source time is shown; the
video's frames carry their index as a color. And markers, whose names stand for key times."""

import numpy as np
import pytest

from supervisor.errors import CommandError
from tests.helpers.engine_projects import engine_with_comp
from tests.compositor.test_compositor_footage import FPS, clip, frame_color  # noqa: F401 (a fixture)
from workers.compositor import FootageCache, render_frame


def with_precomp(**content):
    """Main (200x20) showing Inner (2 s, 200x20): a 10 px dot from x = 0 to x = 100, 50 px/s."""
    engine = engine_with_comp(width=200, height=20, duration=6)
    engine.run("comp.new", {"name": "Inner", "width": 200, "height": 20, "duration": 2})
    engine.run("layer.add", {"comp": "Inner", "type": "solid", "name": "Dot", "color": "#ffffff",
                             "width": 10, "height": 10, "anchor": [0, 0]})
    for time, x in ((0, 0), (2, 100)):
        engine.run("prop.addKey", {"comp": "Inner", "layer": "Dot", "path": "transform.position",
                                   "time": time, "value": [x, 5]})
    engine.run("layer.add", {"comp": "Main", "type": "precomp", "name": "Shown",
                             "source": "Inner", **content})
    return engine


def source_shown(engine, time):
    """The inner comp's time the frame shows (from the dot's left edge), None if no dot."""
    row = render_frame(engine.doc, "Main", time).pixels[10, :, 0].astype(float) / 255
    if row.sum() < 1:
        return None
    left = np.flatnonzero(row > 0)[0]
    return (left + 1 - row[left]) / 50.0  # the partly covered pixel's share, then px to s


def remap(engine, *keys, interpolation="linear"):
    for time, value in keys:
        engine.run("prop.addKey", {"comp": "Main", "layer": "Shown", "path": "timeRemap",
                                   "time": time, "value": value,
                                   "interpolation": interpolation})


def test_a_precomp_plays_its_own_time_without_remapping():
    engine = with_precomp()
    assert source_shown(engine, 0.5) == pytest.approx(0.5, abs=0.01)
    assert source_shown(engine, 2.5) is None  # past its 2 s, nothing is there


def test_time_remap_keys_hold_a_frame():
    engine = with_precomp()
    remap(engine, (0, 1.2), (4, 1.2))
    for time in (0, 0.5, 3.9, 5):
        assert source_shown(engine, time) == pytest.approx(1.2, abs=0.01)


def test_time_remap_slows_a_precomp():
    engine = with_precomp()
    remap(engine, (0, 0), (4, 2))  # 2 s of source over 4 s of comp: half speed
    for time in (1, 2, 3):
        assert source_shown(engine, time) == pytest.approx(time / 2, abs=0.01)


def test_time_remap_reverses_a_precomp():
    engine = with_precomp()
    remap(engine, (0, 2), (2, 0))
    for time in (0.25, 1, 1.75):
        assert source_shown(engine, time) == pytest.approx(2 - time, abs=0.01)


def test_speed_scales_the_layers_own_time_and_negative_speed_plays_backwards():
    engine = with_precomp(speed=200, startTime=1)
    assert source_shown(engine, 1.5) == pytest.approx(1.0, abs=0.01)
    # startTime slides the layer; its in and out points, given too, stay where they were.
    engine.run("layer.set", {"comp": "Main", "layer": "Shown", "speed": -50, "startTime": 4,
                             "inPoint": 0, "outPoint": 6})
    assert source_shown(engine, 2) == pytest.approx(1.0, abs=0.01)


def test_loop_repeats_the_precomp_from_its_start():
    engine = with_precomp(loop=True)
    for time, expected in ((0.5, 0.5), (2.5, 0.5), (5.25, 1.25)):
        assert source_shown(engine, time) == pytest.approx(expected, abs=0.01)
    remap(engine, (0, 0), (6, 6))  # a remap past the end loops too
    assert source_shown(engine, 4.75) == pytest.approx(0.75, abs=0.01)


def test_time_remap_and_loop_on_a_video_layer(clip):  # noqa: F811 (the fixture)
    engine = engine_with_comp(width=64, height=48, duration=6)
    engine.run("layer.add", {"comp": "Main", "type": "video", "name": "Clip", "path": clip,
                             "outPoint": 6})
    cache = FootageCache()

    def shown_frame(time):
        color = render_frame(engine.doc, "Main", time, footage=cache).pixels[24, 32, :3]
        return next(i for i in range(40)
                    if np.abs(color.astype(int) - frame_color(i)).max() <= 2)

    engine.run("prop.addKey", {"comp": "Main", "layer": "Clip", "path": "timeRemap",
                               "time": 0, "value": 1.0, "interpolation": "hold"})
    assert shown_frame(0.0) == shown_frame(2.0) == 30
    engine.run("prop.set", {"comp": "Main", "layer": "Clip", "path": "timeRemap", "value": None})
    engine.run("layer.set", {"comp": "Main", "layer": "Clip", "loop": True})
    assert shown_frame(40 / FPS + 5 / FPS) == 5  # the 40-frame clip starts over
    cache.close()


def test_time_settings_belong_to_precomps_and_videos_and_are_checked():
    engine = with_precomp()
    with pytest.raises(CommandError, match="a solid layer does not take 'loop'"):
        engine.run("layer.add", {"comp": "Main", "type": "solid", "color": "#000000",
                                 "loop": True})
    with pytest.raises(CommandError, match="speed cannot be animated"):
        engine.run("prop.addKey", {"comp": "Main", "layer": "Shown", "path": "speed",
                                   "time": 0, "value": 50})
    stored = engine.run("layer.get", {"comp": "Main", "layer": "Shown"})["content"]
    assert (stored["timeRemap"], stored["speed"], stored["loop"]) == (None, 100, False)


def test_a_key_time_given_as_a_marker_resolves_to_the_markers_time():
    engine = with_precomp()
    engine.run("marker.add", {"comp": "Main", "time": 1.5, "name": "hit"})
    engine.run("marker.add", {"comp": "Main", "layer": "Shown", "time": 2.5, "name": "hit",
                              "duration": 0.5})
    engine.run("marker.add", {"comp": "Main", "time": 4, "name": "end"})
    engine.run("prop.addKey", {"comp": "Main", "layer": "Shown", "path": "transform.opacity",
                               "time": "marker:hit", "value": 0})  # the layer's own first
    engine.run("prop.addKey", {"comp": "Main", "layer": "Shown", "path": "transform.opacity",
                               "time": "marker:end", "value": 100})
    keys = engine.run("prop.get", {"comp": "Main", "layer": "Shown",
                                   "path": "transform.opacity", "time": "marker:end"})
    assert [k["time"] for k in keys["keys"]] == [2.5, 4] and keys["value"] == 100
    engine.run("prop.removeKey", {"comp": "Main", "layer": "Shown", "path": "transform.opacity",
                                  "time": "marker:hit"})
    with pytest.raises(CommandError, match="has no marker named 'nope'; the markers are 'hit'"):
        engine.run("prop.addKey", {"comp": "Main", "layer": "Shown",
                                   "path": "transform.opacity", "time": "marker:nope",
                                   "value": 1})


def test_markers_are_listed_in_time_order_unique_by_name_and_removed():
    engine = with_precomp()
    engine.run("marker.add", {"comp": "Main", "time": 3, "name": "b"})
    engine.run("marker.add", {"comp": "Main", "layer": "Shown", "time": 1, "name": "a"})
    listed = engine.run("marker.list", {"comp": "Main"})["markers"]
    assert [(m["name"], m["layer"]) for m in listed] == [
        ("a", engine.doc["comps"][0]["layers"][0]["id"]), ("b", None)]
    with pytest.raises(CommandError, match="already has a marker named 'b'"):
        engine.run("marker.add", {"comp": "Main", "time": 5, "name": "b"})
    with pytest.raises(CommandError, match="duration"):
        engine.run("marker.add", {"comp": "Main", "time": 5, "name": "c", "duration": -1})
    engine.run("marker.remove", {"comp": "Main", "marker": "b"})
    engine.run("comp.duplicate", {"comp": "Main", "name": "Again"})
    ids = [m["id"] for c in engine.doc["comps"] for holder in [c, *c["layers"]]
           for m in holder["markers"]]
    assert len(ids) == len(set(ids)) == 2
    assert engine.run("marker.list", {"comp": "Main", "layer": "Shown"})["markers"][0]["name"] \
        == "a"
