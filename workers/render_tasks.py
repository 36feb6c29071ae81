"""Tasks that draw: `preview` (one frame as a PNG) for the preview worker.

The compositor is imported here, at module level, so the forkserver preloads Skia, PyAV and
numpy once and every render or preview worker starts warm.
"""

from __future__ import annotations

import skia

from workers.compositor import FootageCache, render_frame
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


def encode_png(pixels) -> bytes:
    """An 8-bit PNG of a frame (a deep comp's frame dithered to 8 bits, as a render would)."""
    image = skia.Image.fromarray(as_8_bits(pixels), colorType=skia.kRGBA_8888_ColorType,
                                 alphaType=skia.kUnpremul_AlphaType)
    return bytes(image.encodeToData(skia.kPNG, 100))
