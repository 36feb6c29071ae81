"""Lottie files as their authors' Bodymovin wrote them, drawn as lottie-web draws them: an old
file's 0..255 colours and old-style keys upgraded (checked at known pixels of a full-frame
rect), and a file that crashes ThorVG found by a trial render in a child process."""

import json

from tests.compositor.test_lottie_footage import shown
from tests.helpers.engine_projects import engine_with_comp
from tests.helpers.lottie_documents import (dot_tracing_a_path, moving_square,
                                           old_bodymovin_square, path_from_a_slot,
                                           randomised_text_selector)
from workers.compositor import render_frame
from workers.compositor.lottie_trial import trial_frames, trial_render


def test_an_old_bodymovin_files_colours_are_read_as_0_to_255(tmp_path):
    engine, _ = shown(tmp_path, old_bodymovin_square())
    first = render_frame(engine.doc, "Main", 0.0, transparent=True).pixels
    # Near black, opaque: ThorVG alone reads 7 as 7.0 of 1.0 and draws near white.
    assert abs(first[90, 160].astype(int) - (7, 6, 6, 255)).max() <= 2
    # Half way through the old-style key from 100% to 50%: 75%.
    later = render_frame(engine.doc, "Main", 5 / 30, transparent=True).pixels
    assert abs(int(later[90, 160, 3]) - round(0.75 * 255)) <= 3


def test_a_current_files_colours_are_left_as_they_are(tmp_path):
    engine, _ = shown(tmp_path, old_bodymovin_square(version="5.7.0"))
    # The same channels in a current file are over 1.0 and saturate: nothing is divided.
    pixel = render_frame(engine.doc, "Main", 0.0, transparent=True).pixels[90, 160]
    assert pixel[0] > 200


def test_a_file_that_crashes_thorvg_is_found_by_a_trial_render():
    phrase = trial_render(json.dumps(randomised_text_selector()).encode(), 60)
    assert phrase is not None and "crashed drawing it (signal SIGFPE)" in phrase, phrase
    assert trial_render(json.dumps(moving_square()).encode(), 60) is None


def test_a_file_that_crashes_thorvg_is_named_in_a_warning_at_import(tmp_path):
    path = tmp_path / "title.json"
    path.write_text(json.dumps(randomised_text_selector()))
    result = engine_with_comp().run("footage.import", {"path": str(path)})
    assert result["kind"] == "lottie"  # imported; never drawn here: it would end this process
    assert [w for w in result["warnings"] if w.startswith("title.json: ThorVG, which plays "
                                                          "Lottie here, crashed drawing it")]


def test_a_path_given_by_a_slot_is_drawn_as_lottie_web_fills_it_in(tmp_path):
    # ThorVG given the file crashes on it (SIGSEGV); the copy it is given has the slot's value.
    assert "SIGSEGV" in trial_render(json.dumps(path_from_a_slot()).encode(), 30)
    path = tmp_path / "slot.json"
    path.write_text(json.dumps(path_from_a_slot()))
    result = engine_with_comp().run("footage.import", {"path": str(path)})
    assert not [w for w in result.get("warnings", []) if "crashed" in w], result
    engine, _ = shown(tmp_path, path_from_a_slot(), width=64, height=64)
    pixels = render_frame(engine.doc, "Main", 0.0, transparent=True).pixels
    assert list(pixels[32, 32]) == [255, 0, 0, 255] and pixels[32, 45, 3] == 0


def test_a_trial_plays_the_file_as_a_render_worker_does():
    # ThorVG crashes on this file drawing on the calling thread, not on a task thread (as the
    # render workers play it): a trial that drew otherwise warned of a crash no render has.
    assert trial_render(json.dumps(dot_tracing_a_path()).encode(), 60) is None


def test_a_trial_draws_the_first_and_last_frames_and_some_between():
    assert trial_frames(60) == [0, 15, 30, 44, 59]
    assert trial_frames(1) == [0]
