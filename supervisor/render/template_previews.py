"""template.preview: one frame of a comp with template values applied, drawn on the preview
worker exactly as render_preview draws (supervisor/render/preview_jobs.py: the same deadline,
the same memory limit, the same sentences), and returned as PNG data for the MCP front door
to show as an image.

The values are checked as a render's are (supervisor/engine/template_values.py: types,
targets, footage files, fonts, confinement), applied to a copy of the snapshot over the
defaults (a required param left out shows what the project holds, so a template can be looked
at one value at a time), and drawn
under an id of their own, `IDENTITY:REVISION:preview:DIGEST`, so the preview worker never
mistakes this copy for the project's document or for another row's. The project is unchanged.
"""

from __future__ import annotations

import base64

from protocol.cancel import Cancelled
from protocol.model.template_params import ParamError, TargetError
from supervisor.engine.commands.lookup import find_comp
from supervisor.engine.template_values import checked_values, row_digest, row_document
from supervisor.errors import CommandError
from supervisor.render.preview_jobs import draw_preview, why_not_drawn
from supervisor.render.stills import frame_at
from supervisor.runtime.pool import JobFailed
from supervisor.work import Work

DEFAULT_MAX_SIDE = 960  # as render_preview's


def preview_template(service, engine, params: dict, work: Work | None) -> dict:
    snapshot_id, document = engine.snapshot()
    if not document["comps"]:
        raise CommandError("the project has no comps yet; create one with comp.new first.")
    comp = find_comp(document, params["comp"]) if "comp" in params else document["comps"][0]
    time = float(params.get("time", 0.0))
    number = frame_at(comp, time)
    try:
        given = checked_values(engine, document, params["params"])
        applied = row_document(engine, document, given, require=False)
    except ParamError as error:
        raise CommandError(f"param {error.name!r}: {error}." if error.name
                           else f"params: {error}.") from None
    except TargetError as error:
        raise CommandError(f"{error}.") from None
    cancel = work.cancel if work is not None else None
    try:
        value = draw_preview(service.pool, f"{snapshot_id}:preview:{row_digest(given, applied)}",
                             applied, comp, time, params.get("maxSide", DEFAULT_MAX_SIDE),
                             bool(params.get("transparent", False)), cancel)
    except JobFailed as error:
        if cancel is not None and cancel.cancelled:
            raise Cancelled(cancel.reason) from None
        raise CommandError(why_not_drawn(error, service.pool, comp, time, "maxSide")) from None
    result = {"comp": comp["name"], "time": time, "frame": number, "width": value["width"],
              "height": value["height"], "params": given}
    if value["missing"]:
        result["missing"] = value["missing"]
    result["image"] = {"mimeType": "image/png",
                       "data": base64.b64encode(value["png"]).decode("ascii")}
    return result
