"""A text layer measured as the compositor lays it out: how many characters (graphemes), words
and lines it has, and where its ink lands, at given times. What text.animate counts its units
by and what preset.apply slides or wipes a text by.

Laying text out reads its font, which may be a user's font file (`fontFile`): so it happens
here, in a probe worker, never in the supervisor.
"""

from __future__ import annotations

from workers.compositor.layer_boxes import text_rect
from workers.compositor.text_layout import lay_out


def measure_text(content: dict, times: list[float]) -> list[dict]:
    """For each time: {graphemes, words, lines, ink: [left, top, right, bottom]}: its ink and
    its lines' background boxes (layer_boxes.text_rect)."""
    measured = []
    for time in times:
        layout = lay_out(content, time)
        measured.append({"graphemes": layout.graphemes, "words": layout.words,
                         "lines": len(layout.lines), "ink": list(text_rect(content, time))})
    return measured
