"""`rendervisor mcp`: start the pieces in the right order, serve, and end within bounds.

Order matters: the subreaper flag and the forkserver come first, while this process is still
single-threaded, so no worker is ever forked from a multithreaded process; threads (the stdin
reader, lanes, pre-warming) start only after.
"""

from __future__ import annotations

import logging
import multiprocessing.util
import os
import shutil
import signal
import sys
import threading

from supervisor.confinement.shell_policy import shell_mode
from supervisor.errors import UsageError
from supervisor.mcp.server import Server
from supervisor.mcp.session import Options, Session
from supervisor.mcp.tools.shell_tool import check_sandbox
from supervisor.runtime import teardown
from supervisor.runtime.pool import Pool, make_context, worker_preload


def run(args) -> int:
    # Roots are checked before anything starts: a confined session with a mistyped root would
    # otherwise run with less (or, were the folder made later, other) access than was meant.
    for flag, roots in (("--read-root", args.read_root), ("--write-root", args.write_root)):
        for root in roots:
            if not os.path.isdir(root):
                raise UsageError(f"rendervisor mcp: {flag} {root} is not an existing folder; "
                                 "create it or fix the path")
    shell_mode(args.shell, bool(args.read_root or args.write_root))  # host while confined: exit 2
    logging.basicConfig(stream=sys.stderr, level=args.log_level,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    options = Options(project=args.project, read_roots=args.read_root,
                      write_roots=args.write_root, workers=args.workers,
                      max_inflight=args.max_inflight, join_grace=args.join_grace,
                      teardown_grace=args.teardown_grace, log_level=args.log_level,
                      shell=args.shell)
    teardown.become_subreaper()
    preload = worker_preload()
    context = make_context(preload)
    pool = Pool(context, options.workers, options.teardown_grace, preload)
    try:
        session = Session(options, pool)
    except Exception as exc:  # an unreadable --project: one line, exit 2
        pool.close()
        raise UsageError(f"rendervisor mcp: {exc}") from None

    # Before the first call, so a sandbox that cannot run here is refused from the start and
    # the tool's description says why.
    check_sandbox(session)
    server = Server(session, sys.stdin.buffer, sys.stdout.buffer, options.max_inflight)
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: server.request_end("signal"))
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    pool.warm("preview")
    pool.warm("probe")  # the first import or project.open reads its file at once
    pool.warm("shell")
    threading.Thread(target=server.read_forever, daemon=True, name="stdin-reader").start()
    while not server.ended.wait(3600):
        pass
    server.finish(options.join_grace, options.teardown_grace)
    session.close()
    pool.close()
    logging.shutdown()
    # os._exit skips multiprocessing's exit hooks, among them the one that removes its temporary
    # folder (the forkserver's socket is in it): without this, every session leaves a pymp-*
    # folder in /tmp.
    shutil.rmtree(multiprocessing.util.get_temp_dir(), ignore_errors=True)
    # os._exit: the stdin reader may still be blocked in a read that will never return, and
    # interpreter shutdown would wait on it; everything worth flushing is flushed.
    os._exit(0)
