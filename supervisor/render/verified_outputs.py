"""An item's output checked before the item is reported done: a render is never "done" on a
file cut short (a crash mid-write, a full or flaky network disk).

- a sequence: every frame it wrote is a whole image, by its format's markers
  (workers/exporter/complete_frames.py: the first and last bytes, nothing decoded);
- a video or a wav: read back on a probe worker (workers/probes/outputs.py): it opens, holds
  the item's frames and lasts as long as they do, and its last frames decode.

The answer is None (whole) or what is wrong, as the end of a sentence naming the output.
"""

from __future__ import annotations

from supervisor.engine.probes import Probes
from supervisor.render.plan import ItemPlan
from workers.exporter.complete_frames import is_complete_frame


def broken_frames(plan: ItemPlan, numbers) -> list[int]:
    """The frames of a sequence item, among comp frames `numbers`, whose file is not whole."""
    return [number for number in numbers
            if not is_complete_frame(plan.frame_file(number), plan.format)]


def video_problem(plan: ItemPlan, probes: Probes) -> str | None:
    """What is wrong with a video or wav item's output, read back; None when it is whole."""
    expected = {"frames": len(plan.frames), "frameRate": plan.frame_rate,
                "sound": plan.format == "wav"}
    return probes.check_output(plan.output, expected)
