"""Deep comps through real render workers: a float comp blending in linear light written as
EXR, 16-bit PNG and TIFF and 10-bit HEVC, each decoded (EXR by the OpenEXR library, the rest by
PyAV) and compared with the still renderer's float frame."""

import av
import numpy as np
import OpenEXR
import pytest

from tests.helpers.render_sessions import build_comp, render_session
from tests.render.test_render_formats import render_one
from workers.compositor import render_frame
from workers.exporter.deep_pixels import as_16_bits, as_linear

FRAMES = 12


@pytest.fixture(scope="module")
def session():
    with render_session(workers=2) as made:
        build_comp(made.engine, "Deep", frames=FRAMES)
        made.engine.run("comp.set", {"comp": "Deep", "bitDepth": "float",
                                     "linearBlending": True})
        yield made


def expected(session, number: int) -> np.ndarray:
    _snapshot_id, document = session.engine.snapshot()
    comp = next(c for c in document["comps"] if c["name"] == "Deep")
    frame = render_frame(document, comp["id"], number / comp["frameRate"]).pixels
    assert frame.dtype == np.float32
    return frame


def read_exr(path) -> np.ndarray:
    with OpenEXR.File(str(path)) as image:
        return image.channels()["RGBA"].pixels


@pytest.mark.parametrize("kind,dtype", [("half", np.float16), ("float", np.float32)])
def test_exr_holds_the_frame_in_linear_light_exactly(session, tmp_path, kind, dtype):
    render_one(session, {"comp": "Deep", "format": "exr", "output": str(tmp_path / "f_[#].exr"),
                         "codecOptions": {"format": kind}})
    for number in (0, 7):
        written = read_exr(tmp_path / f"f_{number}.exr")
        assert written.dtype == dtype
        assert np.array_equal(written, as_linear(expected(session, number)).astype(dtype))


@pytest.mark.parametrize("fmt,ext", [("png", "png"), ("tiff", "tif")])
def test_sixteen_bit_images_hold_the_frame_to_the_code(session, tmp_path, fmt, ext):
    render_one(session, {"comp": "Deep", "format": fmt,
                         "output": str(tmp_path / f"f_[#].{ext}")})
    with av.open(str(tmp_path / f"f_5.{ext}")) as image:
        frame = next(image.decode(video=0))
        assert frame.format.name in ("rgba64be", "rgba64le")
        written = frame.to_ndarray(format="rgba64le")
    assert np.array_equal(written, as_16_bits(expected(session, 5)))


def test_ten_bit_hevc_is_within_a_code_of_the_frame(session, tmp_path):
    # Lossless, so what is measured is the path to 10 bits, not the encoder's loss.
    render_one(session, {"comp": "Deep", "format": "hevc", "output": str(tmp_path / "d.mp4"),
                         "codecOptions": {"pix_fmt": "yuv444p10le",
                                          "x265-params": "lossless=1"}})
    with av.open(str(tmp_path / "d.mp4")) as video:
        stream = video.streams.video[0]
        assert stream.codec_context.profile in ("Main 4:4:4 10", "Rext")
        decoded = [frame for frame in video.decode(stream)]
    assert len(decoded) == FRAMES
    for number in (0, 9):
        source = av.VideoFrame.from_ndarray(as_16_bits(expected(session, number)),
                                            format="rgba64le")
        reference = source.reformat(format="yuv444p10le", dst_colorspace="itu709")
        for plane, got in zip(reference.planes, decoded[number].planes):
            want = np.frombuffer(plane, np.uint16).reshape(plane.height, -1)
            have = np.frombuffer(got, np.uint16).reshape(got.height, -1)
            assert np.abs(want.astype(int) - have.astype(int)).max() <= 1
