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
from supervisor.studio.app import Studio
from supervisor.studio.server import StudioServer
from supervisor.studio.source import Source


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
    studio = studio_server = None
    if args.studio is not None:  # --studio: the page a person follows the session on
        studio = Studio(Source(session.engine, pool, "rendervisor mcp session",
                               stop_call=lambda key: server.stop_call(key)))
        try:
            studio_server = StudioServer(studio, *args.studio)
        except UsageError as error:
            pool.close()
            raise UsageError(f"rendervisor mcp --studio: {error}") from None
        session.studio_url = studio_server.url
    server = Server(session, sys.stdin.buffer, sys.stdout.buffer, options.max_inflight,
                    watcher=studio.activity if studio else None)
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: server.request_end("signal"))
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    pool.warm("preview")
    pool.warm("probe")  # the first import or project.open reads its file at once
    pool.warm("shell")
    if studio_server is not None:
        studio_server.start()
        print(f"rendervisor mcp: the studio follows this session at {studio_server.url}",
              file=sys.stderr, flush=True)
    threading.Thread(target=server.read_forever, daemon=True, name="stdin-reader").start()
    while not server.ended.wait(3600):
        pass
    server.finish(options.join_grace, options.teardown_grace)
    if studio_server is not None:
        studio_server.close()
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
