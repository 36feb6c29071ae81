"""The sandbox expressions run in: QuickJS (the quickjs-ng engine, through the `quickjs-ng`
package), with After Effects' API (api.js), and no host function at all.

    sandbox = current_sandbox()                  # this thread's, made on first use
    faults = sandbox.load(host)                  # host.scene's expressions, compiled
    sandbox.evaluate(host, key, time) -> value   # or raises Fault / LimitExceeded

What an expression can reach: JavaScript's own built-ins (frozen) and the API. No file, no
network, no clock (`Date.now`, `new Date()` and `performance` are gone), no entropy
(`Math.random` and `random()` are seeded by the layer, the property and the time), no timers,
no module loader: QuickJS without its `std` and `os` modules has none of these to give. What
it needs of the document it asks as questions (api.js, at the top), which `host.answer`
answers here between runs: the engine never calls into Python.

Bounds, per context: MEMORY_LIMIT for everything the expressions allocate, TIME_LIMIT of CPU
for each run (QuickJS's interrupt handler stops the loop it is in), STACK_LIMIT for recursion.
A context that hit a bound is thrown away and made again on next use, so nothing a stopped run
left half done can change the next one.

One context per thread: QuickJS must not be entered from two threads, and a Dask worker runs
its tasks on several. Must never run in the supervisor process.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from importlib import resources
from typing import Any, Protocol

# The binding's C module: `import quickjs` (its Python wrapper) also starts a thread pool at
# import, which a forkserver that preloads this module must not hold.
import _quickjs

# Memory for one context's expressions: a 100 MB string is refused; what real expressions
# hold (a few arrays, a path) is kilobytes. The context itself takes about 1 MiB.
MEMORY_LIMIT = 64 << 20
# One evaluation's time: `while (true) {}` is stopped after it. A heavy honest expression
# (a loop over a thousand points) takes milliseconds; the bound only has to be far above that
# and short enough that a runaway one fails its render in a second, not a preview's deadline.
TIME_LIMIT = 1.0
# Recursion: deep enough for any honest expression, far short of the C stack.
STACK_LIMIT = 512 << 10

API_SOURCE = resources.files("workers.expressions").joinpath("api.js").read_text("utf-8")


# Runs of one evaluation at most: each run asks what the last answers led it to (a loopOut
# asks for the keys, then for a value among them), so honest expressions take one to four.
MAX_RUNS = 64


class Host(Protocol):
    """A document's scene (JSON: comps, layers, paths, expressions, as api.js's __load reads
    it), and the answer to one of api.js's questions (JSON, or "!" and a sentence)."""

    scene: str

    def answer(self, question: str) -> str: ...


@dataclass(frozen=True)
class Fault(Exception):
    """An expression raised an error (or gave no usable value): where and what, as api.js's
    `report` says it. `slot` is the key of the property whose expression it was."""
    slot: str | None
    time: float | None
    line: int | None
    column: int | None
    kind: str  # the JavaScript error's name ("ReferenceError"), "" for the API's own
    message: str

    @classmethod
    def from_report(cls, report) -> "Fault":
        fields = json.loads(report) if isinstance(report, str) else report
        return cls(fields["slot"], fields["time"], fields["line"], fields["column"],
                   fields["kind"], fields["message"])

    def what(self) -> str:
        """`ReferenceError: foo is not defined (line 1, column 5)`."""
        text = f"{self.kind}: {self.message}" if self.kind else self.message
        if self.line is not None:
            text += f" (line {self.line}, column {self.column})"
        return text


class LimitExceeded(Exception):
    """An evaluation was stopped by a bound; `bound` is "time", "memory" or "stack"."""

    def __init__(self, bound: str) -> None:
        super().__init__(bound)
        self.bound = bound

    def what(self) -> str:
        if self.bound == "time":
            return f"it ran longer than the {TIME_LIMIT:g} s an evaluation may take"
        if self.bound == "memory":
            return f"it used more than the {MEMORY_LIMIT >> 20} MiB expressions may hold"
        return "it recursed deeper than expressions may (a function that never stops calling " \
               "itself?)"


class Sandbox:
    def __init__(self) -> None:
        self._loaded: Host | None = None  # whose scene the context holds
        self._context = None
        self._calls: dict = {}

    def load(self, host: Host) -> list[Fault]:
        """Compile the host's expressions; the ones that do not compile, as faults (their
        evaluation raises the same fault)."""
        self._ready()
        problems = self._calls["__load"](host.scene)
        self._loaded = host
        return [Fault.from_report(report) for report in json.loads(problems)]

    def evaluate(self, host: Host, key: str, time: float, own: str) -> Any:
        """The value the expression on property `key` gives at `time` (decoded from JSON).
        `own`: the property's own value at `time`, as JSON (given with the first run)."""
        if self._loaded is not host:  # another document's were loaded on this thread since
            self.load(host)
        for run in range(MAX_RUNS):
            answer = self._run(key, float(time), own if run == 0 else None)
            if answer[0] == "e":
                raise Fault.from_report(answer[1:])
            if answer[0] == "v":
                return json.loads(answer[1:])
            questions = json.loads(answer[1:])
            self._calls["__answer"](json.dumps({q: host.answer(q) for q in questions}))
        raise Fault(key, time, None, None, "", f"it asked for values at too many times "
                    f"({MAX_RUNS} rounds of questions); read fewer times per frame")

    def _run(self, key: str, time: float, own: str | None) -> str:
        self._ready()
        try:
            if own is None:
                return self._calls["__evaluate"](key, time)
            return self._calls["__evaluate"](key, time, own)
        except _quickjs.StackOverflow:
            bound = "stack"
        except _quickjs.JSException as error:
            text = str(error)
            if "interrupted" in text:
                bound = "time"
            elif "out of memory" in text or "string too long" in text or \
                    text.strip() == "null":  # what QuickJS throws when even its error is too big
                bound = "memory"
            elif "stack" in text:
                bound = "stack"
            else:
                raise
        # A run stopped while it still had questions may have been lost in a stand-in's
        # loop: it counts only once everything it asked is answered.
        pending = self._calls["__pending"]()
        if pending != "[]":
            return "?" + pending
        self._context = None  # made again, with the same document, on next use
        raise LimitExceeded(bound)

    def _ready(self) -> None:
        if self._context is not None:
            return
        context = _quickjs.Context()
        context.set_memory_limit(MEMORY_LIMIT)
        context.set_max_stack_size(STACK_LIMIT)
        context.eval(API_SOURCE)
        context.set_time_limit(TIME_LIMIT)
        self._context = context
        self._calls = {name: context.get(name)
                       for name in ("__load", "__evaluate", "__answer", "__pending")}
        if self._loaded is not None:
            self._calls["__load"](self._loaded.scene)


_local = threading.local()


def current_sandbox() -> Sandbox:
    """This thread's sandbox, made on first use."""
    sandbox = getattr(_local, "sandbox", None)
    if sandbox is None:
        sandbox = _local.sandbox = Sandbox()
    return sandbox
