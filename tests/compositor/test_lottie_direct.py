"""A lottie layer shown at 100% on whole pixels is drawn by ThorVG straight into the frame's
pixels (workers/compositor/frame_pixels.py): what it draws there must be what Skia drawing
ThorVG's raster would give, and wherever that shortcut would be wrong (a mask, a precomp's
clip, a deep comp) the layer must still be drawn as it is shown."""

import json

import numpy as np
import thorvg_python as tvg

from tests.helpers.engine_projects import engine_with_comp
from tests.helpers.lottie_documents import animation, shape_layer
from workers.compositor import render_frame

WIDTH, HEIGHT = 120, 90  # the animation's size; the comps are larger
BACKGROUND = (0, 0, 255)


def half_red_square() -> dict:
    """A 40 px square of red at 50% in the middle of the animation, still."""
    document = animation([shape_layer(1, "rc", (40, 40), (1, 0, 0), (60, 45), (60, 45))],
                         width=WIDTH, height=HEIGHT)
    document["layers"][0]["shapes"][0]["it"][1]["o"]["k"] = 50
    return document


def thorvg_premultiplied(path: str, width=WIDTH, height=HEIGHT) -> np.ndarray:
    """ThorVG's own raster of frame 0 at `width` x `height`, RGBA premultiplied, as floats."""
    engine = tvg.Engine(threads=1)
    canvas = tvg.SwCanvas(engine)
    canvas.set_target(width, height, cs=tvg.Colorspace.ABGR8888)
    player = tvg.LottieAnimation(engine)
    picture = player.get_picture()
    picture.load(path)
    picture.set_size(width, height)
    canvas.add(picture)
    player.set_frame(0.0)
    canvas.update()
    canvas.draw(True)
    canvas.sync()
    return np.frombuffer(canvas.buffer_arr, np.uint8).reshape(height, width, 4).astype(float)


def comp_with_the_square(tmp_path, left: int, top: int, scale=100, **comp):
    path = tmp_path / "square.json"
    path.write_text(json.dumps(half_red_square()))
    engine = engine_with_comp(width=200, height=150, background=[c / 255 for c in BACKGROUND],
                              **comp)
    engine.run("layer.add", {"comp": "Main", "type": "lottie", "name": "Square",
                             "path": str(path),
                             "position": [left + WIDTH * scale / 200, top + HEIGHT * scale / 200],
                             "scale": [scale, scale]})
    return engine, str(path)


def expected(path: str, left: int, top: int, width=WIDTH, height=HEIGHT) -> np.ndarray:
    """ThorVG's raster of `width` x `height` put source-over onto the background at
    (left, top)."""
    frame = np.empty((150, 200, 3))
    frame[:] = BACKGROUND
    raster = thorvg_premultiplied(path, width, height)
    box = frame[top:top + height, left:left + width]
    box[:] = raster[..., :3] + box * (1 - raster[..., 3:] / 255)
    return frame


def test_a_layer_at_100_percent_is_blended_over_what_is_under_it(tmp_path):
    engine, path = comp_with_the_square(tmp_path, 13, 7)
    ours = render_frame(engine.doc, "Main", 0.0).pixels[..., :3].astype(float)
    theirs = expected(path, 13, 7)
    assert np.abs(ours - theirs).max() <= 1
    assert np.abs(ours[52, 73] - (128, 0, 128)).max() <= 1  # half red over blue


def test_a_scaled_layer_on_whole_pixels_is_drawn_as_thorvg_draws_it_at_that_size(tmp_path):
    # 120 x 90 at 80% is 96 x 72, which single-precision matrices make 96.0000014 wide.
    engine, path = comp_with_the_square(tmp_path, 21, 12, scale=80)
    ours = render_frame(engine.doc, "Main", 0.0).pixels[..., :3].astype(float)
    assert np.abs(ours - expected(path, 21, 12, 96, 72)).max() <= 1


def test_a_layer_partly_off_the_frame_draws_its_visible_part(tmp_path):
    engine, path = comp_with_the_square(tmp_path, -50, 100)
    ours = render_frame(engine.doc, "Main", 0.0).pixels[..., :3].astype(float)
    full = np.empty((150 + 200, 200 + 100, 3))  # room for the whole box
    full[:] = BACKGROUND
    raster = thorvg_premultiplied(path)
    box = full[100:100 + HEIGHT, 0:WIDTH]
    box[:] = raster[..., :3] + box * (1 - raster[..., 3:] / 255)
    assert np.abs(ours - full[:150, 50:250]).max() <= 1
    assert np.abs(ours[135:150, 0:20] - (128, 0, 128)).max() <= 1  # the square's visible part


def test_a_masked_layer_draws_only_inside_its_mask(tmp_path):
    engine, path = comp_with_the_square(tmp_path, 40, 30)
    engine.run("mask.add", {"comp": "Main", "layer": "Square", "shape": "rect",
                            "size": [30, 90], "position": [15, 45], "mode": "add"})
    ours = render_frame(engine.doc, "Main", 0.0).pixels[..., :3].astype(float)
    theirs = expected(path, 40, 30)
    assert np.abs(ours[:, :70] - theirs[:, :70]).max() <= 1  # the mask's side of x = 70
    assert (ours[:, 71:] == BACKGROUND).all()  # nothing beyond it, the square's right part too


def test_a_layer_in_a_smaller_precomp_is_clipped_to_the_precomps_frame(tmp_path):
    engine, path = comp_with_the_square(tmp_path, 0, 0)
    engine.run("comp.new", {"name": "Outer", "width": 200, "height": 150,
                            "background": [0, 1, 0]})
    engine.run("comp.new", {"name": "Narrow", "width": 70, "height": 150})
    engine.run("layer.add", {"comp": "Narrow", "type": "lottie", "name": "Square",
                             "path": path, "position": [WIDTH / 2, HEIGHT / 2]})
    engine.run("layer.add", {"comp": "Outer", "type": "precomp", "source": "Narrow",
                             "position": [35, 75]})
    ours = render_frame(engine.doc, "Outer", 0.0).pixels[..., :3]
    assert (ours[33:57, 48:70, 0] >= 127).all()  # the square's left part, in the precomp
    assert (ours[:, 70:] == (0, 255, 0)).all()  # its right part is past the precomp's edge


def test_a_deep_comp_draws_the_layer_as_an_8_bit_one_does(tmp_path):
    engine, path = comp_with_the_square(tmp_path, 13, 7, bitDepth=16)
    pixels = render_frame(engine.doc, "Main", 0.0).pixels[..., :3]
    ours = pixels.astype(float) * (255 if pixels.dtype.kind == "f" else 255 / 65535)
    assert np.abs(ours - expected(path, 13, 7)).max() <= 1


def test_what_does_not_move_is_drawn_in_every_frame(tmp_path):
    # ThorVG's default engine redraws only what changed since its last drawing, clearing
    # that region first, as if the buffer held nothing but its own drawing; the frame holds
    # the layers under it too.
    still_and_moving = animation([
        shape_layer(1, "rc", (20, 20), (1, 0, 0), (20, 45), (20, 45)),
        shape_layer(2, "rc", (20, 20), (0, 1, 0), (60, 45), (100, 45))],
        width=WIDTH, height=HEIGHT)
    path = tmp_path / "two.json"
    path.write_text(json.dumps(still_and_moving))
    engine = engine_with_comp(width=200, height=150, background=[0, 0, 1])
    engine.run("layer.add", {"comp": "Main", "type": "lottie", "path": str(path),
                             "position": [100, 75]})
    out = np.empty((150, 200, 4), np.uint8)
    for time in (0.0, 0.5, 0.5, 1.0, 0.0):
        pixels = render_frame(engine.doc, "Main", time, out=out).pixels
        assert tuple(pixels[75, 60]) == (255, 0, 0, 255), time  # the still red square
        if time == 0.5:  # where the green square was at 0: the background again
            assert tuple(pixels[75, 95]) == (0, 0, 255, 255), time
