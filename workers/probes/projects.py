"""A project file (.rvproj): its JSON parsed, checked and brought to the current version here
(protocol/model/document.py's load_document), so that a file built to make the parser recurse
or to expand into a huge document costs a probe worker, never the session. What comes back is
a valid document within the document's bounds: how deep it nests (MAX_DOCUMENT_DEPTH) and how
large it is as compact JSON (MAX_DOCUMENT_BYTES)."""

from __future__ import annotations

import json

from protocol.model.document import DocumentError, load_document, size_problem
from protocol.model.limits import MAX_DOCUMENT_DEPTH
from workers.probes.opened import read_whole
from workers.tasks import TaskError


def probe_project(job_file: dict, limit: int) -> dict:
    """{document: the checked document} of the project file in the job's file."""
    refusal = f"cannot open {job_file['name']}"
    raw = read_whole(job_file, limit)
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise TaskError(f"{refusal}: it is not a text file, so not a project saved by "
                        "rendervisor.") from None
    except json.JSONDecodeError as error:
        raise TaskError(f"{refusal}: it is not a valid rendervisor project (not a JSON document "
                        f"(line {error.lineno}, column {error.colno}: {error.msg})); fix or "
                        "replace the file.") from None
    except RecursionError:
        data = None
    if data is None or _deeper_than(data, MAX_DOCUMENT_DEPTH):
        raise TaskError(f"{refusal}: its JSON nests more than {MAX_DOCUMENT_DEPTH} levels deep, "
                        "which no project does; fix or replace the file.")
    problem = size_problem(len(json.dumps(data, separators=(",", ":"))))
    if problem is not None:
        raise TaskError(f"{refusal}: the project is {problem}.")
    try:
        return {"document": load_document(data)}
    except DocumentError as error:
        raise TaskError(f"{refusal}: it is not a valid rendervisor project ({error}); fix or "
                        "replace the file.") from None


def _deeper_than(value, limit: int) -> bool:
    """Whether `value` nests lists and objects more than `limit` deep (walked without
    recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            if depth > limit:
                return True
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return False
