"""comp.saveFrameAs now, render.preRender and file.createProxy, through real render workers."""

import numpy as np
import pytest

from supervisor.errors import CommandError
from tests.helpers.render_sessions import (build_comp, expected_frame, files_in, read_png,
                                           render_session)


@pytest.fixture
def session(tmp_path):
    with render_session(workers=2) as made:
        engine = made.engine
        build_comp(engine, "Inner", frames=12, transparent=True)
        engine.run("comp.new", {"name": "Outer", "width": 64, "height": 36, "frameRate": 24,
                                "duration": 0.5, "background": [0.3, 0.1, 0.1, 1]})
        engine.run("layer.add", {"comp": "Outer", "type": "precomp", "source": "Inner"})
        engine.run("project.save", {"path": str(tmp_path / "p.rvproj")})
        yield made


def test_save_frame_as_writes_the_still_now(session, tmp_path):
    engine = session.engine
    result = engine.run("comp.saveFrameAs", {"comp": "Outer", "time": 0.25})
    assert result["path"] == str(tmp_path / "Outer_00006.png") and result["frame"] == 6
    named = engine.run("comp.saveFrameAs", {"comp": "Inner", "time": 0.4,
                                            "path": "stills/inner.png"})
    assert named["path"] == str(tmp_path / "stills" / "inner.png")
    assert files_in(tmp_path) == {"p.rvproj", "Outer_00006.png", "stills/inner.png"}
    assert np.array_equal(read_png(result["path"]), expected_frame(engine, "Outer", 6))
    assert np.array_equal(read_png(named["path"]), expected_frame(engine, "Inner", 9))
    assert engine.doc["renderQueue"] == []
    with pytest.raises(CommandError, match="outside comp 'Outer'"):
        engine.run("comp.saveFrameAs", {"comp": "Outer", "time": 3})


def test_pre_render_replaces_the_precomp_with_identical_footage_in_one_undo_step(session,
                                                                                 tmp_path):
    engine = session.engine
    before = [expected_frame(engine, "Outer", number) for number in range(12)]
    result = engine.run("render.preRender", {"comp": "Inner"})
    assert result["output"] == str(tmp_path / "Inner_prerender_[#####].png")
    assert len([name for name in files_in(tmp_path) if name.startswith("Inner_prerender")]) == 12
    outer = next(c for c in engine.doc["comps"] if c["name"] == "Outer")
    layer = outer["layers"][0]
    assert layer["type"] == "video" and layer["content"] == {
        "footage": result["footage"], "timeRemap": None, "speed": 100, "loop": False}
    assert result["replacedLayers"] == [layer["id"]]
    for number in (0, 5, 11):
        after = expected_frame(engine, "Outer", number)
        assert np.abs(after.astype(int) - before[number].astype(int)).max() <= 2
    assert engine.history()["undo"][0] == "render.preRender"
    engine.run("edit.undo", {})
    outer = next(c for c in engine.doc["comps"] if c["name"] == "Outer")
    assert outer["layers"][0]["type"] == "precomp" and engine.doc["footage"] == []


def test_create_proxy_sets_a_half_resolution_render_as_the_comps_proxy(session, tmp_path):
    engine = session.engine
    result = engine.run("file.createProxy", {"comp": "Outer"})
    assert (result["width"], result["height"]) == (32, 18)
    outer = next(c for c in engine.doc["comps"] if c["name"] == "Outer")
    assert outer["proxy"] == result["footage"]
    proxy = read_png(str(tmp_path / "Outer_proxy_00004.png"))
    full = expected_frame(engine, "Outer", 4).astype(int)
    half = full.reshape(18, 2, 32, 2, 4).mean(axis=(1, 3))
    assert proxy.shape == (18, 32, 4)
    assert np.abs(proxy.astype(int) - half).mean() < 12
    engine.run("edit.undo", {})
    assert next(c for c in engine.doc["comps"] if c["name"] == "Outer")["proxy"] is None


def test_pre_render_is_refused_while_a_render_runs(session, tmp_path):
    engine = session.engine
    build_comp(engine, "Long", 480, 270, 24, 96)
    engine.run("effect.add", {"comp": "Long", "layer": "Mover", "effect": "gaussianBlur",
                              "params": {"radius": 30}})
    engine.run("renderQueue.add", {"comp": "Long", "output": str(tmp_path / "l_[##].png")})
    engine.run("renderQueue.render", {"wait": False})
    try:
        with pytest.raises(CommandError, match="already running"):
            engine.run("render.preRender", {"comp": "Inner"})
        still = engine.run("comp.saveFrameAs", {"comp": "Inner", "path": "s.png"})
        assert still["path"] == str(tmp_path / "s.png")  # a still does not wait on the queue
    finally:
        engine.run("renderQueue.stop", {})


def test_pre_render_to_a_video_format_imports_a_video(session, tmp_path):
    engine = session.engine
    result = engine.run("render.preRender", {"comp": "Inner", "format": "prores"})
    assert result["output"] == str(tmp_path / "Inner_prerender.mov")
    footage = next(f for f in engine.doc["footage"] if f["id"] == result["footage"])
    assert footage["kind"] == "video" and footage["frameCount"] == 12
    assert (footage["width"], footage["height"]) == (64, 36)
