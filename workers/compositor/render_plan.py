"""A render plan: one comp of one document snapshot compiled once, then drawn frame after frame
without walking the document again.

    plan = RenderPlan(document, comp_id, footage_cache)   # once per job (per snapshot and comp)
    plan.prepare(times)                                   # a chunk's frames, evaluated at once
    plan.draw(canvas, pixels, time, scale, background)    # each frame (frame.py calls this)

What compiling resolves once: the layer order, track mattes, blend modes, in and out points,
parent chains, effect chains and masks that do not move, and each layer's drawing when nothing
of its content is animated (a solid's rect, a shape's geometry and paths, a text's layout; see
layer_kinds.py). What `prepare` evaluates for a whole chunk at once: every layer's matrix and
opacity (matrix_tables.py, key tables in numpy). What is left per frame: a drawing for content
that is animated (made by its kind from the layer at that time, as before the plan) or that
reads a source (footage, precomps, Lottie), the effects and masks that move, and the draw calls.

A time that was not prepared (a preview, a motion blur sample) is evaluated on its own.

Expressions (workers/expressions/) are bound when the plan is compiled: the plan draws a copy
of the document whose properties with an expression are driven by it, so they are evaluated
where every moving property is, for each window of prepared times, in this worker.
Precomps draw their source comp's plan, made once per plan, at the source times `prepare`
works out for them.

The bottom of the comp that cannot change over the prepared times (still_layers.py) is drawn
once and restored from a copy for the frames after; every pixel is what drawing it again gives.

Frames must be the very pixels of a frame drawn by walking the document
(tests/compositor/test_render_plan.py holds the plan to that, byte for byte): this module
draws in the walk's order with the walk's Skia calls, and only computes less.
"""

from __future__ import annotations

import itertools
import os
import time as clock

import numpy as np
import skia

from protocol.model.effects import effect_files
from protocol.model.keyframes import is_animated
from protocol.model.scenes import windows
from protocol.model.time_remap import TIMED_TYPES, source_time
from protocol.model.transforms import layer_opacity
from workers.compositor.blending import NORMAL, blend_mode, draw_matted
from workers.compositor.context import MAX_PRECOMP_DEPTH, RenderContext
from workers.compositor.deep_frames import comp_depth
from workers.compositor.effects import LayerEffects, layer_effects
from workers.compositor.footage import FootageCache
from workers.compositor.footage_layers import footage_duration
from workers.compositor.layer_kinds import KINDS
from workers.compositor.isolated_layers import draw_isolated
from workers.compositor.kept_chains import new_owner
from workers.compositor.layer_boxes import content_rect
from workers.compositor.masks import active_masks
from workers.compositor.matrix_tables import LayerTransforms, set_affine
from workers.compositor.motion_blur import motion_blur_settings, sample_times
from workers.compositor.scene_units import scene_units
from workers.compositor.still_layers import FULL, STILL_LAYERS, StillLayers
from workers.expressions.document_expressions import DocumentExpressions, has_expressions

# Prepared times evaluated at once (see CompPlan.frames_at).
WINDOW = 32
# Footage kinds whose picture is the same at every time.
TIMELESS_FOOTAGE = ("image", "vector")
_tokens = itertools.count(1)


def has_keys(value) -> bool:
    """Whether anything in `value` (a layer, its content, its effects) is animated."""
    if isinstance(value, dict):
        return is_animated(value) or any(has_keys(inner) for inner in value.values())
    if isinstance(value, list):
        return any(has_keys(inner) for inner in value)
    return False


class RenderPlan:
    def __init__(self, document: dict, comp_ref: str, footage_cache: FootageCache,
                 still_layers: StillLayers = STILL_LAYERS) -> None:
        if has_expressions(document):
            # Expressions are evaluated here, in the worker, as each window of prepared times
            # is: the plan draws a copy whose properties with one give its results.
            document = DocumentExpressions(document, content_rect).document
        self.document = document
        self.token = next(_tokens)  # names this plan's kept pixels (an id() could be reused)
        self.ctx = RenderContext.for_document(document, footage_cache, self._draw_source)
        self.comp = self.ctx.find_comp(comp_ref)
        # Whether the comp (and so each precomp drawn into it) is drawn in linear light.
        managed = self.ctx.managed
        depth = comp_depth(self.comp, None if managed is None else managed.space)
        self.linear_light = depth is not None and depth.linear
        self._still_layers = still_layers
        self._plans: dict[str, CompPlan] = {}  # comp id -> its plan: this one and the sources
        self.top = self.comp_plan(self.comp)
        self._prepared: set = set()  # the times of the last `prepare`
        self._bottom = (0, (), ())  # the still bottom over them (_still_bottom)
        self.reused_out = False  # see prepare

    def comp_plan(self, comp: dict) -> "CompPlan":
        plan = self._plans.get(comp.get("id"))
        if plan is None:
            plan = self._plans[comp.get("id")] = CompPlan(self, comp)
        return plan

    def prepare(self, times, reused_out: bool = False) -> None:
        """Evaluate every layer's matrix and opacity for `times` at once (a chunk's frames, and
        their motion blur samples), and find the bottom layers that stay still over them.
        `reused_out`: the caller passes one array as `out` for these frames and leaves it as
        drawn between them (a chunk's buffer, which the exporter only reads), so a frame only
        puts back the pixels the last one drew over the still bottom."""
        blur = motion_blur_settings(self.comp)
        if blur is not None:  # what is drawn is the samples about each frame's time
            rate = float(self.comp.get("frameRate", 30))
            times = [sample for time in times for sample in sample_times(time, rate, *blur)]
        times = [float(t) for t in times]
        self.top.prepare(times, 0)
        self.reused_out = reused_out
        self._prepared = set(times)
        self._bottom = self._still_bottom(times)

    def draw(self, canvas: skia.Canvas, pixels: np.ndarray, time: float, scale: float,
             background: skia.Color4f, kept: bool = False) -> list:
        """Clear the canvas to `background` and draw the comp at `time`, scaled by `scale`;
        `pixels` is the array the canvas draws into, `kept` whether it still holds what a plan
        drew into it last (frame.py's own surfaces). Returns the footage that was missing."""
        self.ctx.missing = []
        self.ctx.depth = 0
        top = self.top
        still, states, paths = self._bottom if time in self._prepared else \
            self._still_bottom([time])
        canvas.resetMatrix()
        layers = self._still_layers
        key = damage = None
        if still:
            key = (self.token, self.ctx.placeholders, pixels.shape, pixels.dtype.str, scale,
                   (background.fR, background.fG, background.fB, background.fA), still, states,
                   tuple(_stamp(path) for path in paths))
            # What the last frame drew over the kept bottom, when it is that frame's array.
            boxes = layers.drawn_over(pixels, key) if kept else None
            missing = layers.restore(key, pixels, boxes)
            if missing is not None:
                self.ctx.missing = list(missing)
            else:
                canvas.clear(background)
                started = clock.perf_counter()
                top.draw_units(canvas, top.units[:still], time, scale)
                layers.offer(key, pixels, clock.perf_counter() - started, self.ctx.missing,
                             restored_in_part=kept)
            damage = [] if kept else None
        else:
            canvas.clear(background)
        top.draw_units(canvas, top.units[still:], time, scale, damage)
        if damage and scale != 1.0:
            damage = [FULL if box is FULL else tuple(value * scale for value in box)
                      for box in damage]
        layers.record(pixels, key if kept else None, damage)
        return self.ctx.missing

    def _still_bottom(self, times: list) -> tuple:
        """(how many units from the bottom are still over `times`, which of them show, the
        files they read): what their kept pixels depend on, besides the output."""
        count = self.top.still_units(times, 0)
        units = self.top.units[:count]
        time = times[0] if times else 0.0
        return (count, tuple(unit.state(time) for unit in units),
                tuple(path for unit in units for path in unit.files()))

    def _draw_source(self, canvas: skia.Canvas, ctx: RenderContext, comp: dict,
                     time: float) -> None:
        """How a precomp layer draws its source (RenderContext.draw_comp): the source's plan."""
        self.comp_plan(comp).draw_layers(canvas, time)


class CompPlan:
    """One comp's layers, compiled: drawn bottom to top, each through its matrix, effects,
    opacity, blend mode and track matte (the rules of docs/document.md, "Layers")."""

    def __init__(self, owner: RenderPlan, comp: dict) -> None:
        self.owner = owner
        self.comp = comp
        self.transforms = LayerTransforms(comp)
        layers = comp.get("layers", [])
        self.layers = [LayerPlan(owner, self, layer, index) for index, layer in enumerate(layers)]
        matte_sources = {index - 1 for index, layer in enumerate(layers)
                         if index > 0 and layer.get("trackMatte")}
        self.units: list = []  # bottom (the last layer) to top (the first)
        run: list[LayerPlan] = []  # adjacent direct layers, drawn as one DirectRun
        for index in range(len(layers) - 1, -1, -1):
            if index in matte_sources:
                continue  # a matte is not drawn itself
            layer = self.layers[index]
            matte = layers[index].get("trackMatte")
            # Still and moving layers go in runs of their own, so that a run of still ones can
            # belong to the comp's still bottom (still_layers.py).
            if run and (matte or layer.direct is None or run[-1].keyed != layer.keyed):
                self.units.append(DirectRun(run))
                run = []
            if matte and index > 0:
                self.units.append(MattedUnit(layer, self.layers[index - 1], matte))
            elif layer.direct is not None:
                run.append(layer)
            else:
                self.units.append(LayerUnit(layer))
        if run:
            self.units.append(DirectRun(run))
        transitions = windows(comp)
        if transitions:  # scenes joined by a transition draw as one (scene_units.py)
            alone = {unit.layer.layer["id"]: unit for unit in self.units
                     if isinstance(unit, LayerUnit)}
            joined = scene_units({key: unit.layer for key, unit in alone.items()},
                                 transitions, (float(comp.get("width", 1920)),
                                               float(comp.get("height", 1080))))
            self.units = [joined.get(unit.layer.layer["id"], unit)
                          if isinstance(unit, LayerUnit) else unit for unit in self.units]
        self._times: list = []  # the prepared times, in drawing order
        self._positions: dict[float, int] = {}
        self._depth = 0
        self._window: Frames | None = None  # WINDOW of the prepared times, evaluated
        self._spot: Frames | None = None  # a time that was not prepared

    def prepare(self, times: list, depth: int) -> None:
        self._times, self._depth, self._window = times, depth, None
        self._positions = {}
        for position, time in enumerate(times):
            self._positions.setdefault(time, position)

    def frames_at(self, time: float) -> tuple["Frames", int]:
        for frames in (self._window, self._spot):
            if frames is not None:
                index = frames.index.get(time)
                if index is not None:
                    return frames, index
        position = self._positions.get(time)
        if position is None:
            self._spot = Frames(self.transforms, [time])
            return self._spot, 0
        # Evaluated a window at a time: a chunk of thousands of frames of hundreds of layers
        # would otherwise hold millions of matrix entries at once.
        window = self._times[position:position + WINDOW]
        self._window = Frames(self.transforms, window)
        self._prepare_sources(window)
        return self._window, 0

    def _prepare_sources(self, times: list) -> None:
        if self._depth + 1 >= MAX_PRECOMP_DEPTH:
            return
        sources: dict[int, tuple[CompPlan, list]] = {}
        for layer in self.layers:
            source = layer.source_plan()
            if source is not None and source is not self:
                seen = sources.setdefault(id(source), (source, []))[1]
                seen.extend(layer.source_times(times))
        for plan, source_times in sources.values():
            plan.prepare(sorted(set(source_times)), self._depth + 1)

    def draw_layers(self, canvas: skia.Canvas, time: float) -> None:
        frames, index = self.frames_at(time)
        for unit in self.units:
            unit.draw(canvas, frames, index, time)

    def draw_units(self, canvas: skia.Canvas, units: list, time: float, scale: float,
                   damage: list | None = None) -> None:
        """Draw `units` of this comp at `time` (as the top comp, scaled by `scale`); with
        `damage`, add to it the boxes they drew into, in comp pixels (FULL when one cannot
        say)."""
        if not units:
            return
        frames, index = self.frames_at(time)
        canvas.save()
        if scale != 1.0:
            canvas.scale(scale, scale)
        for unit in units:
            unit.draw(canvas, frames, index, time, damage)
        canvas.restore()

    def still_units(self, times: list, depth: int) -> int:
        """How many units from the bottom draw the same pixels at every one of `times`."""
        count = 0
        for unit in self.units:
            if not unit.still_over(times, depth):
                break
            count += 1
        return count


class Frames:
    """A comp's layer matrices and opacities evaluated for some times."""

    def __init__(self, transforms: LayerTransforms, times: list) -> None:
        self.index: dict[float, int] = {}
        for position, time in enumerate(times):
            self.index.setdefault(time, position)
        self.opacity = transforms.opacities(times).tolist()
        self.matrices = transforms.matrices(times)


class LayerPlan:
    """One layer, compiled. `draw` is what drawing the layer at a time does, in the order and
    with the Skia calls of the document walk, from what was resolved once."""

    def __init__(self, owner: RenderPlan, comp_plan: CompPlan, layer: dict, index: int) -> None:
        self.owner = owner
        self.comp_plan = comp_plan
        self.layer = layer
        self.index = index
        self.kind = KINDS.get(layer.get("type"))
        self.enabled = bool(layer.get("enabled", True))
        self.in_point, self.out_point = layer["inPoint"], layer["outPoint"]
        self.blend = blend_mode(layer.get("blendMode"))
        self.masks = active_masks(layer)
        transforms = comp_plan.transforms
        self.still_matrix = transforms.still[index]
        self.matrix = skia.Matrix()  # updated in place for each frame of a moving layer
        self._effects_move = has_keys(layer.get("effects"))
        self._effects = None if self._effects_move else \
            layer_effects(layer, 0.0, owner.linear_light)
        self._masks_move = has_keys(self.masks)
        content_moves = has_keys(layer.get("content"))
        self.drawing = None
        if self.kind is not None and self.kind.reusable and not content_moves:
            self.drawing = self.kind.drawing(owner.ctx, comp_plan.comp, layer, 0.0)
        # Names the float result of the layer's effects, kept across frames, when what they
        # apply to is drawn the same at every time (kept_chains.py); the files they read (a
        # LUT) are part of what it is made from.
        self.chain_owner = new_owner() if self.drawing is not None and not self._masks_move \
            else None
        self._effect_files = effect_files(layer)
        opacity_moves = is_animated(layer["transform"]["opacity"])
        # Whether the layer draws the same pixels at every time it shows: nothing of it or of
        # its parents animated, and a source that does not play (or one that is still itself).
        self.keyed = (transforms.animated[index] or self._effects_move or self._masks_move
                      or content_moves or opacity_moves)
        # The common case, bound once: a still drawing with no effects and no masks, at an
        # opacity that does not move, drawn straight onto the canvas. What `draw` would do for
        # it each frame, less the decisions, whose outcome never changes.
        self.direct = None
        if self.drawing is not None and self._effects is None and not self._effects_move \
                and not self.masks and not opacity_moves:
            opacity = layer_opacity(layer, 0.0)
            if opacity > 0.0 and ((opacity == 1.0 and self.blend == NORMAL)
                                  or self.drawing.single_paint):
                self.direct = self.drawing.bound({"opacity": opacity, "blend": self.blend})

    def visible(self, time: float) -> bool:
        return self.enabled and self.in_point <= time < self.out_point

    def draw(self, canvas: skia.Canvas, frames: Frames, index: int, time: float,
             blend: skia.BlendMode | None = None, damage: list | None = None) -> None:
        """Draw the layer at `time`; with `damage`, add the device box it drew into (as the top
        comp's layer: in comp pixels, before the output's scale), FULL when it cannot say."""
        if self.kind is None:
            return  # a null, or a type this renderer does not know: nothing to draw
        opacity = frames.opacity[self.index][index]
        if opacity <= 0.0:
            return
        if blend is None:
            blend = self.blend
        ctx = self.owner.ctx
        effects = layer_effects(self.layer, time, self.owner.linear_light) \
            if self._effects_move else self._effects
        drawing = self.drawing or self.kind.drawing(ctx, self.comp_plan.comp, self.layer, time)
        matrix = self.still_matrix
        if matrix is None:
            matrix = self.matrix
            set_affine(matrix, frames.matrices[self.index][index])
        canvas.save()
        canvas.concat(matrix)
        if effects is None and not self.masks and (
                (opacity == 1.0 and blend == NORMAL) or drawing.single_paint):
            drawing.draw(canvas, {"opacity": opacity, "blend": blend})
        else:
            kept_as = None if self.chain_owner is None else (
                self.chain_owner, tuple(_stamp(path) for path in self._effect_files))
            draw_isolated(canvas, drawing, effects, self.masks, opacity, blend, time, kept_as)
        canvas.restore()
        if damage is not None:
            damage.append(_reach(drawing.bounds(), effects, matrix))

    # -- sources: precomps, footage -----------------------------------------------------------

    def source_plan(self) -> CompPlan | None:
        if self.layer.get("type") != "precomp":
            return None
        source = self.owner.ctx.comps.get(self.layer.get("content", {}).get("source"))
        return None if source is None else self.owner.comp_plan(source)

    def source_times(self, times: list) -> list:
        """The source's times this layer shows at `times` (a precomp's, footage's, Lottie's)."""
        duration = self._source_duration()
        return [source_time(self.layer, time, duration) for time in times]

    def _source_duration(self) -> float | None:
        if self.layer.get("type") == "precomp":
            source = self.source_plan()
            return float(source.comp.get("duration", 0)) if source is not None else None
        item = self._footage_item()
        if item is None:
            return None
        if self.layer.get("type") == "lottie":
            return None  # the player knows its length; a still source time is still anyway
        return footage_duration(item)

    def _footage_item(self) -> dict | None:
        return self.owner.ctx.footage.get(self.layer.get("content", {}).get("footage"))

    def still_over(self, times: list, depth: int, shows=None) -> bool:
        """Whether the layer draws the same pixels at every one of `times`; `shows` says when
        it is drawn (its visibility, or a matte's in and out points)."""
        shown = {(shows or self.visible)(time) for time in times}
        if len(shown) > 1:
            return False
        if shown == {False} or self.kind is None:
            return True  # nothing drawn at any of them
        if self.keyed:
            return False
        layer_type = self.layer.get("type")
        if layer_type == "precomp":
            source = self.source_plan()
            if source is None:
                return True
            if depth + 1 >= MAX_PRECOMP_DEPTH:
                return False
            return source.still_units(self.source_times(times), depth + 1) == len(source.units)
        if layer_type in TIMED_TYPES or layer_type == "image":
            item = self._footage_item()
            if item is None:
                return True
            if layer_type != "lottie" and item.get("kind", "image") in TIMELESS_FOOTAGE:
                return True
            return len(set(self.source_times(times))) == 1
        return True

    def state(self, time: float, depth: int = 0, shows=None) -> tuple:
        """What a still layer's pixels at `time` depend on besides what was compiled: whether
        it shows, and the moment of its source it shows (a precomp: its own layers' states
        then), so pixels kept at one time are put back only where they are the same."""
        if not (shows or self.visible)(time) or self.kind is None:
            return (False,)
        layer_type = self.layer.get("type")
        if layer_type == "precomp":
            source = self.source_plan()
            if source is None or depth + 1 >= MAX_PRECOMP_DEPTH:
                return (True,)
            at = self.source_times([time])[0]
            return (True, tuple(unit.state(at, depth + 1) for unit in source.units))
        item = self._footage_item() if layer_type in TIMED_TYPES or layer_type == "image" \
            else None
        if item is not None and (layer_type == "lottie" or
                                 item.get("kind", "image") not in TIMELESS_FOOTAGE):
            return (True, self.source_times([time])[0])
        return (True,)

    def files(self, depth: int = 0) -> list:
        """The files the layer's pixels come from, so a still layer's kept pixels are drawn
        again when one of them changes on disk (its effects' LUTs too)."""
        if self.layer.get("type") == "precomp":
            source = self.source_plan()
            if source is None or depth + 1 >= MAX_PRECOMP_DEPTH:
                return effect_files(self.layer)
            return [path for unit in source.units for path in unit.files(depth + 1)] + \
                effect_files(self.layer)
        content = self.layer.get("content", {})
        item = self._footage_item()
        paths = [item.get("path", "")] if item is not None else []
        if content.get("fontFile"):
            paths.append(content["fontFile"])
        return paths + effect_files(self.layer)


class LayerUnit:
    """A layer drawn on its own."""

    def __init__(self, layer: LayerPlan) -> None:
        self.layer = layer

    def draw(self, canvas: skia.Canvas, frames: Frames, index: int, time: float,
             damage: list | None = None) -> None:
        if self.layer.visible(time):
            self.layer.draw(canvas, frames, index, time, damage=damage)

    def still_over(self, times: list, depth: int) -> bool:
        return self.layer.still_over(times, depth)

    def state(self, time: float, depth: int = 0) -> tuple:
        return self.layer.state(time, depth)

    def files(self, depth: int = 0) -> list:
        return self.layer.files(depth)


class DirectRun:
    """Adjacent layers that each draw straight onto the canvas (LayerPlan.direct), drawn in one
    loop: a comp of hundreds of small layers spends its time in Skia, not in deciding. The same
    Skia calls, in the same order, as drawing each layer on its own."""

    def __init__(self, layers: list[LayerPlan]) -> None:
        self.layers = layers
        self._members = []
        for layer in layers:
            # A switched-off layer never shows: an empty span.
            start, end = (layer.in_point, layer.out_point) if layer.enabled else (0.0, 0.0)
            moving = layer.still_matrix is None
            self._members.append((start, end, layer.matrix if moving else layer.still_matrix,
                                  layer.index if moving else -1, layer.direct))
        self._bounds = [layer.drawing.bounds() for layer in layers]

    def draw(self, canvas: skia.Canvas, frames: Frames, index: int, time: float,
             damage: list | None = None) -> None:
        if damage is not None:
            self._draw_bounded(canvas, frames, index, time, damage)
            return
        save, concat, restore = canvas.save, canvas.concat, canvas.restore
        matrices = frames.matrices
        for start, end, matrix, layer_index, (draw, first, second) in self._members:
            if start <= time < end:
                if layer_index >= 0:  # set_affine, inlined: this loop is the hot one
                    a, b, c, d, e, f = matrices[layer_index][index]
                    matrix.setAll(a, b, c, d, e, f, 0.0, 0.0, 1.0)
                save()
                concat(matrix)
                draw(canvas, first, second)
                restore()

    def _draw_bounded(self, canvas: skia.Canvas, frames: Frames, index: int, time: float,
                      damage: list) -> None:
        """`draw`, adding each drawn layer's device box to `damage`."""
        matrices = frames.matrices
        for (start, end, matrix, layer_index, (draw, first, second)), bounds in \
                zip(self._members, self._bounds):
            if start <= time < end:
                if layer_index >= 0:
                    set_affine(matrix, matrices[layer_index][index])
                canvas.save()
                canvas.concat(matrix)
                draw(canvas, first, second)
                canvas.restore()
                damage.append(_reach(bounds, None, matrix))

    def still_over(self, times: list, depth: int) -> bool:
        return all(layer.still_over(times, depth) for layer in self.layers)

    def state(self, time: float, depth: int = 0) -> tuple:
        return tuple(layer.visible(time) for layer in self.layers)  # still drawings: no source

    def files(self, depth: int = 0) -> list:
        return [path for layer in self.layers for path in layer.files(depth)]


class MattedUnit:
    """A layer drawn through its track matte (the layer above it, not drawn itself)."""

    def __init__(self, layer: LayerPlan, matte: LayerPlan, kind: str) -> None:
        self.layer = layer
        self.matte = matte
        self.kind = kind

    def draw(self, canvas: skia.Canvas, frames: Frames, index: int, time: float,
             damage: list | None = None) -> None:
        if not self.layer.visible(time):
            return
        layer, matte = self.layer, self.matte
        # The matte only takes from the layer: what changes is within the layer's own reach
        # (the layer blend modes leave the canvas as it is where the layer is transparent).
        draw_matted(canvas, self.kind, layer.blend,
                    lambda: layer.draw(canvas, frames, index, time, blend=NORMAL,
                                       damage=damage),
                    lambda: matte_shows(matte, time) and
                    matte.draw(canvas, frames, index, time, blend=NORMAL))

    def still_over(self, times: list, depth: int) -> bool:
        if not self.layer.still_over(times, depth):
            return False
        return not any(self.layer.visible(time) for time in times) or \
            self.matte.still_over(times, depth, lambda time: matte_shows(self.matte, time))

    def state(self, time: float, depth: int = 0) -> tuple:
        return (self.layer.state(time, depth),
                self.matte.state(time, depth, lambda at: matte_shows(self.matte, at)))

    def files(self, depth: int = 0) -> list:
        return self.layer.files(depth) + self.matte.files(depth)


def _reach(bounds: skia.Rect | None, effects: LayerEffects | None,
           matrix: skia.Matrix) -> tuple | None:
    """Where a layer drawn within `bounds` (its content box), through `effects`, under `matrix`
    can have changed the canvas: (left, top, right, bottom) in comp pixels, or FULL."""
    if bounds is None:
        return FULL
    if effects is not None:
        bounds = effects.reach(bounds)
    box = matrix.mapRect(bounds)
    return (box.left(), box.top(), box.right(), box.bottom())


def matte_shows(matte: LayerPlan, time: float) -> bool:
    """A matte layer is used even when switched off, as in After Effects, where a matte's own
    visibility is usually turned off; only its in and out points count."""
    return matte.in_point <= time < matte.out_point


def _stamp(path: str):
    try:
        info = os.stat(path)
    except OSError:
        return None
    return (path, info.st_mtime_ns, info.st_size)
