"""The float result of a layer's effect chain (float_effects.py), kept from one frame to the next
while nothing it is made from changes: a title that has come to rest under a wide drop shadow
costs the shadow once, not every frame.

A layer whose content is drawn the same at every time (a render plan's still drawing, with
masks that do not move) passes an owner token; the chain's result is kept under it with what
else it was made from: the canvas's whole matrix, the device clip, the content's bounds, the
chain's params at that time and the versions of the files its effects read (a LUT). A frame that asks with the same inputs gets the same pixels
computing them again would give (the computation depends on nothing else), so a render's bytes
do not depend on which frames a worker drew before; the layer's opacity and blend mode are
applied when the result is drawn, so a fade does not stop the reuse.

One result per owner, the latest: a layer drawn at two places of one frame (a precomp used
twice) computes both each time, as before.
"""

from __future__ import annotations

import itertools
from collections import OrderedDict

import numpy as np
import skia

# Bytes of kept results per worker process. A 1080p title's result is a few MB (float pixels
# over its box and the shadow's reach); more keeps more layers' chains, at the price of resident
# memory in every drawing worker; less, and the layers evicted compute their chain again, never
# a wrong pixel.
KEPT_CHAIN_BYTES = 64 << 20

_owners = itertools.count(1)


def new_owner() -> int:
    """A token naming one layer's kept result (an id() could be reused by a later layer)."""
    return next(_owners)


def result_bytes(result) -> int:
    pixels = result[0]
    if isinstance(pixels, skia.Image):
        return pixels.imageInfo().computeMinByteSize()
    return int(np.asarray(pixels).nbytes)


class KeptChains:
    def __init__(self, budget_bytes: int = KEPT_CHAIN_BYTES) -> None:
        self.budget_bytes = budget_bytes
        self._kept: OrderedDict = OrderedDict()  # owner -> (inputs, result, bytes)
        self._bytes = 0
        self.hits = 0  # results reused (for benchmarks and tests)

    def get(self, owner: int, inputs: tuple):
        """The result kept for `owner` if it was made from `inputs`, else None."""
        kept = self._kept.get(owner)
        if kept is None or kept[0] != inputs:
            return None
        self._kept.move_to_end(owner)
        self.hits += 1
        return kept[1]

    def put(self, owner: int, inputs: tuple, result) -> None:
        """Keep `result` (the chain's pixels and the step they are at) for `owner`, made from
        `inputs`, in place of what it had."""
        self.forget(owner)
        size = result_bytes(result)
        if size > self.budget_bytes:
            return
        self._kept[owner] = (inputs, result, size)
        self._bytes += size
        while self._bytes > self.budget_bytes:
            _, (_, _, dropped) = self._kept.popitem(last=False)
            self._bytes -= dropped

    def forget(self, owner: int) -> None:
        kept = self._kept.pop(owner, None)
        if kept is not None:
            self._bytes -= kept[2]

    def clear(self) -> None:
        self._kept.clear()
        self._bytes = 0


# One per worker process, for every layer it draws.
KEPT_CHAINS = KeptChains()
