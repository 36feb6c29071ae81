"""The undo history is bounded in bytes: a large animation then many edits keep the session's
memory bounded, edit.history says how many steps it kept and dropped, and every kept step still
undoes exactly.

In the default suite, on an engine in this process with the budget and the animation both a
thirty-second of their real size (the same ratio, so as many steps are dropped), the memory the
history holds measured by tracemalloc. Marked slow, the same through a real `rendervisor mcp`
at full size (the largest animation a property may hold, the real budget), its memory measured
as the process's RSS: minutes on a busy machine.
"""

from __future__ import annotations

import json
import tracemalloc

import psutil
import pytest

from protocol.model.limits import MAX_KEYS
from supervisor.engine import engine as engine_module
from supervisor.engine.engine import MAX_HISTORY_BYTES, Engine

EDITS = 30
SCALE = 32


def test_a_large_animation_then_many_edits_keeps_the_history_within_its_budget(monkeypatch):
    budget = MAX_HISTORY_BYTES // SCALE
    monkeypatch.setattr(engine_module, "MAX_HISTORY_BYTES", budget)
    engine = Engine()
    # A thirty-second of the largest animation: about 0.25 MB as JSON, 1.25 MB as objects.
    animate(engine.run, MAX_KEYS // SCALE)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        edit(engine.run)
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    # The kept steps are JSON text within the budget. Kept as objects, as they once were, the
    # 30 steps would hold 30 copies of 1.25 MB.
    assert grown < budget + 4 * 1024 * 1024, f"{grown / 2 ** 20:.0f} MiB"

    def refused_undo() -> str:
        with pytest.raises(engine_module.CommandError) as refused:
            engine.run("edit.undo")
        return str(refused.value)

    check_history(engine.run, refused_undo, budget)


@pytest.mark.slow
@pytest.mark.timeout(900)  # a minute or two idle; far longer on a busy machine
def test_a_large_animation_then_many_edits_keeps_memory_bounded(server):
    def run(command: str, params: dict | None = None) -> dict:
        result = server.run("command_run", {"id": command, "params": params or {}}, timeout=120)
        assert result["isError"] is False, result["content"][0]["text"][:300]
        return json.loads(result["content"][0]["text"])

    def refused_undo() -> str:
        refused = server.run("command_run", {"id": "edit.undo", "params": {}})
        assert refused["isError"] is True
        return refused["content"][0]["text"]

    # The largest animation a property may hold: about 7.5 MB as JSON, 40 MB as objects.
    animate(run, MAX_KEYS)
    edit(run)
    # Before, every step was the document as objects: 33 copies of 40 MB. Now the kept steps
    # are JSON text within the budget, beside the document itself.
    rss = psutil.Process(server.process.pid).memory_info().rss
    assert rss < MAX_HISTORY_BYTES + 350 * 1024 * 1024, f"{rss / 2 ** 20:.0f} MiB"
    check_history(run, refused_undo, MAX_HISTORY_BYTES)


def animate(run, keys: int) -> None:
    run("comp.new", {"name": "Main", "width": 64, "height": 36})
    run("layer.add", {"comp": "Main", "type": "null", "name": "N"})
    run("prop.set", {"comp": "Main", "layer": "N", "path": "transform.position",
                     "value": {"keys": [{"time": i / 30, "value": [i * 0.5, i * 1.5]}
                                        for i in range(keys)]}})


def edit(run) -> None:
    for number in range(EDITS):
        run("comp.set", {"comp": "Main", "duration": 10 + number})


def check_history(run, refused_undo, budget: int) -> None:
    history = run("edit.history")
    # Each step kept the whole document: past the byte budget, the oldest were dropped, and
    # edit.history says so.
    assert history["bytes"] <= budget
    assert history["dropped"] > 0
    kept = len(history["undo"])
    assert kept + history["dropped"] == EDITS + 3
    assert "dropped" in history["note"] and str(kept) in history["note"]
    # Every kept step undoes exactly, newest first; one more is refused with a sentence.
    for number in reversed(range(EDITS - kept, EDITS)):
        run("edit.undo")
        duration = run("comp.list")["comps"][0]["duration"]
        assert duration == (10 + number - 1 if number else 10.0)
    assert "edit.history" in refused_undo()
    run("edit.redo", {"steps": kept})
    assert run("comp.list")["comps"][0]["duration"] == 10 + EDITS - 1
