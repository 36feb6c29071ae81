"""What makes text readable on screen, as numbers: the safe areas, the smallest readable size,
and WCAG's contrast ratio. layout_check (workers/layout_checks.py) holds a comp to these.

- Safe areas: the broadcast convention. Action-safe is the middle 90% of the frame (each side
  5% in), title-safe the middle 80% (10% in): text inside title-safe survives any screen's
  overscan and a phone's rounded corners and overlays.
- Readable size: text under 1/36 of the frame's shorter side (30 px on a 1080-line frame, 20 px
  on a 720-line one, 30 px across a 1080 x 1920 phone frame) is hard to read on a screen
  watched at arm's length or further, the common advice for video captions.
- Contrast: WCAG 2.x relative luminance of sRGB colors, and the ratio (L1 + 0.05) / (L2 +
  0.05); body text needs 4.5:1 (success criterion 1.4.3, level AA).

Pure: no I/O.
"""

from __future__ import annotations

TITLE_SAFE = 80.0  # percent of the frame's width and height
ACTION_SAFE = 90.0
READABLE_FRACTION = 1 / 36  # of the frame's shorter side
MIN_CONTRAST = 4.5
# Rec. 709 primaries' share of luminance, WCAG's weights.
LUMINANCE_WEIGHTS = (0.2126, 0.7152, 0.0722)


def safe_rect(width: float, height: float, percent: float) -> tuple[float, float, float, float]:
    """The middle `percent` of a frame as (left, top, right, bottom)."""
    margin = (100.0 - percent) / 200.0
    return width * margin, height * margin, width * (1 - margin), height * (1 - margin)


def readable_size(width: float, height: float) -> float:
    """The smallest text size (px, on the frame) that reads comfortably."""
    return min(width, height) * READABLE_FRACTION


def linear_channel(value: float) -> float:
    """An sRGB channel (0..1) as linear light, WCAG's way."""
    return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4


def relative_luminance(red: float, green: float, blue: float) -> float:
    """WCAG relative luminance of an sRGB color (components 0..1): 0 black, 1 white."""
    return sum(weight * linear_channel(channel)
               for weight, channel in zip(LUMINANCE_WEIGHTS, (red, green, blue)))


def contrast_ratio(luminance_a: float, luminance_b: float) -> float:
    """WCAG contrast ratio of two relative luminances: 1 (none) to 21 (black on white)."""
    lighter, darker = max(luminance_a, luminance_b), min(luminance_a, luminance_b)
    return (lighter + 0.05) / (darker + 0.05)


# Each 8-bit channel value as linear light, so a frame's pixels are weighed by a table lookup
# with exactly the formula above.
LINEAR_8BIT = tuple(linear_channel(level / 255) for level in range(256))
