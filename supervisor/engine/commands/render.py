"""Commands that render: comp.saveFrameAs, render.preRender, file.createProxy (and, in
render_queue.py, template.py, expression.py and timeline.py, the other render commands).

Rendering is the session's renderer (supervisor/engine/renderer.py's interface, implemented by
the render service in another part of the supervisor), not the engine: these commands only
declare their params and the one Renderer method that carries each out, called with the
caller's Work (supervisor/work.py: its cancel scope and progress; or None), so progress and
cancellation reach the render. They run without the document lock; the renderer takes
`engine.snapshot()` when it starts.
"""

from __future__ import annotations

from typing import Callable

from protocol.model.output_formats import FORMATS
from supervisor.engine.commands.registry import COMP_REF, OUTPUT_PATH, command, described, formatted
from supervisor.engine.commands.render_guard import check_render
from supervisor.engine.renderer import Renderer, RenderMethod
from supervisor.errors import CommandError

NOT_AVAILABLE = "rendering is not available in this session"


def render_command(id: str, title: str, description: str, properties: dict | None = None,
                   required: tuple = (), *, method: Callable[[Renderer], RenderMethod],
                   waits_on: str | None = None) -> None:
    """Declare a command carried out by the session's renderer: `method` picks the Renderer
    method that does it (`lambda renderer: renderer.pre_render`)."""

    def handler(engine, params, work):
        # A confined session refuses footage outside the roots (a worker knows no roots) and
        # outputs outside them before the renderer starts anything (render_guard.py).
        check_render(engine, id, params)
        if engine.render_service is None:
            raise CommandError(NOT_AVAILABLE + "; use rendervisor mcp or rendervisor render.")
        return method(engine.render_service)(engine, params, work)

    command(id, title, description, properties, required, kind="render",
            waits_on=waits_on)(handler)


render_command(
    "comp.saveFrameAs", "Save a frame",
    "Render one frame of a comp to a PNG file now, or (queue: true) add it to the render queue "
    "as a one-frame item.",
    {"comp": described(COMP_REF, "the comp (default: the only or first comp)"),
     "time": {"type": "number", "description": "comp time in seconds (default 0)"},
     "path": formatted(OUTPUT_PATH, "the PNG to write (default: [compName]_[#####].png in the "
                                    "project's folder, [#####] being the frame number)"),
     "queue": {"type": "boolean", "description": "queue it instead of rendering now"}},
    method=lambda renderer: renderer.save_frame_as)

render_command(
    "render.preRender", "Pre-render a comp",
    "Render a comp to a file, import the result as footage, and replace the comp's uses as a "
    "precomp with that footage, so later renders read it instead of recomputing.",
    {"comp": COMP_REF,
     "output": formatted(OUTPUT_PATH, "the file to write (default beside the project)"),
     "format": {"type": "string", "enum": list(FORMATS)}},
    required=("comp",), method=lambda renderer: renderer.pre_render)

render_command(
    "file.createProxy", "Create a proxy",
    "Render a half-resolution proxy of a comp and set it as the comp's proxy, for faster "
    "previews.",
    {"comp": COMP_REF}, required=("comp",), method=lambda renderer: renderer.create_proxy)
