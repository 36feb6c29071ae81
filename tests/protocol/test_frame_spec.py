import pytest

from protocol.model.frame_spec import FrameSpecError, frame_ranges, frames_of, parse_frame_spec


def test_forms():
    assert parse_frame_spec("7") == [(7, 7)]
    assert parse_frame_spec("0-29") == [(0, 29)]
    assert parse_frame_spec("10-") == [(10, None)]
    assert parse_frame_spec("0-2, 5 ,9-") == [(0, 2), (5, 5), (9, None)]


def test_frames_are_inclusive_sorted_unique_and_open_ranges_reach_the_end():
    assert frames_of("0-2,60,1-3", 100) == [0, 1, 2, 3, 60]
    assert frames_of("97-", 100) == [97, 98, 99]
    assert frames_of(None, 3) == [0, 1, 2]


@pytest.mark.parametrize("spec,message", [
    ("", "is empty"), ("a-b", "is not N, A-B or A-"), ("5-2", "ends before it starts"),
    ("-3", "is not N, A-B or A-"), ("1,,2", "is not N, A-B or A-"), ("1.5", "is not N"),
])
def test_bad_specs_say_which_part(spec, message):
    with pytest.raises(FrameSpecError, match=message):
        parse_frame_spec(spec)


def test_frames_past_the_comp_are_refused_not_dropped():
    with pytest.raises(FrameSpecError, match="asks for frame 120, but the comp has frames 0-99"):
        frames_of("90-120", 100)


def test_ranges_are_merged_and_never_expanded():
    assert frame_ranges("0-2,60,1-3,4", 100) == [(0, 4), (60, 60)]
    assert frame_ranges(None, 0) == [] and frame_ranges(None, 5) == [(0, 4)]
    # a count far past any comp: checking and merging cost the parts, not the frames
    assert frame_ranges("10-,0-20", 10 ** 15) == [(0, 10 ** 15 - 1)]
