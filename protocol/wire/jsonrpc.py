"""JSON-RPC 2.0 over newline-delimited JSON: parsing one line, and building replies.

Sans-IO: functions over bytes and dicts. The supervisor's reader hands each line here and acts on
the message that comes back; nothing here reads, writes, blocks or raises for bad input: a bad
line is a value (`Invalid`) carrying the error reply to send.

NaN, Infinity and 1e999 (numbers JSON as Python reads it, but no project can hold) parse here
like any other: an id holding one is no valid id, and in params they reach the tool's or the
engine command's own check (protocol/model/numbers.py), which names the argument, as a parse error
with a null id could not.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
SERVER_BUSY = -32000  # a lane's wait queue is full: retry later
MISSING_REQUIRED_CLIENT_CAPABILITY = -32021
UNSUPPORTED_PROTOCOL_VERSION = -32022
RESOURCE_NOT_FOUND = -32002  # the handshake era's code; 2026-07-28 answers INVALID_PARAMS


@dataclass(frozen=True)
class Request:
    id: Any
    method: str
    params: dict


@dataclass(frozen=True)
class Notification:
    method: str
    params: dict


@dataclass(frozen=True)
class Response:
    """A response sent to us; a server with no requests of its own ignores it."""
    id: Any


@dataclass(frozen=True)
class Invalid:
    """A line that is not a message we can serve; `reply` is the error to send (or None)."""
    reply: dict | None


def parse_line(line: bytes | str) -> Request | Notification | Response | Invalid:
    try:
        # Strict UTF-8 (json.loads alone would take a UTF-8-encoded surrogate, and guess UTF-16
        # or UTF-32 for some byte patterns); a leading BOM is tolerated as json.loads does.
        text = line.decode("utf-8-sig") if isinstance(line, bytes) else line
        message = json.loads(text)
        if _LONE_SURROGATE_ESCAPE.search(text) and _holds_lone_surrogate(message):
            return Invalid(error(None, PARSE_ERROR, "Parse error: the line holds a \\u escape "
                                 "of a lone UTF-16 surrogate (such as \\ud800 without its "
                                 "pair), which is no Unicode character; send text as UTF-8."))
    except (ValueError, RecursionError) as exc:
        # json raises ValueError for bad UTF-8 and bad JSON alike; RecursionError for deep nesting.
        return Invalid(error(None, PARSE_ERROR, f"Parse error: the line is not valid JSON ({exc})."
                             if not isinstance(exc, RecursionError)
                             else "Parse error: the line nests too deeply to parse."))
    if isinstance(message, list):
        return Invalid(error(None, INVALID_REQUEST,
                             "Invalid request: JSON-RPC batches (arrays) are not supported; "
                             "send one message per line."))
    if not isinstance(message, dict):
        return Invalid(error(None, INVALID_REQUEST,
                             "Invalid request: a message must be a JSON object."))
    has_id = "id" in message
    message_id = message.get("id")
    if has_id and not _valid_id(message_id):
        return Invalid(error(None, INVALID_REQUEST,
                             "Invalid request: id must be a string, an integer or null."))
    if "method" not in message:
        if has_id and ("result" in message or "error" in message):
            return Response(message_id)
        return Invalid(error(message_id if has_id else None, INVALID_REQUEST,
                             "Invalid request: a request needs a string \"method\"."))
    method = message["method"]
    params = message.get("params", {})
    reply_id = message_id if has_id else None
    if message.get("jsonrpc") != "2.0":
        return Invalid(error(reply_id, INVALID_REQUEST,
                             "Invalid request: \"jsonrpc\" must be \"2.0\".") if has_id else None)
    if not isinstance(method, str):
        return Invalid(error(reply_id, INVALID_REQUEST,
                             "Invalid request: \"method\" must be a string.") if has_id else None)
    if params is None:
        params = {}
    if not isinstance(params, dict):
        return Invalid(error(reply_id, INVALID_PARAMS,
                             "Invalid params: \"params\" must be an object.") if has_id else None)
    if not has_id:
        return Notification(method, params)
    if message_id is None:
        return Invalid(error(None, INVALID_REQUEST, "Invalid request: id must not be null."))
    return Request(message_id, method, params)


# An escape that may be half of a surrogate pair. Whole pairs decode to one character; only a
# line with such an escape is walked for a half left alone, so ordinary lines cost nothing more.
_LONE_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _holds_lone_surrogate(value: Any) -> bool:
    """Whether any string in the message (key or value) holds an unpaired surrogate: such a
    string can be neither stored in a saved project nor written back as UTF-8."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def _valid_id(value: Any) -> bool:
    return value is None or isinstance(value, str) or (
        isinstance(value, int) and not isinstance(value, bool))


def result(request_id: Any, value: dict) -> dict:
    return {"jsonrpc": "2.0", "id": request_id, "result": value}


def error(request_id: Any, code: int, message: str, data: Any = None) -> dict:
    body: dict = {"code": code, "message": message}
    if data is not None:
        body["data"] = data
    return {"jsonrpc": "2.0", "id": request_id, "error": body}


def notification(method: str, params: dict) -> dict:
    return {"jsonrpc": "2.0", "method": method, "params": params}


def encode(message: dict) -> bytes:
    """One message as one line. Raises TypeError/ValueError for an unserialisable message."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"),
                      allow_nan=False).encode("utf-8") + b"\n"
