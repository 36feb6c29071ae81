"""A real `rendervisor studio PROJECT` process, and the address it prints."""

from __future__ import annotations

import json
import queue
import re
import signal
import subprocess
import threading
import urllib.error
import urllib.request

from tests.helpers.cli_projects import popen

ADDRESS = re.compile(r"http://\S+/")


class StudioProcess:
    def __init__(self, project: str, *args: str) -> None:
        self.process = popen("studio", project, *args)
        self.lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.url = self._address(timeout=60)

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def _address(self, timeout: float) -> str:
        while True:
            line = self.lines.get(timeout=timeout)
            if line is None:
                raise AssertionError("rendervisor studio ended before printing its address: "
                                     + self.process.stderr.read())
            found = ADDRESS.search(line)
            if found:
                return found.group(0)

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                return self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        return self.process.returncode


def http(url: str, data: bytes | None = None, headers: dict | None = None):
    """(status, body) of a plain HTTP request, an error status included."""
    request = urllib.request.Request(url, data=data, headers=headers or {},
                                     method="POST" if data is not None else "GET")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def state(url: str) -> dict:
    status, body = http(url + "state")
    assert status == 200, body
    return json.loads(body)
