"""The studio's HTTP server: uvicorn on a thread of its own, with its own event loop.

    supervisor threads (stdin reader, lanes, renders) ──poke──► Changes ──► the studio's loop
                                                                              │ uvicorn (h11)
    browser ◄──────────────── http://127.0.0.1:PORT/TOKEN/ ──────────────────┘

The socket is bound before the thread starts, so a port in use is one sentence at start-up
and the address is known at once (port 0 takes a free port). Bounds: uvicorn refuses a request
past MAX_CONNECTIONS open connections and tasks (503) and drops an idle keep-alive connection
after KEEP_ALIVE seconds; h11 refuses a request head larger than its 16 KB buffer. A browser
that stops reading stalls only its own stream: the transport's buffer fills, and the stream's
next write waits on it, while nothing the supervisor owns waits for the studio.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import sys
import threading

import uvicorn

from supervisor.errors import UsageError
from supervisor.studio.app import Studio
from supervisor.studio.guard import hosts_for

log = logging.getLogger("rendervisor.studio")

# Connections and requests at once. Eight pages' streams, their frames and assets fit well
# under it; a page (or a script) opening connections in a loop gets 503 past it.
MAX_CONNECTIONS = 48
KEEP_ALIVE = 5  # seconds an idle connection is kept
# How long `close` waits for the thread: open streams are ended, not drained.
CLOSE_WAIT = 3.0
# The interpreter's switch interval while the studio runs (CPython's default is 5 ms). The
# studio's thread runs Python for a millisecond or two per request (routing, a frame's bytes);
# a ping landing then waited up to the whole interval for the stdin reader to get the
# interpreter back, which showed in the ping's p99 while a page scrubbed. Shorter, the reader
# gets it back within this; the cost is more frequent switches between threads that all want
# to run Python at once (docs/performance.md, "The studio beside the front door").
SWITCH_INTERVAL = 0.0005


class StudioServer:
    def __init__(self, studio: Studio, host: str = "127.0.0.1", port: int = 0) -> None:
        self.studio = studio
        self.socket = _bound(host, port)
        self.port = self.socket.getsockname()[1]
        shown = f"[{host}]" if ":" in host else host
        self.url = f"http://{shown}:{self.port}/{studio.token}/"
        config = uvicorn.Config(studio.app(hosts_for(host, self.port)), log_config=None,
                                access_log=False, lifespan="off", http="h11", ws="none",
                                loop="asyncio", limit_concurrency=MAX_CONNECTIONS,
                                timeout_keep_alive=KEEP_ALIVE, timeout_graceful_shutdown=1)
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._run, daemon=True, name="studio")

    def start(self) -> "StudioServer":
        sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_INTERVAL))
        self._thread.start()
        return self

    def _run(self) -> None:
        async def serve() -> None:
            await self.studio.start()
            await self._server.serve(sockets=[self.socket])

        try:
            asyncio.run(serve())
        except Exception:  # the studio failing must never take the session with it
            log.exception("the studio stopped")

    def close(self) -> None:
        self._server.should_exit = True
        self._server.force_exit = True  # open event streams never end by themselves
        self._thread.join(CLOSE_WAIT)
        self.socket.close()


def _bound(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        sock = socket.create_server((host, port), family=family, reuse_port=False)
    except (OSError, OverflowError) as error:
        raise UsageError(f"the studio cannot listen on {host}:{port} "
                         f"({getattr(error, 'strerror', None) or error}); choose another "
                         "address or port.") from None
    sock.set_inheritable(False)
    return sock
