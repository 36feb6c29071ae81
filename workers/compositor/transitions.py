"""Transitions between two scenes, drawn: each kind one entry of TRANSITIONS, a function of
the canvas, the progress p, the comp's size, the transition's settings, and the two scenes'
drawings, `out` (the scene before, A) and `into` (the scene after, B), each a function that
draws its scene layer onto a canvas as it would be drawn on its own.

What each kind draws at p is protocol/model/scenes.py's table in words; here it is in Skia:
offsets and scales are canvas transforms around a scene's drawing, wipes are anti-aliased
clips, and the dissolves draw each scene into a layer of its own at its weight, A's at
1 - p and B's at p added (kPlus) inside one group, so where both are opaque the group is
A (1 - p) + B p, and where neither draws, the comp's own layers below show through.

A scene at weight 0 is not drawn at all, so at p = 0 and p = 1 a transition draws exactly
what the one scene showing would.
"""

from __future__ import annotations

import math
from typing import Callable

import skia

from protocol.model.colors import normalize_color
from protocol.model.scenes import BLUR_DISSOLVE_SIGMA

Draw = Callable[[skia.Canvas], None]

# Where a push, slide or wipe comes from, as the unit vector it moves along.
_ALONG = {"fromLeft": (1.0, 0.0), "fromRight": (-1.0, 0.0), "fromTop": (0.0, 1.0),
          "fromBottom": (0.0, -1.0)}
_CORNERS = {"fromTopLeft": (0.0, 0.0), "fromTopRight": (1.0, 0.0),
            "fromBottomLeft": (0.0, 1.0), "fromBottomRight": (1.0, 1.0)}


def draw_transition(canvas: skia.Canvas, transition: dict, p: float, size: tuple,
                    out: Draw, into: Draw) -> None:
    TRANSITIONS[transition["kind"]](canvas, p, size, transition, out, into)


def _clamped(p: float) -> float:
    return min(1.0, max(0.0, p))


def _weighted(canvas: skia.Canvas, weight: float, draw: Draw, adding: bool = False,
              image_filter: skia.ImageFilter | None = None) -> None:
    """`draw` at `weight` (its own layer), added to what is under it when `adding`."""
    if weight <= 0.0:
        return
    if weight >= 1.0 and not adding and image_filter is None:
        draw(canvas)
        return
    paint = skia.Paint(Alphaf=weight)
    if adding:
        paint.setBlendMode(skia.BlendMode.kPlus)
    if image_filter is not None:
        paint.setImageFilter(image_filter)
    canvas.saveLayer(None, paint)
    draw(canvas)
    canvas.restore()


def _dissolve(canvas: skia.Canvas, p: float, out: Draw, into: Draw,
              image_filter: skia.ImageFilter | None = None) -> None:
    """A (1 - p) + B p, each through `image_filter`; at an end, the one scene as it is."""
    weight = _clamped(p)
    if (weight <= 0.0 or weight >= 1.0) and image_filter is None:
        (into if weight >= 1.0 else out)(canvas)
        return
    canvas.saveLayer(None, None)
    _weighted(canvas, 1.0 - weight, out, image_filter=image_filter)
    _weighted(canvas, weight, into, adding=True, image_filter=image_filter)
    canvas.restore()


def _moved(canvas: skia.Canvas, dx: float, dy: float, draw: Draw) -> None:
    canvas.save()
    canvas.translate(dx, dy)
    draw(canvas)
    canvas.restore()


def _scaled(factor: float, size: tuple, draw: Draw) -> Draw:
    def scaled(canvas: skia.Canvas) -> None:
        canvas.save()
        canvas.translate(size[0] / 2, size[1] / 2)
        canvas.scale(factor, factor)
        canvas.translate(-size[0] / 2, -size[1] / 2)
        draw(canvas)
        canvas.restore()
    return scaled


def _revealed(canvas: skia.Canvas, region: skia.Path | skia.Rect | None, under: Draw,
              over: Draw) -> None:
    """`under` everywhere, then `over` within `region` (None: nowhere)."""
    under(canvas)
    if region is None:
        return
    canvas.save()
    if isinstance(region, skia.Rect):
        canvas.clipRect(region, skia.ClipOp.kIntersect, True)
    else:
        canvas.clipPath(region, skia.ClipOp.kIntersect, True)
    over(canvas)
    canvas.restore()


def _crossfade(canvas, p, size, transition, out, into) -> None:
    _dissolve(canvas, p, out, into)


def _dip(canvas, p, size, transition, out, into) -> None:
    (out if p < 0.5 else into)(canvas)
    red, green, blue, alpha = normalize_color(transition.get("color", [0, 0, 0, 1]))
    amount = _clamped(1.0 - abs(2.0 * p - 1.0)) * alpha
    if amount > 0.0:
        canvas.drawRect(skia.Rect.MakeWH(*size),
                        skia.Paint(Color4f=skia.Color4f(red, green, blue, amount)))


def _push(canvas, p, size, transition, out, into) -> None:
    ax, ay = _ALONG[transition["direction"]]
    width, height = size
    if p < 1.0:
        _moved(canvas, ax * p * width, ay * p * height, out)
    if p > 0.0:
        _moved(canvas, -ax * (1.0 - p) * width, -ay * (1.0 - p) * height, into)


def _slide(canvas, p, size, transition, out, into) -> None:
    ax, ay = _ALONG[transition["direction"]]
    width, height = size
    if p < 1.0:
        out(canvas)
    if p > 0.0:
        _moved(canvas, -ax * (1.0 - p) * width, -ay * (1.0 - p) * height, into)


def _revealing(canvas: skia.Canvas, p: float, out: Draw, into: Draw, region) -> None:
    """A wipe: B within `region(amount)` over A, amount the progress clamped to 0..1; at 0
    the scene before alone, at 1 the scene after alone."""
    amount = _clamped(p)
    if amount >= 1.0:
        into(canvas)
        return
    _revealed(canvas, region(amount) if amount > 0.0 else None, out, into)


def _wipe(canvas, p, size, transition, out, into) -> None:
    width, height = size
    edges = {"fromLeft": lambda a: (0, 0, a * width, height),
             "fromRight": lambda a: ((1 - a) * width, 0, width, height),
             "fromTop": lambda a: (0, 0, width, a * height),
             "fromBottom": lambda a: (0, (1 - a) * height, width, height)}
    edge = edges[transition["direction"]]
    _revealing(canvas, p, out, into, lambda amount: skia.Rect.MakeLTRB(*edge(amount)))


def _circle(cx: float, cy: float, radius: float) -> skia.Path | None:
    return skia.Path.Circle(cx, cy, radius) if radius > 0 else None


def _radial_wipe(canvas, p, size, transition, out, into) -> None:
    width, height = size
    fx, fy = _CORNERS[transition["direction"]]
    _revealing(canvas, p, out, into, lambda amount: _circle(
        fx * width, fy * height, amount * math.hypot(width, height)))


def _clock_wipe(canvas, p, size, transition, out, into) -> None:
    width, height = size
    # A pie from 12 o'clock, reaching past the corners; y points down, so a positive sweep
    # turns clockwise on screen.
    radius = math.hypot(width, height)
    turn = 1 if transition["direction"] == "clockwise" else -1

    def pie(amount: float) -> skia.Path:
        path = skia.Path()
        path.moveTo(width / 2, height / 2)
        path.arcTo(skia.Rect.MakeLTRB(width / 2 - radius, height / 2 - radius,
                                      width / 2 + radius, height / 2 + radius),
                   -90.0, 360.0 * amount * turn, False)
        path.close()
        return path

    _revealing(canvas, p, out, into, pie)


def _iris(canvas, p, size, transition, out, into) -> None:
    width, height = size
    radius = math.hypot(width, height) / 2
    if transition["direction"] == "open":
        _revealing(canvas, p, out, into,
                   lambda amount: _circle(width / 2, height / 2, amount * radius))
        return
    amount = _clamped(p)  # close: A within a shrinking circle, over B
    if amount <= 0.0:
        out(canvas)
        return
    _revealed(canvas, _circle(width / 2, height / 2, (1 - amount) * radius), into, out)


def _zoom(canvas, p, size, transition, out, into) -> None:
    sign = 1.0 if transition["direction"] == "in" else -1.0
    _dissolve(canvas, p, _scaled(2.0 ** (sign * p), size, out),
              _scaled(2.0 ** (sign * (p - 1.0)), size, into))


def _blur_dissolve(canvas, p, size, transition, out, into) -> None:
    sigma = _clamped(1.0 - abs(2.0 * p - 1.0)) * size[1] * BLUR_DISSOLVE_SIGMA
    blur = None if sigma <= 0 else skia.ImageFilters.Blur(
        sigma, sigma, skia.TileMode.kClamp, None,
        skia.IRect.MakeWH(math.ceil(size[0]), math.ceil(size[1])))
    _dissolve(canvas, p, out, into, blur)


TRANSITIONS: dict[str, Callable] = {
    "crossfade": _crossfade,
    "dip": _dip,
    "push": _push,
    "slide": _slide,
    "wipe": _wipe,
    "radialWipe": _radial_wipe,
    "clockWipe": _clock_wipe,
    "iris": _iris,
    "zoom": _zoom,
    "blurDissolve": _blur_dissolve,
}
