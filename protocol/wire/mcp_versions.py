"""MCP protocol revisions: the legacy handshake era and the dual-era 2026-07-28 envelope.

Legacy clients send `initialize` and get a version back as the spec's negotiation says: the
version they asked for when we speak it, otherwise our latest handshake version. A modern request
carries its version in `params._meta` and is served statelessly, with no `initialize`; its
result carries `resultType: "complete"`, and list and read results carry cache hints.
Sans-IO: decisions over dicts, nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from protocol.wire import jsonrpc

HANDSHAKE_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
MODERN_VERSIONS = ("2026-07-28",)
LATEST_HANDSHAKE = HANDSHAKE_VERSIONS[-1]

VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
CLIENT_INFO_KEY = "io.modelcontextprotocol/clientInfo"
CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities"
SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo"

SERVER_INFO = {"name": "rendervisor", "title": "rendervisor"}  # the version is the package's

# Methods 2026-07-28 removed (ping, logging/setLevel, the handshake, resources/subscribe in
# favour of subscriptions/listen; tasks/result and tasks/list with the move of tasks to an
# extension): a modern request for one is answered -32601. And methods only that era has.
REMOVED_IN_MODERN = ("initialize", "ping", "logging/setLevel", "resources/subscribe",
                     "resources/unsubscribe", "tasks/result", "tasks/list")
MODERN_ONLY = ("subscriptions/listen", "tasks/update")

# Cache hints for modern list and read results. Lists change only with a new server build, so a
# minute is safe; the document changes with every edit, so its reads are never cached.
LIST_TTL_MS = 60_000
CACHE_SCOPE = "private"  # results may name the user's files: never share across users
# Resources that change with every edit or frame: never cached (the templates' too).
UNCACHED_RESOURCES = ("rendervisor://document", "rendervisor://renders/",
                      "rendervisor://layers/")


def negotiate(requested: Any) -> str:
    """The version an `initialize` answer names."""
    return requested if requested in HANDSHAKE_VERSIONS else LATEST_HANDSHAKE


@dataclass(frozen=True)
class Modern:
    version: str


def classify(params: dict) -> Modern | dict | None:
    """None: a legacy-era request. Modern: served statelessly at that version.
    A dict: the error body (code, message, data) to answer with."""
    meta = params.get("_meta")
    if not isinstance(meta, dict) or VERSION_KEY not in meta:
        return None
    version = meta[VERSION_KEY]
    if not isinstance(version, str):
        return {"code": jsonrpc.INVALID_PARAMS,
                "message": f"params._meta[{VERSION_KEY!r}] must be a string."}
    if version not in MODERN_VERSIONS:
        return {"code": jsonrpc.UNSUPPORTED_PROTOCOL_VERSION,
                "message": f"Unsupported protocol version {version!r}; this server speaks "
                           f"{', '.join(MODERN_VERSIONS)} per request and "
                           f"{', '.join(HANDSHAKE_VERSIONS)} through initialize.",
                "data": {"supported": list(MODERN_VERSIONS), "requested": version}}
    if not isinstance(meta.get(CAPABILITIES_KEY, {}), dict):
        return {"code": jsonrpc.INVALID_PARAMS,
                "message": f"params._meta[{CAPABILITIES_KEY!r}] must be an object."}
    return Modern(version)


def declares_extension(params: dict, identifier: str) -> bool:
    """Whether a modern request's client capabilities name the extension `identifier`."""
    meta = params.get("_meta")
    capabilities = meta.get(CAPABILITIES_KEY) if isinstance(meta, dict) else None
    extensions = capabilities.get("extensions") if isinstance(capabilities, dict) else None
    return isinstance(extensions, dict) and isinstance(extensions.get(identifier), dict)


def server_info(version: str) -> dict:
    return {**SERVER_INFO, "version": version}


def server_meta(version: str) -> dict:
    """The `_meta` a modern result identifies the server in."""
    return {SERVER_INFO_KEY: server_info(version)}


def stamp_modern(method: str, result: dict, params: dict, version: str) -> dict:
    """Add the modern-era fields to a result: resultType, the server's identity in _meta, and
    cache hints where they belong."""
    stamped = {"resultType": "complete", **result,
               "_meta": {**result.get("_meta", {}), **server_meta(version)}}
    if method.endswith("/list") or method == "server/discover":
        stamped.setdefault("ttlMs", LIST_TTL_MS)
        stamped.setdefault("cacheScope", CACHE_SCOPE)
    elif method == "resources/read":
        uri = params.get("uri")
        uncached = isinstance(uri, str) and uri.startswith(UNCACHED_RESOURCES)
        stamped.setdefault("ttlMs", 0 if uncached else LIST_TTL_MS)
        stamped.setdefault("cacheScope", CACHE_SCOPE)
    return stamped
