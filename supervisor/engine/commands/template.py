"""Template commands: addParam, list, setParam, removeParam (document edits), and preview
(drawn by the session's render service, see render.py).

A param names a value a render may change: a property of a layer (text content, a color, a
number, a position, a font, an effect's param) or a footage item (a file per row). Its type
comes from the property; its default, when it has one, is written into every target, so the
project itself always shows its defaults (docs/document.md, "Template params"). A queue
item's `params` (render_queue.py) and the command line's `--set` and `--data` give the values
of a render; protocol/model/template_params.py holds the rules, supervisor/engine/
template_values.py the checks that need the disk.
"""

from __future__ import annotations

import copy

from protocol.model.keyframes import is_animated
from protocol.model.property_paths import canonical_path, resolve
from protocol.model.template_params import (TYPES, ParamError, TargetError, apply_values,
                                            check_name, find_param, names_listed, params_of,
                                            target_problem, type_for)
from protocol.model.values import describe
from supervisor.engine.commands.lookup import find_comp, find_footage, find_layer
from supervisor.engine.commands.prop import PATH
from supervisor.engine.commands.registry import (COMP_REF, FOOTAGE_REF, LAYER_REF, command,
                                                 described, probes_given)
from supervisor.engine.commands.render import render_command
from supervisor.engine.template_values import checked_values, footage_fields
from supervisor.errors import CommandError

NAME = {"type": "string", "description": "the param's name, an identifier (title, "
        "accent_color): a --data column, and [param:NAME] in an output"}
DEFAULT = {"description": "the value when a render gives none (written into every target); "
           "without one the param is required"}
DESCRIPTION = {"type": "string", "description": "what the param is for, for whoever fills in "
               "the rows"}
TARGET = {
    "comp": described(COMP_REF, "the comp of the property to bind"),
    "layer": described(LAYER_REF, "the layer of the property to bind"),
    "path": described(PATH, PATH["description"] + "; footage on an image, video or lottie "
                      "layer binds the footage it shows"),
    "footage": described(FOOTAGE_REF, "instead of comp, layer and path: a footage item, "
                         "pointed at another file per row"),
}
FOOTAGE_LAYERS = ("image", "video", "lottie")


def _target(engine, params) -> tuple[dict, str]:
    """The target the params name, as a param stores it, and the param type it takes."""
    doc = engine.doc
    if "footage" in params:
        if any(key in params for key in ("comp", "layer", "path")):
            raise CommandError("give either footage (a footage item) or comp, layer and path "
                               "(a property), not both.")
        return {"footage": find_footage(doc, params["footage"])["id"]}, "footage"
    missing = [key for key in ("comp", "layer", "path") if key not in params]
    if missing:
        raise CommandError(f"template.addParam needs comp, layer and path (a property to "
                           f"bind), or footage (a footage item); {', '.join(missing)} "
                           f"{'is' if len(missing) == 1 else 'are'} missing.")
    comp = find_comp(doc, params["comp"])
    layer = find_layer(comp, params["layer"])
    if params["path"] in ("footage", "content.footage") and layer["type"] in FOOTAGE_LAYERS:
        return {"footage": layer["content"]["footage"]}, "footage"
    try:
        path = canonical_path(layer, params["path"])
        ref = resolve(layer, path)
    except ValueError as error:
        raise CommandError(f"{error}.") from None
    where = f"{params['path']} of layer {layer['name']!r}"
    type_name = type_for(ref.kind, ref.key)
    if type_name is None:
        raise CommandError(f"{where} holds {describe(ref.kind)}, which no param can set; params "
                           "set text, numbers, colors, [x, y], fonts, true or false, choices "
                           "and footage.")
    if is_animated(ref.value):
        raise CommandError(f"{where} is animated ({len(ref.value['keys'])} keys), and a param "
                           "sets one value for the whole render; make it static with prop.set "
                           "or bind another property.")
    return {"comp": comp["id"], "layer": layer["id"], "path": path}, type_name


def _param(engine, name) -> dict:
    param = find_param(engine.doc, name)
    if param is None:
        raise CommandError(f"there is no param {name!r}; the params are "
                           f"{names_listed(engine.doc)}.")
    return param


def _set_default(engine, param: dict, value) -> None:
    """Check `value` as the param's default, store it, and write it into every target."""
    name = param["name"]
    try:
        default = checked_values(engine, engine.doc, {name: value})[name]
        fields = footage_fields(engine, engine.doc, {name: default})
        # A copy of its own: apply_values shares the parts it leaves alone with its input.
        engine.doc = copy.deepcopy(apply_values(engine.doc, {name: default}, fields))
    except ParamError as error:
        raise CommandError(f"the default of {name!r}: {error}.") from None
    except TargetError as error:
        raise CommandError(f"{error}.") from None
    find_param(engine.doc, name)["default"] = default


def summary(doc: dict, param: dict) -> dict:
    """A param as template.list shows it, each target named, with the problem of one that is
    gone."""
    return {"name": param["name"], "type": param["type"], "default": param.get("default"),
            "required": "default" not in param, "description": param["description"],
            "targets": [_target_summary(doc, param, target) for target in param["targets"]]}


def _target_summary(doc: dict, param: dict, target: dict) -> dict:
    entry = dict(target)
    if "footage" in target:
        footage = next((f for f in doc["footage"] if f["id"] == target["footage"]), None)
        if footage is not None:
            entry.update(footageName=footage["name"], file=footage["path"])
    else:
        comp = next((c for c in doc["comps"] if c["id"] == target["comp"]), None)
        layer = next((layer for layer in (comp or {}).get("layers", [])
                      if layer["id"] == target["layer"]), None)
        if comp is not None:
            entry["compName"] = comp["name"]
        if layer is not None:
            entry["layerName"] = layer["name"]
    problem = target_problem(doc, param, target)
    if problem is not None:
        entry["problem"] = problem
    return entry


@command("template.addParam", "Add a template param",
         "Bind a name to a property of a layer (text, a color, a number, a position, a font, "
         "an effect param) or to a footage item (a file per row), so that a render can set "
         "it: renderQueue.add's params, or rendervisor render --set NAME=VALUE and --data "
         "FILE. The type comes from the property (text, number, color, vec2, font, boolean, "
         "choice, footage). With a default the param is optional and its default is written "
         "into every target; without one every render must give it. Adding a name again "
         "binds another target to it (one name may drive several properties of one type).",
         {"name": NAME, **TARGET,
          "type": {"type": "string", "enum": list(TYPES), "description": "checked against "
                   "the property's (default: the property's)"},
          "default": DEFAULT, "description": DESCRIPTION},
         required=("name",), waits_on=probes_given("default", "footage"))
def template_add_param(engine, params, work):
    try:
        name = check_name(params["name"])
    except ValueError as error:
        raise CommandError(f"{error}.") from None
    target, type_name = _target(engine, params)
    if params.get("type", type_name) != type_name:
        raise CommandError(f"that target takes a {type_name} param, not {params['type']}; "
                           "leave type out, or bind a property of that type.")
    param = find_param(engine.doc, name)
    if param is None:
        param = {"name": name, "type": type_name, "description": "", "targets": []}
        engine.doc.setdefault("params", []).append(param)
    elif param["type"] != type_name:
        raise CommandError(f"param {name!r} is a {param['type']} param, and that target takes "
                           f"a {type_name} one; give it another name.")
    elif target in param["targets"]:
        raise CommandError(f"param {name!r} already drives that target.")
    param["targets"].append(target)
    if "description" in params:
        param["description"] = params["description"]
    if "default" in params:
        _set_default(engine, param, params["default"])
    elif "default" in param:  # the new target shows the default too
        _set_default(engine, param, param["default"])
    return summary(engine.doc, find_param(engine.doc, name))


@command("template.list", "List template params",
         "The project's params: {params: [{name, type, default, required, description, "
         "targets}]}, each target named (comp and layer, or footage), with a problem when its "
         "layer, comp, effect or footage is gone.", kind="read")
def template_list(engine, params, work):
    return {"params": [summary(engine.doc, param) for param in params_of(engine.doc)]}


@command("template.setParam", "Change a template param",
         "Change a param's default (written into every target again), its description, or "
         "make it required (required: true drops the default).",
         {"name": NAME, "default": DEFAULT, "description": DESCRIPTION,
          "required": {"type": "boolean", "description": "true: no default, every render "
                       "gives a value; false needs a default"}},
         required=("name",), waits_on=probes_given("default"))
def template_set_param(engine, params, work):
    param = _param(engine, params["name"])
    if params.get("required") is True:
        if "default" in params:
            raise CommandError("give either a default or required: true, not both.")
        param.pop("default", None)
    if params.get("required") is False and "default" not in params and "default" not in param:
        raise CommandError(f"param {param['name']!r} has no default; give one to make it "
                           "optional.")
    if "description" in params:
        param["description"] = params["description"]
    if "default" in params:
        _set_default(engine, param, params["default"])
    return summary(engine.doc, find_param(engine.doc, params["name"]))


@command("template.removeParam", "Remove a template param",
         "Remove a param, or only one of its targets (target: its 1-based number in "
         "template.list); the properties keep the values they have. Removing the last target "
         "removes the param.",
         {"name": NAME, "target": {"type": "integer", "description": "the target's 1-based "
                                   "number in the param's targets"}},
         required=("name",))
def template_remove_param(engine, params, work):
    param = _param(engine, params["name"])
    if "target" in params:
        number = params["target"]
        if not 1 <= number <= len(param["targets"]):
            raise CommandError(f"param {param['name']!r} has targets 1-{len(param['targets'])}"
                               f"; there is no target {number}.")
        param["targets"].pop(number - 1)
        if param["targets"]:
            return summary(engine.doc, param)
    engine.doc["params"].remove(param)
    if not engine.doc["params"]:
        del engine.doc["params"]
    return {"removed": param["name"]}


render_command(
    "template.preview", "Preview a template row",
    "Draw one frame of a comp with template params set to the given values (the others at "
    "their defaults; a required one left out as the project shows it), as render_preview draws: a PNG image and {comp, time, frame, width, "
    "height}. The project itself is unchanged.",
    {"comp": described(COMP_REF, "the comp (default: the first comp)"),
     "params": {"type": "object", "description": "NAME -> value, as a render's row gives them"},
     "time": {"type": "number", "minimum": 0, "description": "comp time in seconds (default "
              "0)"},
     "maxSide": {"type": "integer", "minimum": 0, "description": "the longer side at most "
                  "(default 960; 0 = full size)"},
     "transparent": {"type": "boolean", "description": "leave the background out"}},
    required=("params",), method=lambda renderer: renderer.preview_template, waits_on="preview")
