"""Soak: minutes of mixed load against a real `rendervisor mcp`, then one JSON object on stdout:
calls served, latency per tool (p50, p99, max), what was lost (nothing, or the ids), and the
supervisor's memory, descriptors, threads and processes sampled over time.

    .venv/bin/python scripts/soak.py [--minutes 2 | --seconds S] [--clients 4] [--seed N]

The load: `--clients` threads picking at random among file operations (write, read, edit, list,
search), project edits (command_run and command_batch adding, changing and removing layers,
doc_inspect), previews and shells (short, chatty, and long ones cancelled part way); one more
thread renders the project's comp again and again (a png sequence or an h264 video, some
renders cancelled once progress arrives). Every call must get exactly one answer, except a
cancelled one, which must get none; an isError result counts as an error unless the operation
expects one. tests/reliability/test_soak.py runs a 20-second soak in CI and checks the report.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import psutil  # noqa: E402

from supervisor.render.segment_cache import CACHE_SUFFIX, SEGMENT_NAME  # noqa: E402
from tests.helpers.mcp_process import McpProcess  # noqa: E402
from tests.helpers.moving_solid import moving_solid_steps  # noqa: E402

# A generous bound on any one answer: a missing answer, not a slow one, is what the soak finds.
ANSWER_WITHIN = 120.0
# How long a cancelled call is watched for a stray answer after its cancel.
CANCEL_QUIET = 1.0
COMP = "Soak"
LONG = "SoakLong"


class IndexedMcpProcess(McpProcess):
    """McpProcess with answers indexed by id: thousands of calls would otherwise rescan every
    message per wait, and the client's own cost would show up as server latency."""

    def __init__(self, *args, **kwargs) -> None:
        self.by_id: dict = {}
        self.progress_tokens: set = set()
        super().__init__(*args, **kwargs)

    def _read(self) -> None:
        for raw in self.process.stdout:
            try:
                message = json.loads(raw)
            except ValueError:
                with self._changed:
                    self.bad_lines.append(raw.decode("utf-8", errors="replace"))
                continue
            with self._changed:
                if isinstance(message, dict) and ("result" in message or "error" in message):
                    self.by_id.setdefault(message.get("id"), []).append(message)
                elif isinstance(message, dict) and message.get("method") == \
                        "notifications/progress":
                    self.progress_tokens.add(message["params"].get("progressToken"))
                self._changed.notify_all()
        with self._changed:
            self._changed.notify_all()

    def wait_for(self, request_id, timeout: float = 30.0) -> dict:
        deadline = time.monotonic() + timeout
        with self._changed:
            while request_id not in self.by_id:
                remaining = deadline - time.monotonic()
                if remaining <= 0 or self.process.poll() is not None:
                    raise TimeoutError(f"no answer to id {request_id} within {timeout} s")
                self._changed.wait(remaining)
            return self.by_id[request_id][0]

    def answers(self, request_id) -> list[dict]:
        with self._changed:
            return list(self.by_id.get(request_id, []))


class Soak:
    def __init__(self, seconds: float, clients: int, seed: int, folder: str) -> None:
        self.seconds = seconds
        self.clients = clients
        self.rng = random.Random(seed)
        self.folder = folder
        self.marker = f"{self.rng.randrange(10**5):05d}"
        self.server = IndexedMcpProcess("--workers", "2", env={"TMPDIR": self._tmp()})
        self.process = psutil.Process(self.server.process.pid)
        self.latencies: dict[str, list[float]] = {}
        self.errors: dict[str, list[str]] = {}
        self.expected_errors = 0
        self.calls: list = []
        self.cancelled: list = []
        self.cancels: dict[str, int] = {}
        self.samples: list[dict] = []
        self.failures: list[str] = []
        self.stop = threading.Event()
        self._lock = threading.Lock()
        self.started = time.monotonic()

    def _tmp(self) -> str:
        path = os.path.join(self.folder, "tmp")
        os.makedirs(path, exist_ok=True)
        return path

    # -- calling --------------------------------------------------------------------------

    def call(self, tool: str, arguments: dict, label: str | None = None,
             expect_error: bool = False) -> dict:
        label = label or tool
        started = time.monotonic()
        request_id = self.server.call(tool, arguments)
        with self._lock:
            self.calls.append(request_id)
        answer = self.server.wait_for(request_id, ANSWER_WITHIN)
        elapsed = time.monotonic() - started
        with self._lock:
            self.latencies.setdefault(label, []).append(elapsed)
            failed = "error" in answer or answer["result"].get("isError")
            if failed and expect_error:
                self.expected_errors += 1
            elif failed:
                text = (answer.get("error", {}).get("message")
                        or answer["result"]["content"][0].get("text", ""))
                self.errors.setdefault(label, []).append(text[:300])
        return answer

    def cancel_after(self, tool: str, arguments: dict, wait: float, label: str) -> None:
        """Start a call and cancel it once it has reported progress (so it is surely running),
        or after `wait` seconds for a call that reports none."""
        token = f"cancel-{id(arguments)}-{time.monotonic()}"
        request_id = self.server.call(tool, arguments, meta={"progressToken": token})
        with self._lock:
            self.cancelled.append(request_id)
            self.cancels[label] = self.cancels.get(label, 0) + 1
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline and token not in self.server.progress_tokens:
            time.sleep(0.01)
        self.server.send({"jsonrpc": "2.0", "method": "notifications/cancelled",
                          "params": {"requestId": request_id}})

    # -- the load -------------------------------------------------------------------------

    def setup(self) -> None:
        self.server.initialize()
        steps = [
            *moving_solid_steps(COMP, 64, 36, 30, 2),
            # A slower comp for the renders that are cancelled: they must still be running when
            # the cancel arrives, some 10 ms after their first progress. Its blurred solid moves,
            # so each frame is drawn again rather than kept from the one before; 990 frames of
            # it (within the 1,000 a three-digit frame pattern names) are some 6 s (a video) to
            # 15 s (a sequence) of work on two workers here. Ten seconds of a still 160x90 one
            # were 0.2 to 1 s, which a machine a few times faster could finish before the
            # cancel: the call answered, its files left.
            *moving_solid_steps(LONG, 320, 180, 30, 33, blur=30, layer="Blurred",
                                color="#20c0f0"),
            {"id": "project.save", "params": {"path": os.path.join(self.folder, "soak.rvproj")}},
        ]
        answer = self.call("command_batch", {"steps": steps})
        if answer["result"]["isError"]:
            raise RuntimeError(f"the soak project could not be built: {answer}")

    def client(self, number: int) -> None:
        rng = random.Random(self.rng.random())
        own = os.path.join(self.folder, f"client{number}")
        os.makedirs(own, exist_ok=True)
        path = os.path.join(own, "notes.txt")
        self.call("write_file", {"path": path, "content": "alpha\nbeta\n"})
        operations = [
            (6, lambda: self.call("read_file", {"path": path})),
            (3, lambda: self.call("write_file", {"path": path, "content": "alpha\nbeta\n"})),
            (3, lambda: self.call("edit_file", {"path": path, "old_string": "beta",
                                                "new_string": "beta", "replace_all": True})),
            (3, lambda: self.call("list_dir", {"path": self.folder, "depth": 2})),
            (2, lambda: self.call("search_files", {"path": own, "content": "alp"})),
            (4, lambda: self.edit(rng)),
            (2, lambda: self.call("doc_inspect", {})),
            (3, lambda: self.call("render_preview", {"comp": COMP, "time": rng.uniform(0, 2),
                                                     "max_side": 64})),
            (3, lambda: self.call("shell", {"command": "echo soak; seq 1 2000 | tail -1"})),
            (1, lambda: self.call("shell", {"command": "sleep 0.3"}, label="shell (0.3 s)")),
            (1, lambda: self.cancel_after("shell", {"command": f"sleep 30.{self.marker}"},
                                          rng.uniform(0.1, 0.5), "shell (cancelled)")),
        ]
        weights = [weight for weight, _ in operations]
        try:
            while not self.stop.is_set():
                rng.choices(operations, weights)[0][1]()
        except Exception as exc:  # reported, never lost in a thread
            self.failures.append(f"client {number}: {exc!r}")

    def edit(self, rng: random.Random) -> None:
        """Add a layer, change it and take it out again: the project stays small however long
        the soak runs, and every step is a real edit with its undo step."""
        if rng.random() < 0.5:
            self.call("command_batch", {"steps": [
                {"id": "layer.add", "params": {"comp": COMP, "type": "shape", "shape": "rect",
                                               "size": [8, 8], "fill": [1, 0, 0]}},
                {"id": "prop.set", "params": {"comp": COMP, "layer": "$0.layer",
                                              "path": "transform.rotation",
                                              "value": rng.uniform(0, 360)}},
                {"id": "layer.remove", "params": {"comp": COMP, "layer": "$0.layer"}}]})
        else:
            added = self.call("command_run", {"id": "layer.add", "params": {
                "comp": COMP, "type": "null"}}, label="command_run:layer.add")
            layer = added["result"]["structuredContent"]["layer"]
            self.call("command_run", {"id": "layer.remove", "params": {
                "comp": COMP, "layer": layer}}, label="command_run:layer.remove")

    def renderer(self) -> None:
        number = 0
        try:
            while not self.stop.is_set():
                number += 1
                video = number % 2 == 0
                cancelled = number % 5 == 0
                output = os.path.join(self.folder, "renders", f"r{number}",
                                      "m.mp4" if video else "f_[###].png")
                added = self.call("command_run", {"id": "renderQueue.add", "params": {
                    "comp": LONG if cancelled else COMP, "output": output,
                    "format": "h264" if video else "png"}}, label="command_run:renderQueue.add")
                item = added["result"]["structuredContent"]["item"]
                if cancelled:
                    self.cancel_after("command_run", {"id": "renderQueue.render"}, 5.0,
                                      "renderQueue.render")
                    self.await_render_end()
                    folder = os.path.dirname(output)
                    left = sorted(os.listdir(folder)) if os.path.isdir(folder) else []
                    # A video keeps the segments that finished, whole, in its cache for a
                    # resume (docs/outputs.md, "Resuming a video"), and nothing else.
                    cache = f".{os.path.basename(output)}{CACHE_SUFFIX}"
                    if video and left == [cache] and all(
                            SEGMENT_NAME.match(name)
                            for name in os.listdir(os.path.join(folder, cache))):
                        left = []
                    if left:
                        self.failures.append(f"a cancelled render left {left[:3]}")
                else:
                    answer = self.call("command_run", {"id": "renderQueue.render"},
                                       label="command_run:renderQueue.render")
                    if not answer["result"]["isError"]:
                        self.check_render(output, video)
                self.call("command_run", {"id": "renderQueue.remove", "params": {"item": item}},
                          label="command_run:renderQueue.remove")
                shutil.rmtree(os.path.dirname(output), ignore_errors=True)
        except Exception as exc:
            self.failures.append(f"renderer: {exc!r}")

    def await_render_end(self) -> None:
        """A cancelled render cleans up in the background; the next one waits for its end."""
        deadline = time.monotonic() + ANSWER_WITHIN
        while time.monotonic() < deadline:
            listed = self.call("command_run", {"id": "renderQueue.list"},
                               label="command_run:renderQueue.list")
            items = listed["result"]["structuredContent"]["items"]
            if not any(item.get("status") == "rendering" for item in items):
                return
            time.sleep(0.05)

    def check_render(self, output: str, video: bool) -> None:
        folder = os.path.dirname(output)
        names = sorted(os.listdir(folder)) if os.path.isdir(folder) else []
        want = ["m.mp4"] if video else [f"f_{n:03d}.png" for n in range(60)]
        if names != want:
            self.failures.append(f"render {output}: {len(names)} files, expected {len(want)}")

    def sampler(self, every: float) -> None:
        while True:
            self.samples.append(self.sample())
            if self.stop.wait(every):
                return

    def sample(self) -> dict:
        tree = self.process.children(recursive=True)
        return {"t": round(time.monotonic() - self.started, 1),
                "rss_mb": round(self.process.memory_info().rss / 2**20, 1),
                "fds": self.process.num_fds(), "threads": self.process.num_threads(),
                "processes": 1 + len(tree),
                "tree_rss_mb": round(sum(_rss(p) for p in [self.process] + tree) / 2**20, 1)}

    # -- the run --------------------------------------------------------------------------

    def run(self) -> dict:
        self.setup()
        threads = [threading.Thread(target=self.client, args=(n,), daemon=True)
                   for n in range(self.clients)]
        threads.append(threading.Thread(target=self.renderer, daemon=True))
        sampler = threading.Thread(target=self.sampler, args=(max(1.0, self.seconds / 24),),
                                   daemon=True)
        sampler.start()
        for thread in threads:
            thread.start()
        self.stop.wait(self.seconds)
        self.stop.set()
        for thread in threads:
            thread.join(ANSWER_WITHIN + 30)
        time.sleep(CANCEL_QUIET)
        sampler.join(5)
        self.samples.append(self.sample())
        return self.report()

    def report(self) -> dict:
        unanswered = [rid for rid in self.calls if len(self.server.answers(rid)) == 0]
        repeated = [rid for rid in self.calls if len(self.server.answers(rid)) > 1]
        answered_after_cancel = [rid for rid in self.cancelled if self.server.answers(rid)]
        left_running = [p.pid for p in psutil.process_iter(["cmdline"])
                        if f"30.{self.marker}" in " ".join(p.info["cmdline"] or [])]
        tools = {label: _percentiles(values) for label, values in sorted(self.latencies.items())}
        served = sum(len(values) for values in self.latencies.values())
        return {
            "seconds": self.seconds, "clients": self.clients,
            "calls_served": served, "calls_per_second": round(served / self.seconds, 1),
            "cancels": self.cancels,
            "lost": {"unanswered": unanswered, "answered_twice": repeated,
                     "answered_after_cancel": answered_after_cancel,
                     "cancelled_processes_left_running": left_running,
                     "stdout_lines_not_json": len(self.server.bad_lines)},
            "errors": {label: {"count": len(texts), "first": texts[0]}
                       for label, texts in self.errors.items()},
            "expected_errors": self.expected_errors,
            "failures": self.failures,
            "server_alive": self.server.process.poll() is None,
            "latency_ms": tools,
            "samples": self.samples,
        }

    def close(self) -> None:
        self.server.stop()


def _rss(process: psutil.Process) -> int:
    try:
        return process.memory_info().rss
    except psutil.Error:
        return 0


def _percentiles(values: list[float]) -> dict:
    if not values:
        return {"calls": 0}
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, int(round(0.99 * (len(ordered) - 1))))]
    return {"calls": len(values), "p50": round(statistics.median(ordered) * 1000, 2),
            "p99": round(p99 * 1000, 2), "max": round(ordered[-1] * 1000, 2)}


def run_soak(seconds: float, clients: int = 4, seed: int = 8,
             folder: str | None = None) -> dict:
    """Run a soak and return its report; the folder (a temporary one unless given) is the
    project's, the renders' and the server's TMPDIR; `tmp_left` lists what the server left in
    its TMPDIR after it exited."""
    own = folder is None
    folder = folder or tempfile.mkdtemp(prefix="rendervisor-soak-")
    soak = Soak(seconds, clients, seed, folder)
    try:
        report = soak.run()
    finally:
        soak.close()
    report["tmp_left"] = sorted(os.listdir(os.path.join(folder, "tmp")))
    if own:
        shutil.rmtree(folder, ignore_errors=True)
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=2.0)
    parser.add_argument("--seconds", type=float, help="overrides --minutes")
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--seed", type=int, default=8)
    args = parser.parse_args()
    seconds = args.seconds if args.seconds is not None else args.minutes * 60
    report = run_soak(seconds, args.clients, args.seed)
    json.dump(report, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
