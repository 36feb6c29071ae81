"""Planning a render before anything is written: which items take part, what each writes, and
how its frames are split into chunks for the render workers.

The order of decisions is docs/outputs.md's and docs/rendering.md's:
1. items refused for a reason of their own (codecOptions off the format's list, missing
   footage, an output outside the write roots, template values that cannot be used, an
   output naming a param without a value or whose fields make no safe name, an image sequence
   whose frames would share one file) are reported failed, naming the option, the file or
   the param, and take no part; an item with template values is planned against its own
   document (supervisor/render/item_snapshots.py);
2. the outputs of the rest must not name one file (`find_clash`); if two do, the whole render
   is refused with `RenderRefused`, naming both items, before a single file is touched;
3. each remaining item's frames to write: with skipExisting, frames whose file is a complete
   image (workers/exporter/complete_frames.py), or that an earlier item of this render
   writes, are left alone (so that earlier item's frames are never overwritten, whatever
   order the workers finish in);
4. no file an item writes may be an input of the project (its footage, the project file:
   supervisor/render/inputs.py); if one is, the whole render is refused with `RenderRefused` as for
   a clash, naming the item, the input and the file;
5. the frames are split into chunks (`split`), video chunks on key frame boundaries, so the
   output is the same whatever the worker count; an item whose file carries sound gets one
   sound track, mixed for its frames (supervisor/render/sound_plan.py).

Reads the disk (does a frame exist?) but never writes to it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Callable

from protocol.model.codec_options import CodecOptionRefused, check_codec_options
from protocol.model.frame_spec import frames_of
from protocol.model.keyframes import frame_count
from protocol.model.layers import FOOTAGE_TYPES
from protocol.model.output_formats import output_format
from protocol.model.output_names import (OutputNameError, expand_fields, find_clash,
                                         frame_path, frames_share_one_file, planned_output,
                                         unknown_fields)
from protocol.model.template_params import item_fields
from supervisor.engine.footage_probe import is_missing
from supervisor.engine.probes import Probes
from supervisor.errors import CommandError
from supervisor.render.inputs import ProjectInputs
from supervisor.render.sound_plan import SoundPlan, plan_sound
from workers.exporter.chunk_plan import Chunk, plan_chunks
from workers.exporter.keyframe_grid import keyframe_interval_for
from workers.exporter.complete_frames import is_complete_frame

# A chunk is what one worker takes at a time. Small chunks keep every worker busy to the end
# of a render (the last chunks run while the other workers have nothing left to take, and
# frames differ in cost); each chunk costs a job round trip and, for video, a segment file to
# join. So: at most CHUNK_FRAMES frames, and at least CHUNKS_PER_WORKER chunks per worker for
# a short item. Video chunks are whole key frame intervals (keyframe_interval_for: 30 frames,
# shorter for a video under 240 frames, so it still has about 8 to share out), as many per
# chunk as give each worker CHUNKS_PER_WORKER chunks, within CHUNK_FRAMES; a long video is
# split at every interval, which its encoder restarts at anyway.
CHUNK_FRAMES = 30
CHUNKS_PER_WORKER = 2


# Encoder options a render adds under an item's own codecOptions (which win). The render is
# parallel across chunks, one worker process per core, so an encoder's own threads would only
# compete with the other workers; and a fixed thread count makes the encoded bytes the same on
# every machine, whatever its core count (x264's output depends on its thread count), which a
# farm joining chunks from different nodes relies on.
RENDER_CODEC_DEFAULTS = {"h264": {"threads": "1"}}


class RenderRefused(Exception):
    """The whole render is refused before anything is written; the message says why."""


@dataclass
class ItemPlan:
    id: str
    comp: dict
    format: str
    output: str  # `[compName]` filled in: a video's file, or a sequence's pattern
    frames: list[int]  # comp frame numbers to write, in output order
    codec_options: dict
    skip_existing: bool
    scale: float = 1.0
    transparent: bool = False  # leave the comp's background out (a pre-render of a precomp)
    chunks: list[Chunk] = field(default_factory=list)
    error: str | None = None  # refused before rendering
    skipped: bool = False  # a video whose file exists, with skipExisting
    sound: SoundPlan | None = None  # the file's sound track, mixed once for the item
    # (snapshot id, document) of an item rendering template values: its own document, the
    # values applied; None renders the render's snapshot.
    snapshot: tuple[str, dict] | None = None
    # A video takes its finished segments from the cache of an earlier render that stopped
    # (skipExisting, or the item's resume; supervisor/render/segment_cache.py).
    resume: bool = False
    frames_skipped: int = 0  # left out with skipExisting: their files are complete already
    fps: float | None = None  # a GIF's own frame rate (its codecOptions fps); None: the comp's
    start_number: int = 0  # a sequence's file number for comp frame 0 (startNumber)
    # A colour-managed project's display and view for this item (None: the config's default).
    display: str | None = None
    view: str | None = None
    color_tags: str | None = None  # colorTags: bt709 (None) or bt2020-pq (HDR10)
    # In a render allowed to go on without footage (a farm render's --allow-missing), the
    # footage found missing, drawn as colour bars (workers/compositor/placeholders.py); None:
    # missing footage fails the item.
    placeholders: list[str] | None = None

    @property
    def is_sequence(self) -> bool:
        return output_format(self.format).is_sequence

    @property
    def frame_rate(self) -> float:
        """The output's frames a second: the comp's, or a GIF's fps."""
        return self.fps or self.comp["frameRate"]

    def frame_file(self, number: int) -> str:
        """The file a sequence writes for comp frame `number`."""
        return frame_path(self.output, number, self.start_number)

    def files(self) -> list[str]:
        """The files this plan writes, in output order (none for a video skipped whole)."""
        if self.is_sequence:
            return [self.frame_file(number) for number in self.frames]
        return [self.output] if self.frames else []

    def summary(self) -> dict:
        return {"item": self.id, "output": self.output}


# What to do about missing footage, in an MCP session's words (`plan_render`'s default).
RELINK_HINT = "re-link it with footage.replace or remove the layers that show it"


def plan_render(document: dict, item_ids: list[str], workers: int,
                check_write: Callable[[str], None] | None = None,
                project_path: str | None = None,
                own: dict | None = None,
                relink_hint: str = RELINK_HINT,
                probes: Probes | None = None,
                allow_missing: bool = False) -> list[ItemPlan]:
    """The plan of every item in `item_ids` (queue order), or RenderRefused on a clash or on
    an output over one of the project's inputs (`document` saved at `project_path`).

    `check_write(path)` raises with a sentence when a path may not be written (confinement);
    `relink_hint` says, in the caller's words, what to do about missing footage;
    `allow_missing` renders such an item anyway, the footage drawn as a placeholder.
    `own` maps an item rendering template values to its own (snapshot id, document), or to
    the sentence saying why it cannot render. `probes` reads a video skipExisting may keep
    (supervisor/engine/probes.py)."""
    own = own or {}
    probes = probes or Probes()
    items = {item["id"]: item for item in document["renderQueue"]}
    fields = {item_id: item_fields(document, items[item_id]) for item_id in item_ids}
    plans = []
    for item_id in item_ids:
        item, snapshot = items[item_id], own.get(item_id)
        drawn = snapshot[1] if isinstance(snapshot, tuple) else document
        plan = _item_plan(item, next(c for c in drawn["comps"] if c["id"] == item["comp"]),
                          fields[item_id])
        if isinstance(snapshot, str):
            plan.error = f"{item_id} was not rendered: {snapshot}"
        elif not plan.error:
            plan.snapshot = snapshot
            plan.error = _refusal(drawn, plan, check_write, item, relink_hint, allow_missing)
        plans.append(plan)
    clash = find_clash(planned_output(items[plan.id], plan.comp, fields[plan.id])
                       for plan in plans if not plan.error)
    if clash is not None:
        raise RenderRefused(clash.message + ".")
    claimed: set[str] = set()  # files earlier items of this render write
    inputs = ProjectInputs(_with_rows_footage(document, plans), project_path)
    for plan in plans:
        if plan.error:
            continue
        _frames_to_write(plan, claimed, probes)
        plan.sound = plan_sound(plan.snapshot[1] if plan.snapshot else document, items[plan.id],
                                plan.comp, plan.frames)
        overwrite = inputs.overwrite(plan.files())
        if overwrite is not None:
            raise RenderRefused(overwrite.sentence(plan.id, f"give {plan.id} another output",
                                                   "nothing was rendered"))
        plan.chunks = split(plan, workers)
    return plans


def split(plan: ItemPlan, workers: int) -> list[Chunk]:
    if output_format(plan.format).audio_only:
        return []  # no pictures: the item is its sound track alone
    wanted = workers * CHUNKS_PER_WORKER
    if plan.is_sequence:
        size = max(1, min(CHUNK_FRAMES, -(-len(plan.frames) // wanted)))
    else:
        # Whole intervals, rounded down (plan_chunks would round a size up, which for a short
        # video leaves fewer chunks than workers can share: 90 frames on 2 workers are 4
        # chunks of 2 intervals of 12, not 3 of 3).
        interval = keyframe_interval_for(len(plan.frames))
        units = -(-len(plan.frames) // interval)
        size = interval * max(1, min(CHUNK_FRAMES // interval, units // wanted))
    return plan_chunks(plan.frames, plan.format, parts=workers, chunk_size=size)


def single_item_plan(item_id: str, comp: dict, fmt: str, output: str, frames: list[int],
                     workers: int, scale: float = 1.0, codec_options: dict | None = None,
                     transparent: bool = False) -> ItemPlan:
    """A plan for a render that is not a queue item (a still, a pre-render, a proxy)."""
    plan = ItemPlan(item_id, comp, fmt, output, list(frames),
                    render_codec_options(fmt, codec_options), False, scale, transparent)
    plan.chunks = split(plan, workers)
    return plan


def _item_plan(item: dict, comp: dict, fields: dict) -> ItemPlan:
    fmt = item["format"]
    count = frame_count(comp["duration"], comp["frameRate"])
    skip = bool(item.get("skipExisting"))
    options = render_codec_options(fmt, item.get("codecOptions"))
    # A GIF's size and rate are the render's (its scale, its frames), not FFmpeg's options.
    max_side = options.pop("maxSide", None)
    scale = float(item.get("scale", 1.0))  # a draft's; a GIF's maxSide may shrink it more
    if max_side is not None:
        scale = min(scale, int(max_side) / max(comp["width"], comp["height"]))
    frames = list(frames_of(item.get("frames"), count))
    fps = options.pop("fps", None)
    if fps is not None:
        fps = min(float(fps), comp["frameRate"])  # never more frames than the comp has
        frames, fps = at_rate(frames, comp["frameRate"], fps), (
            None if fps == comp["frameRate"] else fps)
    try:
        output, error = expand_fields(item["output"], comp["name"], fields), None
    except OutputNameError as refusal:
        output, error = item["output"], (f"{item['id']} was not rendered: its output "
                                         f"{item['output']}: {refusal}.")
    return ItemPlan(item["id"], comp, fmt, output, frames, options, skip, scale, error=error,
                    resume=skip or bool(item.get("resume")),
                    start_number=int(item.get("startNumber", 0)), fps=fps,
                    display=item.get("display"), view=item.get("view"),
                    color_tags=item.get("colorTags"))


def at_rate(frames: list[int], comp_rate: float, rate: float) -> list[int]:
    """The frames a `rate` frames-a-second output of `frames` shows: output frame k is the one
    showing at its time, k / rate after the first (frames[floor(k * comp_rate / rate)])."""
    step = comp_rate / rate
    # The epsilon: 3 * (30 / 10) may come out as 8.999999999999998, and must still be 9.
    return [frames[int(k * step + 1e-9)] for k in range(int((len(frames) - 1) / step + 1e-9) + 1)]


def render_codec_options(fmt: str, given: dict | None) -> dict:
    return {**RENDER_CODEC_DEFAULTS.get(fmt, {}), **(given or {})}


def _with_rows_footage(document: dict, plans: list[ItemPlan]) -> dict:
    """The document's footage and the files its items' template values point footage at: a
    render must write over neither."""
    footage = list(document["footage"])
    paths = {item["path"] for item in footage}
    for plan in plans:
        for item in plan.snapshot[1]["footage"] if plan.snapshot else ():
            if item["path"] not in paths:
                paths.add(item["path"])
                footage.append(item)
    return {"footage": footage}


def _refusal(document: dict, plan: ItemPlan, check_write, item: dict,
             relink_hint: str, allow_missing: bool = False) -> str | None:
    if frames_share_one_file(plan.output, plan.format, len(plan.frames)):
        return (f"{plan.id} was not rendered: its output {plan.output} has no frame number "
                f"field, so each of its {len(plan.frames)} frames would overwrite the last; "
                "give it an output with one ([####]) with renderQueue.set.")
    unnamed = unknown_fields(item["output"], item_fields(document, item))
    if unnamed:
        return (f"{plan.id} was not rendered: its output {item['output']} names "
                f"[param:{unnamed[0]}], which has no value for it (no such param, or one "
                "without a default that the item gives no value); give the item that param "
                "in its params, or another output.")
    try:
        # What the workers would pass to the encoder, defaults included: options stored in a
        # project file were only warned about when it was opened.
        check_codec_options(plan.format, plan.codec_options, plan.id)
    except CodecOptionRefused as error:
        return f"{plan.id} was not rendered: {error}"
    missing = missing_footage(document, plan.comp)
    if allow_missing:
        plan.placeholders = missing
    elif missing:
        return (f"{plan.id} was not rendered: comp {plan.comp['name']!r} uses footage that is "
                f"missing: {', '.join(missing)}; {relink_hint}, then render again.")
    if check_write is not None:
        try:
            check_write(plan.output)
        except Exception as error:  # the guard's own sentence is the report
            return f"{plan.id} was not rendered: {error}"
    return None


def missing_footage(document: dict, comp: dict) -> list[str]:
    """The files (or unknown footage ids) that the comp, its precomps included, shows but that
    are gone from disk."""
    footage = {item["id"]: item for item in document["footage"]}
    comps = {c["id"]: c for c in document["comps"]}
    missing: list[str] = []
    seen: set[str] = set()

    def visit(current: dict) -> None:
        if current["id"] in seen:
            return
        seen.add(current["id"])
        for layer in current["layers"]:
            if layer["type"] in FOOTAGE_TYPES:
                ref = layer["content"].get("footage")
                item = footage.get(ref)
                name = item["path"] if item else f"footage id {ref}"
                if (item is None or is_missing(item)) and name not in missing:
                    missing.append(name)
            elif layer["type"] == "precomp" and layer["content"].get("source") in comps:
                visit(comps[layer["content"]["source"]])

    visit(comp)
    return missing


def _frames_to_write(plan: ItemPlan, claimed: set[str], probes: Probes) -> None:
    """Leave out, with skipExisting, what exists or an earlier item writes; then claim the
    item's own files for the items after it."""
    if plan.is_sequence:
        paths = {number: os.path.normpath(plan.frame_file(number)) for number in plan.frames}
        if plan.skip_existing:
            wanted = len(plan.frames)
            plan.frames = [number for number in plan.frames if paths[number] not in claimed
                           and not is_complete_frame(paths[number], plan.format)]
            plan.frames_skipped = wanted - len(plan.frames)
        claimed.update(paths[number] for number in plan.frames)
        return
    output = os.path.normpath(plan.output)
    if plan.skip_existing and (output in claimed or _is_whole_video(probes, output)):
        plan.skipped = True
        plan.frames_skipped = len(plan.frames)
        plan.frames = []
        return
    claimed.add(output)


def _is_whole_video(probes: Probes, path: str) -> bool:
    """Whether a video skipExisting may leave alone is there: a file that opens as a video with
    frames (on a probe worker). A render's own video appears only when complete; a file cut
    short by an interrupted copy, or left by another tool, does not open and is rendered
    again."""
    if not os.path.isfile(path):
        return False
    try:
        return probes.read("media", path, path).get("frameCount", 0) > 0
    except CommandError:
        return False
