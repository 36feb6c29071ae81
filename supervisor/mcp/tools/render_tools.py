"""render_start and render_status: a render any host can follow, however short its request
timeout.

A blocking renderQueue.render holds its request for as long as the render takes, and a host that
gives each request 60 s abandons it (and cancels it) long before a minute of 1080p is encoded.
render_start returns at once with a job id; render_status answers with the job's state and
progress, waiting up to `wait` seconds (at most MAX_WAIT, under such a timeout) for a change, so
an agent follows a render of any length in calls that each end in time. The job itself is the
render service's (supervisor/render/render_jobs.py).
"""

from __future__ import annotations

from supervisor.errors import CommandError
from supervisor.mcp.output_links import with_output_links
from supervisor.mcp.player_app import SHOWN_IN_PLAYER
from supervisor.mcp.tools.json_shapes import (INTEGER, NAME_OR_INDEX, NUMBER, STRING, array,
                                              described, nullable, record)
from supervisor.mcp.tools.registry import ToolError, tool

# The longest render_status waits. Hosts commonly time a request out at 60 s; 50 s leaves room
# for a loaded machine and the answer's trip. Shorter waits cost an agent more calls.
MAX_WAIT = 50.0

ITEM = record({"item": STRING, "status": STRING, "output": nullable(STRING), "error": STRING,
               "framesWritten": INTEGER, "seconds": NUMBER},
              ("item", "status"))

STATUS_TEXT = ("{state, progress, total, items}: state is rendering, done, failed or "
               "stopped; progress counts the frames written of total; each item has its "
               "status, output and, if it failed, error")


@tool("render_start", "Start a render",
      "Start rendering the render queue in the background and return at once with {job, "
      "items}: the job to follow with render_status, and the item ids it renders. Renders the "
      "queued items not yet done, or the given items (ids, names or 1-based indexes). Use it "
      "(not a blocking renderQueue.render) for anything longer than a few seconds: a host may "
      "cut a long request off. Only one render runs at a time; renderQueue.stop stops it. "
      "Example: {} or {\"items\": [\"Main\"]}.",
      {"items": array(NAME_OR_INDEX, "queue items to render (default: every item not done)")},
      lane="quick", destructive=True,
      output=record({"job": STRING, "items": array(STRING)}, ("job", "items")))
def render_start(args, ctx):
    try:
        job = ctx.session.engine.render_service.start_job(ctx.session.engine, args.get("items"))
    except CommandError as exc:
        raise ToolError(str(exc)) from None
    return {"job": job.id, "items": job.run.item_ids}


def status_lane(args: dict) -> str:
    # A status that waits holds its thread for up to MAX_WAIT: never a quick-lane thread, which
    # a file read may be waiting for. One that does not may still wait for the preview worker
    # (the thumbnails of finished outputs), so it waits in the preview lane.
    return "long" if args.get("wait") else "preview"


@tool("render_status", "Follow a render",
      f"The state of a render job from render_start: {STATUS_TEXT}. wait (seconds, at most "
      f"{MAX_WAIT:g}) waits for the state or an item's status to change before answering, so "
      "one call covers a stretch of the render: call it again with wait: 30 until state is not "
      "rendering. Finished outputs come back as links with a small thumbnail. Example: "
      "{\"job\": \"render-1\", \"wait\": 30}.",
      {"job": {"type": "string", "description": "the job render_start returned"},
       "wait": {"type": "number", "minimum": 0, "maximum": MAX_WAIT,
                "description": f"seconds to wait for a change (default 0, at most {MAX_WAIT:g})"}},
      required=("job",), lane=status_lane, read_only=True, idempotent=True,
      meta=SHOWN_IN_PLAYER,
      output=record({"job": STRING, "state": {"type": "string", "enum": [
                         "rendering", "done", "failed", "stopped"]},
                     "progress": INTEGER, "total": INTEGER, "items": array(ITEM)},
                    ("job", "state", "progress", "total", "items")))
def render_status(args, ctx):
    service = ctx.session.engine.render_service
    job = service.jobs.get(args["job"])
    if job is None:
        known = service.jobs.known()
        raise ToolError(f"There is no render job {args['job']!r}; "
                        + (f"the jobs are {', '.join(known)}." if known else
                           "no render was started in this session (render_start starts one)."))
    wait = args.get("wait", 0)  # within its bounds: the schema's
    if wait:
        job.wait_for_change(wait, ctx.cancel)
        ctx.cancel.check()
    return with_output_links(ctx.session, job.status())
