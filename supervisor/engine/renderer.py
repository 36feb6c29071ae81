"""What the engine's render commands ask of the session's renderer: one interface, declared here
and implemented by the render service (supervisor/render/service.py), a room above the engine
that the engine never imports.

The engine holds the session's renderer (`Engine.render_service`, a `Renderer` or None, when
the session renders nothing); each render command (supervisor/engine/commands/render.py's
`render_command`) names the one method below that carries it out. Every method takes the
engine, the command's checked params and the caller's Work (supervisor/work.py: its cancel
scope and progress; or None), and returns the command's JSON answer; it runs without the
document lock, taking `engine.snapshot()` when it starts.
"""

from __future__ import annotations

import abc
from typing import Any, Callable

from supervisor.work import Work

# One of a Renderer's methods, bound: (engine, params, work) -> the command's JSON answer.
RenderMethod = Callable[[Any, dict, "Work | None"], dict]


class Renderer(abc.ABC):
    @abc.abstractmethod
    def render(self, engine, params: dict, work: Work | None) -> dict:
        """renderQueue.render"""

    @abc.abstractmethod
    def estimate(self, engine, params: dict, work: Work | None) -> dict:
        """renderQueue.estimate"""

    @abc.abstractmethod
    def stop(self, engine, params: dict, work: Work | None) -> dict:
        """renderQueue.stop"""

    @abc.abstractmethod
    def save_frame_as(self, engine, params: dict, work: Work | None) -> dict:
        """comp.saveFrameAs"""

    @abc.abstractmethod
    def pre_render(self, engine, params: dict, work: Work | None) -> dict:
        """render.preRender"""

    @abc.abstractmethod
    def create_proxy(self, engine, params: dict, work: Work | None) -> dict:
        """file.createProxy"""

    @abc.abstractmethod
    def preview_template(self, engine, params: dict, work: Work | None) -> dict:
        """template.preview"""

    @abc.abstractmethod
    def check_expression(self, engine, params: dict, work: Work | None) -> dict:
        """expression.check"""

    @abc.abstractmethod
    def bake_lottie(self, engine, params: dict, work: Work | None) -> dict:
        """lottie.bake"""

    @abc.abstractmethod
    def timeline_export(self, engine, params: dict, work: Work | None) -> dict:
        """timeline.export"""

    @abc.abstractmethod
    def timeline_import(self, engine, params: dict, work: Work | None) -> dict:
        """timeline.import"""

    @abc.abstractmethod
    def lottie_export(self, engine, params: dict, work: Work | None) -> dict:
        """lottie.export"""

    def close(self) -> None:
        """The session ends: stop what runs in the background."""
