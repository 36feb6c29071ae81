"""The compositor: document snapshot + comp + time -> an RGBA frame, drawn with Skia, with
footage decoded through PyAV. Runs inside worker processes; never touches the supervisor's
state, stdin or stdout. Entry points are in frame.py.
"""

from workers.compositor.footage import FootageCache
from workers.compositor.frame import RenderedFrame, render_frame, render_to_surface

__all__ = ["FootageCache", "RenderedFrame", "render_frame", "render_to_surface"]
