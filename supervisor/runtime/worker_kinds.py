"""The kinds of worker and what each means to the pool: one table, so adding a kind is one entry
and the pool never branches on a kind's name.

    render   a fixed number (`--workers`), for render chunks; each draws, under the drawing
             memory limit
    preview  one, always warm, so a running render never delays a preview; it draws under the
             drawing memory limit, and no job may hold it past the preview deadline
    probe    a few, for reading files nobody vouches for (footage, fonts, captions, data
             files: workers/probes/), so a parser that crashes, loops or balloons takes a
             worker down and never the supervisor; under the probe memory limit and the probe
             deadline, and killed at once when stopped (a probe writes nothing)
    shell    one per running shell call, retired after it with whatever its command left; a warm
             spare waits so the next call starts at once; it runs a user's command, so no
             memory limit (the command would inherit it)
"""

from __future__ import annotations

from dataclasses import dataclass

# No job may hold the one preview worker longer than this (a preview, or a comp.saveFrameAs
# still): past it the job is stopped, the worker killed with its tree and replaced, and the
# previews waiting behind it are served. A full-size preview of a 16384 x 9216 comp took 11 s
# on a loaded 2-core machine, so one of the largest (16384 a side) about 20 s; shorter would
# refuse such honest frames, longer would leave an agent, and every preview queued behind,
# waiting on a comp too heavy to look at. Renders have no such deadline: they run on the
# render workers and are cancellable.
PREVIEW_DEADLINE = 30.0
# No probe may take longer than this. Reading what a file is takes milliseconds (a video's
# headers, an image's header, a font's tables) up to about 3 s for the largest honest input
# (a 64 MiB SVG map, parsed whole, on a loaded 2-core machine); a file built to make a parser
# loop or crawl is stopped here, and the imports queued behind it are served. Longer would let
# one such file hold every import for longer than an agent waits; shorter would refuse large
# honest files on a busy machine.
PROBE_DEADLINE = 20.0


@dataclass(frozen=True)
class Deadline:
    """How long one job may hold a worker of a kind, and the setting an operator (or a test)
    may give it in seconds instead."""
    seconds: float
    setting: str


@dataclass(frozen=True)
class WorkerKind:
    name: str
    # How many may run at once: "workers" (the pool's render count), a number, or None (one per
    # job, as many as jobs run).
    capacity: str | int | None
    # Which memory limit it runs under (supervisor/runtime/worker_memory.py): "drawing",
    # "probe", or None for none.
    memory: str | None
    # Runs a user's command in a session of its own: retired after every job (whatever the
    # command left behind dies with it), a warm spare kept, and a command whose worker died
    # before naming it is found by its session.
    runs_commands: bool = False
    # The longest one job may hold it, or None: stopped by its caller's cancel alone.
    deadline: Deadline | None = None
    # A stopped job is given the teardown grace to stop by itself (a render removes the files
    # it was writing, a shell's command gets SIGTERM); a kind whose jobs write nothing and
    # start nothing is killed at once, so a cancel or SIGTERM never waits on it.
    tidies_up: bool = True


KINDS: dict[str, WorkerKind] = {kind.name: kind for kind in (
    WorkerKind("render", capacity="workers", memory="drawing"),
    WorkerKind("preview", capacity=1, memory="drawing",
               deadline=Deadline(PREVIEW_DEADLINE, "RENDERVISOR_PREVIEW_DEADLINE")),
    # Two, so one file that runs to the deadline leaves another import its worker.
    WorkerKind("probe", capacity=2, memory="probe",
               deadline=Deadline(PROBE_DEADLINE, "RENDERVISOR_PROBE_DEADLINE"),
               tidies_up=False),
    WorkerKind("shell", capacity=None, memory=None, runs_commands=True),
)}
