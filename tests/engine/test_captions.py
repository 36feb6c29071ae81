"""captions.import: SubRip, WebVTT and word-timing JSON made into a text layer that is drawn
exactly during each cue and not between cues; karaoke's highlighted word; bad files refused
in one sentence naming the line."""

import json

import numpy as np
import pytest

from supervisor.engine.engine import Engine
from supervisor.errors import CommandError
from workers.compositor import render_frame

RATE = 20

SRT = """1
00:00:00,500 --> 00:00:01,500
Hello <i>there</i>

2
00:00:01,500 --> 00:00:02,000
Second cue

3
00:00:02,550 --> 00:00:03,000
Third
"""
SRT_CUES = [(0.5, 1.5), (1.5, 2.0), (2.55, 3.0)]

VTT = """WEBVTT

NOTE a comment block

00:00.250 --> 00:01.250
One <b>vtt</b> cue

second
00:00:01.750 --> 00:00:02.500 align:start
Two
"""
VTT_CUES = [(0.25, 1.25), (1.75, 2.5)]

WORDS = [{"word": "I", "start": 0.2, "end": 0.4}, {"word": "like", "start": 0.4, "end": 0.8},
         {"word": "captions", "start": 0.9, "end": 1.5},
         {"word": "Next", "start": 3.0, "end": 3.4}, {"word": "line", "start": 3.4, "end": 3.9}]


def imported(tmp_path, name, content, **params):
    path = tmp_path / name
    path.write_text(content)
    engine = Engine()
    engine.run("comp.new", {"name": "M", "width": 320, "height": 180, "frameRate": RATE,
                            "duration": 4.5, "background": "#000000"})
    result = engine.run("captions.import", {"comp": "M", "path": str(path), **params})
    return engine, result


def shown_frames(engine) -> list[bool]:
    document = engine.snapshot()[1]
    return [bool((render_frame(document, "M", n / RATE).pixels[..., :3] > 40).any())
            for n in range(int(4.5 * RATE))]


def expected_frames(cues) -> list[bool]:
    return [any(start <= n / RATE < end for start, end in cues) for n in range(int(4.5 * RATE))]


@pytest.mark.parametrize("name, content, cues", [("a.srt", SRT, SRT_CUES),
                                                  ("a.vtt", VTT, VTT_CUES)])
def test_cues_are_shown_exactly_during_their_times(tmp_path, name, content, cues):
    engine, result = imported(tmp_path, name, content)
    assert result["cues"] == len(cues) and result["mode"] == "line"
    assert shown_frames(engine) == expected_frames(cues)


def test_cue_text_loses_its_markup(tmp_path):
    engine, result = imported(tmp_path, "a.srt", SRT)
    layer = engine.doc["comps"][0]["layers"][0]
    texts = [key["value"] for key in layer["content"]["text"]["keys"]]
    assert texts == ["", "Hello there", "Second cue", "", "Third", ""]


def test_word_timings_make_lines_shown_during_their_words(tmp_path):
    engine, result = imported(tmp_path, "w.json", json.dumps(WORDS))
    assert result["cues"] == 2  # the pause before "Next" starts a new line
    assert shown_frames(engine) == expected_frames([(0.2, 1.5), (3.0, 3.9)])


def test_word_mode_shows_one_word_at_a_time(tmp_path):
    engine, result = imported(tmp_path, "w.json", json.dumps({"words": WORDS}), mode="word")
    assert result["cues"] == 5
    layer = engine.doc["comps"][0]["layers"][0]
    keys = layer["content"]["text"]["keys"]
    assert [(k["time"], k["value"]) for k in keys] == [
        (0.0, ""), (0.2, "I"), (0.4, "like"), (0.8, ""), (0.9, "captions"), (1.5, ""),
        (3.0, "Next"), (3.4, "line"), (3.9, "")]
    assert shown_frames(engine) == expected_frames([(w["start"], w["end"]) for w in WORDS])


def test_karaoke_highlights_the_word_being_spoken(tmp_path):
    engine, result = imported(tmp_path, "w.json", json.dumps(WORDS), mode="karaoke",
                              style={"highlight": "#ff0000", "fill": "#ffffff",
                                     "stroke": None, "size": 30, "fit": "none"})
    assert result["animator"].startswith("anim")
    document = engine.snapshot()[1]

    def red_and_white(time):
        pixels = render_frame(document, "M", time).pixels
        red = (pixels[..., 0] > 200) & (pixels[..., 1] < 60)
        white = pixels[..., 1] > 200
        return red, white

    columns = []
    for time in (0.3, 0.6, 1.2):  # "I", "like", "captions"
        red, white = red_and_white(time)
        assert red.sum() > 20 and white.sum() > 20
        columns.append(np.nonzero(red.any(axis=0))[0].mean())
    assert columns == sorted(columns)  # the highlight moves along the line
    red, white = red_and_white(2.0)  # between cues: nothing at all
    assert not red.any() and not white.any()


def test_captions_through_the_mcp_server(server, tmp_path):
    path = tmp_path / "a.vtt"
    path.write_text(VTT)
    result = server.run("command_batch", {"steps": [
        {"id": "comp.new", "params": {"name": "M", "width": 320, "height": 180}},
        {"id": "captions.import", "params": {"comp": "M", "path": str(path),
                                             "style": {"font": "Lato", "size": 24}}}]})
    step = result["structuredContent"]["results"][1]
    assert step["status"] == "done" and step["result"]["cues"] == 2
    preview = server.run("render_preview", {"comp": "M", "time": 0.5})
    assert not preview.get("isError")


@pytest.mark.parametrize("name, content, sentence", [
    ("bad.srt", "1\n00:00:01,000 --> 00:00:02,000\nfine\n\n2\n00:00:0x,000 -> 00:00:03,000\n"
     "broken\n", "bad.srt line 5 is not a SubRip cue"),
    ("bad.vtt", "WEBVTT\n\n00:01.000 --> 00:02.000\nfine\n\n00:03.0 --> 00:04.000\nbroken\n",
     "bad.vtt line 6 is not a WebVTT cue timing"),
    ("nohead.vtt", "00:01.000 --> 00:02.000\nfine\n", "nohead.vtt line 1 is not 'WEBVTT'"),
    ("bad.json", '[{"word": "a", "start": 0, "end": 1},\n {"word": "b", "start": 1}]',
     "bad.json entry 1 is not a word timing"),
    ("syntax.json", '[{"word": "a",\n "start": 0, "end": 1,,}]', "syntax.json line 2 is not "
     "valid JSON"),
    ("backwards.srt", "1\n00:00:02,000 --> 00:00:01,000\nback\n", "backwards.srt line 2: the "
     "cue ends"),
    ("captions.txt", "hello", "is not a caption file rendervisor reads"),
])
def test_a_bad_caption_file_is_one_sentence_naming_the_line(tmp_path, name, content, sentence):
    with pytest.raises(CommandError) as caught:
        imported(tmp_path, name, content)
    message = str(caught.value)
    assert sentence in message and message.endswith(".") and "\n" not in message


LONG_SRT = """1
00:00:00,500 --> 00:00:02,000
A caption long enough to fill its whole box from one side to the other, twice over

2
00:00:02,500 --> 00:00:04,000
Short
"""


def ink_extent(pixels, background=(0, 0, 0)):
    """(left, top, right, bottom) of the pixels that differ from the background."""
    drawn = np.abs(pixels[..., :3].astype(int) - background).max(axis=-1) > 0
    rows, columns = np.flatnonzero(drawn.any(axis=1)), np.flatnonzero(drawn.any(axis=0))
    return columns[0], rows[0], columns[-1] + 1, rows[-1] + 1


@pytest.mark.parametrize("position", ["bottom", "top"])
def test_captions_are_drawn_inside_title_safe_by_default(tmp_path, position):
    engine, result = imported(tmp_path, "long.srt", LONG_SRT, position=position,
                              style={"background": "#404040"})
    layer = engine.doc["comps"][0]["layers"][0]
    assert (layer["inPoint"], layer["outPoint"]) == (0.5, 4.0)
    pixels = render_frame(engine.snapshot()[1], "M", 1.0).pixels
    left, top, right, bottom = ink_extent(pixels)
    # Title-safe on 320 x 180: x 32..288, y 18..162; the outline and the box inside it.
    assert left >= 32 and right <= 288 and top >= 18 and bottom <= 162
    if position == "bottom":
        assert bottom > 150 and top > 90
    else:
        assert top < 30 and bottom < 90
    # The background box is there: grey behind the letters, with the outline on it.
    assert (np.abs(pixels[..., :3].astype(int) - 0x40).max(axis=-1) == 0).sum() > 500


def test_captions_go_where_position_says(tmp_path):
    engine, result = imported(tmp_path, "a.srt", SRT, position=[160, 60], box=[200, 40])
    layer = engine.doc["comps"][0]["layers"][0]
    assert layer["transform"]["position"] == [160, 60]
    assert layer["content"]["box"] == [200, 40]
    with pytest.raises(CommandError, match="position is bottom, top or"):
        imported(tmp_path, "a.srt", SRT, position="middle")
    with pytest.raises(CommandError, match="give position to captions.import itself"):
        imported(tmp_path, "a.srt", SRT, style={"position": [1, 2]})
