"""Which stretches of a comp's sound an item's track is made of: as long as its pictures to
the sample, a frame range its matching stretch, a list of ranges their stretches in order."""

from supervisor.render.sound_plan import frame_spans


def test_a_whole_comp_is_one_stretch_as_long_as_its_frames():
    assert frame_spans(list(range(72)), 24, 48000) == [(0, 144000)]


def test_a_range_starts_at_its_first_frames_sample():
    assert frame_spans(list(range(24, 48)), 24, 48000) == [(48000, 48000)]


def test_a_list_of_ranges_is_their_stretches_one_after_the_other():
    assert frame_spans([0, 1, 2, 10, 11], 25, 48000) == [(0, 5760), (19200, 3840)]


def test_ntsc_rates_land_on_whole_samples_that_add_up_to_the_duration():
    frames = list(range(0, 15)) + list(range(100, 130))
    spans = frame_spans(frames, 29.97, 48000)
    assert spans[0] == (0, round(15 * 48000 * 100 / 2997))
    assert spans[1][0] == round(100 * 48000 * 100 / 2997)
    assert sum(count for _, count in spans) == round(45 * 48000 * 100 / 2997)
