"""The engine commands, one module per family; importing this package registers them all in
supervisor.engine.commands.registry.COMMANDS, in catalog order."""

from supervisor.engine.commands import (project, comp, layer, prop, effect, footage,  # noqa: F401
                                 render_queue, render, edit, mask, marker)
