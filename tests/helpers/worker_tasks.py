"""Tasks only the tests run, preloaded into test workers beside the real ones
(tests/helpers/worker_pools.py): stand-in long jobs, deaths and broken pipes on purpose, so the
pool's handling of each can be watched. They never ship: workers/tasks.py holds the real ones.
"""

from __future__ import annotations

from workers.tasks import task


@task("sleep")
def sleep(job):
    """Sleeps in small steps, stopping early on cancel: a stand-in long job for tests."""
    import time
    deadline = time.monotonic() + float(job.payload.get("seconds", 1))
    while time.monotonic() < deadline:
        job.cancel.check()
        time.sleep(0.01)
    return {"slept": True}


@task("crash")
def crash(job):
    """Kills its own worker with a signal: how tests see a worker dying mid-job."""
    import os
    import signal
    os.kill(os.getpid(), getattr(signal, job.payload.get("signal", "SIGKILL")))


@task("log")
def log_line(job):
    """Logs one line in the worker: how tests see worker logs reach the supervisor's logging."""
    import logging
    logging.getLogger("rendervisor.worker.diagnostic").warning("%s", job.payload)
    return True


@task("misbehave")
def misbehave(job):
    """Breaks its own pipe on purpose: how tests see the supervisor survive a worker that writes
    garbage. payload["mode"]: "garbage" (bytes that are no msgpack), "oversized" (a header
    announcing a frame over MAX_FRAME), "unknown_kind", "bad_log" (a log frame whose record is
    not a map), "truncated" (half a frame, then silence), "huge_result" (a result over
    MAX_FRAME, which the worker itself must refuse to send), "garbage_later" (answers, then
    writes garbage while idle), "orphan" (starts `sleep
    payload["seconds"]` in a session of its own and kills itself before saying so). Then it
    waits to be killed."""
    import time

    import msgpack

    from protocol.wire import frames

    def framed(frame: dict) -> bytes:  # packed here, so frames.encode's own checks are skipped
        body = msgpack.packb(frame, use_bin_type=True)
        return frames.HEADER.pack(len(body)) + body

    mode = job.payload["mode"]
    if mode == "huge_result":
        return b"x" * (frames.MAX_FRAME + 1)
    if mode == "garbage_later":  # answers, then breaks its pipe while idle
        import threading

        def later() -> None:
            time.sleep(0.2)
            job.channel.send_raw(frames.HEADER.pack(32) + b"\xc1" * 32)

        threading.Thread(target=later, daemon=True).start()
        return {"answered": True}
    if mode == "orphan":  # a command in its own session, then death before anyone is told
        import os
        import signal
        import subprocess
        subprocess.Popen(["sleep", job.payload["seconds"]], start_new_session=True)
        os.kill(os.getpid(), signal.SIGKILL)
    job.channel.send_raw({
        "garbage": frames.HEADER.pack(32) + b"\xc1" * 32,  # 0xc1 is never valid msgpack
        "oversized": frames.HEADER.pack(frames.MAX_FRAME + 1) + b"\x00" * 64,
        "unknown_kind": framed({"kind": "bogus", "id": job.id}),
        "bad_log": framed({"kind": "log", "record": "not a map"}),
        "truncated": frames.HEADER.pack(1000) + b"\x81\xa4kind",
    }[mode])
    if mode == "truncated":
        return {"sent": "half a frame"}  # this result disappears into the half frame
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        job.cancel.check()
        time.sleep(0.01)
    return {"survived": True}
