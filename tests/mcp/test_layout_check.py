"""layout_check through the real server: an off-canvas title, text outside title-safe, an
overflowing box, text too small for the frame, and low contrast measured on rendered pixels,
each found with a message to act on; a clean comp, full-frame backgrounds and layers sliding
or fading in and out find nothing."""

import pytest

from protocol.model.legibility import contrast_ratio, relative_luminance


def wcag(text: str, ground: str) -> float:
    """The contrast of two hex colors by the WCAG formula."""
    def luminance(color):
        return relative_luminance(*(int(color[i:i + 2], 16) / 255 for i in (1, 3, 5)))
    return contrast_ratio(luminance(text), luminance(ground))


@pytest.fixture
def server(shared_server):
    """The module's one server on a new project (tests/conftest.py)."""
    return shared_server


def comp(server, layers, background="#101020", width=1280, height=720, duration=3):
    """Main with `layers` from the top down."""
    steps = [{"id": "comp.new", "params": {"name": "Main", "width": width, "height": height,
                                           "duration": duration, "background": background}}]
    steps += [{"id": "layer.add", "params": {"comp": "Main", **layer}}
              for layer in reversed(layers)]
    result = server.run("command_batch", {"steps": steps})
    assert result["structuredContent"]["failed"] == 0, result


def findings(server, **arguments):
    result = server.run("layout_check", {"comp": "Main", **arguments}, timeout=120)
    assert result["isError"] is False, result
    return result["structuredContent"]["findings"]


def kinds(found):
    return sorted((finding["layer"], finding["kind"]) for finding in found)


def test_a_clean_comp_has_no_findings(server):
    comp(server, [
        {"type": "text", "name": "Caption", "text": "Made with care", "size": 40,
         "position": [640, 560], "fill": "#ffffff"},
        {"type": "solid", "name": "Bar", "color": "#2255ff", "width": 700, "height": 90,
         "position": [640, 560]},
        {"type": "text", "name": "Title", "text": "Hello", "size": 96},
        {"type": "solid", "name": "Backdrop", "color": "#101020", "width": 1400,
         "height": 800},
    ])
    assert findings(server) == []


def test_an_off_canvas_title_is_found_with_how_far_it_runs_off(server):
    comp(server, [{"type": "text", "name": "Title", "text": "OFF THE EDGE", "size": 100,
                   "position": [1200, 360]}])
    (found,) = findings(server)
    assert (found["layer"], found["kind"]) == ("Title", "offCanvas")
    assert found["times"] == [0.0, 1.5, pytest.approx(89 / 30)] and found["time"] == 0.0
    assert found["message"].startswith("Layer 'Title' runs off the comp at 0 s, 1.5 s and "
                                       "2.967 s: ")
    assert "px past the right edge" in found["message"]
    assert "left edge" not in found["message"]


def test_a_layer_wholly_outside_the_comp_is_said_to_be_unseen(server):
    comp(server, [{"type": "solid", "name": "Lost", "color": "#ff0000", "width": 100,
                   "height": 100, "position": [-300, 300]}])
    (found,) = findings(server, time=1)
    assert found["kind"] == "offCanvas" and "wholly outside the comp at 1 s" in found["message"]


def test_text_in_the_margin_is_outside_title_safe_but_not_off_the_canvas(server):
    comp(server, [{"type": "text", "name": "Credit", "text": "photo: someone", "size": 30,
                   "position": [640, 680]}])
    (found,) = findings(server, time=0)
    assert found["kind"] == "unsafe"
    assert "outside the title-safe area (the middle 80%: x 128..1152, y 72..648)" in \
        found["message"]
    assert "outside action-safe (90%) too" in found["message"]
    # A looser title-safe area it does keep to.
    assert findings(server, time=0, title_safe=96) == []


def test_a_paragraph_that_overflows_its_box_is_found(server):
    comp(server, [{"type": "text", "name": "Body", "size": 40, "box": [400, 100],
                   "text": "This paragraph has far more words than its little box can hold"}])
    (found,) = findings(server, time=0)
    assert found["kind"] == "overflow"
    assert "its 3 lines need 144 px but its box is 100 px tall" in found["message"]
    server.run("command_run", {"id": "layer.set", "params": {
        "comp": "Main", "layer": "Body", "fit": "shrink"}})
    assert findings(server, time=0) == []


def test_text_too_small_on_screen_counts_its_scale(server):
    comp(server, [{"type": "text", "name": "Fine", "text": "fine print", "size": 30,
                   "scale": [50, 50]}])
    (found,) = findings(server, time=0)
    assert found["kind"] == "tooSmall"
    assert found["message"].startswith("Layer 'Fine' is 15 px tall on screen at 0 s; text "
                                       "under 20 px is hard to read on a 1280 x 720 frame")


def test_low_contrast_is_measured_on_the_rendered_pixels(server):
    comp(server, [
        {"type": "text", "name": "Grey", "text": "grey on grey", "size": 60, "fill": "#999999",
         "position": [640, 250]},
        {"type": "text", "name": "Black", "text": "black on grey", "size": 60,
         "fill": "#000000", "position": [640, 450]},
    ], background="#808080")
    (found,) = findings(server, time=1)
    assert (found["layer"], found["kind"]) == ("Grey", "lowContrast")
    assert found["ratio"] == pytest.approx(wcag("#999999", "#808080"), abs=0.05)
    assert found["message"].startswith(f"Layer 'Grey' has a contrast of "
                                       f"{found['ratio']:.1f}:1 with what is drawn behind it")
    assert wcag("#000000", "#808080") > 4.5  # which is why Black has no finding


def test_text_half_over_a_box_of_its_own_color_is_low_contrast(server):
    """White text whose left half sits on a white box: its worse half is what counts."""
    comp(server, [
        {"type": "text", "name": "Half", "text": "HALF AND HALF", "size": 80,
         "fill": "#ffffff"},
        {"type": "solid", "name": "Box", "color": "#ffffff", "width": 640, "height": 720,
         "position": [320, 360]},
    ], background="#000000")
    (found,) = findings(server, time=0)
    assert (found["layer"], found["kind"]) == ("Half", "lowContrast")
    assert found["ratio"] < 1.5


def test_an_outline_counts_as_what_is_behind_the_letters(server):
    """White captions on a white picture: unreadable alone, readable outlined in black."""
    comp(server, [
        {"type": "text", "name": "Outlined", "text": "outlined words", "size": 60,
         "fill": "#ffffff", "stroke": "#000000", "strokeWidth": 8, "position": [640, 250]},
        {"type": "text", "name": "Bare", "text": "bare words", "size": 60, "fill": "#ffffff",
         "position": [640, 450]},
    ], background="#f0f0f0")
    (found,) = findings(server, time=0)
    assert (found["layer"], found["kind"]) == ("Bare", "lowContrast")
    assert found["ratio"] == pytest.approx(wcag("#ffffff", "#f0f0f0"), abs=0.05)


def test_layers_sliding_and_fading_in_and_out_are_not_held_to_the_canvas_then(server):
    comp(server, [{"type": "text", "name": "Title", "text": "Arriving", "size": 80}])
    for preset, params in (("slideIn", {"from": "left"}), ("fadeOut", {})):
        applied = server.run("command_run", {"id": "preset.apply", "params": {
            "comp": "Main", "layer": "Title", "preset": preset, "params": params}})
        assert applied["isError"] is False, applied
    assert findings(server) == []
    # Asked about the first frame itself, the title is off the comp then.
    (found,) = findings(server, times=[0])
    assert found["kind"] == "offCanvas" and "wholly outside" in found["message"]


def test_a_fade_to_black_over_the_whole_comp_is_not_held_against_the_text_under_it(server):
    comp(server, [{"type": "solid", "name": "Fade", "color": "#000000"},
                  {"type": "text", "name": "Goodbye", "text": "Goodbye", "size": 80,
                   "fill": "#ffffff"}])
    applied = server.run("command_run", {"id": "preset.apply", "params": {
        "comp": "Main", "layer": "Fade", "preset": "fadeIn", "time": 2.5}})
    assert applied["isError"] is False, applied
    assert findings(server) == []
    # Asked about a moment of the fade itself, the text is indeed faint then.
    (found,) = findings(server, times=[2.95])
    assert (found["layer"], found["kind"]) == ("Goodbye", "lowContrast")


@pytest.mark.parametrize("arguments, message", [
    ({"time": 3.5}, "time 3.5 is outside comp 'Main'"),
    ({"time": 1, "times": [1]}, "give time or times, not both."),
    ({"title_safe": 0}, "title_safe is a percent of the frame above 0 and at most 100"),
])
def test_bad_layout_check_arguments_are_one_sentence(server, arguments, message):
    comp(server, [{"type": "text", "text": "Hi"}])
    result = server.run("layout_check", {"comp": "Main", **arguments})
    assert result["isError"] is True
    assert result["content"][0]["text"].startswith(message)
