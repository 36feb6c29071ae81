"""Property paths: how `prop.*` commands (and anything else) name one property of a layer.

`transform.anchor|position|scale|rotation|opacity`; a content property by its name (`color`,
`size`, `text`, ...; `content.color` also works); an effect param as `effects.FX.PARAM`, FX being
the effect's id, its effect name, or its 1-based index (`effects.1.radius`); a mask's property as
`masks.M.path|feather|opacity|expansion`, M its id, name or 1-based index; a text animator's as
`animators.ID.range.NAME` or `animators.ID.properties.NAME`; an audio, video or precomp
layer's sound as `audio.level` (dB) or `audio.muted`. See docs/document.md,
"Properties and keyframes". Pure: no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from protocol.model.audio import AUDIO_PROPERTIES, SOUNDING_TYPES
from protocol.model.effects import EFFECTS, STATIC_KINDS
from protocol.model.layers import CONTENT, SPATIAL, TRANSFORM
from protocol.model.masks import MASK_PROPERTIES
from protocol.model.numbers import written_index
from protocol.model.text_animators import find_animator, property_of
from protocol.model.text_animators import paths_of as animator_paths


@dataclass
class PropertyRef:
    container: dict  # the dict holding the property
    key: str
    kind: Any  # its value kind (protocol/model/values.py)
    animatable: bool
    spatial: bool = False  # keys may bend its motion path (spatialIn, spatialOut)

    @property
    def value(self) -> Any:
        return self.container[self.key]


def resolve(layer: dict, path: str) -> PropertyRef:
    """The property `path` names on `layer`; ValueError saying which paths exist otherwise."""
    parts = path.split(".") if isinstance(path, str) else []
    if len(parts) == 2 and parts[0] == "transform" and parts[1] in TRANSFORM:
        return PropertyRef(layer["transform"], parts[1], TRANSFORM[parts[1]], True,
                           spatial=parts[1] in SPATIAL)
    if len(parts) == 2 and parts[0] == "audio" and layer["type"] in SOUNDING_TYPES \
            and parts[1] in AUDIO_PROPERTIES:
        kind, animatable = AUDIO_PROPERTIES[parts[1]]
        return PropertyRef(layer["audio"], parts[1], kind, animatable)
    if len(parts) == 3 and parts[0] == "effects":
        effect = _effect(layer, parts[1])
        spec = EFFECTS[effect["effect"]]
        if parts[2] not in spec:
            raise ValueError(f"a {effect['effect']} effect has no param {parts[2]!r}; it has "
                             f"{', '.join(spec)}")
        kind = spec[parts[2]][0]
        return PropertyRef(effect["params"], parts[2], kind, kind not in STATIC_KINDS)
    if len(parts) >= 3 and parts[0] == "animators" and layer["type"] == "text":
        return _animator_property(layer, parts)
    if len(parts) == 3 and parts[0] == "masks":
        mask = find_mask(layer, parts[1])
        if parts[2] not in MASK_PROPERTIES:
            raise ValueError(f"a mask has no property {parts[2]!r}; it has "
                             f"{', '.join(MASK_PROPERTIES)}")
        return PropertyRef(mask, parts[2], MASK_PROPERTIES[parts[2]][0], True)
    name = parts[1] if len(parts) == 2 and parts[0] == "content" else path
    spec = CONTENT[layer["type"]]
    if name in spec and name in layer["content"] and spec[name][0] != "textAnimators":
        kind, animatable = spec[name]
        return PropertyRef(layer["content"], name, kind, animatable)
    raise ValueError(f"layer {layer['name']!r} has no property {path!r}; its properties are "
                     f"{', '.join(paths_of(layer))}")


def canonical_path(layer: dict, path: str) -> str:
    """`path` with an effect or mask named by its id, and `content.` left off: the spelling
    that keeps naming the same property when effects or masks are reordered or renamed (a
    template param stores it). ValueError as `resolve`'s when it names nothing."""
    resolve(layer, path)
    parts = path.split(".")
    if len(parts) == 3 and parts[0] == "effects":
        return f"effects.{_effect(layer, parts[1])['id']}.{parts[2]}"
    if len(parts) == 3 and parts[0] == "masks":
        return f"masks.{find_mask(layer, parts[1])['id']}.{parts[2]}"
    if len(parts) == 2 and parts[0] == "content":
        return parts[1]
    return path


def paths_of(layer: dict) -> list[str]:
    """Every property path of the layer, for error messages and catalogs."""
    paths = [f"transform.{key}" for key in TRANSFORM]
    if layer["type"] in SOUNDING_TYPES:
        paths += [f"audio.{key}" for key in AUDIO_PROPERTIES]
    paths += [key for key in layer["content"] if key in CONTENT[layer["type"]]
              and CONTENT[layer["type"]][key][0] != "textAnimators"]
    for index, effect in enumerate(layer["effects"], start=1):
        paths += [f"effects.{index}.{param}" for param in EFFECTS[effect["effect"]]]
    if layer["type"] == "text":
        for animator in layer["content"].get("animators") or []:
            paths += animator_paths(animator)
    for mask in layer.get("masks", []):
        paths += [f"masks.{mask['id']}.{key}" for key in MASK_PROPERTIES]
    return paths


def _animator_property(layer: dict, parts: list[str]) -> PropertyRef:
    animators = layer["content"].get("animators") or []
    animator = find_animator(animators, parts[1])
    if animator is None:
        listed = ", ".join(animator["id"] for animator in animators)
        raise ValueError(f"layer {layer['name']!r} has no text animator {parts[1]!r}; "
                         + (f"its animators are {listed}" if animators else
                            "it has none (text.addAnimator adds one)"))
    found = property_of(animator, parts[2:])
    if found is None:
        raise ValueError(f"text animator {animator['id']!r} has no property "
                         f"{'.'.join(parts[2:])!r}; its properties are "
                         f"{', '.join(animator_paths(animator))}")
    container, key, kind = found
    return PropertyRef(container, key, kind, True)


def find_mask(layer: dict, ref) -> dict:
    """A mask of the layer by its id, its name, or its 1-based index; ValueError listing the
    masks otherwise."""
    masks = layer.get("masks", [])
    for mask in masks:
        if mask["id"] == ref:
            return mask
    named = [mask for mask in masks if mask["name"] == ref]
    if len(named) > 1:
        raise ValueError(f"{len(named)} masks of layer {layer['name']!r} are called {ref!r} "
                         f"({', '.join(m['id'] for m in named)}); name the mask by its id")
    if named:
        return named[0]
    index = ref if isinstance(ref, int) and not isinstance(ref, bool) else written_index(ref)
    if index is not None and 1 <= index <= len(masks):
        return masks[index - 1]
    listed = ", ".join(f"{i} {m['name']!r} ({m['id']})" for i, m in enumerate(masks, 1))
    raise ValueError(f"layer {layer['name']!r} has no mask {ref!r}; "
                     + (f"its masks are {listed}" if masks else "it has no masks (add one with "
                        "mask.add)"))


def _effect(layer: dict, ref: str) -> dict:
    effects = layer["effects"]
    for effect in effects:
        if effect["id"] == ref:
            return effect
    named = [effect for effect in effects if effect["effect"] == ref]
    if named:
        return named[0]
    index = written_index(ref)
    if index is not None and 1 <= index <= len(effects):
        return effects[index - 1]
    listed = ", ".join(f"{i} {fx['effect']} ({fx['id']})" for i, fx in enumerate(effects, 1))
    raise ValueError(f"layer {layer['name']!r} has no effect {ref!r}; "
                     + (f"its effects are {listed}" if effects else "it has no effects"))
