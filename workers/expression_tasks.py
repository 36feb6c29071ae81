"""The tasks that read expressions for the supervisor, which must never run or parse one
itself, both on the preview worker:

- `expression_check`: an expression tried on a property of the snapshot, at a few times of
  its layer;
- `lottie_bake`: a Lottie file read, parsed and its expressions baked into keys
  (workers/expressions/lottie_bake.py), returned as the bytes of a self-contained JSON
  animation for the supervisor to write.

Both answer with sentences, never a traceback: a broken expression is an answer (`ok` false, or
named in `failed`), not a failed task.
"""

from __future__ import annotations

import copy

from protocol.model.expressions import set_expression
from protocol.model.keyframes import frame_count
from protocol.model.limits import MAX_VECTOR_FOOTAGE_BYTES
from protocol.model.lottie_files import LottieError, read_animation, self_contained
from workers.compositor.layer_boxes import content_rect
from workers.expressions.document_expressions import (DocumentExpressions, ExpressionError,
                                                      property_key)
from workers.expressions.lottie_bake import bake
from workers.snapshots import document_for
from workers.tasks import TaskError, task

# The times an expression is tried at: its layer's first frame, its last, and between.
CHECK_TIMES = 5


@task("expression_check")
def expression_check(job):
    """Payload: snapshot (+ document), comp, layer (ids), path (canonical), expression (the
    text to try; null: the one stored). Result: {ok, error?, values: [{time, value}]}."""
    spec = job.payload
    document = document_for(spec)
    comp = next((c for c in document["comps"] if c["id"] == spec["comp"]), None)
    layer = next((item for item in (comp or {}).get("layers", []) if item["id"] == spec["layer"]),
                 None)
    if layer is None:
        raise TaskError(f"the project snapshot has no layer {spec['layer']!r} in comp "
                        f"{spec['comp']!r}")
    if spec.get("expression") is not None:
        document, layer = _with_expression(document, comp, layer, spec["path"],
                                           spec["expression"])
    key = property_key(comp, layer, spec["path"])
    values = []
    try:
        bound = DocumentExpressions(document, content_rect)
        for time in check_times(comp, layer):
            job.cancel.check()
            values.append({"time": time, "value": bound.value(key, time)})
    except ExpressionError as error:
        return {"ok": False, "error": str(error), "values": values}
    return {"ok": True, "values": values}


def _with_expression(document: dict, comp: dict, layer: dict, path: str,
                     source: str) -> tuple[dict, dict]:
    """A copy of the document with `source` on the layer's property (the rest shared)."""
    changed = copy.deepcopy(layer)
    try:
        set_expression(changed, path, source)
    except ValueError as error:
        raise TaskError(f"{error}.") from None
    layers = [changed if item is layer else item for item in comp["layers"]]
    comps = [dict(comp, layers=layers) if item is comp else item for item in document["comps"]]
    return dict(document, comps=comps), changed


def check_times(comp: dict, layer: dict) -> list[float]:
    """CHECK_TIMES frame times spread over the part of the comp where the layer shows."""
    rate = float(comp["frameRate"])
    last = max(0, frame_count(comp["duration"], rate) - 1)
    first = min(last, max(0, int(-(-layer["inPoint"] * rate // 1))))
    end = min(last, max(first, int(-(-layer["outPoint"] * rate // 1)) - 1))
    frames = sorted({round(first + (end - first) * step / (CHECK_TIMES - 1))
                     for step in range(CHECK_TIMES)})
    return [frame / rate for frame in frames]


@task("lottie_bake")
def lottie_bake(job):
    """Payload: path (a Lottie .json or .lottie file). Result: {data (the baked animation,
    JSON bytes naming no other file), expressions, baked, failed: [sentence, ...]}."""
    path = job.payload["path"]
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_VECTOR_FOOTAGE_BYTES + 1)
    except OSError as error:
        raise TaskError(f"cannot read {path}: {error.strerror or error}") from None
    if len(data) > MAX_VECTOR_FOOTAGE_BYTES:
        raise TaskError(f"{path} is over the {MAX_VECTOR_FOOTAGE_BYTES >> 20} MiB a Lottie "
                        "file may be")
    try:
        animation, files = read_animation(data)
    except LottieError as error:
        raise TaskError(f"{path} is not {error}") from None
    baked, report = bake(animation)
    contained, _ = self_contained(baked, files, for_thorvg=False)
    return {"data": contained, **report}
