"""A render chunk as a Dask task: render it in the Dask worker, return the encoded result as
bytes, so a cluster's nodes need no shared disk (docs/farm.md, "--cluster").

The chunk is rendered by the very code a local render worker runs (workers/chunk_task.py), into
a private temporary folder of the Dask worker, with the chunk's own token; the files it wrote
are read back and the folder removed. The client (supervisor/cli/cluster.py) writes the bytes to
the names a local render would have used, so the output is the same file.

A pure function of its arguments: Dask may run it twice (a lost worker, a retry), and a rerun
returns the same bytes and leaves nothing behind.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass, field

from protocol.cancel import Cancel
from protocol.model.output_names import frame_path
from workers.chunk_task import render_chunk


@dataclass
class DaskJob:
    """What workers/chunk_task.render_chunk needs of a job, for a Dask task: its payload; no
    cancel (Dask drops a cancelled task's result) and no progress (the client counts chunks)."""
    payload: dict
    frames_written: list = field(default_factory=list)
    cancel: Cancel = field(default_factory=Cancel)  # never cancelled here

    def progress(self, number) -> None:
        self.frames_written.append(number)


def hold_document(document: dict) -> dict:
    """A project snapshot as a Dask task's result: the chunks of a render depend on it, so each
    node receives it once, and a node that is lost with it is no loss (Dask computes it again,
    from this task's arguments, on a node that is left; supervisor/cli/cluster.py)."""
    return document


def render_chunk_bytes(payload: dict, document: dict) -> dict:
    """Render one chunk (the render_chunk payload, without the document) and return
    `{"frames": [[number, bytes], ...]}` for an image sequence or `{"segment": bytes}` for a
    video, plus `missing` (footage this node could not read)."""
    with tempfile.TemporaryDirectory(prefix="rendervisor-chunk-") as folder:
        local_output = os.path.join(folder, os.path.basename(payload["output"]))
        job = DaskJob(dict(payload, output=local_output, document=document,
                           skipExisting=False))
        value = render_chunk(job)
        result: dict = {"missing": value["missing"]}
        if value["segment"] is not None:
            with open(value["segment"], "rb") as handle:
                result["segment"] = handle.read()
        else:
            frames = []
            for number in job.frames_written:
                with open(frame_path(local_output, number, payload.get("startNumber", 0)),
                          "rb") as handle:
                    frames.append([number, handle.read()])
            result["frames"] = frames
        return result
