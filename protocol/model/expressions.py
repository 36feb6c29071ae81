"""Expressions in the document: which properties may carry one, how a layer stores them, and
keeping them pointed at their properties when effects, masks or animators come and go.

A layer's expressions are `"expressions": {PATH: SOURCE}`, present only when it has some:
PATH is the property's canonical path (protocol/model/property_paths.py: an effect or mask by
its id, an animator by its id), SOURCE the expression's JavaScript. The property keeps its own
value or keys beside it (what the expression reads as `value`). The evaluation is the workers'
(workers/expressions/); this module never runs, parses or looks inside a SOURCE, so the
supervisor can hold and edit expressions without reading untrusted code.
Pure: no I/O.
"""

from __future__ import annotations

from typing import Any

from protocol.model.limits import MAX_TEXT_LENGTH
from protocol.model.property_paths import PropertyRef, canonical_path, resolve

# An expression's text at most: the same bound as any string of the document; a long
# expression is a few hundred characters.
MAX_EXPRESSION_LENGTH = MAX_TEXT_LENGTH


def check_source(source: Any) -> str:
    """`source` if it can be an expression's text, else ValueError saying why."""
    if not isinstance(source, str):
        raise ValueError(f"an expression is JavaScript text, not {source!r}")
    if not source.strip():
        raise ValueError("the expression is empty; give null to remove an expression")
    if len(source) > MAX_EXPRESSION_LENGTH:
        raise ValueError(f"the expression is {len(source):,} characters, over the limit of "
                         f"{MAX_EXPRESSION_LENGTH:,}")
    return source


def expression_path(layer: dict, path: str) -> tuple[str, PropertyRef]:
    """The canonical path of the property `path` names on `layer`, and the property, when it
    can carry an expression; ValueError saying why otherwise."""
    prop = resolve(layer, path)
    if path.split(".")[0] == "audio":
        raise ValueError(f"{path} cannot carry an expression: a layer's sound is mixed once "
                         "for the whole render, outside the workers that evaluate expressions; "
                         "animate it with keys")
    if not prop.animatable:
        raise ValueError(f"{path} cannot carry an expression: it is not animatable")
    canonical = canonical_path(layer, path)
    parts = canonical.split(".")
    if parts[0] == "animators":  # by id, as effects and masks are, so reordering keeps it
        parts[1] = _animator_id(layer, parts[1])
        canonical = ".".join(parts)
    return canonical, prop


def _animator_id(layer: dict, ref: str) -> str:
    animators = layer["content"].get("animators") or []
    for animator in animators:
        if animator["id"] == ref:
            return ref
    return animators[int(ref) - 1]["id"]  # resolve() has found it by its index


def check_expressions(layer: dict, place: str) -> None:
    """A loaded layer's `expressions`: a non-empty map of canonical paths that can carry one
    to expression texts. ValueError(where, problem) otherwise."""
    expressions = layer["expressions"]
    if not isinstance(expressions, dict) or not expressions:
        raise ValueError(place, "expected an object of property paths to expressions (left "
                         f"out when there are none), got {expressions!r}")
    for path, source in expressions.items():
        try:
            canonical, _ = expression_path(layer, path)
            check_source(source)
        except ValueError as error:
            raise ValueError(f"{place}.{path}", str(error)) from None
        if canonical != path:
            raise ValueError(f"{place}.{path}", f"an expression is stored by its property's "
                                                f"canonical path, {canonical!r}")


def set_expression(layer: dict, path: str, source: str | None) -> str:
    """Put `source` on the property `path` names (None removes it); the canonical path.
    ValueError as expression_path's, or for a bad source."""
    canonical, _ = expression_path(layer, path)
    expressions = dict(layer.get("expressions") or {})
    if source is None:
        expressions.pop(canonical, None)
    else:
        expressions[canonical] = check_source(source)
    if expressions:
        layer["expressions"] = expressions
    else:
        layer.pop("expressions", None)
    return canonical


def renamed_parts(layer: dict, renamed: dict[str, str]) -> None:
    """Keep a copied layer's expressions on its own effects, masks and animators after their
    ids were renewed (`renamed`: old id -> new id)."""
    if not layer.get("expressions"):
        return
    moved = {}
    for path, source in layer["expressions"].items():
        parts = path.split(".")
        if parts[0] in ("effects", "masks", "animators") and parts[1] in renamed:
            parts[1] = renamed[parts[1]]
        moved[".".join(parts)] = source
    layer["expressions"] = moved


def prune_expressions(layer: dict) -> list[str]:
    """Drop the expressions whose property is gone (its effect, mask or animator removed);
    the paths dropped."""
    expressions = layer.get("expressions") or {}
    dropped = []
    for path in list(expressions):
        try:
            resolve(layer, path)
        except (ValueError, LookupError):
            dropped.append(path)
            del expressions[path]
    if not expressions:
        layer.pop("expressions", None)
    return dropped
