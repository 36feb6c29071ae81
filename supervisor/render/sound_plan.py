"""What sound a queue item's file carries, planned with its frames: whether it has a track
(protocol/model/audio.py's `item_has_sound`), the stretches of the comp's samples the track is
made of, its codec and bit rate, and the temporary it is mixed into.

The track lasts exactly as long as the item's pictures, to the sample: frame n of the item
starts at sample round(n * rate / frameRate) of its track, with the frame rate taken as the
exact fraction the video's time base is made of. A range of frames carries the matching
stretch of the comp's sound; a list of ranges (`0-29,60`) the stretches one after the other,
as its pictures are. Pure arithmetic on the plan; reads nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from protocol.model.audio import item_has_sound, sample_rate
from protocol.model.frame_rates import exact_frame_rate
from workers.exporter.atomic_files import new_token
from workers.exporter.sound_track_plan import sound_track_path


@dataclass
class SoundPlan:
    rate: int
    spans: list[tuple[int, int]]  # [first comp sample, count], in the track's order
    codec: str | None  # the item's audioCodec (None: the format's first)
    bitrate: object  # the item's audioBitrate (None: the codec's default)
    token: str = field(default_factory=new_token)  # names the track's temporary

    @property
    def samples(self) -> int:
        return sum(count for _, count in self.spans)

    def path(self, output: str) -> str:
        return sound_track_path(output, self.token)


def plan_sound(document: dict, item: dict, comp: dict, frames: list[int]) -> SoundPlan | None:
    """The item's sound track, or None when its file carries none (or writes no frames)."""
    if not frames or not item_has_sound(document, item, comp):
        return None
    rate = sample_rate(comp)
    return SoundPlan(rate, frame_spans(frames, comp["frameRate"], rate),
                     item.get("audioCodec"), item.get("audioBitrate"))


def frame_spans(frames: list[int], frame_rate, rate: int) -> list[tuple[int, int]]:
    """For frames in output order, the comp samples each run of consecutive frames covers:
    [first sample, count], the counts adding up to the item's duration in samples."""
    per_frame = Fraction(rate) / exact_frame_rate(frame_rate)

    def at(frame: int) -> int:
        return round(frame * per_frame)

    spans = []
    start = 0  # the run's first position among the item's frames
    for position in range(1, len(frames) + 1):
        if position < len(frames) and frames[position] == frames[position - 1] + 1:
            continue
        first_frame = frames[start]
        count = at(position) - at(start)  # the track's own samples for this run
        spans.append((at(first_frame), count))
        start = position
    return spans
