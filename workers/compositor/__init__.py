"""The compositor: document snapshot + comp + time -> an RGBA frame, drawn with Skia, with
footage decoded through PyAV. Runs inside worker processes; never touches the supervisor's
state, stdin or stdout. Entry points are in frame.py; a job that draws many frames of one
snapshot compiles a RenderPlan (render_plan.py) once and draws them from it.
"""

from workers.compositor.footage import FootageCache
from workers.compositor.frame import RenderedFrame, render_frame, render_to_surface
from workers.compositor.render_plan import RenderPlan

__all__ = ["FootageCache", "RenderPlan", "RenderedFrame", "render_frame", "render_to_surface"]
