"""Documents with expressions for the expression tests, and a way to read their results: the
worker's own binding (workers/expressions/document_expressions.py) on this thread's sandbox,
real QuickJS, no process."""

from __future__ import annotations

from tests.helpers.compositor_documents import comp, document, keys, solid
from workers.compositor.layer_boxes import content_rect
from workers.expressions.document_expressions import DocumentExpressions

RATE = 30


def bound(*layers, rate: float = RATE, duration: float = 10.0, markers=()) -> DocumentExpressions:
    main = comp("comp1", list(layers), frame_rate=rate, duration=duration, name="Main")
    main["markers"] = list(markers)
    return DocumentExpressions(document(main), content_rect)


def driven(layer_id: str, expressions: dict, **kwargs) -> dict:
    """A 20x20 solid at (10, 10) whose properties have `expressions` ({path: source}); its own
    values (position, rotation, ...) from `kwargs` as compositor_documents.solid takes them."""
    layer = solid(layer_id, [1, 0, 0, 1], 10, 10, 20, 20, **kwargs)
    layer["expressions"] = dict(expressions)
    return layer


def value_of(expression: str, path: str = "transform.rotation", time: float = 0.0, **kwargs):
    """The result of one expression on layer "A"'s `path` at `time`."""
    return bound(driven("A", {path: expression}, **kwargs)).value(f"comp1/A/{path}", time)


__all__ = ["bound", "driven", "value_of", "keys", "RATE"]
