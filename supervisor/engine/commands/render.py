"""Commands that render: comp.saveFrameAs, render.preRender, file.createProxy (and, in
render_queue.py, renderQueue.render and renderQueue.stop).

Rendering is the session's render service (another part of the supervisor), not the engine:
these commands only declare their params and hand the call to
`engine.render_service.<method>(engine, params, work)`, with `work` the caller's Work
(supervisor/work.py: its cancel scope and progress; or None), so progress and cancellation
reach the render. They run without the document lock; the service takes `engine.snapshot()`
when it starts.
"""

from __future__ import annotations

from protocol.model.output_formats import FORMATS
from supervisor.engine.commands.registry import COMP_REF, OUTPUT_PATH, command, described, formatted
from supervisor.engine.commands.render_guard import check_render
from supervisor.errors import CommandError

NOT_AVAILABLE = "rendering is not available in this session"

# command id -> the render service method that carries it out
SERVICE_METHODS: dict[str, str] = {}


def render_command(id: str, title: str, description: str, properties: dict | None = None,
                   required: tuple = (), *, method: str, waits_on: str | None = None) -> None:
    """Declare a command carried out by `engine.render_service.<method>(engine, params, work)`."""
    SERVICE_METHODS[id] = method

    def handler(engine, params, work):
        return delegate(engine, id, params, work)

    command(id, title, description, properties, required, kind="render",
            waits_on=waits_on)(handler)


def available(engine, command_id: str) -> bool:
    """Whether this session's render service can carry out the command."""
    method = getattr(engine.render_service, SERVICE_METHODS[command_id], None)
    return engine.render_service is not None and callable(method)


def delegate(engine, command_id: str, params: dict, work) -> dict:
    # A confined session refuses footage outside the roots (a worker knows no roots) and
    # outputs outside them before the service starts anything (render_guard.py).
    check_render(engine, command_id, params)
    if engine.render_service is None:
        raise CommandError(NOT_AVAILABLE + "; use rendervisor mcp or rendervisor render.")
    if not available(engine, command_id):
        raise CommandError(f"{command_id} is not available in this session: its renderer "
                           "cannot do it yet.")
    return getattr(engine.render_service, SERVICE_METHODS[command_id])(engine, params, work)


render_command(
    "comp.saveFrameAs", "Save a frame",
    "Render one frame of a comp to a PNG file now, or (queue: true) add it to the render queue "
    "as a one-frame item.",
    {"comp": described(COMP_REF, "the comp (default: the only or first comp)"),
     "time": {"type": "number", "description": "comp time in seconds (default 0)"},
     "path": formatted(OUTPUT_PATH, "the PNG to write (default: [compName]_[#####].png in the "
                                    "project's folder, [#####] being the frame number)"),
     "queue": {"type": "boolean", "description": "queue it instead of rendering now"}},
    method="save_frame_as")

render_command(
    "render.preRender", "Pre-render a comp",
    "Render a comp to a file, import the result as footage, and replace the comp's uses as a "
    "precomp with that footage, so later renders read it instead of recomputing.",
    {"comp": COMP_REF,
     "output": formatted(OUTPUT_PATH, "the file to write (default beside the project)"),
     "format": {"type": "string", "enum": list(FORMATS)}},
    required=("comp",), method="pre_render")

render_command(
    "file.createProxy", "Create a proxy",
    "Render a half-resolution proxy of a comp and set it as the comp's proxy, for faster "
    "previews.",
    {"comp": COMP_REF}, required=("comp",), method="create_proxy")
