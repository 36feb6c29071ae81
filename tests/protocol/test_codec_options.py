"""The codecOptions allow-list (protocol/model/codec_options.py) with dicts alone: what renders need
passes, whatever makes an encoder open a file is refused under every spelling, and no value
that passes can hold a path, a newline or a quote."""

from __future__ import annotations

import os
import re

import pytest

from protocol.model.codec_options import (FILE_TAKING, OPTIONS, SVTAV1_KEYS, X264_KEYS,
                                          X265_KEYS, CodecOptionRefused, Params, accepted_options,
                                    check_codec_options)
from protocol.model.output_formats import FORMATS
from supervisor.render.plan import RENDER_CODEC_DEFAULTS
from tests.helpers.cli_projects import ROOT


def refusal(fmt, options, owner="item7") -> str:
    with pytest.raises(CodecOptionRefused) as refused:
        check_codec_options(fmt, options, owner)
    message = str(refused.value)
    assert "\n" not in message and message.endswith("."), message
    assert owner in message, message
    return message


def test_every_format_has_a_list_and_its_own_defaults_pass_it():
    assert set(OPTIONS) == set(FORMATS)
    for name, spec in FORMATS.items():
        defaults = {**spec.default_codec_options, **RENDER_CODEC_DEFAULTS.get(name, {})}
        assert check_codec_options(name, defaults, "a default") == defaults


@pytest.mark.parametrize("fmt,options", [
    # the options the tests, the examples, the benchmark and the docs use
    ("h264", {"preset": "veryfast", "crf": "20"}),
    ("h264", {"preset": "veryfast", "pix_fmt": "yuv420p", "crf": "23"}),
    ("h264", {"pix_fmt": "yuv444p"}),
    ("h264", {"x264-params": "bframes=3"}),
    ("h264", {"threads": "1", "crf": 18.5, "tune": "animation", "profile": "high",
              "level": "4.1"}),
    ("h264", {"b": "2500k", "maxrate": "3M", "bufsize": "6M", "g": 60, "keyint_min": 30}),
    ("h264", {"x264-params": "aq-mode=3:ref=2:deblock=-1,-1:psy-rd=1.0,0.15"}),
    ("hevc", {"preset": "ultrafast"}),
    ("hevc", {"preset": "fast", "crf": "16", "x265-params": "aq-mode=3"}),
    ("av1", {"preset": "10", "crf": "20"}),
    ("av1", {"svtav1-params": "tune=0:enable-tf=0:film-grain=8"}),
    ("prores", {"profile": "4444"}),
    ("vp9", {"crf": "20"}),
    ("vp9", {"cpu-used": "8", "deadline": "realtime", "row-mt": 1}),
    ("jpeg", {"qscale": "5"}),
    ("png", {"compression_level": 9}),
    ("gif", {}),
])
def test_the_options_renders_use_pass_as_strings(fmt, options):
    assert check_codec_options(fmt, options, "item1") == {k: str(v) for k, v in options.items()}


def test_no_options_are_none_or_an_empty_object():
    assert check_codec_options("h264", None, "item1") == {}
    assert check_codec_options("h264", {}, "item1") == {}


@pytest.mark.parametrize("name", sorted(FILE_TAKING))
def test_a_file_taking_name_is_refused_as_an_option_and_as_a_key_saying_why(name):
    assert "read or write a file" in refusal("h264", {name: "/tmp/x"})
    assert "read or write a file" in refusal("h264", {"x264-params": f"crf=20:{name}=/tmp/x"})
    assert "read or write a file" in refusal("hevc", {"x265-params": f"{name}=x"})
    assert "read or write a file" in refusal("av1", {"svtav1-params": f"{name}=x"})


@pytest.mark.parametrize("key", ["dump_yuv", "DUMP-YUV", "'dump-yuv'", '"stats"', "nodump-yuv",
                                 "no-csv", "no_stats", " cqmfile"])
def test_the_spellings_x264_and_x265_also_read_are_refused_as_files(key):
    message = refusal("h264", {"x264-params": f"{key}=1"})
    assert repr(key) in message and "read or write a file" in message


def test_no_file_taking_name_is_on_any_list():
    for fmt, options in OPTIONS.items():
        assert not FILE_TAKING & set(options), fmt
    assert not FILE_TAKING & (X264_KEYS | X265_KEYS | SVTAV1_KEYS)


def test_an_option_off_the_list_is_named_with_the_accepted_ones():
    message = refusal("h264", {"x264opts": "crf=20"})
    assert "'x264opts'" in message and "h264" in message
    assert "preset" in message and "x264-params" in message and "renderQueue.formats" in message
    # each format has its own list: x265's params are not x264's
    assert "'x265-params'" in refusal("h264", {"x265-params": "crf=20"})
    assert "'preset'" in refusal("prores", {"preset": "fast"})


def test_an_unknown_params_key_points_at_the_listing():
    message = refusal("hevc", {"x265-params": "crf=20:shiny=1"})
    assert "'shiny'" in message and "x265" in message and "renderQueue.formats" in message


@pytest.mark.parametrize("fmt,name,value,says", [
    ("h264", "crf", "abc", "a number"),
    ("h264", "preset", "fastest", "one of ultrafast"),
    ("h264", "preset", "fast\n", "one of ultrafast"),
    ("h264", "b", "2 M", "a bit rate"),
    ("h264", "threads", "1.5", "a whole number"),
    ("h264", "crf", float("inf"), "a number"),
    ("jpeg", "qscale", "32", "1 (best) to 31"),
    ("prores", "profile", "ultra", "one of proxy, lt, standard, hq, 4444"),
    ("av1", "preset", "14", "from 0 (slowest) to 13"),
    ("av1", "crf", "64", "from 0 to 63"),
    ("prores", "vendor", "apple", "four letters or digits"),
    ("vp9", "row-mt", "yes", "one of 0, 1"),
])
def test_a_value_of_the_wrong_shape_says_the_shape(fmt, name, value, says):
    message = refusal(fmt, {name: value})
    assert repr(name) in message and says in message and repr(str(value)) in message


@pytest.mark.parametrize("value", ["/etc/passwd", "../x", "a b", "1\n", "1\r", "1\x00",
                                   "1\x1b[2J", "'1'", '"1"', "1\\", "a=b", "a:b", "", "é"])
def test_no_value_that_could_name_a_file_or_break_a_line_passes_any_option(value):
    """Whatever the option: a path, whitespace, control characters, quotes, escapes and the
    params separators never get through."""
    for fmt, options in OPTIONS.items():
        for name, shape in options.items():
            with pytest.raises(CodecOptionRefused):
                check_codec_options(fmt, {name: value}, "item1")
            if isinstance(shape, Params):
                key = sorted(shape.keys)[0]
                with pytest.raises(CodecOptionRefused):
                    check_codec_options(fmt, {name: f"{key}={value}"}, "item1")


@pytest.mark.parametrize("params,fragment", [
    ("aq-mode", "'aq-mode', which is not key=value"),
    ("crf=20:", "'', which is not key=value"),
    ("crf=20::ref=2", "'', which is not key=value"),
    ("crf=", "gives 'crf' the value ''"),
    ("ref=2=3", "gives 'ref' the value '2=3'"),
])
def test_params_are_key_value_pairs_separated_by_colons(params, fragment):
    assert fragment in refusal("h264", {"x264-params": params})


@pytest.mark.parametrize("options", [{"crf": [20]}, {"crf": {"v": 1}}, {"crf": True},
                                     {"crf": None}])
def test_values_are_strings_or_numbers(options):
    assert "codecOptions values are strings or numbers" in refusal("h264", options)


def test_options_are_an_object():
    assert "must be an object" in refusal("h264", ["crf", "20"])


def test_the_listing_says_what_every_option_takes():
    listing = accepted_options("h264")
    assert set(listing) == set(OPTIONS["h264"])
    assert listing["crf"] == "a number" and listing["preset"].startswith("one of ultrafast")
    assert "key=value pairs" in listing["x264-params"] and "aq-mode" in listing["x264-params"]
    assert accepted_options("gif") == {"pix_fmt": OPTIONS["gif"]["pix_fmt"].says,
                                       "maxSide": "a whole number above 0",
                                       "dither": "one of sierra2_4a, floyd_steinberg, bayer, none",
                                       "fps": "a number above 0"}


def test_docs_outputs_lists_every_option_and_key():
    docs = os.path.join(ROOT, "docs",
                        "outputs.md")
    with open(docs, encoding="utf-8") as handle:
        text = handle.read()
    section = text[text.index("### codecOptions"):text.index("## Video: segments")]
    words = set(re.findall(r"[A-Za-z0-9_+-]+", section))
    for fmt, options in OPTIONS.items():
        assert set(options) <= words, (fmt, set(options) - words)
    keys = X264_KEYS | X265_KEYS | SVTAV1_KEYS
    assert keys <= words, keys - words
