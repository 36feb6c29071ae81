"""A real `rendervisor mcp` process driven over its stdin/stdout, for black-box tests.

A reader thread collects every stdout line (each must be JSON) so a test can wait for the answer
to one id while others are still running.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import subprocess
import sys
import threading
import time

SERVER = [sys.executable, "-m", "supervisor.cli", "mcp"]


class McpProcess:
    def __init__(self, *args: str, env: dict | None = None, cwd: str | None = None,
                 wrapper: tuple[str, ...] = ()) -> None:
        # `wrapper`: a command the server runs under (`unshare ... --`), for tests that need
        # the server in a namespace of its own.
        self.process = subprocess.Popen(
            [*wrapper, *SERVER, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, env={**os.environ, **(env or {})}, cwd=cwd)
        self.lines: list[str] = []
        self.messages: list[dict] = []
        self.bad_lines: list[str] = []
        self._changed = threading.Condition()
        self._ids = itertools.count(1000)
        threading.Thread(target=self._read, daemon=True).start()
        self.stderr_lines: list[str] = []
        threading.Thread(target=self._read_stderr, daemon=True).start()

    def _read(self) -> None:
        for raw in self.process.stdout:
            line = raw.decode("utf-8", errors="replace")
            with self._changed:
                self.lines.append(line)
                try:
                    self.messages.append(json.loads(line))
                except ValueError:
                    self.bad_lines.append(line)
                self._changed.notify_all()
        with self._changed:
            self._changed.notify_all()

    def _read_stderr(self) -> None:
        for raw in self.process.stderr:
            self.stderr_lines.append(raw.decode("utf-8", errors="replace"))

    def send(self, message: dict | str | bytes) -> None:
        if isinstance(message, dict):
            message = json.dumps(message)
        if isinstance(message, str):
            message = message.encode()
        self.process.stdin.write(message + b"\n")
        self.process.stdin.flush()

    def request(self, method: str, params: dict | None = None, id=None) -> object:
        request_id = next(self._ids) if id is None else id
        message = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        return request_id

    def call(self, tool: str, arguments: dict | None = None, id=None, meta: dict | None = None):
        params = {"name": tool, "arguments": arguments or {}}
        if meta:
            params["_meta"] = meta
        return self.request("tools/call", params, id=id)

    def wait_for(self, request_id, timeout: float = 30.0) -> dict:
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                for message in self.messages:
                    if message.get("id") == request_id and (
                            "result" in message or "error" in message):
                        return message
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise TimeoutError(f"no answer to id {request_id} within {timeout} s")
                self._changed.wait(remaining)

    def answers(self, request_id) -> list[dict]:
        with self._changed:
            return [m for m in self.messages
                    if m.get("id") == request_id and ("result" in m or "error" in m)]

    def notifications(self, method: str) -> list[dict]:
        with self._changed:
            return [m for m in self.messages if m.get("method") == method]

    def wait_for_notification(self, method: str, matches=lambda params: True,
                              timeout: float = 30.0) -> dict:
        """The params of the first `method` notification whose params `matches`."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                for message in self.messages:
                    if message.get("method") == method and matches(message.get("params")):
                        return message["params"]
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise TimeoutError(f"no {method} notification within {timeout} s")
                self._changed.wait(remaining)

    def run(self, tool: str, arguments: dict | None = None, timeout: float = 60.0) -> dict:
        """Call a tool and return its result (raising if the answer is a JSON-RPC error)."""
        answer = self.wait_for(self.call(tool, arguments), timeout)
        if "error" in answer:
            raise AssertionError(f"{tool} answered an error: {answer['error']}")
        return answer["result"]

    def initialize(self) -> dict:
        # A server starts in about a second; on a machine shared with other test runs, its
        # imports alone have taken over 30 s. A missing answer is the failure, not a slow one.
        answer = self.wait_for(self.request("initialize", {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "tests", "version": "1"}}), timeout=120)
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return answer

    def close_stdin(self) -> None:
        self.process.stdin.close()

    def stop(self) -> None:
        """Close stdin; a server still finishing long calls after a moment is sent SIGTERM
        (which cancels them) rather than waited on for its whole join grace."""
        if self.process.poll() is None:
            try:
                self.process.stdin.close()
            except OSError:
                pass
            for patience, ending in ((2, self.process.terminate), (10, self.process.kill)):
                try:
                    self.process.wait(patience)
                    return
                except subprocess.TimeoutExpired:
                    ending()
            self.process.wait(5)


@contextlib.contextmanager
def mcp_server(*args: str, **options):
    """A started and initialized McpProcess (McpProcess's arguments), stopped at the end."""
    process = McpProcess(*args, **options)
    try:
        process.initialize()
        yield process
    finally:
        process.stop()
