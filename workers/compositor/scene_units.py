"""Scene layers in a render plan: a comp's scenes (protocol/model/scenes.py) are precomp
layers, each drawn as any layer is, except across a transition's window, where the incoming
scene's unit draws both scenes through the transition (transitions.py) and the outgoing
scene's unit draws nothing.

    units, bottom to top:  ... LayerUnit(A) ... LayerUnit(B) ...
    with a transition A -> B over [start, end):
                           ... SceneUnit(A, outgoing=window) ... SceneUnit(B, incoming=window)

A SceneUnit is never still over times that reach into one of its windows, so the plan's still
bottom (still_layers.py) never keeps a transition's pixels.
"""

from __future__ import annotations

import skia

from protocol.model.scenes import Window, progress
from workers.compositor.still_layers import FULL
from workers.compositor.transitions import draw_transition


def scene_units(plans: dict, windows: list[Window], size: tuple) -> dict:
    """{layer id: its SceneUnit} for the scene layers a transition joins, of `plans` (the
    comp's layers drawn on their own: layer id -> LayerPlan)."""
    incoming = {window.incoming: window for window in windows
                if window.incoming in plans and window.outgoing in plans}
    outgoing = {window.outgoing: window for window in incoming.values()}
    return {layer_id: SceneUnit(plans[layer_id], incoming.get(layer_id),
                                plans[incoming[layer_id].outgoing]
                                if layer_id in incoming else None,
                                outgoing.get(layer_id), size)
            for layer_id in set(incoming) | set(outgoing)}


class SceneUnit:
    def __init__(self, layer, incoming: Window | None, before, outgoing: Window | None,
                 size: tuple) -> None:
        self.layer = layer  # its LayerPlan
        self.incoming = incoming
        self.before = before  # the outgoing scene's LayerPlan, with `incoming`
        self.outgoing = outgoing
        self.size = size

    def _windows(self):
        return [window for window in (self.incoming, self.outgoing) if window is not None]

    def draw(self, canvas: skia.Canvas, frames, index: int, time: float,
             damage: list | None = None) -> None:
        if self.outgoing and self.outgoing.start <= time < self.outgoing.end:
            return  # the next scene's unit draws this one through the transition
        if self.incoming and self.incoming.start <= time < self.incoming.end:
            def drawn(plan):
                def draw(target: skia.Canvas) -> None:
                    if plan.visible(time):
                        plan.draw(target, frames, index, time)
                return draw

            draw_transition(canvas, self.incoming.transition, progress(self.incoming, time),
                            self.size, drawn(self.before), drawn(self.layer))
            if damage is not None:
                damage.append(FULL)
            return
        if self.layer.visible(time):
            self.layer.draw(canvas, frames, index, time, damage=damage)

    def still_over(self, times: list, depth: int) -> bool:
        if any(window.start <= time < window.end for window in self._windows()
               for time in times):
            return False
        return self.layer.still_over(times, depth)

    def state(self, time: float, depth: int = 0) -> tuple:
        return self.layer.state(time, depth)

    def files(self, depth: int = 0) -> list:
        return self.layer.files(depth) + (self.before.files(depth) if self.before else [])
