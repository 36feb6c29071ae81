"""Front-door benchmark: rendervisor mcp beside the official SDK's MCPServer, one driver, one run.

    python scripts/bench_frontdoor.py [--reads 300] [--pipelined 3000] [--pings 1000]
                                      [--only-studio]

Prints one JSON object:
- ping and read_file latency p50/p99 (ms), alternating, while (a) 8 long shells run, for both
  servers; (b) 8 previews of a comp that takes minutes to draw wait for the preview worker, one
  drawing to its deadline; (c) a 60 MB SVG (1.5 million rectangles) is imported, sampled for as
  long as the import runs (how many samples that was is reported beside them);
- pipelined cheap-call throughput (read_file of a small file, all sent at once), both servers,
  and the ratio;
- supervisor to worker no-op job round trip (µs, median), against ProcessPoolExecutor's
  submit-and-wait on the same machine;
- cancel-to-tree-gone and stdin-EOF-to-exit (ms), with whether the peer's shell survived;
- ping latency p50/p99 (ms) of `rendervisor mcp --studio` while its page is open in headless
  Chromium and scrubbing as fast as frames come, beside the same session with no studio
  (the peer here: what the studio costs the front door), and the ratio.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import itertools
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import psutil

HERE = os.path.dirname(os.path.abspath(__file__))
OURS = [sys.executable, "-m", "supervisor.cli", "mcp"]
PEER = [sys.executable, os.path.join(HERE, "peers", "sdk_frontdoor_server.py")]


class Driver:
    """A raw JSON-lines client that timestamps every answer as it arrives."""

    def __init__(self, command: list[str], cwd: str, stderr=subprocess.DEVNULL) -> None:
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=stderr, cwd=cwd)
        self.arrived: dict = {}
        self.cond = threading.Condition()
        self.ids = itertools.count(1)
        self.write_lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()
        self.wait(self.request("initialize", {"protocolVersion": "2025-06-18",
                                              "capabilities": {},
                                              "clientInfo": {"name": "bench", "version": "1"}}))
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def _read(self) -> None:
        for line in self.process.stdout:
            now = time.perf_counter()
            message = json.loads(line)
            if "id" in message and ("result" in message or "error" in message):
                with self.cond:
                    self.arrived[message["id"]] = (now, message)
                    self.cond.notify_all()

    def send(self, message: dict) -> None:
        data = (json.dumps(message) + "\n").encode()
        with self.write_lock:
            self.process.stdin.write(data)
            self.process.stdin.flush()

    def request(self, method: str, params: dict) -> int:
        request_id = next(self.ids)
        self.send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
        return request_id

    def call(self, tool: str, arguments: dict) -> int:
        return self.request("tools/call", {"name": tool, "arguments": arguments})

    def wait(self, request_id: int, timeout: float = 120.0):
        deadline = time.monotonic() + timeout
        with self.cond:
            while request_id not in self.arrived:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise TimeoutError(f"no answer to {request_id}")
                self.cond.wait(remaining)
            return self.arrived[request_id]

    def studio_url(self) -> str:
        """The studio's address, from the line `rendervisor mcp --studio` writes on stderr."""
        for line in self.process.stderr:
            text = line.decode()
            if "the studio follows this session at" in text:
                threading.Thread(target=self.process.stderr.read, daemon=True).start()
                return text.split(" at ", 1)[1].strip()
        raise RuntimeError("rendervisor mcp --studio ended without naming its studio")

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def quick_latency(driver, path, reads, until=lambda: False) -> dict:
    """ping and read_file round trips (ms), alternating, `reads` of each or until `until()`."""
    times: dict[str, list] = {"ping": [], "read_file": []}
    for _ in range(reads):
        if until():
            break
        for name, request in (("ping", lambda: driver.request("ping", {})),
                              ("read_file", lambda: driver.call("read_file", {"path": path}))):
            sent = time.perf_counter()
            arrived, message = driver.wait(request(), 30)
            assert "result" in message, message
            times[name].append((arrived - sent) * 1000)
    return {name: {"p50_ms": round(statistics.median(values), 3),
                   "p99_ms": round(percentile(values, 0.99), 3), "samples": len(values)}
            for name, values in times.items()}


def latency_under_shells(command, folder, path, reads) -> dict:
    driver = Driver(command, folder)
    shells: list = []
    try:
        for _ in range(8):
            driver.call("shell", {"command": "sleep 60", "timeout": 120})
        time.sleep(1.0)
        shells = psutil.Process(driver.process.pid).children(recursive=True)
        return quick_latency(driver, path, reads)
    finally:
        driver.close()
        kill_leftover(shells)


def latency_under_previews(folder, path, reads) -> dict:
    """While 8 full-size previews of a comp that takes over a minute a frame wait for the
    preview worker, the first drawing until the preview deadline stops it."""
    sys.path.insert(0, os.path.dirname(HERE))
    from tests.mcp.test_preview_deadline import HEAVY  # the tests' heavy comp, the same steps

    driver = Driver(OURS, os.path.dirname(HERE))
    try:
        driver.wait(driver.call("command_batch", {"steps": HEAVY}), 120)
        for frame in range(8):
            driver.call("render_preview", {"comp": "Heavy", "frame": frame, "max_side": 0})
        time.sleep(1.0)  # the first preview is drawing, the other seven wait
        return quick_latency(driver, path, reads)
    finally:
        driver.close()


def latency_under_import(folder, path, reads) -> dict:
    """While a 60 MB SVG of 1.5 million rectangles is imported (read on a probe worker)."""
    svg = os.path.join(folder, "big.svg")
    with open(svg, "w") as handle:
        handle.write('<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="1000">')
        row = "".join(f'<rect x="{i % 1000}" y="{i % 997}" width="3" height="4"/>'
                      for i in range(1000))
        handle.write(row * 1500 + "</svg>")
    driver = Driver(OURS, os.path.dirname(HERE))
    try:
        started = time.perf_counter()
        importing = driver.call("command_run", {"id": "footage.import", "params": {"path": svg}})
        result = quick_latency(driver, path, reads, lambda: importing in driver.arrived)
        arrived, message = driver.wait(importing, 120)
        result["import_s"] = round(arrived - started, 2)
        result["import_refused"] = message["result"].get("isError", False)
        return result
    finally:
        driver.close()


def pipelined_throughput(command, folder, path, count) -> float:
    driver = Driver(command, folder)
    try:
        for _ in range(50):  # warm up
            driver.wait(driver.call("read_file", {"path": path}))
        started = time.perf_counter()
        ids = [driver.call("read_file", {"path": path}) for _ in range(count)]
        finished = max(driver.wait(request_id)[0] for request_id in ids)
        return count / (finished - started)
    finally:
        driver.close()


def noop_round_trip(rounds: int) -> dict:
    sys.path.insert(0, os.path.dirname(HERE))
    from supervisor.runtime import teardown
    from supervisor.runtime.pool import Pool, make_context, worker_preload

    teardown.become_subreaper()
    preload = worker_preload()
    pool = Pool(make_context(preload), 1, preload=preload)
    worker = pool.acquire("render")
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        pool.run("render", "noop", None, worker=worker)
        times.append((time.perf_counter() - started) * 1e6)
    pool.release(worker)
    pool.close()
    with concurrent.futures.ProcessPoolExecutor(1) as executor:
        executor.submit(int).result()
        peer = []
        for _ in range(rounds):
            started = time.perf_counter()
            executor.submit(int).result()
            peer.append((time.perf_counter() - started) * 1e6)
    return {"rendervisor_median_us": round(statistics.median(times), 1),
            "process_pool_executor_median_us": round(statistics.median(peer), 1)}


def cancel_to_tree_gone(command, folder) -> dict:
    driver = Driver(command, folder)
    marker = "sleep 77.7"
    tree: list = []
    try:
        request_id = driver.call("shell", {"command": f"trap '' TERM; {marker}"})
        tree = wait_for(marker)
        started = time.perf_counter()
        driver.send({"jsonrpc": "2.0", "method": "notifications/cancelled",
                     "params": {"requestId": request_id}})
        gone = wait_gone(tree, 10)
        return {"ms": round((time.perf_counter() - started) * 1000, 1) if gone else None,
                "tree_gone": gone}
    finally:
        driver.close()
        kill_leftover(tree)


def eof_to_exit(command, folder) -> dict:
    driver = Driver(command, folder)
    marker = "sleep 88.8"
    tree: list = []
    try:
        driver.call("shell", {"command": f"trap '' TERM; {marker}"})
        tree = wait_for(marker)
        started = time.perf_counter()
        driver.process.stdin.close()
        try:
            driver.process.wait(30)
            exited = (time.perf_counter() - started) * 1000
        except subprocess.TimeoutExpired:
            exited = None
        gone = wait_gone(tree, 2)
        return {"exit_ms": round(exited, 1) if exited else None, "shell_gone": gone}
    finally:
        driver.close()
        kill_leftover(tree)


def wait_for(marker: str, timeout: float = 60) -> list:
    """This run's shell: the processes under this one whose command line holds `marker` (never
    another user's processes that happen to match)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = [p for p in psutil.Process().children(recursive=True)
                 if marker in " ".join(_cmdline(p))]
        if found:
            return found
        time.sleep(0.01)
    raise TimeoutError(marker)


def wait_gone(processes: list, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if all(_gone(p) for p in processes):
            return True
        time.sleep(0.002)
    return False


def _gone(process: psutil.Process) -> bool:
    try:
        return not process.is_running() or process.status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:  # it ended between the two questions
        return True


def _cmdline(process: psutil.Process) -> list:
    try:
        return process.cmdline()
    except psutil.Error:
        return []


def kill_leftover(processes: list) -> None:
    """Kill what this run started and left running (by process, never by a name that other
    processes on a shared machine could match)."""
    for process in processes:
        try:
            if process.is_running():
                process.kill()
        except psutil.Error:
            pass


# Pings are spread out (one every PING_SPACING s) so that they sample a stretch of the scrubbing
# long enough to hold many frames, rather than a burst between two of them.
PING_SPACING = 0.01


STUDIO_COMP = [
    {"id": "comp.new", "params": {"name": "Main", "width": 1280, "height": 720, "duration": 4}},
    {"id": "layer.add", "params": {"comp": "Main", "type": "solid", "color": "#203040"}},
    {"id": "layer.add", "params": {"comp": "Main", "type": "text", "text": "Scrubbing",
                                   "name": "Title", "size": 120, "fill": "#ffffff"}},
    {"id": "prop.addKey", "params": {"comp": "Main", "layer": "Title",
                                     "path": "transform.position", "time": 0,
                                     "value": [200, 360]}},
    {"id": "prop.addKey", "params": {"comp": "Main", "layer": "Title",
                                     "path": "transform.position", "time": 4,
                                     "value": [1080, 360]}}]

# The page scrubs: a new frame wanted every 16 ms (a drag), the viewer drawing the latest.
SCRUB = """() => {
    window.scrubbing = true;
    let frame = 0;
    const loop = () => {
        if (!window.scrubbing) return;
        setFrame(frame++ % 120);
        setTimeout(loop, 16);
    };
    loop();
}"""


FRAMES_FETCHED = ("() => performance.getEntriesByType('resource')"
                  ".filter((entry) => entry.name.includes('preview?')).length")


@contextlib.contextmanager
def scrubbing(url: str):
    """The studio at `url` open in headless Chromium and scrubbing; yields a function that
    counts the frames the page has fetched so far."""
    sys.path.insert(0, os.path.dirname(HERE))
    from tests.helpers.browser import chromium

    with chromium() as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(url)
        page.wait_for_selector(".layer-name")
        page.evaluate(SCRUB)
        time.sleep(1.0)
        yield lambda: page.evaluate(FRAMES_FETCHED)
        page.evaluate("() => { window.scrubbing = false; }")


def interleaved_pings(drivers: dict, pings: int) -> dict:
    """Each driver's ping p50/p99, pinged in turn (one of each, then again), so that every
    session meets the same moments of the machine's load."""
    latencies: dict = {name: [] for name in drivers}
    for _ in range(pings):
        for name, driver in drivers.items():
            time.sleep(PING_SPACING)
            sent = time.perf_counter()
            arrived, _ = driver.wait(driver.request("ping", {}))
            latencies[name].append((arrived - sent) * 1000)
    return {name: {"p50_ms": round(statistics.median(values), 3),
                   "p99_ms": round(percentile(values, 0.99), 3)}
            for name, values in latencies.items()}


def cpu_seconds(driver: Driver) -> float:
    times = psutil.Process(driver.process.pid).cpu_times()
    return times.user + times.system


def ping_while_studio_scrubs(folder, pings) -> dict:
    """Two sessions side by side, one with --studio and its page open in Chromium, scrubbing;
    their pings interleaved, so both meet the same load (Chromium, the preview worker
    drawing, whatever else the machine runs): the ratio of their p99s is what serving the
    page from inside a session costs its front door."""
    plain = Driver(OURS, folder)
    studio = Driver(OURS + ["--studio"], folder, stderr=subprocess.PIPE)
    try:
        url = studio.studio_url()
        for driver in (plain, studio):
            driver.wait(driver.call("command_batch", {"steps": STUDIO_COMP}))
        drivers = {"without_studio": plain, "with_studio": studio}
        quiet = interleaved_pings(drivers, pings)
        with scrubbing(url) as frames:
            before, started = frames(), time.perf_counter()
            cpu_before = {name: cpu_seconds(driver) for name, driver in drivers.items()}
            busy = interleaved_pings(drivers, pings)
            cpu = {name: cpu_seconds(driver) - cpu_before[name]
                   for name, driver in drivers.items()}
            drawn = frames() - before
            rate = drawn / (time.perf_counter() - started)
    finally:
        plain.close()
        studio.close()
    # What the studio costs the session's process per frame: its CPU time beyond the plain
    # session's, which answered the same pings.
    per_frame = (cpu["with_studio"] - cpu["without_studio"]) / max(1, drawn)
    return {"page_closed": quiet,
            "page_open_and_scrubbing": {**busy, "frames_drawn_per_s": round(rate, 1),
                                        "session_cpu_ms_per_frame": round(per_frame * 1000, 2)},
            "p99_ratio_while_scrubbing": round(busy["with_studio"]["p99_ms"]
                                               / busy["without_studio"]["p99_ms"], 2)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--reads", type=int, default=300)
    parser.add_argument("--pipelined", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--pings", type=int, default=1000)
    parser.add_argument("--only-studio", action="store_true",
                        help="measure the ping while the studio scrubs, and nothing else")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="bench-frontdoor-")
    path = os.path.join(folder, "small.txt")
    with open(path, "w") as handle:
        handle.write("a small file\n" * 10)
    root = os.path.dirname(HERE)
    studio = ping_while_studio_scrubs(root, args.pings)
    if args.only_studio:
        print(json.dumps({"ping_while_studio_scrubs": studio}, indent=2))
        return
    ours_latency = latency_under_shells(OURS, root, path, args.reads)
    peer_latency = latency_under_shells(PEER, root, path, args.reads)
    ours_rate = pipelined_throughput(OURS, root, path, args.pipelined)
    peer_rate = pipelined_throughput(PEER, root, path, args.pipelined)
    result = {
        "latency_under_8_shells": {"rendervisor": ours_latency, "sdk_peer": peer_latency},
        "latency_under_8_previews": {"rendervisor": latency_under_previews(folder, path,
                                                                          args.reads)},
        "latency_under_60mb_svg_import": {"rendervisor": latency_under_import(folder, path,
                                                                             args.reads)},
        "pipelined_calls_per_s": {"rendervisor": round(ours_rate), "sdk_peer": round(peer_rate),
                                  "ratio": round(ours_rate / peer_rate, 2)},
        "noop_job_round_trip": noop_round_trip(args.rounds),
        "cancel_to_tree_gone": {"rendervisor": cancel_to_tree_gone(OURS, root),
                                "sdk_peer": cancel_to_tree_gone(PEER, root)},
        "stdin_eof_to_exit": {"rendervisor": eof_to_exit(OURS, root),
                              "sdk_peer": eof_to_exit(PEER, root)},
        "ping_while_studio_scrubs": studio,
    }
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
