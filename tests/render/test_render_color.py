"""A colour-managed project and a graded layer through real render workers: EXR keeps the
working space's values, a 16-bit PNG shows the item's display and view, and a LUT file that
is not one fails its item with the sentence naming its line."""

import av
import numpy as np
import OpenEXR
import pytest

from tests.helpers.cube_luts import cube_table, write_cube
from tests.helpers.render_sessions import build_comp, render_session
from tests.render.test_render_formats import render_one
from workers.compositor import render_frame
from workers.compositor.color_management import SCENE_LINEAR, View
from workers.exporter.deep_pixels import as_16_bits

FRAMES = 4
VIEW = View("Rec.1886 Rec.709 - Display", "Un-tone-mapped")


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    with render_session(workers=2) as made:
        build_comp(made.engine, "Managed", frames=FRAMES)
        made.engine.run("comp.set", {"comp": "Managed", "bitDepth": "float"})
        cube = write_cube(tmp_path_factory.mktemp("luts") / "look.cube", cube_table(5))
        made.engine.run("effect.add", {"comp": "Managed", "layer": "Turner", "effect": "lut",
                                       "params": {"path": cube, "amount": 80}})
        made.engine.run("effect.add", {"comp": "Managed", "layer": "Mover", "effect": "grade",
                                       "params": {"exposure": 1, "saturation": 50}})
        made.engine.run("project.set", {"colorManagement": {"config": "cg-config",
                                                            "workingSpace": "ACEScg"}})
        yield made


def expected(session, number: int, view: View) -> np.ndarray:
    _snapshot_id, document = session.engine.snapshot()
    comp = next(c for c in document["comps"] if c["name"] == "Managed")
    return render_frame(document, comp["id"], number / comp["frameRate"], view=view).pixels


def test_exr_of_a_managed_project_holds_the_working_spaces_light(session, tmp_path):
    render_one(session, {"comp": "Managed", "format": "exr",
                         "output": str(tmp_path / "f_[#].exr"),
                         "codecOptions": {"format": "float"}})
    with OpenEXR.File(str(tmp_path / "f_2.exr")) as image:
        written = image.channels()["RGBA"].pixels
    assert np.array_equal(written, expected(session, 2, SCENE_LINEAR))


def test_a_png_shows_the_items_display_and_view(session, tmp_path):
    render_one(session, {"comp": "Managed", "format": "png",
                         "output": str(tmp_path / "f_[#].png"), "display": VIEW.display,
                         "view": VIEW.view})
    with av.open(str(tmp_path / "f_3.png")) as image:
        written = next(image.decode(video=0)).to_ndarray(format="rgba64le")
    assert np.array_equal(written, as_16_bits(expected(session, 3, VIEW)))
    # and not the scene-linear values, nor the default (tone-mapped) view
    assert not np.array_equal(written, as_16_bits(expected(session, 3, View())))


def test_a_bad_lut_fails_its_item_with_the_line_it_stopped_at(session, tmp_path):
    engine = session.engine
    bad = tmp_path / "bad.cube"
    write_cube(bad, cube_table(2))
    engine.run("effect.set", {"comp": "Managed", "layer": "Turner", "effect": "lut",
                              "params": {"path": str(bad)}})
    # Spoiled after it was set (refused when set, see the engine's tests): the render reads it.
    bad.write_text("LUT_3D_SIZE 2\n0 0 0\n1 0 0\n0 one 0\n")
    queued = list(engine.doc["renderQueue"])
    try:
        for item in queued:
            engine.run("renderQueue.remove", {"item": item["id"]})
        engine.run("renderQueue.add", {"comp": "Managed", "format": "png",
                                       "output": str(tmp_path / "b_[#].png")})
        report = engine.run("renderQueue.render", {})
    finally:  # the LUT, the queue as they were, for the module's other tests
        engine.run("edit.undo", {"steps": 2 + len(queued)})
    assert report["failed"] == 1
    assert f"the LUT file {bad} cannot be read at line 4: '0 one 0' are not all numbers" in \
        report["items"][0]["error"]
    assert not list(tmp_path.glob("b_*.png"))


MASTERING = ("master-display=G(13250,34500)B(7500,3000)R(34000,16000)WP(15635,16450)"
             "L(10000000,1):max-cll=1000,400")


def test_hdr10_hevc_carries_bt2020_pq_tags_and_its_mastering_metadata(session, tmp_path):
    render_one(session, {"comp": "Managed", "format": "hevc",
                         "output": str(tmp_path / "hdr.mp4"), "colorTags": "bt2020-pq",
                         "codecOptions": {"pix_fmt": "yuv444p10le",
                                          "x265-params": f"lossless=1:{MASTERING}"}})
    with av.open(str(tmp_path / "hdr.mp4")) as video:
        stream = video.streams.video[0]
        context = stream.codec_context
        assert (context.color_primaries, context.color_trc, context.colorspace) == (9, 16, 9)
        frames = list(video.decode(stream))
    first = frames[0]
    assert (first.color_primaries, first.color_trc, first.colorspace) == (9, 16, 9)
    assert first.format.name == "yuv444p10le"
    kinds = {str(data.type) for data in first.side_data}
    assert any("MASTERING_DISPLAY" in kind for kind in kinds), kinds
    assert any("CONTENT_LIGHT_LEVEL" in kind for kind in kinds), kinds
    # The pictures are the PQ display's, converted with the BT.2020 matrix.
    pq = expected(session, 1, View("Rec.2100-PQ - Display", None))
    source = av.VideoFrame.from_ndarray(as_16_bits(pq), format="rgba64le")
    reference = source.reformat(format="yuv444p10le", dst_colorspace="bt2020")
    for plane, got in zip(reference.planes, frames[1].planes):
        want = np.frombuffer(plane, np.uint16).reshape(plane.height, -1)
        have = np.frombuffer(got, np.uint16).reshape(got.height, -1)
        assert np.abs(want.astype(int) - have.astype(int)).max() <= 1
