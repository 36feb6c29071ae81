"""What missing footage looks like in a render that was allowed to go on without it (`rendervisor
render --allow-missing`): colour bars filling the footage's box, as an editor shows offline
media, so no one mistakes the frame for a finished one. Without that permission missing footage
draws nothing and fails its item (the supervisor's choice, not the compositor's).
"""

from __future__ import annotations

import skia

# Seven bars at 75%, left to right: white, yellow, cyan, green, magenta, red, blue.
BARS = ((0.75, 0.75, 0.75), (0.75, 0.75, 0.0), (0.0, 0.75, 0.75), (0.0, 0.75, 0.0),
        (0.75, 0.0, 0.75), (0.75, 0.0, 0.0), (0.0, 0.0, 0.75))


def draw_placeholder(canvas: skia.Canvas, width: float, height: float,
                     paint_args: dict) -> None:
    """Colour bars over [0, 0, width, height], at the layer's opacity and blend mode."""
    if width <= 0 or height <= 0:
        return
    paint = skia.Paint(AntiAlias=False)
    paint.setBlendMode(paint_args["blend"])
    step = width / len(BARS)
    for index, (red, green, blue) in enumerate(BARS):
        paint.setColor4f(skia.Color4f(red, green, blue, paint_args["opacity"]))
        canvas.drawRect(skia.Rect.MakeLTRB(index * step, 0, (index + 1) * step, height), paint)
