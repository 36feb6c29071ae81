"""The file tools: read_file, write_file, edit_file, list_dir, search_files.

They run on the quick lane, never take the document's lock and never wait on a worker, so no
render or shell can delay them. Every path goes through the session's confinement first. Writes
are atomic (a temporary file in the same folder, fsync, rename): a reader sees the old file or
the new one, never half of one.

Confined, a checked name is not trusted to stay what it was: files and folders are opened first and
what was opened is checked again (supervisor/confinement/checked_files.py), so a symbolic link
swapped in after the check reads and writes nothing outside the roots. Listing and searching never
follow a link: a link is listed as a link, and its target is read only if it is inside a root.

Content search matches with RE2 (content_search.py), so no pattern can hold the server; a
search stops at SEARCH_DEADLINE with what it found, and a cancel ends it between two lines.
"""

from __future__ import annotations

import base64
import difflib
import fnmatch
import os
import stat

from supervisor.confinement.checked_files import open_folder, open_to_read, replace_in_folder
from supervisor.confinement.roots import ConfinementError
from supervisor.mcp.tools.content_search import (FileMatches, LinePattern, compile_pattern,
                                              matching_lines)
from supervisor.mcp.tools.json_shapes import BOOLEAN, INTEGER, STRING, array, record
from supervisor.mcp.tools.registry import ToolError, ToolResult, tool

# A file this large must be read in parts (offset/limit): a whole one would not fit any model's
# context, and reading it would hold a quick-lane thread for long.
WHOLE_READ_LIMIT = 10 * 1024 * 1024
IMAGE_SIGNATURES = ((b"\x89PNG\r\n\x1a\n", "image/png"), (b"\xff\xd8\xff", "image/jpeg"))
LIST_LIMIT = 5000
SEARCH_FILE_LIMIT = 10 * 1024 * 1024  # larger files are passed over by content search
# How long one search_files call may run; past it the call returns what it found, with a note
# saying where it stopped. A search holds a quick-lane thread as a file read does, and eight
# searches of a huge tree must not hold every file read for long; a larger value would search
# bigger trees in one call. Asked between files and between lines (content_search.py bounds
# how long one line takes).
SEARCH_DEADLINE = 10.0
# A NUL byte in a file's first 8 KiB marks it binary, as git and grep decide it.
BINARY_MARK = b"\x00"
BINARY_SNIFF = 8192


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


def _verified(check):
    """A checked_files verify callback from a confinement check: a refusal becomes a ToolError
    saying the path changed under us."""
    def verify(real: str) -> None:
        try:
            check(real)
        except ConfinementError as exc:
            raise ToolError(f"{exc} (the path was changed while it was being opened)") from None
    return verify


def _open_readable(ctx, path: str) -> int:
    """A descriptor on the file at the checked `path`, itself checked once open."""
    return open_to_read(path, _verified(ctx.session.confinement.check_read))


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


# Every file tool's path: what a confined session requires of it, said where it is given.
PATH = {"type": "string", "description": "an absolute path (while the session is confined, "
        "inside its roots; otherwise a relative one is taken from the server's folder)"}


@tool("read_file", "Read a file",
      "Read a text file (optionally a range of lines: offset is the first line, 1-based, limit "
      "the number of lines). PNG, JPEG and WebP images come back as image content.",
      {"path": PATH,
       "offset": {"type": "integer", "minimum": 1, "description": "First line, 1-based."},
       "limit": {"type": "integer", "minimum": 1, "description": "Number of lines."}},
      required=("path",), read_only=True, idempotent=True)
def read_file(args, ctx):
    path = _readable(ctx, args["path"])
    try:
        fd = _open_readable(ctx, path)
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            if os.path.isdir(path):
                raise IsADirectoryError()
            raise ToolError(f"{args['path']} is not a regular file, so it cannot be read.")
        with os.fdopen(fd, "rb") as handle:
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
            if BINARY_MARK in handle.read(BINARY_SNIFF):
                # Decoded as text it would be pages of replacement characters in the caller's
                # context; say what it is instead.
                raise ToolError(f"{args['path']} is a binary file ({size:,} bytes); read_file "
                                "returns text, and PNG, JPEG and WebP images as images. To look "
                                "at a render, preview the comp with render_preview.")
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


def write_atomically(ctx, path: str, data: bytes) -> None:
    """Write `data` to the checked `path` through a temporary file in the same folder, then
    rename, all relative to the folder's checked descriptor. Missing parent folders are made."""
    folder, name = os.path.split(path)
    fd = open_folder(folder, _verified(ctx.session.confinement.check_write), create=True)
    try:
        replace_in_folder(fd, name, data)
    finally:
        os.close(fd)


@tool("write_file", "Write a file",
      "Write text to a file atomically (a temporary file, then rename); missing parent "
      "folders are created. Replaces the file if it exists.",
      {"path": PATH, "content": {"type": "string", "description": "the whole text (UTF-8)"}},
      required=("path", "content"), destructive=True, idempotent=True,
      output=record({"path": STRING, "bytes": INTEGER}, ("path", "bytes")))
def write_file(args, ctx):
    path = _writable(ctx, args["path"])
    if os.path.isdir(path):
        raise ToolError(f"{args['path']} is a folder; give a file path to write.")
    data = args["content"].encode("utf-8")
    try:
        write_atomically(ctx, path, data)
    except OSError as exc:
        raise _os_error(exc, args["path"], "write") from None
    return {"path": path, "bytes": len(data)}


@tool("edit_file", "Edit a file",
      "Replace an exact string in a file. Zero matches, or several without replace_all, is an "
      "error naming the count. Returns a unified diff of the change.",
      {"path": PATH, "old_string": {"type": "string"},
       "new_string": {"type": "string"}, "replace_all": {"type": "boolean"}},
      required=("path", "old_string", "new_string"), destructive=True,
      output=record({"path": STRING, "replacements": INTEGER, "diff": STRING},
                    ("path", "replacements", "diff")))
def edit_file(args, ctx):
    path = _writable(ctx, args["path"])
    old, new = args["old_string"], args["new_string"]
    if old == "":
        raise ToolError("old_string is empty; give the exact text to replace.")
    try:
        fd = open_to_read(path, _verified(ctx.session.confinement.check_write))
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            raise ToolError(f"{args['path']} is not a regular file, so it cannot be edited.")
        with os.fdopen(fd, "rb") as handle:
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
        write_atomically(ctx, path, after.encode("utf-8"))
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
      {"path": PATH, "depth": {"type": "integer", "minimum": 1, "maximum": 10,
                               "description": "levels to descend (default 1)"}},
      required=("path",), read_only=True, idempotent=True,
      output=record({"path": STRING,
                     "entries": array(record({"path": STRING, "type": {"enum": [
                         "file", "dir", "symlink", "other"]}, "size": INTEGER},
                         ("path", "type", "size"))),
                     "truncated": STRING}, ("path", "entries")))
def list_dir(args, ctx):
    root = _readable(ctx, args["path"])
    depth = args.get("depth", 1)
    if not os.path.isdir(root):
        raise ToolError(f"{args['path']} is not a folder." if os.path.exists(root)
                        else f"{args['path']} does not exist.")
    entries: list[dict] = []
    truncated = False

    def walk(folder_fd: int, relative: str, level: int) -> None:
        nonlocal truncated
        try:
            names = sorted(os.listdir(folder_fd))
        except OSError:
            return
        for name in names:
            if len(entries) >= LIST_LIMIT:
                truncated = True
                return
            try:
                info = os.stat(name, dir_fd=folder_fd, follow_symlinks=False)
            except OSError:
                continue  # gone since the listing
            kind = _entry_type(info.st_mode)
            entries.append({"path": os.path.join(relative, name), "type": kind,
                            "size": info.st_size})
            if kind == "dir" and level < depth:
                # O_NOFOLLOW: a folder swapped for a link since the stat is not descended into.
                try:
                    child = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW
                                    | os.O_CLOEXEC, dir_fd=folder_fd)
                except OSError:
                    continue
                try:
                    walk(child, os.path.join(relative, name), level + 1)
                finally:
                    os.close(child)

    try:
        fd = open_folder(root, _verified(ctx.session.confinement.check_read))
    except OSError as exc:
        raise _os_error(exc, args["path"], "list") from None
    try:
        walk(fd, "", 1)
    finally:
        os.close(fd)
    result = {"path": root, "entries": entries}
    if truncated:
        result["truncated"] = f"only the first {LIST_LIMIT} entries are listed"
    return result


@tool("search_files", "Search files",
      "Find files under a folder by name (pattern: a glob) and/or by content (content: a "
      "regular expression in RE2 syntax, matched per line); returns files and matching lines "
      "with numbers. A search stops at a 10 s deadline and returns what it found, with a note.",
      {"path": {**PATH, "description": "the folder to search: " + PATH["description"]},
       "pattern": {"type": "string", "description": 'a glob on file names, e.g. "*.rvproj"'},
       "content": {"type": "string", "description": 'an RE2 regular expression matched per '
                   'line, e.g. "renderQueue\\.add"'},
       "max_results": {"type": "integer", "minimum": 1, "maximum": 10000}},
      required=("path",), read_only=True, idempotent=True,
      output=record({"results": array(record(
                         {"path": STRING,
                          "matches": array(record({"line": INTEGER, "text": STRING},
                                                  ("line", "text")))}, ("path",))),
                     "truncated": BOOLEAN, "note": STRING}, ("results", "truncated")))
def search_files(args, ctx):
    root = _readable(ctx, args["path"])
    if not os.path.isdir(root):
        raise ToolError(f"{args['path']} is not a folder to search.")
    pattern = args.get("pattern")
    content = compile_pattern(args["content"]) if args.get("content") else None
    limit = args.get("max_results", 100)
    search = ctx.cancel.child(SEARCH_DEADLINE)

    def out_of_time() -> bool:
        ctx.cancel.check()  # the call's cancel ends the search here, and nothing is answered
        return search.expire()  # the search's own deadline ends it with what it found

    results: list[dict] = []
    cut: dict[str, int] = {}  # file -> lines searched in their start only
    found = 0
    verify = _verified(ctx.session.confinement.check_read)
    try:
        root_fd = open_folder(root, verify)
    except OSError as exc:
        raise _os_error(exc, args["path"], "search") from None

    def answer(truncated: bool, stopped: str | None = None) -> dict:
        result = {"results": results, "truncated": truncated}
        notes = ([stopped] if stopped else []) + ([_cut_note(cut, content)] if cut else [])
        if notes:
            result["note"] = " ".join(notes)
        return result

    try:
        # fwalk holds each folder open and never descends through a link, so a folder swapped
        # for a link mid-search leads nowhere; files are opened relative to their folder and
        # read only if what was opened is inside a root.
        for folder, dirs, files, folder_fd in os.fwalk(".", dir_fd=root_fd):
            dirs.sort()
            if out_of_time():
                return answer(True, _deadline_note(os.path.normpath(os.path.join(root, folder)),
                                                   part_way=False))
            for name in sorted(files):
                path = os.path.normpath(os.path.join(root, folder, name))
                if out_of_time():
                    return answer(True, _deadline_note(path, part_way=False))
                if pattern and not fnmatch.fnmatch(name, pattern):
                    continue
                if content is None:
                    results.append({"path": path})
                    found += 1
                else:
                    in_file = _grep(name, folder_fd, verify, content, limit - found, out_of_time)
                    if in_file.matches:
                        results.append({"path": path, "matches": in_file.matches})
                        found += len(in_file.matches)
                    if in_file.lines_cut:
                        cut[path] = in_file.lines_cut
                    if not in_file.finished:
                        return answer(True, _deadline_note(path, part_way=True))
                if found >= limit:
                    return answer(True)
    finally:
        os.close(root_fd)
        search.close()
    return answer(False)


def _deadline_note(path: str, part_way: bool) -> str:
    where = (f"part way through {path}; the files after it" if part_way
             else f"at {path}; it and the files after it")
    return (f"The search stopped at its {SEARCH_DEADLINE:.0f} s deadline {where} were not "
            "searched: search a smaller folder, or narrow the files with pattern.")


def _cut_note(cut: dict[str, int], content: LinePattern) -> str:
    lines = sum(cut.values())
    first = next(iter(cut))
    where = first if len(cut) == 1 else f"{len(cut)} files, the first {first}"
    many = lines > 1
    return (f"{lines} line{'s' if many else ''} longer than {content.line_bytes:,} bytes (in "
            f"{where}) {'were' if many else 'was'} searched in {'their' if many else 'its'} "
            f"first {content.line_bytes:,} bytes only, since one line's search is bounded; a "
            "simpler pattern searches more of each line.")


def _grep(name: str, folder_fd: int, verify, content: LinePattern, limit: int,
          stop) -> FileMatches:
    try:
        fd = open_to_read(name, verify, dir_fd=folder_fd)
    except (OSError, ToolError):
        return FileMatches()  # gone, unreadable, or a link leading outside the roots
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > SEARCH_FILE_LIMIT:
            return FileMatches()
        with os.fdopen(os.dup(fd), "rb") as handle:
            data = handle.read()
    except OSError:
        return FileMatches()
    finally:
        os.close(fd)
    if BINARY_MARK in data[:BINARY_SNIFF]:
        return FileMatches()  # binary
    return matching_lines(data, content, limit, stop)
