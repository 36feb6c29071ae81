import pytest

from protocol.model.frame_spec import (FrameSpecError, frame_ranges, frames_of, parse_frame_spec,
                                       spec_of)


def test_forms():
    assert parse_frame_spec("7") == [(7, 7, 1)]
    assert parse_frame_spec("0-29") == [(0, 29, 1)]
    assert parse_frame_spec("10-") == [(10, None, 1)]
    assert parse_frame_spec("0-2, 5 ,9-") == [(0, 2, 1), (5, 5, 1), (9, None, 1)]
    assert parse_frame_spec("0-100x5, 200-x10") == [(0, 100, 5), (200, None, 10)]


def test_a_step_takes_every_nth_frame_from_the_first():
    assert frames_of("0-10x5", 100) == [0, 5, 10]
    assert frames_of("1-10x4", 100) == [1, 5, 9]
    assert frames_of("90-x4", 100) == [90, 94, 98]
    assert frames_of("0-4x2,1-3", 100) == [0, 1, 2, 3, 4]
    assert frame_ranges("0-999999x5", 10 ** 6) == [(0, 999995, 5)]


def test_frames_are_inclusive_sorted_unique_and_open_ranges_reach_the_end():
    assert frames_of("0-2,60,1-3", 100) == [0, 1, 2, 3, 60]
    assert frames_of("97-", 100) == [97, 98, 99]
    assert frames_of(None, 3) == [0, 1, 2]


@pytest.mark.parametrize("spec,message", [
    ("", "is empty"), ("a-b", "is not N, A-B, A- or A-BxS"), ("5-2", "ends before it starts"),
    ("-3", "is not N, A-B, A- or A-BxS"), ("1,,2", "is not N, A-B, A- or A-BxS"),
    ("1.5", "is not N"),
    ("0-10x0", "step must be at least 1"), ("5x2", "is not N, A-B, A- or A-BxS"),
])
def test_bad_specs_say_which_part(spec, message):
    with pytest.raises(FrameSpecError, match=message):
        parse_frame_spec(spec)


def test_frames_past_the_comp_are_refused_not_dropped():
    with pytest.raises(FrameSpecError, match="asks for frame 120, but the comp has frames 0-99"):
        frames_of("90-120", 100)


def test_ranges_are_merged_and_never_expanded():
    assert frame_ranges("0-2,60,1-3,4", 100) == [(0, 4, 1), (60, 60, 1)]
    assert frame_ranges(None, 0) == [] and frame_ranges(None, 5) == [(0, 4, 1)]
    # a count far past any comp: checking and merging cost the parts, not the frames
    assert frame_ranges("10-,0-20", 10 ** 15) == [(0, 10 ** 15 - 1, 1)]


def test_a_spec_of_frames_reads_back_as_those_frames():
    assert spec_of([3, 0, 1, 2, 7, 9, 10]) == "0-3,7,9-10"
    assert spec_of([]) is None
    assert frames_of(spec_of([5, 6, 8, 20]), 30) == [5, 6, 8, 20]
