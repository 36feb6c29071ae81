"""Tasks that draw: `preview` (one frame as a PNG) and `thumbnail` (a small JPEG of a finished
output, decoded from the file itself) for the preview worker, and `contact_sheet` (a filmstrip's
frames on one labelled sheet, workers/contact_sheets.py).

The compositor is imported here, at module level, so the forkserver preloads Skia, PyAV and
numpy once and every render or preview worker starts warm.
"""

from __future__ import annotations

import skia

from workers.compositor import FootageCache, render_frame
from workers.compositor.video import DECODE_ERRORS, VideoDecoder
from workers.contact_sheets import draw_sheet
from workers.exporter.deep_pixels import as_8_bits
from workers.snapshots import document_for, plan_for
from workers.tasks import TaskError, task

# One per worker process: decoded stills and open video decoders survive from job to job.
FOOTAGE = FootageCache()


def preview_scale(width: int, height: int, max_side: int) -> float:
    """max_side 0 means full size; otherwise the longer side is at most max_side (never up)."""
    if not max_side:
        return 1.0
    return min(1.0, max_side / max(width, height))


@task("preview")
def preview(job):
    spec = job.payload
    document = document_for(spec)
    comp = next((c for c in document["comps"] if c["id"] == spec["comp"]), None)
    if comp is None:
        raise TaskError(f"the project has no comp {spec['comp']!r}")
    scale = preview_scale(comp["width"], comp["height"], spec.get("max_side", 960))
    try:
        # The snapshot's plan: previews of one revision compile it once.
        frame = render_frame(document, comp["id"], spec["time"], footage=FOOTAGE, scale=scale,
                             transparent=bool(spec.get("transparent")),
                             plan=plan_for(spec, comp["id"], FOOTAGE))
    except (LookupError, ValueError) as exc:
        raise TaskError(str(exc)) from None
    return {"png": encode_png(frame.pixels), "width": frame.pixels.shape[1],
            "height": frame.pixels.shape[0], "missing": list(frame.missing)}


@task("thumbnail")
def thumbnail(job):
    """A finished output as a small JPEG: a still as it is, a video's middle frame (its first
    is often a fade from black). Decoded from the file, so it shows what was written.
    {jpeg, width, height}."""
    path, side = job.payload["path"], job.payload["max_side"]
    try:
        if job.payload["still"]:
            with open(path, "rb") as handle:
                image = skia.Image.MakeFromEncoded(handle.read())
        else:
            decoder = VideoDecoder(path)
            try:
                middle = (decoder.frame_count or 1) // 2 / decoder.frame_rate
                image = decoder.image_at(middle)
            finally:
                decoder.close()
    except DECODE_ERRORS as exc:
        raise TaskError(f"{path} could not be decoded ({exc})") from None
    if image is None:
        raise TaskError(f"{path} holds no picture to show")
    scale = min(1.0, side / max(image.width(), image.height()))
    width, height = max(1, round(image.width() * scale)), max(1, round(image.height() * scale))
    surface = skia.Surface(width, height)
    with surface as canvas:
        canvas.clear(skia.ColorBLACK)  # JPEG keeps no alpha: transparency shows as black
        canvas.drawImageRect(image, skia.Rect.MakeWH(width, height),
                             skia.SamplingOptions(skia.FilterMode.kLinear))
    jpeg = surface.makeImageSnapshot().encodeToData(skia.kJPEG, 80)
    return {"jpeg": bytes(jpeg), "width": width, "height": height}


def encode_png(pixels) -> bytes:
    """An 8-bit PNG of a frame (a deep comp's frame dithered to 8 bits, as a render would)."""
    image = skia.Image.fromarray(as_8_bits(pixels), colorType=skia.kRGBA_8888_ColorType,
                                 alphaType=skia.kUnpremul_AlphaType)
    return bytes(image.encodeToData(skia.kPNG, 100))


@task("contact_sheet")
def contact_sheet(job):
    """{png, grid}: the sheet of `frames` (PNGs of one size) with their `labels`."""
    spec = job.payload
    png, grid = draw_sheet(spec["frames"], spec["labels"], spec["columns"])
    return {"png": png, "grid": {"columns": grid.columns, "rows": grid.rows,
                                 "width": grid.width, "height": grid.height,
                                 "cellWidth": grid.cell_width, "cellHeight": grid.cell_height}}
