"""The MCP front door: one reader, inline answers, two lanes, and an orderly end.

    stdin ──► reader thread ──► parse_line ──┬─► inline: initialize, ping, tools/list,
                                             │   resources/*, prompts/*, server/discover,
                                             │   notifications
                                             └─► tools/call ──► quick lane | long lane (threads)
    every reply ──► LineWriter (one lock, whole lines) ──► stdout
    main thread: waits for the end (stdin EOF, SIGTERM/SIGINT, stdout closed) and tears down.

The reader never blocks on work: a call is checked (tool, arguments) inline and handed to a lane,
or refused at once if the lane is full. Every request with an id gets exactly one answer, except
a cancelled one, which gets none; `Call.claim_answer` is the one place that decides.

A watcher (supervisor/call_events.py; the studio, with `rendervisor mcp --studio`) is told of
each call's start, progress and end, and may stop a call (`stop_call`): it is cancelled as a
client's notifications/cancelled cancels it, and its request, which the client still waits on,
is answered with an error saying so.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from protocol.cancel import CANCELLED, Cancelled
from protocol.wire import jsonrpc, mcp_versions
from supervisor import __version__
from supervisor.call_events import CallEnded, CallProgressed, CallStarted, CallWatcher
from supervisor.mcp import guide, prompts
from supervisor.mcp.player_app import PLAYER_MIME, PLAYER_URI, player_html
from supervisor.mcp.lanes import Lane
from supervisor.mcp.progress import ProgressReporter
from supervisor.mcp.stdout_writer import LineWriter
from supervisor.mcp.tools import arguments, engine_tools
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
    answered: bool = False
    answer: dict | None = None  # the result its request was answered with
    started: bool = False
    done: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def claim_answer(self) -> bool:
        """True for exactly one caller, and never once the call is cancelled."""
        with self.lock:
            if self.answered or self.ctx.cancel.cancelled:
                return False
            self.answered = True
        if self.progress is not None:
            self.progress.finish(flush=True)
        return True

    def cancel(self, reason: str) -> None:
        with self.lock:
            if self.answered:
                return
        if self.progress is not None:
            self.progress.finish()
        self.ctx.cancel.cancel(reason)

    def stop(self, answer: dict) -> bool:
        """Cancel the call and take its answer, `answer`, for a cancel its client did not ask
        for; False when it was answered or cancelled already."""
        if not self.claim_answer():
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
        self.lanes = {"quick": Lane("quick", max_inflight), "long": Lane("long", max_inflight)}
        self.calls: dict[Any, Call] = {}
        self._calls_changed = threading.Condition()
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
            call = self.calls.get(request_id) if _hashable(request_id) else None
            if call is not None:
                call.cancel(CANCELLED)
                self._call_finished(call, started_only=True)
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
        handler = INLINE.get(method)
        if handler is None:
            self.writer.send(jsonrpc.error(request.id, jsonrpc.METHOD_NOT_FOUND,
                                           f"Method not found: {method!r}."))
            return
        try:
            value = handler(self, request.params)
        except RequestError as exc:
            self.writer.send(jsonrpc.error(request.id, exc.code, str(exc)))
            return
        if modern:
            value = mcp_versions.stamp_modern(method, value, request.params)
        self.writer.send_response(jsonrpc.result(request.id, value))

    # -- inline methods -----------------------------------------------------------------------

    def capabilities(self) -> dict:
        return {"tools": {"listChanged": False},
                "resources": {"listChanged": False, "subscribe": False},
                "prompts": {"listChanged": False},
                "logging": {}}

    def initialize(self, params: dict) -> dict:
        return {"protocolVersion": mcp_versions.negotiate(params.get("protocolVersion")),
                "capabilities": self.capabilities(),
                "serverInfo": {"name": "rendervisor", "title": "rendervisor",
                               "version": __version__},
                "instructions": guide.instructions(self.session)}

    def discover(self, params: dict) -> dict:
        return {"supportedVersions": list(mcp_versions.MODERN_VERSIONS),
                "capabilities": self.capabilities(),
                "serverInfo": {"name": "rendervisor", "title": "rendervisor",
                               "version": __version__},
                "instructions": guide.instructions(self.session)}

    def list_tools(self, params: dict) -> dict:
        return {"tools": [tool.listing(self.session) for tool in TOOLS.values()]}

    def list_resources(self, params: dict) -> dict:
        return {"resources": [
            {"uri": uri, "name": name, "title": title, "mimeType": mime}
            for uri, (name, title, mime, _) in RESOURCES.items()]}

    def read_resource(self, params: dict) -> dict:
        uri = params.get("uri")
        entry = RESOURCES.get(uri) if isinstance(uri, str) else None
        if entry is None:
            raise RequestError(RESOURCE_NOT_FOUND,
                               f"Resource not found: {uri!r}; the resources are "
                               f"{', '.join(RESOURCES)}.")
        _, _, mime, read = entry
        value = read(self.session)
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        return {"contents": [{"uri": uri, "mimeType": mime, "text": text}]}

    def list_prompts(self, params: dict) -> dict:
        return {"prompts": prompts.list_prompts()}

    def get_prompt(self, params: dict) -> dict:
        try:
            return prompts.get_prompt(params.get("name"), params.get("arguments") or {})
        except prompts.PromptError as exc:
            raise RequestError(jsonrpc.INVALID_PARAMS, str(exc)) from None

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
        meta = request.params.get("_meta")
        token = meta.get("progressToken") if isinstance(meta, dict) else None
        progress = None
        if isinstance(token, (str, int)) and not isinstance(token, bool):
            progress = ProgressReporter(token, self.writer.send)

        def report(done: float, total: float | None = None, message: str | None = None):
            if progress is not None:
                progress.report(done, total, message)
            self._tell(CallProgressed(request.id, done, total, message))

        ctx = CallContext(session=self.session, request_id=request.id,
                          report_progress=report if progress or self.watcher else None)
        lane = tool.lane_for(args)
        call = Call(request.id, tool.name, lane, ctx, progress, modern)
        with self._calls_changed:
            self.calls[request.id] = call
        self._tell(CallStarted(request.id, tool.name, args, lane, time.time()))
        refused = self.lanes["quick" if lane == "quick" else "long"].submit(
            lambda: self.run_call(call, tool, args, modern))
        if refused is not None:
            call.answer = error_result(refused)
            self._call_finished(call)
            self.writer.send(jsonrpc.error(request.id, jsonrpc.SERVER_BUSY, refused))

    def run_call(self, call: Call, tool: Any, args: dict, modern: bool) -> None:
        call.started = True
        try:
            if call.ctx.cancel.cancelled or self.end_reason in ("signal", "stdout closed"):
                return
            try:
                value = tool.handler(args, call.ctx)
                result = tool_result(value)
            except Cancelled:
                return
            except ToolError as exc:
                result = error_result(str(exc))
            except Exception as exc:
                log.exception("tool %s failed", tool.name)
                result = error_result(f"{tool.name} failed unexpectedly: "
                                      f"{type(exc).__name__}: {exc}")
            if modern:
                result = {"resultType": "complete", **result}
            if call.claim_answer():
                call.answer = result
                self.writer.send_response(jsonrpc.result(call.id, result))
        finally:
            self._call_finished(call)

    def stop_call(self, key: Any) -> bool:
        """A watcher's cancel: the call `key` is cancelled as notifications/cancelled cancels
        it, and its request answered with an error saying who stopped it; False when no such
        call is waiting for its answer."""
        call = self.calls.get(key) if _hashable(key) else None
        answer = error_result(STOPPED_BY_WATCHER)
        if call is None or not call.stop(answer):
            return False
        if call.modern:
            answer = {"resultType": "complete", **answer}
        self.writer.send_response(jsonrpc.result(call.id, answer))
        self._call_finished(call, started_only=True)
        return True

    def _call_finished(self, call: Call, started_only: bool = False) -> None:
        if started_only and call.started:
            return  # the running thread removes it when it returns
        with self._calls_changed:
            removed = self.calls.get(call.id) is call
            if removed:
                del self.calls[call.id]
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
        if self.end_reason == "stdin closed":
            # A piped script must complete: renders run to their end and reply; anything else
            # gets JOIN_GRACE, then is torn down like a cancel.
            not_render = lambda call: call.lane != "render"
            if not self.wait_calls(time.monotonic() + join_grace, not_render):
                self.cancel_calls(not_render)
                self.wait_calls(teardown.kill_deadline(teardown_grace) + EXIT_MARGIN, not_render)
            self.wait_calls(None, lambda call: call.lane == "render")
        else:
            self.cancel_calls()
            self.wait_calls(teardown.kill_deadline(teardown_grace) + EXIT_MARGIN)


class RequestError(Exception):
    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code


RESOURCE_NOT_FOUND = -32002

# The answer to a call a watcher stopped: its client did not cancel it and still waits.
STOPPED_BY_WATCHER = ("This call was cancelled by the person watching the session in the "
                      "studio; it stopped as a cancelled call does.")


def ended(call: Call) -> CallEnded:
    """What a watcher hears of a call that has left the server."""
    answer = call.answer
    text = next((block.get("text", "") for block in (answer or {}).get("content", [])
                 if block.get("type") == "text"), "")
    if answer is None or call.ctx.cancel.cancelled:
        return CallEnded(call.id, "cancelled", text or call.ctx.cancel.reason or "",
                         time.time())
    return CallEnded(call.id, "error" if answer.get("isError") else "done", text, time.time())


def tool_result(value: Any) -> dict:
    if isinstance(value, ToolResult):
        result = {"content": value.content, "isError": value.is_error}
        if value.structured is not None:
            result["structuredContent"] = value.structured
        return result
    if isinstance(value, dict):
        failed = value.get("failed")
        is_error = isinstance(failed, (int, float)) and not isinstance(failed, bool) and failed > 0
        return {"content": [{"type": "text", "text": json.dumps(value, ensure_ascii=False,
                                                                allow_nan=False)}],
                "structuredContent": value, "isError": is_error}
    return {"content": [{"type": "text", "text": str(value)}], "isError": False}


def error_result(message: str) -> dict:
    return {"content": [{"type": "text", "text": message}], "isError": True}


def _hashable(value: Any) -> bool:
    return isinstance(value, (str, int)) and not isinstance(value, bool)


def _document(session: Any) -> dict:
    return engine_tools.document_resource(session)


def _commands(session: Any) -> dict:
    return engine_tools.commands_resource(session)


RESOURCES = {
    guide.GUIDE_URI: ("guide", "How to build, check and render with rendervisor (read first)",
                      "text/markdown", lambda session: guide.GUIDE),
    "rendervisor://document": ("document", "The project document (same as doc_inspect)",
                               "application/json", _document),
    "rendervisor://commands": ("commands", "The engine command catalog (same as command_list)",
                               "application/json", _commands),
    PLAYER_URI: ("player", "The inline player for filmstrips and renders (an MCP App)",
                 PLAYER_MIME, lambda session: player_html()),
}

INLINE = {
    "initialize": Server.initialize,
    "ping": lambda server, params: {},
    "server/discover": Server.discover,
    "tools/list": Server.list_tools,
    "resources/list": Server.list_resources,
    "resources/read": Server.read_resource,
    "resources/templates/list": lambda server, params: {"resourceTemplates": []},
    "prompts/list": Server.list_prompts,
    "prompts/get": Server.get_prompt,
    "logging/setLevel": lambda server, params: {},
}
