"""The kinds of worker and what each means to the pool: one table, so adding a kind is one entry
and the pool never branches on a kind's name.

    render   a fixed number (`--workers`), for render chunks; each draws, under the memory limit
    preview  one, always warm, so a running render never delays a preview; it draws under the
             memory limit, and no job may hold it past the preview deadline
    shell    one per running shell call, retired after it with whatever its command left; a warm
             spare waits so the next call starts at once; it runs a user's command, so no
             memory limit (the command would inherit it)
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class WorkerKind:
    name: str
    # How many may run at once: "workers" (the pool's render count), a number, or None (one per
    # job, as many as jobs run).
    capacity: str | int | None
    # Draws frames: runs under the workers' memory limit.
    draws: bool
    # Runs a user's command in a session of its own: retired after every job (whatever the
    # command left behind dies with it), a warm spare kept, and a command whose worker died
    # before naming it is found by its session.
    runs_commands: bool = False
    # Held to the pool's preview deadline.
    has_deadline: bool = False


KINDS: dict[str, WorkerKind] = {kind.name: kind for kind in (
    WorkerKind("render", capacity="workers", draws=True),
    WorkerKind("preview", capacity=1, draws=True, has_deadline=True),
    WorkerKind("shell", capacity=None, draws=False, runs_commands=True),
)}
