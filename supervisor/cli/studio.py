"""`rendervisor studio PROJECT [--host H] [--port P]`: the studio for a saved project.

Serves the page (supervisor/studio/) on 127.0.0.1 and a free port unless told otherwise, prints
its address (with its token) and keeps serving until Ctrl-C or SIGTERM. The page scrubs and
plays the project's comps (each frame drawn on the preview worker), starts and stops its
render queue, and shows the project again whenever its file changes on disk; the file is never
written. On the way out a render still running is stopped and its partial files removed.
"""

from __future__ import annotations

import signal
import sys
import threading

from supervisor.cli.project import open_engine
from supervisor.errors import UsageError
from supervisor.render.service import RenderService
from supervisor.runtime.pool import Pool, start_forkserver, worker_preload
from supervisor.studio.app import Studio
from supervisor.studio.server import StudioServer
from supervisor.studio.source import Source


def run(args) -> int:
    # The forkserver first, while this process is still single-threaded (as every command
    # that starts workers does): no worker is ever forked from a process with threads.
    context = start_forkserver()
    engine = open_engine(args.project, "studio")
    pool = Pool(context, args.workers, preload=worker_preload())
    engine.render_service = RenderService(pool)
    studio = Studio(Source(engine, pool, title=engine.project_path, can_render=True,
                           project_file=engine.project_path))
    try:
        server = StudioServer(studio, args.host, args.port)
    except UsageError as error:  # the address is taken or cannot be had: one line, exit 2
        pool.close()
        raise UsageError(f"rendervisor studio: {error}") from None
    stopped = threading.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: stopped.set())
    pool.warm("preview")
    server.start()
    print(f"rendervisor studio: open {server.url} in a browser (Ctrl-C stops it)", flush=True)
    try:
        while not stopped.wait(3600):
            pass
    finally:
        server.close()
        engine.render_service.close()  # a render still running: stopped, partial files removed
        pool.close()
    print("rendervisor studio: stopped", file=sys.stderr)
    return 0
