"""Caption files read into cues: SubRip (.srt, by the `srt` package), WebVTT (.vtt, by
webvtt-py) and word timings as speech-to-text tools write them (.json: `[{"word", "start",
"end"}, ...]`, or an object holding such a list under "words" or "segments").

A cue is [start, end, text, words]: seconds, the text with markup removed, and the timing of
each whitespace-separated word ([[start, end, word]]), exact from a word list and spread over
the cue by length from SRT and VTT (which time only whole cues).

A file that cannot be read as captions is refused with one sentence that names the line
(or, in a word list, the entry) at fault. webvtt-py skips a cue whose timing line it cannot
read, so every timing line is checked here first.
"""

from __future__ import annotations

import json
import re

import srt
import webvtt

from workers.probes.opened import read_whole
from workers.tasks import TaskError

_TIMESTAMP = r"(?:\d{2,}:)?[0-5]\d:[0-5]\d\.\d{3}"
_VTT_TIMING = re.compile(rf"^\s*({_TIMESTAMP})\s+-->\s+({_TIMESTAMP})(\s+.*)?$")
_MARKUP = re.compile(r"<[^>]*>|\{\\[^}]*\}")  # HTML-like tags, and ASS overrides ({\an8})


def probe_captions(job_file: dict, limit: int) -> dict:
    """{format, cues} of the caption file in the job's file, its format by its extension."""
    name = job_file["name"]
    raw = read_whole(job_file, limit)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = raw[:error.start].count(b"\n") + 1
        raise TaskError(f"{name} line {line} is not UTF-8 text; save the captions as "
                        "UTF-8.") from None
    extension = job_file["path"].rsplit(".", 1)[-1].lower()
    readers = {"srt": _srt_cues, "vtt": _vtt_cues, "json": _word_cues}
    if extension not in readers:
        raise TaskError(f"{name} is not a caption file rendervisor reads; give a .srt, .vtt or "
                        ".json (word timings) file.")
    return {"format": extension, "cues": readers[extension](name, text)}


def _clean(text: str) -> str:
    lines = [" ".join(_MARKUP.sub("", line).split()) for line in text.splitlines()]
    return "\n".join(line for line in lines if line)


def _spread(start: float, end: float, text: str) -> list:
    """Word timings for a cue timed as a whole: its span shared by the words' lengths."""
    words = text.split()
    total = sum(len(word) for word in words) or 1
    timings, at = [], start
    for word in words:
        length = (end - start) * len(word) / total
        timings.append((at, at + length, word))
        at += length
    return timings


def _cue(name: str, line: int, start: float, end: float, text: str) -> tuple:
    if end <= start:
        raise TaskError(f"{name} line {line}: the cue ends ({end:g} s) before it "
                        f"starts ({start:g} s); fix its timing.")
    cleaned = _clean(text)
    return (start, end, cleaned, _spread(start, end, cleaned))


def _srt_cues(name: str, text: str) -> list:
    cues = []
    try:
        for subtitle in srt.parse(text, ignore_errors=False):
            line = _line_of(text, subtitle)
            cues.append(_cue(name, line, subtitle.start.total_seconds(),
                             subtitle.end.total_seconds(), subtitle.content))
    except srt.SRTParseError as error:
        line = text.count("\n", 0, error.expected_start) + 1
        raise TaskError(f"{name} line {line} is not a SubRip cue (a number, then "
                        "'00:00:01,000 --> 00:00:02,500', then its text); fix or remove "
                        "it.") from None
    if not cues:
        raise TaskError(f"{name} holds no SubRip cues.")
    return cues


def _line_of(text: str, subtitle) -> int:
    """The line of a SubRip cue's timing (found by its index; 0 when not found)."""
    match = re.search(rf"(?m)^\s*{subtitle.index}\s*$", text)
    return text.count("\n", 0, match.end()) + 2 if match else 0


def _vtt_cues(name: str, text: str) -> list:
    lines = text.splitlines()
    if not lines or not lines[0].startswith("WEBVTT"):
        raise TaskError(f"{name} line 1 is not 'WEBVTT', which every WebVTT file "
                        "starts with.")
    timing_lines = []
    for number, line in enumerate(lines, start=1):
        if "-->" in line:
            if not _VTT_TIMING.match(line):
                raise TaskError(f"{name} line {number} is not a WebVTT cue timing "
                                "('00:01.000 --> 00:02.500'); fix or remove it.")
            timing_lines.append(number)
    try:
        captions = list(webvtt.from_string(text))
    except webvtt.errors.MalformedFileError as error:
        raise TaskError(f"{name} is not a WebVTT file webvtt-py reads ({error}).") \
            from None
    if not captions:
        raise TaskError(f"{name} holds no WebVTT cues.")
    # start_in_seconds is rounded down to whole seconds; the timestamps keep milliseconds.
    return [_cue(name, line, caption.start_time.in_milliseconds() / 1000.0,
                 caption.end_time.in_milliseconds() / 1000.0, caption.text)
            for line, caption in zip(timing_lines, captions)]


def _word_cues(name: str, text: str) -> list:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise TaskError(f"{name} line {error.lineno} is not valid JSON "
                        f"({error.msg}).") from None
    except RecursionError:
        raise TaskError(f"{name} nests its JSON too deeply to be word timings; give a flat "
                        '[{"word": "Hello", "start": 0.5, "end": 0.9}, ...].') from None
    if isinstance(data, dict):
        data = data.get("words", data.get("segments"))
    if not isinstance(data, list) or not data:
        raise TaskError(f"{name} is not a list of word timings "
                        '[{"word": "Hello", "start": 0.5, "end": 0.9}, ...].')
    words = []
    for index, entry in enumerate(data):
        word = entry.get("word", entry.get("text")) if isinstance(entry, dict) else None
        start = entry.get("start") if isinstance(entry, dict) else None
        end = entry.get("end") if isinstance(entry, dict) else None
        if not isinstance(word, str) or not all(isinstance(v, (int, float)) and
                                                not isinstance(v, bool) for v in (start, end)):
            raise TaskError(f"{name} entry {index} is not a word timing "
                            f'{{"word": "...", "start": s, "end": s}}; got {entry!r:.80}.')
        if end <= start or (words and start < words[-1][0]):
            raise TaskError(f"{name} entry {index} ({word!r}) ends before it starts "
                            "or starts before the word before it; fix its times.")
        if word.strip():
            words.append((float(start), float(end), word.strip()))
    return [(s, e, w, [(s, e, w)]) for s, e, w in words]

