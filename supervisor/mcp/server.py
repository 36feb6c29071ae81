"""The MCP front door: one reader, inline answers, lanes of threads, and an orderly end.

    stdin ──► reader thread ──► parse_line ──┬─► inline: initialize, ping, tools/list,
                                             │   resources/*, prompts/*, completion/complete,
                                             │   server/discover, tasks/*, subscriptions/listen,
                                             │   notifications (inline_methods.py)
                                             └─► tools/call ──► a lane (threads): quick,
                                                 long, preview or probe (supervisor/mcp/lanes.py)
    every reply ──► LineWriter (one lock, whole lines) ──► stdout
    main thread: waits for the end (stdin EOF, SIGTERM/SIGINT, stdout closed) and tears down.

The reader never blocks on work: a call is checked (tool, arguments) inline and handed to a lane,
or refused at once if the lane is full. Every request with an id gets exactly one answer, except
a cancelled one, which gets none; `Call.settle` is the one place that decides where a call's
answer goes: to its request, to its task (tasks.py), or nowhere.

A call may become a task: at once when a 2025-11-25 client asks (`task` in its params), or, for
a 2026-07-28 client that declared the tasks extension, when a call that may run as one is
still running after TASK_AFTER. Its request is then answered with the task, and the call is
kept under the task's key, so the request's id is free again and only tasks/cancel stops it.

A watcher (supervisor/call_events.py; the studio, with `rendervisor mcp --studio`) is told of
each call's start, progress and end, and may stop a call (`stop_call`): it is cancelled as a
client's cancel cancels it (notifications/cancelled, or tasks/cancel for a task), and a request
the client still waits on is answered with an error saying so.
"""

from __future__ import annotations

import itertools
import json
import logging
import threading
import time
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from protocol.cancel import CANCELLED, Cancelled
from protocol.wire import jsonrpc, mcp_versions
from protocol.wire import tasks as wire_tasks
from supervisor import __version__
from supervisor.call_events import CallEnded, CallProgressed, CallStarted, CallWatcher
from supervisor.mcp import inline_methods
from supervisor.mcp.inline_methods import DEFERRED, RequestError
from supervisor.mcp.lanes import LANES, Lane, lane_named
from supervisor.mcp.progress import ProgressReporter
from supervisor.mcp.stdout_writer import LineWriter
from supervisor.mcp.subscriptions import Subscriptions
from supervisor.mcp.tasks import TASK_AFTER, TaskStore
from supervisor.mcp.tools import arguments
from supervisor.mcp.tools.registry import TOOLS, CallContext, ToolError, ToolResult
from supervisor.runtime import teardown

log = logging.getLogger("rendervisor.server")

# Longest line we read. A bigger line is answered -32700 and skipped, never buffered whole.
MAX_LINE = 64 * 1024 * 1024
# After a cancel or a signal, how long teardown may take beyond TEARDOWN_GRACE before we exit
# regardless: the margin covers reaping and the last writes on a loaded machine.
EXIT_MARGIN = 0.5

@dataclass
class Call:
    id: Any
    tool: str
    lane: str
    ctx: CallContext
    progress: ProgressReporter | None
    modern: bool = False
    answered: bool = False  # its request has its answer (the result, or a task)
    answer: dict | None = None  # the result its request or task was answered with
    serial: int = 0  # names the call to a watcher from start to end, task or not
    started: bool = False
    task: wire_tasks.Task | None = None  # the task that carries its answer, if it became one
    key: Any = None  # its key in Server.calls: the request's id, or ("task", its task id)
    timer: threading.Timer | None = None  # 2026-07-28: when it becomes a task if still running
    done: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        self.key = self.id if self.key is None else self.key

    def settle(self) -> str:
        """Where the call's answer goes, decided once: "task" (it is a task's), "request" (the
        first to ask answers the request), or "none" (answered already, or cancelled)."""
        with self.lock:
            if self.task is not None:
                destination = "task"
            elif self.answered or self.ctx.cancel.cancelled:
                return "none"
            else:
                self.answered = True
                destination = "request"
        if self.progress is not None:
            self.progress.finish(flush=True)
        return destination

    def cancel(self, reason: str) -> None:
        with self.lock:
            if self.answered and self.task is None:
                return
        if self.progress is not None:
            self.progress.finish()
        self.ctx.cancel.cancel(reason)

    def stop(self, answer: dict) -> bool:
        """Cancel the call and take its request's answer, `answer`, for a cancel its client did
        not ask for; False when it was answered or cancelled already, or is a task's."""
        if self.settle() != "request":
            return False
        self.answer = answer
        self.ctx.cancel.cancel(CANCELLED)
        return True


class Server:
    def __init__(self, session: Any, stdin: BinaryIO, stdout: BinaryIO,
                 max_inflight: int = 8, watcher: CallWatcher | None = None) -> None:
        self.session = session
        self.watcher = watcher
        self.stdin = stdin
        self.writer = LineWriter(stdout, on_closed=lambda: self.request_end("stdout closed"))
        self.lanes = {name: Lane(name, max_inflight) for name in LANES}
        self.calls: dict[Any, Call] = {}  # by Call.key
        self._serials = itertools.count(1)  # each call's serial, for the watcher
        self._calls_changed = threading.Condition()
        self.tasks = TaskStore(on_status=self._task_status)
        self.subscriptions = Subscriptions(session, self.writer.send)
        self.end_reason: str | None = None
        self.ended = threading.Event()

    # -- the end ------------------------------------------------------------------------------

    def request_end(self, reason: str) -> None:
        if self.end_reason is None:
            self.end_reason = reason
        elif reason == "signal" and self.end_reason == "stdin closed":
            # A signal while stdin's end is still draining calls: stop waiting for them. Done on
            # a thread of its own, because this may run in a signal handler that interrupted
            # the main thread while it held the calls' lock.
            self.end_reason = reason
            threading.Thread(target=self.cancel_calls, daemon=True, name="escalate").start()
        self.ended.set()

    # -- reading ------------------------------------------------------------------------------

    def read_forever(self) -> None:
        try:
            while True:
                line = self.stdin.readline(MAX_LINE + 1)
                if not line:
                    break
                if len(line) > MAX_LINE and not line.endswith(b"\n"):
                    self._skip_rest_of_line()
                    self.writer.send(jsonrpc.error(
                        None, jsonrpc.PARSE_ERROR,
                        f"Parse error: a line is longer than {MAX_LINE} bytes; it was skipped."))
                    continue
                if line.strip():
                    self.handle_line(line)
        except (OSError, ValueError):
            pass
        self.request_end("stdin closed")

    def _skip_rest_of_line(self) -> None:
        while True:
            chunk = self.stdin.readline(MAX_LINE)
            if not chunk or chunk.endswith(b"\n"):
                return

    def handle_line(self, line: bytes) -> None:
        message = jsonrpc.parse_line(line)  # never raises: a bad line is an Invalid value
        try:
            if isinstance(message, jsonrpc.Invalid):
                if message.reply is not None:
                    self.writer.send(message.reply)
            elif isinstance(message, jsonrpc.Notification):
                self.handle_notification(message)
            elif isinstance(message, jsonrpc.Request):
                self.handle_request(message)
        except Exception:  # the reader must survive anything a line can do to a handler
            log.exception("a message could not be handled")
            if isinstance(message, jsonrpc.Request):
                self.writer.send(jsonrpc.error(message.id, jsonrpc.INTERNAL_ERROR,
                                               "Internal error while handling the request."))

    def handle_notification(self, message: jsonrpc.Notification) -> None:
        if message.method == "notifications/cancelled":
            request_id = message.params.get("requestId")
            if not _hashable(request_id):
                return
            call = self.calls.get(request_id)
            if call is not None:
                call.cancel(CANCELLED)
                self._call_finished(call, started_only=True)
            # a tasks/result still waiting, or a subscriptions/listen stream: no answer then
            self.tasks.forget_wait(request_id) or self.subscriptions.end(request_id)
        # notifications/initialized and others need nothing from us

    def handle_request(self, request: jsonrpc.Request) -> None:
        era = mcp_versions.classify(request.params)
        if isinstance(era, dict):
            self.writer.send(jsonrpc.error(request.id, era["code"], era["message"],
                                           era.get("data")))
            return
        modern = era is not None
        method = request.method
        if method == "tools/call":
            self.start_call(request, modern)
            return
        handler = inline_methods.handler(method, modern)
        if isinstance(handler, str):
            self.writer.send(jsonrpc.error(request.id, jsonrpc.METHOD_NOT_FOUND, handler))
            return
        try:
            value = handler(self, request, modern)
        except RequestError as exc:
            self.writer.send(jsonrpc.error(request.id, exc.code, str(exc), exc.data))
            return
        if value is not DEFERRED:
            self.answer(request, value, modern)

    def answer(self, request: jsonrpc.Request, value: dict, modern: bool) -> None:
        """Send an inline method's result, with the modern era's fields where they belong."""
        if modern:
            value = mcp_versions.stamp_modern(request.method, value, request.params,
                                              __version__)
        self.writer.send_response(jsonrpc.result(request.id, value))

    # -- tool calls ---------------------------------------------------------------------------

    def start_call(self, request: jsonrpc.Request, modern: bool) -> None:
        name = request.params.get("name")
        tool = TOOLS.get(name) if isinstance(name, str) else None
        if tool is None:
            self.writer.send(jsonrpc.error(
                request.id, jsonrpc.INVALID_PARAMS,
                f"Unknown tool: {name!r}. The tools are: {', '.join(TOOLS)}."))
            return
        args = request.params.get("arguments")
        args = {} if args is None else args
        problem = arguments.check(tool.name, tool.input_schema, args)
        if problem is not None:
            self.writer.send(jsonrpc.error(request.id, jsonrpc.INVALID_PARAMS, problem))
            return
        if not _hashable(request.id) or request.id in self.calls:
            self.writer.send(jsonrpc.error(request.id, jsonrpc.INVALID_REQUEST,
                                           "Invalid request: this id is already in use by a "
                                           "call in progress; use a new id."))
            return
        # 2025-11-25 asks for a task in the call's params; 2026-07-28 leaves it to the server
        # (which ignores that field), for a client that declared the extension.
        asked = request.params.get("task") if not modern else None
        if asked is not None and tool.task_support == "forbidden":
            self.writer.send(jsonrpc.error(
                request.id, jsonrpc.METHOD_NOT_FOUND,
                f"Method not found: {tool.name} answers at once and cannot run as a task; call "
                "it without \"task\" (tools/list gives each tool's execution.taskSupport)."))
            return
        task = None
        if asked is not None:
            ttl = asked.get("ttl") if isinstance(asked, dict) else None
            task = self.tasks.create(False, ttl)
            if isinstance(task, str):
                self.writer.send(jsonrpc.error(request.id, jsonrpc.SERVER_BUSY, task))
                return
        meta = request.params.get("_meta")
        token = meta.get("progressToken") if isinstance(meta, dict) else None
        progress = None
        if isinstance(token, (str, int)) and not isinstance(token, bool):
            progress = ProgressReporter(token, self.writer.send)
        lane = tool.lane_for(args)
        call = Call(request.id, tool.name, lane, None, progress, modern,
                    serial=next(self._serials))

        def report(done: float, total: float | None = None, message: str | None = None):
            if progress is not None:
                progress.report(done, total, message)
            if call.task is not None:
                self.tasks.progress(call.task, done, total, message)
            self._tell(CallProgressed(call.serial, done, total, message))

        call.ctx = CallContext(session=self.session, request_id=request.id,
                               report_progress=report)
        if task is not None:
            call.task, call.answered, call.key = task, True, ("task", task.task_id)
            # Answered before the work starts, so nothing about the task can reach the client
            # before the client knows it.
            self.writer.send_response(jsonrpc.result(request.id,
                                                     wire_tasks.created(task, False)))
        with self._calls_changed:
            self.calls[call.key] = call
        self._tell(CallStarted(call.serial, tool.name, args, lane, time.time()))
        refused = self.lanes[lane_named(lane)].submit(
            lambda: self.run_call(call, tool, args, modern))
        if refused is not None:
            call.answer = error_result(refused)
            self._call_finished(call)
            if task is not None:
                self.tasks.finish(task, error={"code": jsonrpc.SERVER_BUSY, "message": refused})
            else:
                self.writer.send(jsonrpc.error(request.id, jsonrpc.SERVER_BUSY, refused))
            return
        if modern and tool.task_support != "forbidden" and \
                mcp_versions.declares_extension(request.params, wire_tasks.EXTENSION):
            call.timer = threading.Timer(TASK_AFTER, self.become_task, (call, request))
            call.timer.daemon = True
            call.timer.start()

    def become_task(self, call: Call, request: jsonrpc.Request) -> None:
        """A 2026-07-28 call still running after TASK_AFTER: answer its request with a task,
        which carries the call's answer from now on (and its progress, as statusMessage: the
        extension sends no progress notifications for a task)."""
        with call.lock:
            if call.answered or call.ctx.cancel.cancelled or self.end_reason is not None:
                return
            task = self.tasks.create(True)
            if isinstance(task, str):
                return  # the store is full: the call goes on and answers its request itself
            call.task, call.answered = task, True
            with self._calls_changed:
                if self.calls.get(call.key) is call:
                    del self.calls[call.key]
                call.key = ("task", task.task_id)
                self.calls[call.key] = call
            # Under the call's lock, so its end (settle) cannot reach the task before the
            # client has been told of it.
            self.answer(request, wire_tasks.created(task, True), True)
        if call.progress is not None:
            call.progress.finish()

    def run_call(self, call: Call, tool: Any, args: dict, modern: bool) -> None:
        call.started = True
        try:
            if call.ctx.cancel.cancelled or self.end_reason in ("signal", "stdout closed"):
                self._cancelled(call)
                return
            try:
                value = tool.handler(args, call.ctx)
                result = tool_result(value)
            except Cancelled:
                self._cancelled(call)
                return
            except ToolError as exc:
                result = error_result(str(exc))
            except Exception as exc:
                log.exception("tool %s failed", tool.name)
                result = error_result(f"{tool.name} failed unexpectedly: "
                                      f"{type(exc).__name__}: {exc}")
            result = as_answered(result, modern)
            destination = call.settle()
            if destination != "none":
                call.answer = result
            if destination == "task":
                if not _serialisable(result):  # as send_response would have answered it
                    self.tasks.finish(call.task, error={
                        "code": jsonrpc.INTERNAL_ERROR,
                        "message": "Internal error: the result could not be serialised as JSON."})
                else:
                    self.tasks.finish(call.task, result)
            elif destination == "request":
                self.writer.send_response(jsonrpc.result(call.id, result))
        finally:
            if call.timer is not None:
                call.timer.cancel()  # its thread ends now, not TASK_AFTER later
            self._call_finished(call)

    def stop_call(self, serial: Any) -> bool:
        """A watcher's cancel of the call it knows as `serial`: stopped as its client's cancel
        would stop it (notifications/cancelled; tasks/cancel for a task), and, since its client
        did not ask, told so: a request still waiting is answered with an error saying who
        stopped the call, a task ends cancelled with that sentence. False when no such call is
        running or it has its answer already."""
        with self._calls_changed:
            call = next((call for call in self.calls.values() if call.serial == serial), None)
        if call is None:
            return False
        if call.task is not None:
            self.cancel_task(call.task, STOPPED_BY_WATCHER)
            return True
        answer = as_answered(error_result(STOPPED_BY_WATCHER), call.modern)
        if not call.stop(answer):
            return False
        self.writer.send_response(jsonrpc.result(call.id, answer))
        self._call_finished(call, started_only=True)
        return True

    def _cancelled(self, call: Call) -> None:
        """A call that stopped by its cancel: its task, if it has one, ends cancelled."""
        if call.task is not None:
            self.tasks.cancel(call.task, f"The task was stopped: {call.ctx.cancel.reason}.")

    def _task_status(self, task: wire_tasks.Task) -> None:
        """A task ended: tell a 2025-11-25 client (notifications/tasks/status) and any 2026
        stream that follows it."""
        if not task.modern:
            self.writer.send(jsonrpc.notification("notifications/tasks/status",
                                                  wire_tasks.fields(task, False)))
        self.subscriptions.task_changed(task)

    def cancel_task(self, task: wire_tasks.Task, message: str | None = None) -> None:
        """tasks/cancel: the task is cancelled at once (with `message` for its status, else the
        store's), and its call stops exactly as a call stopped by notifications/cancelled
        does."""
        self.tasks.cancel(task, message)
        call = self.calls.get(("task", task.task_id))
        if call is not None:
            call.cancel(CANCELLED)
            self._call_finished(call, started_only=True)

    def _call_finished(self, call: Call, started_only: bool = False) -> None:
        if started_only and call.started:
            return  # the running thread removes it when it returns
        with self._calls_changed:
            removed = self.calls.get(call.key) is call
            if removed:
                del self.calls[call.key]
            call.done.set()
            self._calls_changed.notify_all()
        if removed:
            self._tell(ended(call))

    def _tell(self, event) -> None:
        if self.watcher is not None:
            try:
                self.watcher(event)
            except Exception:  # a watcher's bug must never reach a call or the reader
                log.exception("the call watcher failed")

    # -- teardown -----------------------------------------------------------------------------

    def wait_calls(self, deadline: float | None, which=lambda call: True) -> bool:
        """Wait until no matching call is in flight, or the deadline; True if none is left."""
        with self._calls_changed:
            while any(which(call) for call in self.calls.values()):
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    return False
                self._calls_changed.wait(remaining)
        return True

    def cancel_calls(self, which=lambda call: True) -> None:
        """Cancel the matching calls, each with the reason the session is ending."""
        with self._calls_changed:
            calls = [call for call in self.calls.values() if which(call)]
        for call in calls:
            call.cancel(self.end_reason or CANCELLED)
            self._call_finished(call, started_only=True)

    def finish(self, join_grace: float, teardown_grace: float) -> None:
        """Bring in-flight calls to an end (docs/architecture.md, "The end of a session"), then
        return."""
        self.close_streams()
        if self.end_reason == "stdin closed":
            # A piped script must complete: renders run to their end and reply (a render task
            # too, so its file is whole); anything else gets JOIN_GRACE, then is torn down
            # like a cancel.
            not_render = lambda call: call.lane != "render"
            if not self.wait_calls(time.monotonic() + join_grace, not_render):
                self.cancel_calls(not_render)
                self.wait_calls(teardown.kill_deadline(teardown_grace) + EXIT_MARGIN, not_render)
            self.wait_calls(None, lambda call: call.lane == "render")
        else:
            self.cancel_calls()
            self.wait_calls(teardown.kill_deadline(teardown_grace) + EXIT_MARGIN)


    def close_streams(self) -> None:
        """The session ends: each subscriptions/listen stream gets its completion result."""
        for stream in self.subscriptions.open_streams():
            if self.subscriptions.end(stream):
                self.writer.send_response(jsonrpc.result(stream, {
                    "resultType": "complete",
                    "_meta": {"io.modelcontextprotocol/subscriptionId": stream,
                              **mcp_versions.server_meta(__version__)}}))


# The answer to a call a watcher stopped (its request's, or its task's status): its client did
# not cancel it, and still waits for it.
STOPPED_BY_WATCHER = ("This call was cancelled by the person watching the session in the "
                      "studio; it stopped as a cancelled call does.")


def ended(call: Call) -> CallEnded:
    """What a watcher hears of a call that has left the server."""
    answer = call.answer
    text = next((block.get("text", "") for block in (answer or {}).get("content", [])
                 if block.get("type") == "text"), "")
    if answer is None or call.ctx.cancel.cancelled:
        return CallEnded(call.serial, "cancelled", text or call.ctx.cancel.reason or "",
                         time.time())
    return CallEnded(call.serial, "error" if answer.get("isError") else "done", text, time.time())


def tool_result(value: Any) -> dict:
    if isinstance(value, ToolResult):
        result = {"content": value.content,
                  "isError": value.is_error or _failed_some(value.structured)}
        if value.structured is not None:
            result["structuredContent"] = value.structured
        return result
    if isinstance(value, dict):
        return {"content": [{"type": "text", "text": json.dumps(value, ensure_ascii=False,
                                                                allow_nan=False)}],
                "structuredContent": value, "isError": _failed_some(value)}
    return {"content": [{"type": "text", "text": str(value)}], "isError": False}


def _failed_some(value: Any) -> bool:
    """A JSON result whose `failed` count is above zero is an error result."""
    failed = value.get("failed") if isinstance(value, dict) else None
    return isinstance(failed, (int, float)) and not isinstance(failed, bool) and failed > 0


def as_answered(result: dict, modern: bool) -> dict:
    """A tool call's result as its request is answered: a 2026-07-28 client's says it is
    complete and names the server."""
    if not modern:
        return result
    return {"resultType": "complete", **result, "_meta": mcp_versions.server_meta(__version__)}


def error_result(message: str) -> dict:
    return {"content": [{"type": "text", "text": message}], "isError": True}


def _serialisable(value: Any) -> bool:
    try:
        jsonrpc.encode(value)
    except (TypeError, ValueError, RecursionError, OverflowError):
        return False
    return True


def _hashable(value: Any) -> bool:
    return isinstance(value, (str, int)) and not isinstance(value, bool)
