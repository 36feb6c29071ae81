"""The engine: the project document one session edits, its revision, its undo history, and the
way every engine command runs.

```
  command_run / command_batch            render service
  (quick lane threads)                   (its own threads)
        │                                      │
        ▼                                      ▼
  Engine.run(id, params)                 Engine.snapshot()
        │ RLock                                │ RLock
        ▼                                      ▼
  Engine.edit: handler edits engine.doc  (snapshot id, copy of doc)
  (supervisor/engine/commands/*)
        └─ before: the document's text kept for undo; after: size checked, revision += 1
```

Every edit takes `lock`; a render never holds it while it renders, it works from a snapshot
(docs/architecture.md, "The render pipeline"). A command that reads files (`waits_on` "probe":
footage, fonts, captions, text measured on a probe worker, supervisor/engine/probes.py) is run
once on a copy of the document before the lock is taken, so its files are read while edits go
on; the run under the lock then finds what they said kept (`_look_ahead`). Undo is snapshot based, which makes every command undoable by
construction and lets a failed command be put back exactly: an undo step is the whole document on
its other side, kept as compact JSON text (protocol/model/document.py's `compact`), a fifth of its
size as objects. What bounds the history is its size: at most MAX_HISTORY steps and
MAX_HISTORY_BYTES together, the oldest dropped first (edit.history says how many), and no edit may
make the document larger than MAX_DOCUMENT_BYTES. `revision` only ever grows and moves with every
change of the document, and the text of the document at the current revision is made once and
reused (the next edit's undo step, a snapshot). But every engine starts again from 0 (a watch node
opens each project into a new one), so a copy of the document kept anywhere (a worker's snapshot,
the preview cache) is named by its snapshot id, this engine's random identity and the revision
together, never by the revision alone; `nextId` never goes back on undo, so an id is never reused.

The engine never does file I/O itself; project.open and project.save (supervisor/engine/commands/
project.py) do.
"""

from __future__ import annotations

import difflib
import json
import logging
import os
import re
import secrets
import threading
from dataclasses import dataclass
from typing import Any, Callable

import supervisor.engine.commands  # noqa: F401  (registers every command family)
from protocol.model.document import DocumentError, compact, new_document, size_problem
from protocol.model.frame_spec import FrameSpecError
from protocol.model.numbers import written_index
from supervisor.engine.commands.registry import COMMANDS, check_params
from supervisor.errors import CommandError
from supervisor.work import Work
from supervisor.engine.commands.render import available as render_available
from supervisor.engine.footage_reads import check_document
from supervisor.engine.font_files import check_font_files
from supervisor.engine.probes import Probes
from supervisor.engine.lut_files import check_lut_files
from supervisor.engine.color_settings import check_config_file

__all__ = ["Engine", "CommandError", "HistoryStep"]

log = logging.getLogger(__name__)

# Undo steps kept: an agent that needs more than this many undos is better served by reopening
# its saved project. A hand-made project's 200 steps are a few megabytes.
MAX_HISTORY = 200
# The undo and redo steps' text together, at most; past it the oldest steps are dropped. A
# project at MAX_DOCUMENT_BYTES (protocol/model/limits.py) keeps its last 8 steps, any smaller one
# more. Larger, a session's memory (this, plus the document, five to six times its compact size
# as objects) grows past what a machine running renders beside it can spare; smaller, a large
# project could undo fewer steps. (Whole copies as objects, a million keys then 30 edits took
# 9.5 GB.)
MAX_HISTORY_BYTES = 128 * 1024 * 1024

_REFERENCE = re.compile(r"^\$(\d+)(?:\.(.+))?$")
# A reference with more dollars in front is a literal text: one dollar fewer ("$$49" is "$49",
# a price, not step 49's result).
_ESCAPED_REFERENCE = re.compile(r"^\$(\$+\d+(?:\..+)?)$")


@dataclass(frozen=True)
class HistoryStep:
    label: str
    # The document on the other side of this step (before it, on the undo stack), as compact
    # JSON text: its length is what the step costs (ASCII, one byte a character).
    document: str


class Engine:
    def __init__(self, project_path: str | None = None, path_guard: Any = None,
                 probes: Probes | None = None):
        self.lock = threading.RLock()
        # Where every file a command reads is read: the session's probe workers (this
        # process's own small pool when none is given).
        self.probes = probes if probes is not None else Probes()
        self.doc: dict = new_document()
        # Called whenever the revision moves, under the lock, so each must be quick (set a flag,
        # notify a condition): the MCP session's resource subscriptions wake on it.
        self.watchers: list = []
        self.revision = 0
        self.saved_revision = 0
        # With the revision, names a document state wherever a copy of it is kept: revisions
        # of two engines (two projects a watch node renders one after another) are equal.
        self.identity = secrets.token_hex(8)
        self.project_path: str | None = None
        # Set by the session that owns rendering; None means renders are refused.
        # Methods: render, stop, save_frame_as, pre_render, create_proxy, each
        # (engine, params, work) -> a JSON dict, `work` the caller's Work (or None).
        self.render_service: Any = None
        # Set by a confined session: path_guard(path, mode) with mode "read" or "write" raises
        # an exception whose message says which root rule failed. None: nothing is confined.
        self.path_guard: Any = path_guard
        # Render progress of queue items, by item id: runtime state, not part of the document.
        self.item_progress: dict[str, float] = {}
        self._undo: list[HistoryStep] = []
        self._redo: list[HistoryStep] = []
        self._dropped = 0  # oldest steps dropped to stay within the bounds, since the open
        self._text: tuple[int, str] | None = None  # (revision, compact text of doc then)
        if project_path is not None:
            self.run("project.open", {"path": project_path})

    # -- running commands ----------------------------------------------------------------------

    @property
    def revision(self) -> int:
        return self._revision

    @revision.setter
    def revision(self, value: int) -> None:
        self._revision = value
        for watch in self.watchers:
            watch()

    def run(self, command_id: str, params: dict | None = None, work: Work | None = None) -> dict:
        """Run one engine command; its JSON result, or CommandError with a sentence."""
        cmd = COMMANDS.get(command_id)
        if cmd is None:
            raise CommandError(unknown_command_message(command_id))
        params = check_params(cmd, params)
        self._guard_paths(cmd, params)
        if cmd.kind == "render":
            return cmd.handler(self, params, work)
        if cmd.waits_for(params) == "probe" and cmd.kind in ("read", "edit"):
            self._look_ahead(cmd, params, work)
        with self.lock:
            if cmd.kind != "edit":
                return _translated(cmd.handler, self, params, work)
            return self.edit(cmd.title, lambda: _translated(cmd.handler, self, params, work))

    def _look_ahead(self, cmd, params: dict, work: Work | None) -> None:
        """Run `cmd` on a copy of the document, without the lock, for the files it reads: what
        the probe workers say of them is kept (supervisor/engine/probes.py), so the run under
        the lock reads nothing that could keep an edit waiting. A command refused here is
        refused (as if it had run before the edits made meanwhile, changing nothing): a file
        that ran past the probe deadline must not be read again under the lock. Anything else
        it raises, but a cancel, is the real run's to report."""
        with self.lock:
            text = self.document_text()
        scratch = Engine(path_guard=self.path_guard, probes=self.probes)
        scratch.doc, scratch.project_path = json.loads(text), self.project_path
        try:
            _translated(cmd.handler, scratch, json.loads(json.dumps(params)), work)
        except CommandError:
            raise
        except Exception:
            if work is not None:
                work.cancel.check()

    def edit(self, label: str, change: Callable[[], Any]) -> Any:
        """Run `change()`, which edits `doc` in place, as one undo step named `label`, and return
        what it returns. If it raises, or leaves a document that cannot be saved or is past
        MAX_DOCUMENT_BYTES, the document is put back as it was and nothing is recorded."""
        with self.lock:
            before = self.document_text()
            try:
                result = change()
                after = compact(self.doc)  # refuses NaN too: a bug's edit is rolled back
                problem = size_problem(len(after))
                if problem is not None:
                    raise CommandError(f"this edit was not made: it would make the project "
                                       f"{problem}.")
            except BaseException:
                self.doc = json.loads(before)
                raise
            self.record_step(label, before)
            self._text = (self.revision, after)
            return result

    def batch(self, steps: Any, stop_on_error: bool = True, atomic: bool = False,
              work: Work | None = None) -> dict:
        """Run steps `[{id, params?}]` in order; `"$N.key"` in a step's params is step N's result
        at `key` (a dotted path: `$0.layer`, `$1.items.0.output`; `$N` alone is the whole result).

        Not atomic: each step is its own undo step; after a failure the rest are skipped unless
        `stop_on_error` is false. Atomic: the document lock is held throughout, the batch is one
        undo step, and the first failure puts the project back as it was before the batch (the
        steps that had run are reported `rolledBack`)."""
        steps = _checked_steps(steps)
        if atomic:
            renders = [s["id"] for s in steps if getattr(COMMANDS.get(s["id"]), "kind", "")
                       == "render"]
            if renders:
                raise CommandError(f"{renders[0]} cannot run inside an atomic batch, because a "
                                   "render must not hold the project locked; run it as its own "
                                   "step in a batch that is not atomic.")
            with self.lock:
                saved = self._state()
                try:
                    report = self._run_steps(steps, stop_on_error=True, work=work)
                except BaseException:  # cancelled mid-batch: all or nothing still holds
                    self._restore(saved)
                    raise
                if report["failed"]:
                    self._restore(saved)
                    for entry in report["results"]:
                        if entry["status"] == "done":
                            entry["status"] = "rolledBack"
                    report["completed"] = 0
                else:
                    labels = ", ".join(s["id"] for s in steps)
                    self._undo, self._redo = saved["undo"], []
                    self._dropped = saved["dropped"]
                    self._push_undo(HistoryStep(f"batch ({labels})", saved["doc"]))
                report["rolledBack"] = bool(report["failed"])
                return report
        return self._run_steps(steps, stop_on_error=stop_on_error, work=work)

    def _run_steps(self, steps: list[dict], stop_on_error: bool, work: Work | None) -> dict:
        results: list[dict] = []
        completed = failed = 0
        for index, step in enumerate(steps):
            entry: dict = {"step": index, "id": step["id"]}
            if failed and stop_on_error:
                entry["status"] = "skipped"
                results.append(entry)
                continue
            if work is not None:
                work.progress(index, len(steps), step["id"])
                work.cancel.check()  # a cancel stops the batch between steps
            try:
                params = resolve_references(step.get("params") or {}, results, index)
                entry["result"] = self.run(step["id"], params, work)
                entry["status"] = "done"
                completed += 1
            except CommandError as error:
                entry["status"] = "failed"
                entry["error"] = str(error)
                failed += 1
            except Exception as error:  # a bug in a command: report the step, keep the batch
                if work is not None and work.cancel.cancelled:
                    raise  # a step stopped by the call's cancel (a render): nothing to report
                log.exception("engine command %s failed unexpectedly", step["id"])
                entry["status"] = "failed"
                entry["error"] = (f"{step['id']} failed unexpectedly ({type(error).__name__}: "
                                  f"{error}); this is a bug in rendervisor, and the project "
                                  "was left as it was before this step.")
                failed += 1
            results.append(entry)
        return {"completed": completed, "failed": failed, "results": results}

    # -- snapshots, history --------------------------------------------------------------------

    def snapshot(self) -> tuple[str, dict]:
        """(snapshot id, an independent copy of the document) for a render or a preview.

        The id is the one key of that copy in every cache that keeps one (workers/snapshots.py,
        supervisor/render/snapshot_jobs.py, the cluster's scattered documents, the preview cache):
        no other engine, and no other revision of this one, ever has the same id.

        Confined, a snapshot whose footage reads a file outside the roots is refused with
        CommandError: every drawing starts from one, and the worker that draws knows no roots
        (supervisor/engine/footage_reads.py). Checked on the copy, so no later edit can slip
        past."""
        with self.lock:
            snapshot_id, text = f"{self.identity}:{self.revision}", self.document_text()
        document = json.loads(text)
        if self.confined:
            check_document(self, document)
            check_font_files(self, document)
            check_lut_files(self, document)
            check_config_file(self, document)
        return snapshot_id, document

    def document_text(self) -> str:
        """The document as compact JSON text: made once per revision (every change of the
        document moves the revision), so an edit's undo step and a snapshot reuse the text the
        edit before them measured."""
        with self.lock:
            if self._text is None or self._text[0] != self.revision:
                self._text = (self.revision, compact(self.doc))
            return self._text[1]

    def record_step(self, label: str, before: str) -> None:
        """Record an edit made to `doc` since `before` (its document_text then): one undo step,
        a new revision."""
        with self.lock:
            self._redo.clear()
            self._push_undo(HistoryStep(label, before))
            self.revision += 1

    def edit_quietly(self, change) -> Any:
        """Apply `change(doc)` under the lock as a new revision but not an undo step: for state
        the user did not author, such as a queue item's status set by a render."""
        with self.lock:
            result = change(self.doc)
            self.revision += 1
            return result

    def replace_document(self, doc: dict, project_path: str | None) -> None:
        """A new or opened project: a fresh history, as in any editor."""
        with self.lock:
            self.doc = doc
            self.project_path = project_path
            self._undo.clear()
            self._redo.clear()
            self._dropped = 0
            self.item_progress.clear()
            self.revision += 1
            self.saved_revision = self.revision if project_path else -1

    def undo(self, steps: int = 1) -> list[str]:
        with self.lock:
            return self._travel(self._undo, self._redo, steps)

    def redo(self, steps: int = 1) -> list[str]:
        with self.lock:
            return self._travel(self._redo, self._undo, steps)

    def history(self) -> dict:
        with self.lock:
            history = {"undo": [step.label for step in reversed(self._undo)],
                       "redo": [step.label for step in reversed(self._redo)],
                       "revision": self.revision, "bytes": self._history_bytes(),
                       "dropped": self._dropped}
            if self._dropped:
                history["note"] = (f"the oldest {self._dropped} steps were dropped to keep the "
                                   f"history within {MAX_HISTORY} steps and "
                                   f"{MAX_HISTORY_BYTES // (1024 * 1024)} MiB; "
                                   f"{len(self._undo)} steps are kept to undo")
            return history

    @property
    def confined(self) -> bool:
        """Whether a path guard confines this session's files (see `path_guard`)."""
        return self.path_guard is not None

    @property
    def modified(self) -> bool:
        return self.revision != self.saved_revision

    def catalog(self, filter: str | None = None, enabled_only: bool = False,
                schemas: bool = False, compact: bool = False) -> dict:
        """The command catalog, as command_list and rendervisor://commands give it."""
        entries: list = []
        needle = (filter or "").lower()
        ordered = catalog_order()
        if needle:  # commands whose id matches come before those that only mention it
            ordered.sort(key=lambda cmd: needle not in cmd.id.lower())
        for cmd in ordered:
            enabled = cmd.kind != "render" or render_available(self, cmd.id)
            if enabled_only and not enabled:
                continue
            if needle and needle not in f"{cmd.id} {cmd.title} {cmd.description}".lower():
                continue
            if compact:
                entries.append(cmd.signature() + ("" if enabled else "  (disabled)"))
                continue
            entry = {"id": cmd.id, "title": cmd.title, "description": cmd.description,
                     "params": cmd.param_list(), "mutates": cmd.mutates,
                     "enabled": enabled}
            if not enabled:
                entry["disabledReason"] = ("rendering is not available in this session"
                                           if self.render_service is None else
                                           "this session's renderer cannot do it yet")
            if schemas:
                entry["schema"] = cmd.schema()
            entries.append(entry)
        return {"count": len(entries), "commands": entries}

    def check_path(self, path: str, mode: str) -> None:
        """Refuse a path confinement does not allow (no-op when the session is not confined)."""
        if self.path_guard is not None:
            try:
                self.path_guard(path, mode)
            except CommandError:
                raise
            except Exception as error:  # the guard's own error type: its message is the report
                raise CommandError(str(error)) from None

    # -- internals -----------------------------------------------------------------------------

    def _guard_paths(self, cmd, params: dict) -> None:
        """While confined, every path a command is given must pass the guard before it runs:
        params declared `"x-path": "read"|"write"` in that mode, and any other string that is an
        absolute path as a read (docs/confinement.md, "The rule"). `"x-path": "output"` params may
        be relative to the project's folder; their handler (or the render service) checks the
        resolved files before writing."""
        if self.path_guard is None:
            return
        for name, value in params.items():
            mode = cmd.properties.get(name, {}).get("x-path")
            if mode in ("read", "write") and isinstance(value, str):
                self.check_path(value, mode)
            elif mode != "output":
                for text in _strings(value):
                    if os.path.isabs(text) and "\n" not in text:
                        self.check_path(text, "read")

    def _push_undo(self, step: HistoryStep) -> None:
        self._undo.append(step)
        self._trim()

    def _history_bytes(self) -> int:
        return sum(len(step.document) for step in self._undo + self._redo)

    def _trim(self) -> None:
        """Drop the oldest undo steps (then the farthest redo steps) past MAX_HISTORY steps or
        MAX_HISTORY_BYTES, counting them for edit.history."""
        size = self._history_bytes()
        while self._undo and (len(self._undo) > MAX_HISTORY or size > MAX_HISTORY_BYTES):
            size -= len(self._undo.pop(0).document)
            self._dropped += 1
        while self._redo and size > MAX_HISTORY_BYTES:
            size -= len(self._redo.pop(0).document)
            self._dropped += 1

    def _travel(self, source: list[HistoryStep], target: list[HistoryStep],
                steps: int) -> list[str]:
        if steps < 1:
            raise CommandError(f"steps must be 1 or more, got {steps}.")
        if len(source) < steps:
            raise CommandError(f"there {'is' if len(source) == 1 else 'are'} only "
                               f"{len(source)} step{'s' if len(source) != 1 else ''} to go "
                               f"back through, not {steps}; edit.history lists them.")
        labels = []
        for _ in range(steps):
            step = source.pop()
            target.append(HistoryStep(step.label, self.document_text()))
            self._become(step.document)
            labels.append(step.label)
        self._trim()
        self.revision += 1
        return labels

    def _become(self, text: str) -> None:
        """The document of `text` (an undo step's, a batch's saved one), keeping the highest
        nextId so that no id is ever handed out twice."""
        document = json.loads(text)
        document["nextId"] = max(self.doc["nextId"], document["nextId"])
        self.doc = document
        self._text = None  # the revision moves once, after every step a travel takes

    def _state(self) -> dict:
        return {"doc": self.document_text(), "undo": list(self._undo),
                "redo": list(self._redo), "dropped": self._dropped,
                "project_path": self.project_path, "saved_revision": self.saved_revision}

    def _restore(self, saved: dict) -> None:
        self._become(saved["doc"])
        self._undo, self._redo = saved["undo"], saved["redo"]
        self._dropped = saved["dropped"]
        self.project_path = saved["project_path"]
        self.saved_revision = saved["saved_revision"]
        self.revision += 1


# Families in the order a reader meets them; within a family, declaration order.
FAMILY_ORDER = ("project", "comp", "layer", "mask", "marker", "prop", "preset", "effect",
                "footage", "template", "renderQueue", "render", "file", "edit")


def catalog_order() -> list:
    position = {family: index for index, family in enumerate(FAMILY_ORDER)}
    ranked = enumerate(COMMANDS.values())
    return [cmd for _, cmd in sorted(
        ranked, key=lambda pair: (position.get(pair[1].id.split(".")[0], len(position)),
                                  pair[0]))]


def _strings(value: Any):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _translated(handler, engine: Engine, params: dict, work: Work | None) -> dict:
    """Run a handler, turning the protocol layer's own errors (a bad color, a bad frame spec, a
    document that fails validation) into CommandErrors with the same sentence."""
    try:
        return handler(engine, params, work)
    except (DocumentError, FrameSpecError) as error:
        raise CommandError(_sentence(str(error))) from None


def _sentence(text: str) -> str:
    return text if text.endswith(".") else text + "."


def unknown_command_message(command_id: Any) -> str:
    close = difflib.get_close_matches(str(command_id), list(COMMANDS), n=3, cutoff=0.5)
    hint = f"did you mean {' or '.join(close)}? " if close else ""
    return f"there is no engine command {command_id!r}; {hint}command_list lists them all."


def _checked_steps(steps: Any) -> list[dict]:
    if not isinstance(steps, list) or not steps:
        raise CommandError('steps must be a non-empty list of {"id": ..., "params": {...}}.')
    for index, step in enumerate(steps):
        if not isinstance(step, dict) or not isinstance(step.get("id"), str):
            raise CommandError(f'step {index} must be an object {{"id": "command.id", '
                               f'"params": {{...}}}}, got {step!r}.')
        extra = set(step) - {"id", "params"}
        if extra:
            raise CommandError(f"step {index} has {', '.join(sorted(map(repr, extra)))}; a step "
                               "takes only id and params.")
        if step.get("params") is not None and not isinstance(step["params"], dict):
            raise CommandError(f"step {index}'s params must be an object.")
    return steps


def literal(text: str) -> str:
    """`text` as a batch step writes it so that it is never taken for a reference."""
    return "$" + text if _REFERENCE.match(text) or _ESCAPED_REFERENCE.match(text) else text


def resolve_references(value: Any, results: list[dict], current: int) -> Any:
    """`value` with every string exactly `"$N"` or `"$N.key.path"` replaced by step N's result
    (or the value at that dotted path in it; a list is indexed by a number segment), and every
    such string with more dollars in front written with one dollar fewer."""
    if isinstance(value, dict):
        return {key: resolve_references(item, results, current) for key, item in value.items()}
    if isinstance(value, list):
        return [resolve_references(item, results, current) for item in value]
    if not isinstance(value, str):
        return value
    escaped = _ESCAPED_REFERENCE.match(value)
    if escaped:
        return escaped.group(1)
    match = _REFERENCE.match(value)
    if not match:
        return value
    number = int(match.group(1))
    if number >= current:
        raise CommandError(f"{value} refers to step {number}, which has not run before step "
                           f"{current}; a step can only use earlier steps' results.")
    source = results[number]
    if source.get("status") != "done":
        raise CommandError(f"{value} refers to step {number}, which "
                           f"{source.get('status', 'did not run')}; it has no result to use.")
    found: Any = source["result"]
    path = match.group(2)
    for segment in path.split(".") if path else []:
        position = written_index(segment)
        if isinstance(found, dict) and segment in found:
            found = found[segment]
        elif isinstance(found, list) and position is not None and position < len(found):
            found = found[position]
        else:
            keys = ", ".join(found) if isinstance(found, dict) else type(found).__name__
            raise CommandError(f"{value}: step {number}'s result has no {segment!r} (it has "
                               f"{keys}).")
    return found
