"""Undo and redo: edit.undo, edit.redo, edit.history.

Every command that changes the document is one undo step (an atomic command_batch is one step
for the whole batch); opening or starting a project starts a fresh history. The history itself
lives in the Engine (supervisor/engine/engine.py).
"""

from __future__ import annotations

from supervisor.engine.commands.registry import command

STEPS = {"type": "integer", "description": "how many steps (default 1)"}


@command("edit.undo", "Undo",
         "Undo the last edit (or the last `steps` edits); returns what was undone.",
         {"steps": STEPS}, kind="history")
def edit_undo(engine, params, work):
    undone = engine.undo(params.get("steps", 1))
    return {"undone": undone, "revision": engine.revision, **_depth(engine)}


@command("edit.redo", "Redo",
         "Redo the last undone edit (or `steps` of them); returns what was redone.",
         {"steps": STEPS}, kind="history")
def edit_redo(engine, params, work):
    redone = engine.redo(params.get("steps", 1))
    return {"redone": redone, "revision": engine.revision, **_depth(engine)}


@command("edit.history", "Undo history",
         "The steps that edit.undo would undo (most recent first) and edit.redo would redo.",
         kind="read")
def edit_history(engine, params, work):
    return engine.history()


def _depth(engine) -> dict:
    history = engine.history()
    return {"canUndo": len(history["undo"]), "canRedo": len(history["redo"])}
