"""Finished outputs as resource_link content: a render's result names its files as links (file
URI, MIME type, size) beside its JSON, with a small thumbnail of each picture, so a host can
show or open what was made without parsing paths out of JSON.

    a render command's result / render_status ──► finished_outputs ──► a link per output
                                                                    └─► a thumbnail: decoded from
                                                                        the file on the preview
                                                                        worker (never here)

Only outputs written whole are linked: a done item of a render (its video, or the first frame
of its image sequence), a saved frame, a pre-render or a proxy. Nothing here reads a file's
content: the thumbnail is decoded in a worker, as footage is probed; a sequence's frames are
found by listing its folder for the names its pattern makes.
"""

from __future__ import annotations

import base64
import glob
import json
import logging
import mimetypes
import os
import re
from pathlib import Path

from protocol.cancel import Cancel
from supervisor.mcp.tools.registry import ToolResult
from supervisor.runtime.pool import JobFailed

log = logging.getLogger("rendervisor.server")

# The longer side of a thumbnail, in pixels: enough to tell one shot from another, small enough
# (a few KB as JPEG) to sit in an agent's context beside the JSON.
THUMBNAIL_SIDE = 160
# Thumbnails per result: each costs a decode on the preview worker; a render of many items links
# every output, and shows the first few.
MAX_THUMBNAILS = 4

_FRAME_FIELD = re.compile(r"\[(#+)\]")


def finished_outputs(result: dict) -> list[str]:
    """The outputs (files or sequence patterns) a render command's result says were written
    whole: each done item of a render's report, or a still's path, a pre-render's or a
    proxy's output."""
    items = result.get("items")
    if isinstance(items, list):
        return [entry["output"] for entry in items
                if isinstance(entry, dict) and entry.get("status") == "done"
                and isinstance(entry.get("output"), str)]
    if result.get("queued"):
        return []
    for key in ("path", "output"):
        if isinstance(result.get(key), str):
            return [result[key]]
    return []


def with_output_links(session, result: dict, outputs: list[str] | None = None,
                      cancel: Cancel | None = None) -> dict | ToolResult:
    """`result` as a tool answers it: as it is when it names no finished output, otherwise
    its JSON with a resource_link (and a thumbnail) for each of `outputs` (by default, the
    result's own finished outputs)."""
    outputs = finished_outputs(result) if outputs is None else outputs
    links = [link for link in (output_link(output) for output in outputs) if link is not None]
    if not links:
        return result
    content: list[dict] = [{"type": "text", "text": json.dumps(result, ensure_ascii=False)}]
    shown = 0
    for link in links:
        content.append(link)
        if shown < MAX_THUMBNAILS and not link["mimeType"].startswith("audio/"):
            image = thumbnail(session, link["_path"], link["mimeType"], cancel)
            if image is not None:
                content.append(image)
                shown += 1
        del link["_path"]
    return ToolResult(content, structured=result)


def output_link(output: str) -> dict | None:
    """A resource_link for a finished output (a sequence: its first frame, saying how many
    there are), or None when nothing is there to link."""
    description = None
    path = output
    if _FRAME_FIELD.search(output):
        frames = sequence_files(output)
        if not frames:
            return None
        path = frames[0]
        description = f"the first of {len(frames)} frames written as {output}"
    try:
        size = os.stat(path).st_size
    except OSError:
        return None
    mime = mimetypes.guess_type(path)[0] or "application/octet-stream"
    link = {"type": "resource_link", "uri": Path(path).as_uri(), "name": os.path.basename(path),
            "mimeType": mime, "size": size, "_path": path}
    if description:
        link["description"] = description
    return link


def sequence_files(pattern: str) -> list[str]:
    """The files an image sequence's pattern names that exist, in frame order."""
    parts = _FRAME_FIELD.split(pattern)
    # split keeps each field's #s: text, #s, text, ... ; a field matches its count of digits
    wildcard = "".join(glob.escape(part) if index % 2 == 0 else "[0-9]" * len(part)
                       for index, part in enumerate(parts))
    return sorted(glob.glob(wildcard))


def thumbnail(session, path: str, mime: str, cancel: Cancel | None) -> dict | None:
    """A small JPEG of the picture at `path` as image content, or None if it cannot be made
    (the link alone still says where the output is)."""
    still = mime.startswith("image/") and mime != "image/gif"
    try:
        made = session.pool.run("preview", "thumbnail",
                                {"path": path, "max_side": THUMBNAIL_SIDE, "still": still},
                                cancel=cancel)
    except JobFailed as exc:
        log.warning("no thumbnail of %s: %s", path, exc)
        return None
    return {"type": "image", "mimeType": "image/jpeg",
            "data": base64.b64encode(made["jpeg"]).decode("ascii")}
