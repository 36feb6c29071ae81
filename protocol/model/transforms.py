"""Layer transforms as 3x3 matrices, parents included, and layer timing.

For the compositor (workers/compositor) and the engine alike: `layer_matrix(comp, layer, time)`
maps a point in the layer's own content coordinates (docs/document.md, "Layer coordinates") to
comp pixels at comp time `time`, composed with every parent's transform, as After Effects does
(a parent's opacity is not inherited; use `layer_opacity`). The compositor should draw a layer
with exactly this matrix (skia: `skia.Matrix.MakeAll(*m[0], *m[1], *m[2])`) so that a render, a
preview and the engine agree about where a layer is.

Matrices are row-major tuples of rows, acting on column vectors [x, y, 1]. Pure: no I/O.
"""

from __future__ import annotations

import math

from protocol.model.keyframes import is_animated, segment_at, value_at
from protocol.model.motion_paths import heading_along

Matrix = tuple[tuple[float, float, float], tuple[float, float, float],
               tuple[float, float, float]]

IDENTITY: Matrix = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))

# Parent chains are checked for loops when edited and loaded; this bound only keeps a corrupt
# snapshot from recursing forever in a worker.
MAX_PARENT_DEPTH = 256


def multiply(a: Matrix, b: Matrix) -> Matrix:
    # Summed left to right, written out: the render plan (workers/compositor/matrix_tables.py)
    # composes whole chunks of these with numpy in this very order, and must get the same bits.
    return tuple(tuple(a[r][0] * b[0][c] + a[r][1] * b[1][c] + a[r][2] * b[2][c]
                       for c in range(3)) for r in range(3))  # type: ignore[return-value]


def translation(x: float, y: float) -> Matrix:
    return ((1.0, 0.0, x), (0.0, 1.0, y), (0.0, 0.0, 1.0))


def rotation(degrees: float) -> Matrix:
    """Clockwise on screen, since y points down."""
    radians = math.radians(degrees)
    c, s = math.cos(radians), math.sin(radians)
    return ((c, -s, 0.0), (s, c, 0.0), (0.0, 0.0, 1.0))


def scaling(sx: float, sy: float) -> Matrix:
    return ((sx, 0.0, 0.0), (0.0, sy, 0.0), (0.0, 0.0, 1.0))


def local_matrix(layer: dict, time: float) -> Matrix:
    """The layer's own transform at comp time `time`: anchor to origin, scale, rotate, then move
    to position (in the comp, or in the parent's layer coordinates)."""
    transform = layer["transform"]
    ax, ay = value_at(transform["anchor"], time)
    px, py = value_at(transform["position"], time)
    sx, sy = value_at(transform["scale"], time)
    degrees = value_at(transform["rotation"], time)
    if layer.get("autoOrient"):
        degrees += heading(transform["position"], time)
    matrix = translation(px, py)
    matrix = multiply(matrix, rotation(degrees))
    matrix = multiply(matrix, scaling(sx / 100.0, sy / 100.0))
    return multiply(matrix, translation(-ax, -ay))


def heading(position, time: float) -> float:
    """The direction an animated position travels at `time`, in degrees clockwise from +x:
    what an auto-oriented layer turns by. Before the first key it is the first segment's
    starting direction, from the last key on the last segment's final one; 0 for a position
    that does not move."""
    if not is_animated(position) or len(position["keys"]) < 2:
        return 0.0
    keys = position["keys"]
    segment = segment_at(keys, time)
    if segment is None:
        first = time <= keys[0]["time"]
        left, right, fraction = (keys[0], keys[1], 0.0) if first else (keys[-2], keys[-1], 1.0)
    else:
        left, right, fraction = segment
    return heading_along(left["value"], left.get("spatialOut"), right.get("spatialIn"),
                         right["value"], 0.0 if fraction is None else fraction)


def layer_matrix(comp: dict, layer: dict, time: float) -> Matrix:
    """Layer coordinates -> comp coordinates at comp time `time`, through all its parents."""
    by_id = {candidate["id"]: candidate for candidate in comp["layers"]}
    matrix = local_matrix(layer, time)
    parent_id, depth = layer.get("parent"), 0
    while parent_id is not None and parent_id in by_id and depth < MAX_PARENT_DEPTH:
        parent = by_id[parent_id]
        matrix = multiply(local_matrix(parent, time), matrix)
        parent_id, depth = parent.get("parent"), depth + 1
    return matrix


def apply(matrix: Matrix, x: float, y: float) -> tuple[float, float]:
    return (matrix[0][0] * x + matrix[0][1] * y + matrix[0][2],
            matrix[1][0] * x + matrix[1][1] * y + matrix[1][2])


def mapped_rect(matrix: Matrix, rect: tuple[float, float, float, float]
                ) -> tuple[float, float, float, float]:
    """The axis-aligned box (left, top, right, bottom) around `rect` mapped by `matrix`: where a
    layer's content lands in the comp, turned or not."""
    left, top, right, bottom = rect
    corners = [apply(matrix, x, y) for x, y in ((left, top), (right, top), (right, bottom),
                                                (left, bottom))]
    xs, ys = [x for x, _ in corners], [y for _, y in corners]
    return min(xs), min(ys), max(xs), max(ys)


def layer_opacity(layer: dict, time: float) -> float:
    """The layer's own opacity, 0..1 (parents' opacity is deliberately not inherited)."""
    return max(0.0, min(1.0, value_at(layer["transform"]["opacity"], time) / 100.0))


def is_visible(layer: dict, time: float) -> bool:
    """Whether the layer shows at comp time `time`: enabled and inPoint <= time < outPoint."""
    return bool(layer.get("enabled", True)) and layer["inPoint"] <= time < layer["outPoint"]


def layer_time(layer: dict, time: float) -> float:
    """The layer's own time at comp time `time`: where a precomp's source or a video's footage
    is read (comp time minus the layer's startTime)."""
    return time - layer["startTime"]
