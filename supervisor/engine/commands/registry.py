"""What an engine command is, the catalog of them, and the check of a call's params.

A command family module (project.py, comp.py, layer.py, ...) declares its commands with
`@command(...)`; importing `supervisor.engine.commands` imports every family, so `COMMANDS` then
holds the whole catalog. A handler is `handler(engine, params, work) -> dict`, run by `Engine.run`
(supervisor/engine/engine.py), which takes the document lock and records the undo step; the handler
itself only edits `engine.doc` and returns its JSON result, or raises CommandError.

How a command touches the engine is its `kind`:
- "read": runs under the lock, changes nothing;
- "edit": runs under the lock on the live document; the engine snapshots the document first,
  puts it back if the handler fails (so a failed command never leaves half an edit), and
  otherwise records one undo step and bumps the revision;
- "history": runs under the lock and manages the revision and history itself (project.new,
  project.open, edit.undo, edit.redo);
- "render": delegated to `engine.render_service`, and run WITHOUT the lock, because a render can
  take minutes and must never hold up an edit (docs/architecture.md, "The one rule").

A command that may wait on a worker says which kind (`waits_on`, or a function of its params
giving it): "probe" for one that reads a file (footage, a font, captions: supervisor/engine/
probes.py) or measures text, "preview" for one that draws a frame. The front door runs such a
call in that worker's lane, never in the quick lane, and the engine probes for a "probe" command
before it takes the lock (Engine.run), so no edit waits behind a file being read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from protocol.model.bezier import PATH_HINT
from protocol.model.colors import COLOR_HINT
from protocol.model.easing import NAMES as NAMED_CURVES
from protocol.model.keyframes import INTERPOLATIONS
from protocol.model.schema_checks import value_problem
from protocol.model.values import GRADIENT_HINT
from supervisor.errors import CommandError

KINDS = ("read", "edit", "history", "render")


@dataclass(frozen=True)
class Command:
    id: str
    title: str
    description: str
    properties: dict  # JSON-schema properties of the params object
    required: tuple
    handler: Callable[[Any, dict, Any], dict]
    kind: str
    # The worker kind a call may wait on ("probe", "preview"), a function of the call's params
    # giving it (or None), or None.
    waits_on: str | Callable[[dict], str | None] | None = None

    @property
    def mutates(self) -> bool:
        return self.kind != "read"

    def waits_for(self, params: Any) -> str | None:
        """The worker kind a call with `params` may wait on, if any."""
        if callable(self.waits_on):
            return self.waits_on(params if isinstance(params, dict) else {})
        return self.waits_on

    def schema(self) -> dict:
        schema = {"type": "object", "properties": self.properties, "additionalProperties": False}
        if self.required:
            schema["required"] = list(self.required)
        return schema

    def param_list(self) -> str:
        """`comp, type, name?, ...`: the params at a glance, optional ones with ?."""
        return ", ".join(name if name in self.required else f"{name}?"
                         for name in self.properties)

    def signature(self) -> str:
        """`layer.add {comp, type, name?, ...}`."""
        return f"{self.id} {{{self.param_list()}}}" if self.properties else self.id


COMMANDS: dict[str, Command] = {}


def command(id: str, title: str, description: str, properties: dict | None = None,
            required: tuple = (), kind: str = "edit", waits_on: Any = None) -> Callable:
    """Register `handler(engine, params, work)` as the engine command `id`."""
    if kind not in KINDS:
        raise ValueError(f"command {id}: kind must be one of {KINDS}")

    def register(handler: Callable) -> Callable:
        if id in COMMANDS:
            raise RuntimeError(f"command {id} registered twice")
        COMMANDS[id] = Command(id, title, description, dict(properties or {}), tuple(required),
                               handler, kind, waits_on)
        return handler

    return register


def check_params(cmd: Command, params: Any) -> dict:
    """`params` if they fit the command's schema: no unknown names, every required one
    present, and each value of its declared type, enum and bounds, with no number anywhere in
    it that a project cannot hold (NaN, Infinity), whatever the handler does with it
    (protocol/model/schema_checks.py, the check the MCP tools' arguments share). Deeper checks
    (a color, a layer that exists) are the handler's, which knows the document."""
    if params is None:
        params = {}
    if not isinstance(params, dict):
        example = ", ".join(f'"{name}": ...' for name in cmd.required)
        raise CommandError(f"{cmd.id} takes its params as an object, not "
                           f"{type(params).__name__}; for example {{{example}}}.")
    accepted = ", ".join(cmd.properties) or "no params"
    unknown = [name for name in params if name not in cmd.properties]
    if unknown:
        raise CommandError(f"{cmd.id} does not take {', '.join(repr(n) for n in unknown)}; it "
                           f"takes {accepted}.")
    missing = [name for name in cmd.required if name not in params]
    if missing:
        raise CommandError(f"{cmd.id} needs {', '.join(repr(n) for n in missing)} "
                           f"({cmd.signature()}).")
    for name, value in params.items():
        problem = value_problem(cmd.properties[name], value)
        if problem is not None:
            raise CommandError(f"{cmd.id}: {name} {problem}.")
    return params


def probes_given(*names: str) -> Callable[[dict], str | None]:
    """`waits_on` for a command that reads a file only when given one of `names` (layer.add's
    path or fontFile)."""
    return lambda params: "probe" if any(name in params for name in names) else None


# Schema fragments the families share, so a comp reference reads the same everywhere.
COMP_REF = {"type": "string", "description": "a comp's id or name"}
LAYER_REF = {"type": ["string", "integer"],
             "description": "a layer's id, name, or 1-based index (1 is the top layer)"}
ITEM_REF = {"type": ["string", "integer"],
            "description": "a render queue item's id or 1-based index"}
FOOTAGE_REF = {"type": "string", "description": "a footage item's id or name"}
# Value formats, each said once here and carried by every param that takes such a value (with
# an example where the value is structured), so a reader of the catalog never guesses one.
COLOR_FORMAT = f'{COLOR_HINT}, e.g. "#1e90ff" or [0.12, 0.56, 1]'
GRADIENT_FORMAT = (f"{GRADIENT_HINT}; stop offsets 0..1, points in the layer's content box "
                   "((0, 0) its top-left), e.g. "
                   '{"type": "linear", "start": [0, 0], "end": [400, 0], '
                   '"stops": [[0, "#ff5f6d"], [1, "#ffc371"]]}')
EASING_FORMAT = ("the segment from this key to the next: " + ", ".join(INTERPOLATIONS[:5])
                 + ' (linear is the default), {"bezier": [x1, y1, x2, y2]} (CSS '
                 "cubic-bezier), or " + ", ".join(NAMED_CURVES) + " by name or with "
                 'parameters, e.g. {"spring": {"stiffness": 100, "damping": 10, "mass": 1}}, '
                 '{"elastic": {"amplitude": 1, "period": 0.3}}, {"back": {"overshoot": 1.7}}')
PATH_FORMAT = (f"{PATH_HINT}; each tangent relative to its point, all [0, 0] (straight) when "
               'left out, e.g. a triangle {"points": [[0, 0], [100, 0], [50, 80]]}')
COLOR = {"type": ["array", "string"], "description": COLOR_FORMAT}
FILL = {"type": ["array", "string", "object", "null"],
        "description": f"{COLOR_FORMAT}; or {GRADIENT_FORMAT}; or null for none"}
EASING = {"type": ["string", "object"], "description": EASING_FORMAT}
VEC2 = {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2}
NUMBER = {"type": "number"}
# Parameters that name a file carry "x-path", so confinement can find every path a command
# touches without knowing each command: "read" and "write" are checked as given, before the
# command runs; "output" (render outputs, which may be relative to the project's folder) is
# checked by whoever resolves it, against the files it will write.
READ_PATH = {"type": "string", "x-path": "read", "description": "an absolute file path"}
WRITE_PATH = {"type": "string", "x-path": "write", "description": "an absolute file path"}
OUTPUT_PATH = {"type": "string", "x-path": "output",
               "description": "a file or pattern, absolute or relative to the project's folder"}


def described(fragment: dict, description: str) -> dict:
    return {**fragment, "description": description}


def formatted(fragment: dict, what: str) -> dict:
    """`fragment` (COLOR, FILL, EASING, a path) described as `what`, then its value format."""
    return {**fragment, "description": f"{what}; {fragment['description']}"}
