"""Every layer's matrix (parents included) and opacity for a chunk of times, all layers of a
comp at once: what protocol/model/transforms.py's `layer_matrix` and `layer_opacity` give,
bit for bit, without asking once per layer per frame.

A layer whose transform and whose parents' transforms are all still gets its matrix once, when
the plan is compiled. The others are composed together per chunk as numpy arrays of shape
(layers, times, 3, 3), in the very order of transforms.local_matrix: translate to the position,
rotate, scale, move the anchor to the origin; then each parent's matrix on the left, nearest
first. Sines and cosines come from the math module, element by element, since numpy's own may
differ from it in the last bit.
"""

from __future__ import annotations

import math

import numpy as np
import skia

from protocol.model.keyframes import is_animated
from protocol.model.transforms import MAX_PARENT_DEPTH, heading, layer_matrix
from workers.compositor.key_tables import Channels


def set_affine(matrix: skia.Matrix, row) -> None:
    """Make `matrix` the affine matrix of one of `matrices`' rows, in place."""
    a, b, c, d, e, f = row
    matrix.setAll(a, b, c, d, e, f, 0.0, 0.0, 1.0)


def skia_matrix(rows) -> skia.Matrix:
    (a, b, c), (d, e, f), (g, h, i) = rows
    return skia.Matrix.MakeAll(a, b, c, d, e, f, g, h, i)


class LayerTransforms:
    """The matrices and opacities of a comp's layers; `layers` is the comp's list."""

    def __init__(self, comp: dict) -> None:
        layers = comp["layers"]
        self.count = len(layers)
        # As layer_matrix: parents by id, a later duplicate id winning, chains cut at the depth
        # bound (a corrupt snapshot's loop).
        by_id = {layer["id"]: index for index, layer in enumerate(layers)}
        self.chains = [_chain(layers, by_id, index) for index in range(len(layers))]
        moving = [_transform_moves(layer) for layer in layers]
        self.animated = [moving[index] or any(moving[p] for p in self.chains[index])
                         for index in range(len(layers))]
        self.still = [None if self.animated[index] else
                      skia_matrix(layer_matrix(comp, layers[index], 0.0))
                      for index in range(len(layers))]
        # Layers whose local matrix must be composed per chunk: the animated ones and their
        # parents (a still parent of a moving child is composed alongside it).
        needed = sorted({i for i in range(len(layers)) if self.animated[i]} |
                        {p for i in range(len(layers)) if self.animated[i]
                         for p in self.chains[i]})
        self._slot = {index: slot for slot, index in enumerate(needed)}
        transforms = [layers[index]["transform"] for index in needed]
        self._anchor = Channels([t["anchor"] for t in transforms], 2)
        self._position = Channels([t["position"] for t in transforms], 2)
        self._scale = Channels([t["scale"] for t in transforms], 2)
        self._rotation = Channels([t["rotation"] for t in transforms], 1)
        self._oriented = [(slot, layers[index]["transform"]["position"])
                          for slot, index in enumerate(needed)
                          if layers[index].get("autoOrient")]
        turning = {slot for slot, index in enumerate(needed)
                   if is_animated(transforms[slot]["rotation"])} | \
            {slot for slot, _ in self._oriented}
        self._turning = np.array(sorted(turning), dtype=np.intp)
        # A still angle has one sine and one cosine, taken once here.
        still = [slot for slot in range(len(needed)) if slot not in turning]
        angles = [_cos_sin(transforms[slot]["rotation"]) for slot in still]
        self._still = np.array(still, dtype=np.intp)
        self._still_cos = np.array([[c] for c, _ in angles], dtype=float).reshape(-1, 1)
        self._still_sin = np.array([[s] for _, s in angles], dtype=float).reshape(-1, 1)
        self._opacity = Channels([layer["transform"]["opacity"] for layer in layers], 1)

    def matrices(self, times) -> dict[int, list]:
        """{layer index: [(a, b, c, d, e, f) per time]} for every animated layer: its matrix
        [[a, b, c], [d, e, f], [0, 0, 1]] (see set_affine)."""
        moving = [index for index in range(self.count) if self.animated[index]]
        if not moving:
            return {}
        local = self._local(np.asarray(times, dtype=float))
        slots = [self._slot[index] for index in moving]
        matrix = [part[slots] for part in local]
        # Each parent on the left, nearest first, for all layers that have one that far up.
        for depth in range(max(len(self.chains[index]) for index in moving)):
            rows = [row for row, index in enumerate(moving) if len(self.chains[index]) > depth]
            parents = [self._slot[self.chains[moving[row]][depth]] for row in rows]
            product = _multiply([part[parents] for part in local],
                                [part[rows] for part in matrix])
            for part, value in zip(matrix, product):
                part[rows] = value
        rows = np.stack(matrix, axis=-1).tolist()
        return dict(zip(moving, rows))

    def opacities(self, times) -> np.ndarray:
        """(layers, times): each layer's own opacity, 0..1 (as layer_opacity)."""
        values = self._opacity.evaluate(times)[..., 0] / 100.0
        return np.maximum(0.0, np.minimum(1.0, values))

    def _local(self, times: np.ndarray) -> list:
        """Every composed layer's own matrix at `times`, as its six affine parts."""
        anchor = self._anchor.evaluate(times)
        position = self._position.evaluate(times)
        scale = self._scale.evaluate(times)
        degrees = self._rotation.evaluate(times)[..., 0]
        for slot, prop in self._oriented:
            degrees[slot] = degrees[slot] + [heading(prop, float(t)) for t in times]
        cos = np.empty(degrees.shape)
        sin = np.empty(degrees.shape)
        if len(self._turning):
            radians = list(map(math.radians, degrees[self._turning].ravel().tolist()))
            shape = (len(self._turning), len(times))
            cos[self._turning] = np.array(list(map(math.cos, radians))).reshape(shape)
            sin[self._turning] = np.array(list(map(math.sin, radians))).reshape(shape)
        if len(self._still):
            cos[self._still], sin[self._still] = self._still_cos, self._still_sin
        matrix = (1.0, 0.0, position[..., 0], 0.0, 1.0, position[..., 1])
        matrix = _multiply(matrix, (cos, -sin, 0.0, sin, cos, 0.0))
        matrix = _multiply(matrix, (scale[..., 0] / 100.0, 0.0, 0.0,
                                    0.0, scale[..., 1] / 100.0, 0.0))
        matrix = _multiply(matrix, (1.0, 0.0, -anchor[..., 0], 0.0, 1.0, -anchor[..., 1]))
        return [np.broadcast_to(part, degrees.shape).copy() for part in matrix]


def _chain(layers: list, by_id: dict, index: int) -> list[int]:
    chain, parent_id, depth = [], layers[index].get("parent"), 0
    while parent_id is not None and parent_id in by_id and depth < MAX_PARENT_DEPTH:
        parent = by_id[parent_id]
        chain.append(parent)
        parent_id, depth = layers[parent].get("parent"), depth + 1
    return chain


def _transform_moves(layer: dict) -> bool:
    transform = layer["transform"]
    return any(is_animated(transform[name]) for name in ("anchor", "position", "scale",
                                                          "rotation"))


def _cos_sin(degrees) -> tuple[float, float]:
    radians = math.radians(degrees)
    return math.cos(radians), math.sin(radians)


def _multiply(a, b) -> tuple:
    """a @ b for affine matrices given as their six parts (a, b, c, d, e, f) of
    [[a, b, c], [d, e, f], [0, 0, 1]] (arrays or numbers), each entry summed left to right as
    transforms.multiply sums it, the bottom row's products included: the same bits. (The bottom
    row of a product of such matrices is exactly 0, 0, 1 again.)"""
    a0, a1, a2, a3, a4, a5 = a
    b0, b1, b2, b3, b4, b5 = b
    return (a0 * b0 + a1 * b3 + a2 * 0.0, a0 * b1 + a1 * b4 + a2 * 0.0, a0 * b2 + a1 * b5 + a2,
            a3 * b0 + a4 * b3 + a5 * 0.0, a3 * b1 + a4 * b4 + a5 * 0.0, a3 * b2 + a4 * b5 + a5)
