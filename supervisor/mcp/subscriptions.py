"""Resources that follow the work: notifications/resources/updated for the resources a client
follows, and (2026-07-28) notifications/tasks for the tasks it follows.

- Handshake era: resources/subscribe {uri} and resources/unsubscribe; updates go out as they
  are.
- 2026-07-28: subscriptions/listen {notifications: {resourceSubscriptions, taskIds}} opens a
  stream named by the request's id. It is acknowledged first
  (notifications/subscriptions/acknowledged, with what is honoured), every notification on it
  carries the id in _meta, notifications/cancelled for that id ends it, and the session's end
  answers the listen request with a completion result.

    engine revision moves ──► changed() ──► the notifier thread wakes ──► reads each followed
                                            resource again (resources.read) and sends updated
                                            for those that read differently

Bursts of edits coalesce into one pass, nothing is polled, and nothing is sent while the
engine's lock is held. A render's progress between status changes does not count as a change
(the item's resource gives it when read); its status does.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from typing import Any, Callable

from protocol.wire import tasks as wire
from supervisor.mcp import resources

log = logging.getLogger("rendervisor.server")

SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId"
LEGACY = None  # the key of handshake-era subscriptions (they belong to no listen request)


class Subscriptions:
    def __init__(self, session, send: Callable[[dict], Any]) -> None:
        self.session = session
        self._send = send
        # stream id (a listen request's id, or LEGACY) -> the URIs and task ids it follows
        self._streams: dict[Any, dict[str, set]] = {}
        self._seen: dict[str, str] = {}  # URI -> digest of what it read last
        self._lock = threading.Condition()
        self._dirty = False
        self._thread: threading.Thread | None = None
        session.engine.watchers.append(self.changed)

    # -- following ----------------------------------------------------------------------------

    def subscribe(self, uri: str) -> None:
        """Follow `uri` (handshake era); UnknownResource if it names none."""
        self._follow(LEGACY, [uri], [])

    def unsubscribe(self, uri: str) -> None:
        with self._lock:
            self._streams.get(LEGACY, {"uris": set()})["uris"].discard(uri)

    def listen(self, stream: Any, uris: list, task_ids: list, known_task) -> None:
        """Open a 2026-07-28 stream following the URIs and tasks that exist (the others are
        left out of the acknowledgement), and acknowledge it."""
        honoured = []
        for uri in uris:
            try:
                self._follow(stream, [uri], [])
                honoured.append(uri)
            except resources.UnknownResource:
                pass
        tasks = [task_id for task_id in task_ids if known_task(task_id)]
        self._follow(stream, [], tasks)
        filter_: dict = {"resourceSubscriptions": honoured}
        if task_ids:
            filter_["taskIds"] = tasks
        self._send(_notification("notifications/subscriptions/acknowledged",
                                 {"notifications": filter_}, stream))

    def end(self, stream: Any) -> bool:
        """Close a stream the client cancelled; whether it was open."""
        with self._lock:
            return self._streams.pop(stream, None) is not None

    def open_streams(self) -> list:
        with self._lock:
            return [stream for stream in self._streams if stream is not LEGACY]

    def _follow(self, stream: Any, uris: list, task_ids: list) -> None:
        digests = {uri: _digest(resources.read(self.session, uri)[1]) for uri in uris}
        with self._lock:
            entry = self._streams.setdefault(stream, {"uris": set(), "tasks": set()})
            entry["uris"].update(uris)
            entry["tasks"].update(task_ids)
            for uri, digest in digests.items():
                self._seen.setdefault(uri, digest)
            if self._thread is None and uris:
                self._thread = threading.Thread(target=self._notify_forever, daemon=True,
                                                name="subscriptions")
                self._thread.start()

    # -- changes ------------------------------------------------------------------------------

    def changed(self) -> None:
        """The engine's revision moved (called under its lock: only a flag and a wake-up)."""
        with self._lock:
            self._dirty = True
            self._lock.notify()

    def task_changed(self, task: wire.Task) -> None:
        """A task's status changed: tell the streams that follow it."""
        with self._lock:
            streams = [stream for stream, entry in self._streams.items()
                       if task.task_id in entry["tasks"]]
        for stream in streams:
            self._send(_notification("notifications/tasks", wire.detailed(task, True), stream))

    def _notify_forever(self) -> None:
        while True:
            with self._lock:
                while not self._dirty:
                    self._lock.wait()
                self._dirty = False
                followed = {uri: [stream for stream, entry in self._streams.items()
                                  if uri in entry["uris"]]
                            for entry in self._streams.values() for uri in entry["uris"]}
            for uri, streams in followed.items():
                try:
                    digest = _digest(resources.read(self.session, uri)[1])
                except resources.UnknownResource:
                    digest = ""  # gone (an item removed): that is a change too, once
                except Exception:  # a notifier must outlive any one resource's failure
                    log.exception("reading %s for its subscribers failed", uri)
                    continue
                if self._seen.get(uri) == digest:
                    continue
                self._seen[uri] = digest
                for stream in streams:
                    self._send(_notification("notifications/resources/updated", {"uri": uri},
                                             stream))


def _notification(method: str, params: dict, stream: Any) -> dict:
    if stream is not LEGACY:
        params = {**params, "_meta": {**params.get("_meta", {}), SUBSCRIPTION_ID: stream}}
    return {"jsonrpc": "2.0", "method": method, "params": params}


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
