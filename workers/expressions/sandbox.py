"""The sandbox expressions run in: QuickJS (the quickjs-ng engine, through the `quickjs-ng`
package), with After Effects' API (api.js), and no host function at all.

    sandbox = current_sandbox()                  # this thread's, made on first use
    faults = sandbox.load(host)                  # host.scene's expressions, compiled
    sandbox.evaluate(host, key, times, owns) -> values   # or raises Fault / LimitExceeded

What an expression can reach: JavaScript's own built-ins (frozen) and the API. No file, no
network, no clock (`Date.now`, `new Date()` and `performance` are gone), no entropy
(`Math.random` and `random()` are seeded by the layer, the property and the time), no timers,
no module loader: QuickJS without its `std` and `os` modules has none of these to give. Local
time is UTC (the process's time zone is set so), and everything an expression can reach is
frozen (api.js, at the end), so a frame never depends on where or after what it was drawn. What
it needs of the document it asks as questions (api.js, at the top), which `host.answer`
answers here between runs: the engine never calls into Python. An expression is evaluated
for many times in one call (a window of a chunk's frames), so a frame of a hundred expressions
costs a hundred runs in QuickJS but only a few crossings into it.

Bounds, per context: MEMORY_LIMIT for everything the expressions allocate, TIME_LIMIT of CPU
for each run (QuickJS's interrupt handler stops the loop it is in), STACK_LIMIT for recursion.
A context that hit a bound is thrown away and made again on next use, so nothing a stopped run
left half done can change the next one.

One context per thread: QuickJS must not be entered from two threads, and a Dask worker runs
its tasks on several. Must never run in the supervisor process.
"""

from __future__ import annotations

import json
import os
import threading
from time import tzset
from dataclasses import dataclass, replace
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
    it), and the answer to one of api.js's questions (a value JSON can hold; a ValueError
    whose message is a sentence when there is none)."""

    scene: str

    def answer(self, kind: str, key: str, time: float) -> Any: ...


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
    """An evaluation was stopped by a bound (`bound`: "time", "memory" or "stack") at `time`."""

    def __init__(self, bound: str, time: float) -> None:
        super().__init__(bound)
        self.bound = bound
        self.time = time

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

    def evaluate(self, host: Host, key: str, times: list[float], owns: list) -> list:
        """What the expression on property `key` gives at each of `times` (decoded from
        JSON); `owns`: the property's own value at each. A Fault or LimitExceeded for the
        first time (in order) whose evaluation fails."""
        if self._loaded is not host:  # another document's were loaded on this thread since
            self.load(host)
        times = [float(time) for time in times]
        results: dict[int, Any] = {}
        waiting = list(range(len(times)))  # indexes still to evaluate
        runs = [0] * len(times)  # each time's runs that met questions
        while waiting:
            outcomes, asked = self._run(key, [times[i] for i in waiting],
                                        [owns[i] for i in waiting])
            if asked:
                self._calls["__answer"](json.dumps(
                    [[kind, on, at, _answer(host, kind, on, at)] for kind, on, at in asked]))
            still = []
            for index, outcome in zip(waiting, outcomes):
                if outcome[0] == "v":
                    results[index] = outcome[1]
                elif outcome[0] == "e":
                    fault = Fault.from_report(outcome[1])
                    results[index] = replace(fault, time=times[index]) \
                        if fault.time is None else fault
                elif runs[index] + 1 >= MAX_RUNS:
                    results[index] = Fault(
                        key, times[index], None, None, "", f"it asked for values at too many "
                        f"times ({MAX_RUNS} rounds of questions); read fewer times per frame")
                else:
                    runs[index] += 1
                    still.append(index)
            # A batch that stopped early (its time was up) is asked again for the rest: those
            # times have not run, so it costs them no round.
            waiting = still + waiting[len(outcomes):]
        values = [results[index] for index in range(len(times))]
        for value in values:
            if isinstance(value, Fault):
                raise value
        return values

    def _run(self, key: str, times: list[float], owns: list) -> tuple[list, list]:
        """One call of api.js's evaluate: (the outcomes, in order, perhaps fewer than the
        times; the questions met)."""
        self._ready()
        try:
            answer = json.loads(self._calls["__evaluate"](key, json.dumps(times),
                                                          json.dumps(owns)))
            return answer["results"], answer["asked"]
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
        stopped = json.loads(self._calls["__running"]())
        done = [["?"]] * max(0, stopped["index"])  # finished runs, discarded: asked again
        if stopped["asked"]:
            # A run stopped while it still had questions may have been lost in a stand-in's
            # loop: it counts only once everything it asked is answered.
            return done + [["?"]], stopped["asked"]
        self._context = None  # made again, with the same document, on next use
        raise LimitExceeded(bound, times[max(0, stopped["index"])])

    def _ready(self) -> None:
        if self._context is not None:
            return
        _local_time_is_utc()
        context = _quickjs.Context()
        context.set_memory_limit(MEMORY_LIMIT)
        context.set_max_stack_size(STACK_LIMIT)
        context.eval(API_SOURCE)
        context.set_time_limit(TIME_LIMIT)
        self._context = context
        self._calls = {name: context.get(name)
                       for name in ("__load", "__evaluate", "__answer", "__running")}
        if self._loaded is not None:
            self._calls["__load"](self._loaded.scene)


def _local_time_is_utc() -> None:
    """QuickJS reads local time (new Date(2024, 0, 1), getHours) in the process's time zone:
    this worker's is made UTC, so render nodes in two zones draw the same frames. Set before
    the first context of a process (glibc reads the zone once), and again if it was changed."""
    if os.environ.get("TZ") != "UTC":
        os.environ["TZ"] = "UTC"
        tzset()


def _answer(host: Host, kind: str, key: str, time: float):
    """A host's answer as api.js takes it: the value, or {problem: sentence} for the
    ValueError the host raised (another expression failing on the way, a layer with no
    box): the expression that asked raises it as its own error."""
    try:
        return host.answer(kind, key, time)
    except ValueError as error:
        return {"problem": str(error)}


_local = threading.local()


def current_sandbox() -> Sandbox:
    """This thread's sandbox, made on first use."""
    sandbox = getattr(_local, "sandbox", None)
    if sandbox is None:
        sandbox = _local.sandbox = Sandbox()
    return sandbox
