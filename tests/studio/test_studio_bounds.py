"""A hostile or stuck browser cannot hold a live session: pages that never read their streams,
more pages than the studio follows, and connections that never finish their request, while
the agent edits and pings."""

from __future__ import annotations

import socket
import time
from urllib.parse import urlsplit

from supervisor.studio.app import MAX_STREAMS
from tests.helpers.studio_process import http
from tests.studio.test_studio_live import live  # noqa: F401  (the fixture)

STALLED_CONNECTIONS = 30  # with the streams, under the server's connection bound
ANSWERED_WITHIN = 30.0  # seconds, for a ping or an edit on a busy machine: a hang, not a speed


def connect(url: str) -> socket.socket:
    parts = urlsplit(url)
    return socket.create_connection((parts.hostname, parts.port), timeout=10)


def whole_answer(connection: socket.socket) -> bytes:
    """A complete HTTP answer with a Content-Length, however the bytes arrive."""
    data = b""
    while b"\r\n\r\n" not in data:
        data += connection.recv(4096)
    head, _, body = data.partition(b"\r\n\r\n")
    length = int(next(line.split(b":")[1] for line in head.split(b"\r\n")
                      if line.lower().startswith(b"content-length")))
    while len(body) < length:
        body += connection.recv(4096)
    return head + b"\r\n\r\n" + body


def test_pages_that_never_read_and_stalled_connections_never_hold_the_session(live):  # noqa: F811
    server, url, _ = live
    path = urlsplit(url).path
    host = urlsplit(url).netloc
    server.run("command_run", {"id": "comp.new", "params": {"name": "Main", "width": 64,
                                                            "height": 36, "duration": 1}})
    readers = []
    for _ in range(MAX_STREAMS):  # pages whose streams are opened and never read again
        reader = connect(url)
        reader.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        reader.sendall(f"GET {path}events HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
        readers.append(reader)
    stalled = []
    for _ in range(STALLED_CONNECTIONS):  # request heads that never end
        stalled.append(connect(url))
        stalled[-1].sendall(f"GET {path}state HTTP/1.1\r\nHost: {host}\r\n".encode())
    try:
        # Edits push a new document to every stream, which nobody reads.
        for number in range(60):
            started = time.monotonic()
            server.run("command_run", {"id": "layer.add", "params": {
                "comp": "Main", "type": "text", "text": "x" * 2000, "name": f"L{number}"}},
                timeout=ANSWERED_WITHIN)
            ping = server.wait_for(server.request("ping"), ANSWERED_WITHIN)
            assert ping["result"] == {}
            assert time.monotonic() - started < ANSWERED_WITHIN
        # One page more than the studio follows is told so, at once.
        extra = connect(url)
        extra.sendall(f"GET {path}events HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
        answer = whole_answer(extra)
        extra.close()
        assert answer.startswith(b"HTTP/1.1 503") and f"{MAX_STREAMS} pages".encode() in answer
    finally:
        for connection in readers + stalled:
            connection.close()
    # Once they are gone, the studio serves again, with the edits all there.
    deadline = time.monotonic() + ANSWERED_WITHIN
    while True:
        status, body = http(url + "state")
        if status == 200 or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert status == 200 and b'"L59"' in body
