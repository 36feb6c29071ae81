"""Scene commands: scene.add, scene.list, scene.set, scene.remove and transition.set.

What a scene is and how scenes are timed is protocol/model/scenes.py; this module keeps the
comp true to it after every edit (`_settle`): the scenes' times checked, each scene layer's in
and out points laid out, the scene layers stacked in scene order in the places they hold, and
the comp as long as its scenes (layers that ran to its old end run to the new one).
"""

from __future__ import annotations

from protocol.model.document import allocate_id, frame_count_problem, precomp_cycle, unique_name
from protocol.model.layers import default_content, new_layer
from protocol.model.scenes import NONE, TRANSITIONS, check_transition, lay_out, placed, \
    timing_problem
from protocol.model.values import check_value
from supervisor.engine.commands.lookup import find_comp, find_scene
from supervisor.engine.commands.registry import COLOR, COMP_REF, EASING, command, formatted
from supervisor.errors import CommandError

SCENE_REF = {"type": ["string", "integer"],
             "description": "a scene's id, the name of its layer, or its 1-based number"}
DURATION = {"type": "number", "description": "seconds the scene lasts, its transitions in "
            "and out included (default: its comp's duration)"}
INDEX = {"type": "integer", "description": "1-based place among the scenes (default: last)"}
# Layers ending this close to the comp's old end ran to its end.
AT_END = 1e-6


def _transitions_listing() -> str:
    return "; ".join(f"{name}: {kind.formula}" + (
        f" (direction {', '.join(kind.directions)}; default {kind.directions[0]})"
        if kind.directions else "") for name, kind in TRANSITIONS.items())


@command("scene.add", "Add a scene",
         "Add a scene to a comp: another comp (source) played as one shot of a sequence, "
         "placed after the scene before it (minus the transition into it, which overlaps "
         "the two). The scene is drawn by a precomp layer of the comp (its layer; the first "
         "scene's goes on top of the stack, later ones beside the scenes already there), "
         "without its comp's background, so the comp's own layers below show through where "
         "the scene draws nothing. The comp then lasts as long as its scenes; its layers that "
         "ran to its end still do. Returns {scene, layer, index, start, end, duration, "
         "compDuration}. Example: {\"comp\": \"Main\", \"source\": \"Intro\", \"duration\": 4}.",
         {"comp": COMP_REF, "source": {"type": "string", "description": "the comp the scene "
                                       "shows (id or name)"},
          "duration": DURATION, "index": INDEX},
         required=("comp", "source"))
def scene_add(engine, params, work):
    doc = engine.doc
    comp = find_comp(doc, params["comp"])
    source = find_comp(doc, params["source"])
    scenes = comp.setdefault("scenes", [])
    index = _index(params.get("index", len(scenes) + 1), len(scenes) + 1)
    duration = _duration(params.get("duration", source["duration"]), comp)
    layer = new_layer(doc, comp, allocate_id(doc, "layer"),
                      unique_name(source["name"], {other["name"] for other in comp["layers"]}),
                      "precomp", default_content("precomp", {"source": source["id"]}, comp))
    stacked = [position for position, other in enumerate(comp["layers"])
               if other["id"] in {scene["layer"] for scene in scenes}]
    comp["layers"].insert(stacked[0] if stacked else 0, layer)
    scene = {"id": allocate_id(doc, "scene"), "layer": layer["id"], "duration": duration,
             "transition": None}
    scenes.insert(index - 1, scene)
    if precomp_cycle(doc, comp["id"]):
        raise CommandError(f"comp {comp['name']!r} cannot show itself, directly or through "
                           "its scenes or precomps; pick another source.")
    warnings = _settle(comp)
    return {**_placed_scene(comp, scene), "compDuration": comp["duration"],
            **({"warnings": warnings} if warnings else {})}


@command("scene.list", "List scenes",
         "A comp's scenes in order: {scenes: [{scene, index, name, layer, source, duration, "
         "start, end, transition}], duration}; start and end are comp seconds (a transition "
         "into a scene starts at its start).",
         {"comp": COMP_REF}, required=("comp",), kind="read")
def scene_list(engine, params, work):
    comp = find_comp(engine.doc, params["comp"])
    return {"comp": comp["id"], "duration": comp["duration"],
            "scenes": [_placed_scene(comp, scene) for scene in comp.get("scenes") or []]}


@command("scene.set", "Retime or reorder a scene",
         "Change a scene's duration (the scenes after it move with it) or its place "
         "(index; its layer moves among the scene layers too). A scene moved to the front "
         "loses its transition (nothing is before it), which warnings say. Returns the scene "
         "as scene.list gives it and the comp's duration (compDuration).",
         {"comp": COMP_REF, "scene": SCENE_REF, "duration": DURATION, "index": INDEX},
         required=("comp", "scene"))
def scene_set(engine, params, work):
    comp = find_comp(engine.doc, params["comp"])
    scene = find_scene(comp, params["scene"])
    if "duration" in params:
        scene["duration"] = _duration(params["duration"], comp)
    if "index" in params:
        scenes = comp["scenes"]
        index = _index(params["index"], len(scenes))
        scenes.remove(scene)
        scenes.insert(index - 1, scene)
    warnings = _settle(comp)
    return {**_placed_scene(comp, scene), "compDuration": comp["duration"],
            **({"warnings": warnings} if warnings else {})}


@command("scene.remove", "Remove a scene",
         "Remove a scene and the layer that draws it; the scenes after it move up. Layers "
         "parented to that layer lose their parent.",
         {"comp": COMP_REF, "scene": SCENE_REF}, required=("comp", "scene"))
def scene_remove(engine, params, work):
    comp = find_comp(engine.doc, params["comp"])
    scene = find_scene(comp, params["scene"])
    layer = next(layer for layer in comp["layers"] if layer["id"] == scene["layer"])
    comp["scenes"].remove(scene)
    comp["layers"].remove(layer)
    for other in comp["layers"]:
        if other["parent"] == layer["id"]:
            other["parent"] = None
    warnings = _settle(comp)
    return {"removed": scene["id"], "layer": layer["id"], "name": layer["name"],
            "compDuration": comp["duration"],
            **({"warnings": warnings} if warnings else {})}


@command("transition.set", "Set a scene's transition",
         "The transition into a scene from the one before it, overlapping the two for its "
         "duration (both drawn; the sound crossfades), eased by easing (default linear for "
         "crossfade, dip and blurDissolve, easyEase for the others). Kinds, with what they "
         "draw at progress p (A the scene before, B this one): " + _transitions_listing()
         + ". color is dip's (default black). kind none removes the transition. The scenes "
         "after it move earlier by its duration. Returns the scene as scene.list gives it. "
         'Example: {"comp": "Main", "scene": 2, "kind": "push", "duration": 0.6, '
         '"direction": "fromRight"}.',
         {"comp": COMP_REF, "scene": SCENE_REF,
          "kind": {"type": "string", "enum": [*TRANSITIONS, NONE]},
          "duration": {"type": "number", "description": "seconds the two scenes overlap"},
          "easing": formatted(EASING, "how p runs from 0 to 1 over the transition"),
          "direction": {"type": "string", "description": "push, slide, wipe: fromLeft, "
                        "fromRight, fromTop, fromBottom (where B comes from); radialWipe: "
                        "fromTopLeft, fromTopRight, fromBottomLeft, fromBottomRight; "
                        "clockWipe: clockwise, counterclockwise; iris: open, close; zoom: "
                        "in, out"},
          "color": formatted(COLOR, "dip: the color it dips to")},
         required=("comp", "scene", "kind"))
def transition_set(engine, params, work):
    comp = find_comp(engine.doc, params["comp"])
    scene = find_scene(comp, params["scene"])
    position = comp["scenes"].index(scene)
    if params["kind"] == NONE:
        scene["transition"] = None
    else:
        if position == 0:
            raise CommandError(f"scene {params['scene']!r} is the first scene of comp "
                               f"{comp['name']!r}, so there is nothing before it to "
                               "transition from; set the transition of the scene after it.")
        if "duration" not in params:
            raise CommandError("transition.set needs 'duration', the seconds the two scenes "
                               "overlap (0.5 to 1 is usual).")
        given = {key: params[key] for key in ("kind", "duration", "easing", "direction",
                                              "color") if key in params}
        try:
            transition = check_transition(given)
            if "color" in transition:
                transition["color"] = check_value("color", transition["color"])
        except ValueError as error:
            raise CommandError(f"transition.set: {error}.") from None
        scene["transition"] = transition
    warnings = _settle(comp)
    return {**_placed_scene(comp, scene), "compDuration": comp["duration"],
            **({"warnings": warnings} if warnings else {})}


# -- keeping a comp true to its scenes ---------------------------------------------------------


def _settle(comp: dict) -> list[str]:
    """Check and lay out the comp's scenes after an edit; the warnings it has."""
    warnings = []
    scenes = comp["scenes"]
    if scenes and scenes[0]["transition"] is not None:
        kind = scenes[0]["transition"]["kind"]
        scenes[0]["transition"] = None
        warnings.append(f"scene {_name(comp, scenes[0])!r} is now the first scene, so its "
                        f"{kind} transition was removed (nothing is before it).")
    problem = timing_problem(comp)
    if problem is not None:
        raise CommandError(f"{problem}.")
    _restack(comp)
    end = lay_out(comp)
    if end > 0 and end != comp["duration"]:
        problem = frame_count_problem(end, comp["frameRate"])
        if problem is not None:
            raise CommandError(f"the scenes would make comp {comp['name']!r} {problem}.")
        scene_layers = {scene["layer"] for scene in scenes}
        for layer in comp["layers"]:
            if layer["id"] not in scene_layers and \
                    layer["outPoint"] >= comp["duration"] - AT_END:
                layer["outPoint"] = end
        comp["duration"] = end
    return warnings


def _restack(comp: dict) -> None:
    """The scene layers in scene order (the first lowest) in the stack places they hold."""
    layers = comp["layers"]
    by_id = {layer["id"]: layer for layer in layers}
    slots = [position for position, layer in enumerate(layers)
             if layer["id"] in {scene["layer"] for scene in comp["scenes"]}]
    for slot, scene in zip(slots, reversed(comp["scenes"])):
        layers[slot] = by_id[scene["layer"]]


def _placed_scene(comp: dict, scene: dict) -> dict:
    layer = next(layer for layer in comp["layers"] if layer["id"] == scene["layer"])
    for number, (candidate, start, end) in enumerate(placed(comp), start=1):
        if candidate is scene:
            return {"scene": scene["id"], "index": number, "name": layer["name"],
                    "layer": layer["id"], "source": layer["content"]["source"],
                    "duration": scene["duration"], "start": start, "end": end,
                    "transition": scene["transition"]}
    raise AssertionError("a scene of the comp is always placed")


def _name(comp: dict, scene: dict) -> str:
    return next(layer["name"] for layer in comp["layers"] if layer["id"] == scene["layer"])


def _index(index: int, highest: int) -> int:
    if not 1 <= index <= highest:
        raise CommandError(f"index {index} is outside 1..{highest}, the places among the "
                           "scenes.")
    return index


def _duration(seconds, comp: dict) -> float:
    """A scene's duration: seconds of at least one of the comp's frames (a shorter scene
    would show in no frame)."""
    if not isinstance(seconds, (int, float)) or isinstance(seconds, bool) or seconds <= 0:
        raise CommandError(f"duration is seconds above 0, got {seconds!r}.")
    frame = 1 / comp["frameRate"]
    if seconds < frame:
        raise CommandError(f"duration {seconds:g} s is shorter than one frame of comp "
                           f"{comp['name']!r} (1/{comp['frameRate']:g} s), so the scene would "
                           f"never show; give at least {frame:.4g} s.")
    return float(seconds)
