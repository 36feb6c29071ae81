"""What one frame's drawing needs besides the canvas: the document's lookups, the footage
cache, and the list of footage that could not be read.

One object per `render_frame` call, handed down through comps, precomps and layers, so no layer
drawer reaches for module state and a missing file is reported once, by path.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from workers.compositor.color_management import Managed, managed
from workers.compositor.footage import FootageCache

# A precomp nested deeper than this is not drawn: a comp that contains itself (directly or
# through others) would otherwise recurse until Python's stack gives out.
MAX_PRECOMP_DEPTH = 16


@dataclass
class RenderContext:
    document: dict
    footage_cache: FootageCache
    # draw_comp(canvas, ctx, comp, time): how a comp's layers are drawn (its render plan),
    # handed down so a precomp layer can draw its comp without importing the compositing that
    # draws it (which would make the two modules need each other).
    draw_comp: Callable
    comps: dict = field(default_factory=dict)
    footage: dict = field(default_factory=dict)
    missing: list = field(default_factory=list)
    # Draw missing footage as colour bars (placeholders.py) instead of nothing; it is still
    # reported missing. Set per job: a farm render with --allow-missing.
    placeholders: bool = False
    depth: int = 0
    # The project's colour management (color_management.py), or None: the sRGB pipeline.
    managed: Managed | None = None

    @classmethod
    def for_document(cls, document: dict, footage_cache: FootageCache,
                     draw_comp: Callable) -> "RenderContext":
        """The context for drawing `document`; ColorError when its colour management cannot
        be used."""
        comps = {}
        for comp in document.get("comps", []):
            comps[comp.get("id")] = comp
        return cls(document=document, footage_cache=footage_cache, draw_comp=draw_comp,
                   comps=comps,
                   footage={item.get("id"): item for item in document.get("footage", [])},
                   managed=managed(document))

    def find_comp(self, comp_ref: str) -> dict:
        """A comp by id, or by name (as the commands also accept)."""
        if comp_ref in self.comps:
            return self.comps[comp_ref]
        for comp in self.comps.values():
            if comp.get("name") == comp_ref:
                return comp
        names = ", ".join(f"{c.get('id')} ({c.get('name')})" for c in self.comps.values())
        raise LookupError(f"no composition {comp_ref!r} in the document; it has: "
                          f"{names or 'none'}")

    def report_missing(self, path: str) -> None:
        if path not in self.missing:
            self.missing.append(path)
