"""The file tools: read_file, write_file, edit_file, list_dir, search_files.

They run on the quick lane, never take the document's lock and never wait on a worker, so no
render or shell can delay them. Every path goes through the session's confinement first. Writes
are atomic (a temporary file in the same folder, fsync, rename): a reader sees the old file or
the new one, never half of one.
"""

from __future__ import annotations

import base64
import difflib
import fnmatch
import os
import re
import stat
import tempfile

from supervisor.confinement import ConfinementError
from supervisor.tools.registry import ToolError, ToolResult, tool

# A file this large must be read in parts (offset/limit): a whole one would not fit any model's
# context, and reading it would hold a quick-lane thread for long.
WHOLE_READ_LIMIT = 10 * 1024 * 1024
IMAGE_SIGNATURES = ((b"\x89PNG\r\n\x1a\n", "image/png"), (b"\xff\xd8\xff", "image/jpeg"))
LIST_LIMIT = 5000
SEARCH_FILE_LIMIT = 10 * 1024 * 1024  # larger files are passed over by content search


def _readable(ctx, path: str) -> str:
    try:
        return ctx.session.confinement.check_read(path)
    except ConfinementError as exc:
        raise ToolError(str(exc)) from None


def _writable(ctx, path: str) -> str:
    try:
        return ctx.session.confinement.check_write(path)
    except ConfinementError as exc:
        raise ToolError(str(exc)) from None


def _os_error(exc: OSError, path: str, doing: str) -> ToolError:
    reason = exc.strerror or str(exc)
    return ToolError(f"Could not {doing} {path}: {reason}.")


def image_type(head: bytes) -> str | None:
    for signature, mime in IMAGE_SIGNATURES:
        if head.startswith(signature):
            return mime
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "image/webp"
    return None


@tool("read_file", "Read a file",
      "Read a text file (optionally a range of lines: offset is the first line, 1-based, limit "
      "the number of lines). PNG, JPEG and WebP images come back as image content.",
      {"path": {"type": "string", "description": "The file to read."},
       "offset": {"type": "integer", "minimum": 1, "description": "First line, 1-based."},
       "limit": {"type": "integer", "minimum": 1, "description": "Number of lines."}},
      required=("path",), read_only=True, idempotent=True)
def read_file(args, ctx):
    path = _readable(ctx, args["path"])
    try:
        with open(path, "rb") as handle:
            head = handle.read(16)
            mime = image_type(head)
            if mime is not None:
                data = head + handle.read()
                return ToolResult([{"type": "image", "mimeType": mime,
                                    "data": base64.b64encode(data).decode("ascii")}])
            size = os.fstat(handle.fileno()).st_size
            ranged = "offset" in args or "limit" in args
            if size > WHOLE_READ_LIMIT and not ranged:
                raise ToolError(f"{args['path']} is {size:,} bytes, too large to read whole; "
                                "read it in parts with offset and limit.")
            handle.seek(0)
            if not ranged:
                return handle.read().decode("utf-8", errors="replace")
            first = args.get("offset", 1)
            limit = args.get("limit")
            lines = []
            for number, line in enumerate(handle, start=1):
                if number < first:
                    continue
                if limit is not None and len(lines) >= limit:
                    break
                lines.append(line)
            return b"".join(lines).decode("utf-8", errors="replace")
    except IsADirectoryError:
        raise ToolError(f"{args['path']} is a folder; use list_dir to see what it holds.")
    except FileNotFoundError:
        raise ToolError(f"{args['path']} does not exist.")
    except OSError as exc:
        raise _os_error(exc, args["path"], "read") from None


def write_atomically(path: str, data: bytes) -> None:
    """Write `data` to `path` through a temporary file in the same folder, then rename.
    Missing parent folders are created. The temporary is removed if anything fails."""
    folder = os.path.dirname(path) or "."
    os.makedirs(folder, exist_ok=True)
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        mode = 0o644
    fd, temporary = tempfile.mkstemp(prefix=".rv-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


@tool("write_file", "Write a file",
      "Write text to a file atomically (a temporary file, then rename); missing parent "
      "folders are created. Replaces the file if it exists.",
      {"path": {"type": "string"}, "content": {"type": "string"}},
      required=("path", "content"), destructive=True, idempotent=True)
def write_file(args, ctx):
    path = _writable(ctx, args["path"])
    if os.path.isdir(path):
        raise ToolError(f"{args['path']} is a folder; give a file path to write.")
    data = args["content"].encode("utf-8")
    try:
        write_atomically(path, data)
    except OSError as exc:
        raise _os_error(exc, args["path"], "write") from None
    return {"path": path, "bytes": len(data)}


@tool("edit_file", "Edit a file",
      "Replace an exact string in a file. Zero matches, or several without replace_all, is an "
      "error naming the count. Returns a unified diff of the change.",
      {"path": {"type": "string"}, "old_string": {"type": "string"},
       "new_string": {"type": "string"}, "replace_all": {"type": "boolean"}},
      required=("path", "old_string", "new_string"), destructive=True)
def edit_file(args, ctx):
    path = _writable(ctx, args["path"])
    old, new = args["old_string"], args["new_string"]
    if old == "":
        raise ToolError("old_string is empty; give the exact text to replace.")
    try:
        with open(path, "rb") as handle:
            before = handle.read().decode("utf-8")
    except FileNotFoundError:
        raise ToolError(f"{args['path']} does not exist; use write_file to create it.")
    except UnicodeDecodeError:
        raise ToolError(f"{args['path']} is not UTF-8 text, so it cannot be edited as text.")
    except OSError as exc:
        raise _os_error(exc, args["path"], "read") from None
    count = before.count(old)
    if count == 0:
        raise ToolError(f"old_string was not found in {args['path']} (0 matches); copy the "
                        "exact text, including white space.")
    if count > 1 and not args.get("replace_all"):
        raise ToolError(f"old_string matches {count} times in {args['path']}; make it unique "
                        "with more context, or pass replace_all: true.")
    after = before.replace(old, new) if args.get("replace_all") else before.replace(old, new, 1)
    try:
        write_atomically(path, after.encode("utf-8"))
    except OSError as exc:
        raise _os_error(exc, args["path"], "write") from None
    diff = "".join(difflib.unified_diff(before.splitlines(keepends=True),
                                        after.splitlines(keepends=True),
                                        fromfile=args["path"], tofile=args["path"]))
    return {"path": path, "replacements": count if args.get("replace_all") else 1,
            "diff": diff}


def _entry_type(mode: int) -> str:
    if stat.S_ISLNK(mode):
        return "symlink"
    if stat.S_ISDIR(mode):
        return "dir"
    if stat.S_ISREG(mode):
        return "file"
    return "other"


@tool("list_dir", "List a folder",
      "List a folder's entries with their type and size; depth > 1 descends into subfolders.",
      {"path": {"type": "string"}, "depth": {"type": "integer", "minimum": 1, "maximum": 10}},
      required=("path",), read_only=True, idempotent=True)
def list_dir(args, ctx):
    root = _readable(ctx, args["path"])
    depth = args.get("depth", 1)
    if not os.path.isdir(root):
        raise ToolError(f"{args['path']} is not a folder." if os.path.exists(root)
                        else f"{args['path']} does not exist.")
    entries: list[dict] = []
    truncated = False

    def walk(folder: str, level: int) -> None:
        nonlocal truncated
        try:
            with os.scandir(folder) as scan:
                children = sorted(scan, key=lambda entry: entry.name)
        except OSError:
            return
        for entry in children:
            if len(entries) >= LIST_LIMIT:
                truncated = True
                return
            info = entry.stat(follow_symlinks=False)
            kind = _entry_type(info.st_mode)
            entries.append({"path": os.path.relpath(entry.path, root), "type": kind,
                            "size": info.st_size})
            if kind == "dir" and level < depth:
                walk(entry.path, level + 1)

    walk(root, 1)
    result = {"path": root, "entries": entries}
    if truncated:
        result["truncated"] = f"only the first {LIST_LIMIT} entries are listed"
    return result


@tool("search_files", "Search files",
      "Find files under a folder by name (pattern: a glob) and/or by content (content: a "
      "regular expression matched per line); returns files and matching lines with numbers.",
      {"path": {"type": "string"}, "pattern": {"type": "string"},
       "content": {"type": "string"},
       "max_results": {"type": "integer", "minimum": 1, "maximum": 10000}},
      required=("path",), read_only=True, idempotent=True)
def search_files(args, ctx):
    root = _readable(ctx, args["path"])
    if not os.path.isdir(root):
        raise ToolError(f"{args['path']} is not a folder to search.")
    pattern = args.get("pattern")
    try:
        regex = re.compile(args["content"]) if args.get("content") else None
    except re.error as exc:
        raise ToolError(f"content is not a valid regular expression: {exc}.") from None
    limit = args.get("max_results", 100)
    results: list[dict] = []
    found = 0
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(files):
            if pattern and not fnmatch.fnmatch(name, pattern):
                continue
            path = os.path.join(folder, name)
            if regex is None:
                results.append({"path": path})
                found += 1
            else:
                matches = _grep(path, regex, limit - found)
                if matches:
                    results.append({"path": path, "matches": matches})
                    found += len(matches)
            if found >= limit:
                return {"results": results, "truncated": True}
    return {"results": results, "truncated": False}


def _grep(path: str, regex: re.Pattern, limit: int) -> list[dict]:
    try:
        if os.path.getsize(path) > SEARCH_FILE_LIMIT:
            return []
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError:
        return []
    if b"\x00" in data[:8192]:
        return []  # binary
    matches = []
    for number, line in enumerate(data.decode("utf-8", errors="replace").splitlines(), 1):
        if regex.search(line):
            matches.append({"line": number, "text": line[:500]})
            if len(matches) >= limit:
                break
    return matches
