"""The methods the stdin reader answers itself, without a lane: the handshake and discovery,
lists and reads, prompts, completions, tasks and subscriptions.

Each is `handler(server, request, modern) -> result`; it never waits on work. It raises
RequestError for a JSON-RPC error, or returns DEFERRED when its answer comes later from
another thread (a 2025-11-25 tasks/result waiting for its task to end; a subscriptions/listen
stream, answered when it ends). Which methods exist depends on the era of the request:
2026-07-28 removed some (REMOVED_IN_MODERN) and added others (MODERN_ONLY); `handler` is the
one place that says which a request may call.
"""

from __future__ import annotations

from typing import Any, Callable

from protocol.wire import jsonrpc, mcp_versions
from protocol.wire import tasks as wire_tasks
from supervisor import __version__
from supervisor.mcp import guide, prompts, resources
from supervisor.mcp.tools.registry import TOOLS

DEFERRED = object()  # the handler answers later, from another thread


class RequestError(Exception):
    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.data = data


def handler(method: str, modern: bool) -> Callable | str:
    """The handler of `method` for a request of this era, or the -32601 sentence."""
    if modern and method in mcp_versions.REMOVED_IN_MODERN:
        return (f"Method not found: {method!r} is not part of protocol revision 2026-07-28 "
                "(it was removed); this request declared that revision.")
    if not modern and method in mcp_versions.MODERN_ONLY:
        return (f"Method not found: {method!r} belongs to protocol revision 2026-07-28; send "
                "it with that revision in params._meta.")
    found = METHODS.get(method)
    return found if found is not None else f"Method not found: {method!r}."


# -- the handshake and discovery ---------------------------------------------------------------

def capabilities(modern: bool) -> dict:
    common = {"tools": {"listChanged": False},
              "resources": {"listChanged": False, "subscribe": True},
              "prompts": {"listChanged": False},
              "completions": {}}
    if modern:  # tasks are the extension's; logging is deprecated and nothing is logged
        return {**common, "extensions": {wire_tasks.EXTENSION: {}}}
    return {**common, "logging": {},
            "tasks": {"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}}}


def initialize(server, request, modern: bool) -> dict:
    return {"protocolVersion": mcp_versions.negotiate(request.params.get("protocolVersion")),
            "capabilities": capabilities(False),
            "serverInfo": mcp_versions.server_info(__version__),
            "instructions": guide.instructions(server.session)}


def discover(server, request, modern: bool) -> dict:
    # serverInfo rides in _meta (every modern result carries it: mcp_versions.stamp_modern).
    return {"supportedVersions": list(mcp_versions.MODERN_VERSIONS),
            "capabilities": capabilities(True),
            "instructions": guide.instructions(server.session)}


# -- lists, reads, prompts, completions ---------------------------------------------------------

def whole_list(request) -> None:
    """Every list is answered whole, so no cursor is one this server gave."""
    cursor = request.params.get("cursor")
    if cursor is not None:
        raise RequestError(jsonrpc.INVALID_PARAMS,
                           f"Invalid params: cursor {cursor!r} is not one this server gave; "
                           "every list is answered whole, without a nextCursor.")


def list_tools(server, request, modern: bool) -> dict:
    whole_list(request)
    return {"tools": [tool.listing(server.session, modern) for tool in TOOLS.values()]}


def list_resources(server, request, modern: bool) -> dict:
    whole_list(request)
    return {"resources": resources.listing()}


def list_templates(server, request, modern: bool) -> dict:
    whole_list(request)
    return {"resourceTemplates": resources.templates_listing()}


def not_found(error: resources.UnknownResource, modern: bool) -> RequestError:
    # 2026-07-28 made an unknown resource Invalid Params; the handshake era's code stays.
    return RequestError(jsonrpc.INVALID_PARAMS if modern else jsonrpc.RESOURCE_NOT_FOUND,
                        str(error))


def read_resource(server, request, modern: bool) -> dict:
    uri = request.params.get("uri")
    try:
        mime, text = resources.read(server.session, uri)
    except resources.UnknownResource as exc:
        raise not_found(exc, modern) from None
    return {"contents": [{"uri": uri, "mimeType": mime, "text": text}]}


def list_prompts(server, request, modern: bool) -> dict:
    whole_list(request)
    return {"prompts": prompts.list_prompts()}


def get_prompt(server, request, modern: bool) -> dict:
    try:
        return prompts.get_prompt(request.params.get("name"),
                                  request.params.get("arguments") or {})
    except prompts.PromptError as exc:
        raise RequestError(jsonrpc.INVALID_PARAMS, str(exc)) from None


def complete(server, request, modern: bool) -> dict:
    ref, argument = request.params.get("ref"), request.params.get("argument")
    if not isinstance(ref, dict) or not isinstance(argument, dict) or \
            not isinstance(argument.get("name"), str):
        raise RequestError(jsonrpc.INVALID_PARAMS,
                           "Invalid params: completion/complete takes ref {type, name | uri} "
                           "and argument {name, value}.")
    value = argument.get("value") if isinstance(argument.get("value"), str) else ""
    context = (request.params.get("context") or {}).get("arguments") or {}
    if ref.get("type") == "ref/resource":
        names = resources.complete_template(server.session, ref.get("uri"), argument["name"],
                                            value, context)
    elif ref.get("type") == "ref/prompt":
        try:
            names = prompts.complete_argument(server.session, ref.get("name"),
                                              argument["name"], value)
        except prompts.PromptError as exc:
            raise RequestError(jsonrpc.INVALID_PARAMS, str(exc)) from None
    else:
        raise RequestError(jsonrpc.INVALID_PARAMS,
                           f"Invalid params: ref.type {ref.get('type')!r} is neither ref/prompt "
                           "nor ref/resource.")
    shown = names[:resources.MAX_COMPLETIONS]
    return {"completion": {"values": shown, "total": len(names),
                           "hasMore": len(names) > len(shown)}}


# -- subscriptions --------------------------------------------------------------------------------

def subscribe(server, request, modern: bool) -> dict:
    try:
        server.subscriptions.subscribe(request.params.get("uri"))
    except resources.UnknownResource as exc:
        raise not_found(exc, modern) from None
    return {}


def unsubscribe(server, request, modern: bool) -> dict:
    server.subscriptions.unsubscribe(request.params.get("uri"))
    return {}


def listen(server, request, modern: bool) -> object:
    wanted = request.params.get("notifications")
    if not isinstance(wanted, dict):
        raise RequestError(jsonrpc.INVALID_PARAMS,
                           "Invalid params: subscriptions/listen takes notifications {...}.")
    uris = [uri for uri in wanted.get("resourceSubscriptions") or () if isinstance(uri, str)]
    task_ids = [task for task in wanted.get("taskIds") or () if isinstance(task, str)]
    if task_ids:
        need_tasks_extension(request)
    server.subscriptions.listen(request.id, uris, task_ids,
                                lambda task_id: server.tasks.get(task_id) is not None)
    return DEFERRED  # answered when the stream ends (Server.close_streams)


# -- tasks ------------------------------------------------------------------------------------------

def need_tasks_extension(request) -> None:
    if not mcp_versions.declares_extension(request.params, wire_tasks.EXTENSION):
        raise RequestError(jsonrpc.MISSING_REQUIRED_CLIENT_CAPABILITY,
                           f"Missing required client capability: declare the {wire_tasks.EXTENSION} "
                           "extension in this request's client capabilities.",
                           {"requiredCapabilities": {"extensions": {wire_tasks.EXTENSION: {}}}})


def the_task(server, request, modern: bool) -> wire_tasks.Task:
    if modern:
        need_tasks_extension(request)
    task_id = request.params.get("taskId")
    task = server.tasks.get(task_id)
    if task is None:
        raise RequestError(jsonrpc.INVALID_PARAMS,
                           f"Failed to retrieve task: task {task_id!r} was not found (a task's "
                           "result is kept 10 minutes after it ends, or for its ttl).")
    return task


def get_task(server, request, modern: bool) -> dict:
    task = the_task(server, request, modern)
    if modern:
        server.tasks.delivered(task)  # the 2026 answer carries an ended task's result
    return wire_tasks.detailed(task, modern)


def list_tasks(server, request, modern: bool) -> dict:
    whole_list(request)
    return {"tasks": [wire_tasks.fields(task, False) for task in server.tasks.all()]}


def cancel_task(server, request, modern: bool) -> dict:
    """Cancel the task's call exactly as a cancel of a blocking call does (its render stops,
    what it wrote is removed); the task is cancelled before the answer."""
    task = the_task(server, request, modern)
    if task.terminal:
        if modern:
            return {}  # the extension acknowledges; the task keeps the status it ended with
        raise RequestError(jsonrpc.INVALID_PARAMS,
                           f"Cannot cancel task: already in terminal status {task.status!r}.")
    server.cancel_task(task)
    server.tasks.delivered(task)
    return {} if modern else wire_tasks.fields(task, False)


def task_result(server, request, modern: bool) -> object:
    """tasks/result (2025-11-25): the call's answer once the task ended; until then the
    request waits (off this thread: the task's end answers it)."""
    task = the_task(server, request, modern)

    def answer(ended: wire_tasks.Task) -> None:
        result, error = wire_tasks.payload(ended)
        if error is not None:
            server.writer.send(jsonrpc.error(request.id, error["code"], error["message"],
                                             error.get("data")))
        else:
            server.writer.send_response(jsonrpc.result(request.id, result))

    server.tasks.when_ended(request.id, task, answer)
    return DEFERRED


def update_task(server, request, modern: bool) -> dict:
    the_task(server, request, modern)
    return {}  # no task here ever asks for input: every response is for no outstanding request


METHODS: dict[str, Callable] = {
    "initialize": initialize,
    "ping": lambda server, request, modern: {},
    "logging/setLevel": lambda server, request, modern: {},
    "server/discover": discover,
    "tools/list": list_tools,
    "resources/list": list_resources,
    "resources/read": read_resource,
    "resources/templates/list": list_templates,
    "resources/subscribe": subscribe,
    "resources/unsubscribe": unsubscribe,
    "subscriptions/listen": listen,
    "prompts/list": list_prompts,
    "prompts/get": get_prompt,
    "completion/complete": complete,
    "tasks/get": get_task,
    "tasks/list": list_tasks,
    "tasks/cancel": cancel_task,
    "tasks/result": task_result,
    "tasks/update": update_task,
}
