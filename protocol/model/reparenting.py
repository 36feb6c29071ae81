"""Giving a layer a new parent (or none) without moving it on screen, as After Effects' parent
setter does: the child's position, rotation and scale are converted from its old parent's
space into the new one's, keyframes included. Pure: no I/O.

The conversion is the change of space C = inverse(new parent's matrix) x old parent's matrix
at one instant (the child's in point, or comp time 0 when that is earlier): positions (each
key, and its motion path's tangents) go through C; C's rotation is added to the rotation and
its scale multiplies the scale. That is exact whenever C scales evenly or the child is not
rotated against it; a parent scaled unevenly and a child rotated against it would need a skew
no layer transform has, as in After Effects. Parents that move or turn over time follow the
instant chosen: later the child moves with its new parent, which is what parenting is for.
"""

from __future__ import annotations

import math

from protocol.model.keyframes import is_animated
from protocol.model.transforms import IDENTITY, Matrix, layer_matrix, multiply


def space_matrix(comp: dict, parent_id: str | None, time: float) -> Matrix:
    """Parent-space -> comp coordinates for a child of `parent_id` (None: the comp itself)."""
    parent = next((layer for layer in comp["layers"] if layer["id"] == parent_id), None)
    return IDENTITY if parent is None else layer_matrix(comp, parent, time)


def inverse(matrix: Matrix) -> Matrix | None:
    """The inverse of an affine matrix; None when it flattens the plane (a scale of 0)."""
    (a, b, tx), (c, d, ty), _ = matrix
    det = a * d - b * c
    if abs(det) < 1e-12:
        return None
    return ((d / det, -b / det, (b * ty - d * tx) / det),
            (-c / det, a / det, (c * tx - a * ty) / det),
            (0.0, 0.0, 1.0))


def keep_on_screen(comp: dict, layer: dict, new_parent: str | None) -> bool:
    """Rewrite `layer`'s transform so that, parented to `new_parent`, it shows where it shows
    now; False (nothing changed) when the new parent is scaled to nothing there."""
    time = max(0.0, layer["inPoint"])
    into_new = inverse(space_matrix(comp, new_parent, time))
    if into_new is None:
        return False
    change = multiply(into_new, space_matrix(comp, layer.get("parent"), time))
    (a, b, tx), (c, d, ty), _ = change
    turn = math.degrees(math.atan2(c, a))
    scale_x = math.hypot(a, c)
    scale_y = (a * d - b * c) / scale_x
    transform = layer["transform"]
    transform["position"] = _each_value(
        transform["position"], lambda p: [a * p[0] + b * p[1] + tx, c * p[0] + d * p[1] + ty],
        tangent=lambda v: [a * v[0] + b * v[1], c * v[0] + d * v[1]])
    transform["rotation"] = _each_value(transform["rotation"], lambda r: r + turn)
    transform["scale"] = _each_value(transform["scale"],
                                     lambda s: [s[0] * scale_x, s[1] * scale_y])
    return True


def _each_value(prop, convert, tangent=None):
    """`prop` with every value converted: a static value, or each key's (and its motion
    path's tangents, which are offsets, by `tangent`)."""
    if not is_animated(prop):
        return _rounded(convert(prop))
    keys = []
    for key in prop["keys"]:
        key = {**key, "value": _rounded(convert(key["value"]))}
        for side in ("spatialIn", "spatialOut"):
            if tangent is not None and key.get(side) is not None:
                key[side] = _rounded(tangent(key[side]))
        keys.append(key)
    return {**prop, "keys": keys}


def _rounded(value):
    """To a millionth: a converted 60 reads 60.0, not 59.99999999999999 (a millionth of a
    pixel or a degree is far below what a frame can show)."""
    if isinstance(value, list):
        return [round(v, 6) for v in value]
    return round(value, 6)
