"""Two independent Lottie players drawing a file's frame, as RGBA over a transparent canvas
(premultiplied, as both draw): ThorVG (thorvg-python) and rlottie (rlottie-python)."""

from __future__ import annotations

import numpy as np
import thorvg_python as tvg
from rlottie_python import LottieAnimation


def thorvg_frame(path: str, frame: float, width: int, height: int) -> np.ndarray:
    engine = tvg.Engine(threads=1)
    canvas = tvg.SwCanvas(engine)
    canvas.set_target(width, height, cs=tvg.Colorspace.ABGR8888)
    player = tvg.LottieAnimation(engine)
    picture = player.get_picture()
    with open(path, "rb") as handle:
        assert picture.load_data(handle.read(), "lottie", None, True) == tvg.Result.SUCCESS
    picture.set_size(width, height)
    canvas.add(picture)
    player.set_frame(frame)
    canvas.update()
    canvas.draw(True)
    canvas.sync()
    return np.frombuffer(canvas.buffer_arr, np.uint8).reshape(height, width, 4).copy()


def rlottie_frame(path: str, frame: int, width: int, height: int) -> np.ndarray:
    player = LottieAnimation.from_file(path)
    buffer = player.lottie_animation_render(frame_num=frame, width=width, height=height)
    return np.frombuffer(buffer, np.uint8).reshape(height, width, 4)[..., [2, 1, 0, 3]].copy()


PLAYERS = {"thorvg": thorvg_frame, "rlottie": rlottie_frame}
