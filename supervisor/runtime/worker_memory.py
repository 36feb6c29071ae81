"""How much memory each kind of worker may take, and how a limit is named.

A small input can make drawing need memory without bound (a shape of a billion corners, a huge
comp at full size); without a limit one worker takes the whole machine, and the kernel's OOM
killer then picks a victim, maybe the supervisor or another user's process. With a limit, the
allocation that crosses it fails inside the worker (a MemoryError), the job fails with a
sentence naming the limit, and the worker is replaced (supervisor/runtime/pool.py).

The limit is on address space (RLIMIT_AS, set by each worker on itself: workers/worker_main.py),
which works on every Linux without privileges; a cgroup's memory.max would count resident
memory instead, but needs a delegated cgroup v2 subtree, which a desktop session or a
container seldom grants. Address space is more than what a worker touches: thread stacks,
malloc arenas, Skia and FFmpeg reserve generously, so the limit is set far above what real
renders use (measured on a 2-core machine, VmPeak of one worker: 0.5 GB idle, 0.9 GB for a
1080p h264 render, 2.0 GB for 1080p vp9, 2.2 GB for a full-size 16384x9216 preview, 5.7 GB for
a 4K vp9 render, whose encoder alone holds 5 GB).

Probe workers (which read files nobody vouches for: workers/probes/) get a limit of their own,
PROBE_MEMORY: reading what a file is needs far less than drawing it, and a file built to make a
parser balloon (a font whose tables inflate to gigabytes, an SVG of millions of nodes) is
stopped there, early, as a sentence naming the file.

Shell workers get no limit: a user's command (a compiler, a JVM, which reserves gigabytes of
address space up front) is not rendering, and inherits whatever limit its worker has.
"""

from __future__ import annotations

import os

from supervisor.runtime.env_settings import positive_number

# Never less than this per worker: enough address space for a 4K vp9 render (5.7 GB measured)
# with room for a machine with more cores (more encoder threads, more stacks). Lower, and real
# renders would hit it; higher, and on a small machine a runaway worker would push the whole
# machine into swap or the OOM killer before reaching it.
WORKER_MEMORY_FLOOR = 8 << 30
# An operator (or a test) may set the limit instead, in MiB: a small machine running several
# sessions, or a farm node rendering 8K vp9.
LIMIT_SETTING = "RENDERVISOR_WORKER_MEMORY_MIB"
# Address space per probe worker. An idle worker reserves about 0.4 GB (its preloaded modules);
# Skia's SVG parser took 1.9 GB for a 62 MiB SVG of 1.5 million rectangles, the largest vector
# footage read whole (protocol/model/limits.py), so 3 GiB reads every honest file with room.
# More would let a hostile file take more of the machine before it is stopped (two probe
# workers may run at once); less would refuse large honest SVG and Lottie files.
PROBE_MEMORY = 3 << 30
PROBE_LIMIT_SETTING = "RENDERVISOR_PROBE_MEMORY_MIB"


def worker_memory_limit(render_workers: int) -> int:
    """Bytes of address space per drawing worker: the machine's memory shared among the render
    workers and the preview worker (so together they cannot take more than the machine has),
    but never below WORKER_MEMORY_FLOOR; or the operator's setting."""
    share = machine_memory() // (max(1, render_workers) + 1)
    default_mib = max(WORKER_MEMORY_FLOOR, share) >> 20
    return int(positive_number(LIMIT_SETTING, default_mib, "MiB")) << 20


def probe_memory_limit() -> int:
    """Bytes of address space per probe worker: PROBE_MEMORY, or the operator's setting."""
    return int(positive_number(PROBE_LIMIT_SETTING, PROBE_MEMORY >> 20, "MiB")) << 20


def memory_limits(render_workers: int) -> dict[str, int]:
    """Each memory limit a worker kind names (supervisor/runtime/worker_kinds.py), in bytes."""
    return {"drawing": worker_memory_limit(render_workers), "probe": probe_memory_limit()}


def machine_memory() -> int:
    return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")


def describe_bytes(count: int) -> str:
    """'8 GiB', '1.5 GiB', '512 MiB': how a limit is named in a sentence."""
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20)):
        if count >= size:
            return f"{round(count / size, 1):g} {unit}"
    return f"{count} bytes"
