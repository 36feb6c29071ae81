"""The engine commands, one module per family; importing this package registers them all in
supervisor.engine.commands.registry.COMMANDS, in catalog order."""

from supervisor.engine.commands import (  # noqa: F401
    project, comp, layer, prop, effect, mask, marker, footage, render_queue, render, edit, font,
    text, captions, template, preset, expression, timeline, scene)
