"""Lottie layers: a Lottie animation (footage of kind "lottie") played by ThorVG and drawn in
the layer's content box [0, 0, width, height].

Time: the layer's source time (protocol/model/time_remap.py: its own time, speed, timeRemap, loop)
is mapped to the animation's own frames as footage is, `floor(s * frameRate)` counted from its
first frame (ThorVG's frame 0 is the file's `ip`), clamped to its frames unless it loops.

Scale: ThorVG rasterises the vectors at the size the layer is shown (raster_size.py), and that
raster is drawn back into the box, so an enlarged animation stays sharp and a shrunk one costs
less. Shown at 100% on whole pixels, fully opaque, blended normally onto the frame, ThorVG draws
straight into the frame's pixels instead (frame_pixels.py), which costs nothing beyond its own
drawing. ThorVG is given the animation's bytes made self-contained
(protocol/model/lottie_files.py), never a path: it would open any file an image asset names;
a file whose After Effects expressions all evaluate is given them evaluated into keys
(workers/expressions/lottie_bake.py, once per file and worker process), so it plays as
lottie-web plays it.

One ThorVG engine per worker process, on one thread (the workers are the parallelism), and
one player per lottie layer kept, by file, modification stamp and layer (its animation and its
raster, so a frame costs ThorVG's drawing and at most one blend of the raster, no parse and no
copy); a file ThorVG cannot load is reported missing by path and draws nothing (colour bars in
a render allowed to go on without it: placeholders.py).
"""

from __future__ import annotations

import ctypes
import math
from collections import OrderedDict

import numpy as np
import skia
import thorvg_python as tvg

from protocol.model.limits import MAX_VECTOR_FOOTAGE_BYTES
from protocol.model.lottie_files import (LottieError, expression_count, read_animation,
                                         self_contained)
from protocol.model.time_remap import source_time
from workers.compositor.context import RenderContext
from workers.compositor.footage import file_stamp
from workers.compositor.frame_pixels import FramePixels, frame_pixels
from workers.compositor.placeholders import draw_placeholder
from workers.compositor.raster_size import draw_raster, shown_size
from workers.expressions.lottie_bake import bake

# Players kept per worker, one per lottie layer, each holding its raster (8 MiB at 1080p): a
# comp rarely shows more than a few animations.
MAX_KEPT_PLAYERS = 16
# Files kept made self-contained, ready for a new player: as many as players.
MAX_KEPT_SOURCES = MAX_KEPT_PLAYERS

_engine: list = []
_players: OrderedDict = OrderedDict()  # (path, layer id) -> Player
_sources: OrderedDict = OrderedDict()  # path -> (stamp, self-contained bytes, frame rate)


class Player:
    """One animation loaded into ThorVG for one layer, drawing either into a raster of its own
    (kept, and handed out as an image wrapping it, no copy) or straight into the frame's pixels
    (frame_pixels.py).

    An image handed out is drawn into the frame at once (no drawing here is deferred), before
    this player draws its next frame into the same buffer; a second layer showing the same file
    has a player of its own."""

    def __init__(self, stamp, data: bytes, frame_rate: float):
        if not _engine:
            _engine.append(tvg.Engine(threads=1))
        self.stamp = stamp
        self.frame_rate = frame_rate
        # Without smart rendering: by default ThorVG clears and redraws only what changed since
        # its last drawing, as if the buffer held nothing else; the frame's pixels hold the
        # layers under this one, drawn afresh each frame.
        self.canvas = tvg.SwCanvas(_engine[0], tvg.EngineOption.NONE)
        self.animation = tvg.LottieAnimation(_engine[0])
        self.picture = self.animation.get_picture()
        if self.picture.load_data(data, "lottie", None, True) != tvg.Result.SUCCESS:
            raise LottieError("an animation ThorVG can load")
        self.frames = self.animation.get_total_frame()[1]
        self.target: tuple | None = None  # what ThorVG draws into now
        self.size: tuple[int, int] | None = None  # the size the picture is drawn at
        self.at = (0, 0)  # where in the target
        self.pixels: np.ndarray | None = None  # the raster of its own
        self.frame: float | None = None  # the frame the raster holds
        self.image: skia.Image | None = None

    def image_at(self, frame: float, width: int, height: int) -> skia.Image:
        """The animation's `frame` as a `width` x `height` raster."""
        if self.pixels is None or self.pixels.shape[:2] != (height, width):
            self.pixels = np.empty((height, width, 4), np.uint8)
            self.frame = None
        if frame != self.frame:
            # ABGR8888 is R, G, B, A in memory, premultiplied: Skia's RGBA premul.
            self._draw(frame, (self.pixels.ctypes.data, width, width, height, _ORDERS["rgba"]),
                       (0, 0), (width, height), clear=True)
            self.image = skia.Image.fromarray(self.pixels, colorType=skia.kRGBA_8888_ColorType,
                                              alphaType=skia.kPremul_AlphaType, copy=False)
            self.frame = frame
        return self.image

    def draw_into(self, frame: float, pixels: FramePixels, size: tuple[int, int]) -> None:
        """The animation's `frame`, drawn at `size` over the frame's `pixels`."""
        self._draw(frame, (pixels.address, pixels.stride, pixels.width, pixels.height,
                           _ORDERS[pixels.order]), (pixels.x, pixels.y), size, clear=False)

    def _draw(self, frame: float, target: tuple, at: tuple[int, int], size: tuple[int, int],
              clear: bool) -> None:
        if target != self.target:
            _set_target(self.canvas, *target)
            self.target = target
        if size != self.size:
            self.picture.set_size(*size)
            if self.size is None:
                self.canvas.add(self.picture)
            self.size = size
        if at != self.at:  # moving the picture makes ThorVG prepare all of it again
            self.picture.translate(*at)
            self.at = at
        self.animation.set_frame(frame)
        self.canvas.update()
        self.canvas.draw(clear)
        self.canvas.sync()
        self.frame = None  # the raster of its own, if any, holds no frame now


# ThorVG's colour spaces by byte order in memory, both premultiplied.
_ORDERS = {"rgba": tvg.Colorspace.ABGR8888, "bgra": tvg.Colorspace.ARGB8888}


def _set_target(canvas: tvg.SwCanvas, address: int, stride: int, width: int, height: int,
                colorspace: tvg.Colorspace) -> None:
    """Point ThorVG's canvas at memory it does not own (thorvg-python's set_target only
    allocates a buffer of its own)."""
    call = _engine[0].thorvg_lib["tvg_swcanvas_set_target"]  # a function object of our own
    call.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint32, ctypes.c_uint32,
                     ctypes.c_uint32, ctypes.c_uint8]
    call.restype = ctypes.c_int
    if call(canvas._canvas, address, stride, width, height, colorspace) != 0:
        raise RuntimeError(f"ThorVG refused a {width}x{height} target")


def lottie_box(ctx: RenderContext, layer: dict) -> skia.Rect | None:
    item = ctx.footage.get(layer.get("content", {}).get("footage"))
    if item is None:
        return None
    return skia.Rect.MakeWH(float(item["width"]), float(item["height"]))


def draw_lottie(canvas: skia.Canvas, ctx: RenderContext, layer: dict, time: float,
                paint_args: dict) -> None:
    footage_id = layer.get("content", {}).get("footage")
    item = ctx.footage.get(footage_id)
    if item is None:
        ctx.report_missing(f"footage {footage_id!r} (not in the project)")
        return
    path = item.get("path", "")
    player = _player(path, layer.get("id"), float(item.get("frameRate") or 30))
    width, height = float(item["width"]), float(item["height"])
    if player is None:
        ctx.report_missing(path)
        if ctx.placeholders:
            draw_placeholder(canvas, width, height, paint_args)
        return
    size = shown_size(canvas, width, height)
    if size is None:
        return  # shown at no size
    frame = _frame(player, layer, time)
    pixels = frame_pixels(canvas, size, width, height, paint_args)
    if pixels is not None:
        player.draw_into(frame, pixels, size)
        return
    image = player.image_at(frame, *size)
    paint = skia.Paint(AntiAlias=True)
    paint.setAlphaf(paint_args["opacity"])
    paint.setBlendMode(paint_args["blend"])
    draw_raster(canvas, image, width, height, paint)


def _frame(player: Player, layer: dict, time: float) -> float:
    """The animation's frame (from 0, its first) showing at comp time `time`."""
    seconds = source_time(layer, time, player.frames / player.frame_rate)
    frame = math.floor(seconds * player.frame_rate + 1e-6)
    return float(min(max(frame, 0), max(0, math.ceil(player.frames) - 1)))


def _player(path: str, layer_id, frame_rate: float) -> Player | None:
    stamp = file_stamp(path)
    if stamp is None:
        return None
    key = (path, layer_id)
    player = _players.get(key)
    if player is not None and player.stamp == stamp:
        _players.move_to_end(key)
        return player
    _players.pop(key, None)
    source = _source(path, stamp, frame_rate)
    if source is None:
        return None
    try:
        player = Player(stamp, *source)
    except LottieError:
        return None
    _players[key] = player
    while len(_players) > MAX_KEPT_PLAYERS:
        _players.popitem(last=False)
    return player


# A file's expressions are evaluated for drawing (once per file and worker) when they need at
# most this many evaluations, an expression at a frame; beyond, or at the first that fails,
# the file plays its keys. The largest real file measured needs 7,800 (16 s).
MAX_EVALUATIONS = 100_000


def evaluated(animation: dict) -> dict:
    """The animation with its expressions evaluated into keys, as lottie.bake writes them,
    when every one of them evaluates; else as it is (ThorVG plays their keys, as the import's
    warning says). All or nothing: an expression left unevaluated among evaluated ones could
    pull its layer apart from what it was made to follow."""
    if not expression_count(animation):
        return animation
    baked, report = bake(animation, whole_only=MAX_EVALUATIONS)
    return animation if report["failed"] else baked


def _source(path: str, stamp, frame_rate: float) -> tuple[bytes, float] | None:
    """The file at `path` made self-contained (and upgraded), and its frame rate."""
    kept = _sources.get(path)
    if kept is not None and kept[0] == stamp:
        _sources.move_to_end(path)
        return kept[1:]
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_VECTOR_FOOTAGE_BYTES + 1)
        if len(data) > MAX_VECTOR_FOOTAGE_BYTES:
            return None
        animation, files = read_animation(data)
    except (OSError, LottieError):
        return None
    _sources[path] = (stamp, self_contained(evaluated(animation), files)[0],
                      float(animation["fr"]) or frame_rate)
    while len(_sources) > MAX_KEPT_SOURCES:
        _sources.popitem(last=False)
    return _sources[path][1:]
