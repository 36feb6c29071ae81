"""captions.import: a caption file (supervisor/engine/caption_files.py, read on a probe worker)
as a text layer that shows each cue exactly during its time and nothing between cues, from the
first cue to the last, in a box inside the title-safe area unless told otherwise.

The layer's `text` is keyed with hold keys: a cue's text at its start, an empty text at its
end (unless the next cue starts there). `mode`:
- line: a cue at a time; word timings from a .json are grouped into lines (a new line after
  MAX_LINE_CHARACTERS or a pause of MAX_WORD_GAP);
- word: one word at a time (SRT and VTT cues spread their time over their words);
- karaoke: lines as in `line`, the word being spoken drawn in the `highlight` color by a word
  text animator whose range is keyed to each word's time.
"""

from __future__ import annotations

from protocol.model.document import unique_name
from protocol.model.legibility import TITLE_SAFE, safe_rect
from protocol.model.numbers import is_number
from supervisor.engine.caption_files import read_cues
from supervisor.engine.commands.layer import layer_add
from supervisor.engine.commands.lookup import find_comp, find_layer
from supervisor.engine.commands.registry import (COLOR_FORMAT, COMP_REF, READ_PATH, command,
                                                 formatted)
from supervisor.errors import CommandError
from supervisor.engine.commands.text import add_animator

MODES = ("line", "word", "karaoke")
# The default box, as fractions of the comp's width and height: title-safe's 80% less a margin
# each side for the outline, the background box's padding and anti-aliasing.
BOX = (0.76, 0.16)
MARGIN = 0.02  # of the height, between the box and title-safe's edge
# Subtitle guidelines keep a line to about 42 characters and start a new one at a pause.
MAX_LINE_CHARACTERS = 42
MAX_WORD_GAP = 0.8
DEFAULT_HIGHLIGHT = "#ffd400"
# Keys this close are one time (a cue ending where the next starts).
SAME_TIME = 1e-6


@command("captions.import", "Import captions",
         "Read captions (SubRip .srt, WebVTT .vtt, or word timings .json [{word, start, end}] "
         "as speech-to-text tools write them) into a new text layer that shows each cue "
         "exactly during its time, from the first cue's start to the last one's end. mode: "
         "line (default), word, or karaoke (the current word in style.highlight). position: "
         "bottom (default) or top, inside the title-safe area, or [x, y], the box's center. "
         "box: [w, h] (default 76% of the comp's width and 16% of its height, so the captions "
         "sit inside title-safe with room for their outline; text shrinks to fit). style: text "
         "params for the layer (font, size, fill, weight, align, ...; stroke and strokeWidth "
         "for an outline, black 1/10 of the size by default; background for a box behind each "
         "line, e.g. \"#000000b0\"; highlight for karaoke's color). Returns {layer, cues, "
         "start, end}.",
         {"comp": COMP_REF, "path": formatted(READ_PATH, "the caption file"),
          "mode": {"type": "string", "enum": list(MODES)},
          "position": {"type": ["string", "array"], "description": "bottom (default) or top "
                       "of the title-safe area, or [x, y]: where the box's center goes"},
          "style": {"type": "object", "description": "text params for the layer, and "
                    f"highlight (karaoke's color); colors are {COLOR_FORMAT}; e.g. "
                    '{"font": "Lato", "size": 44, "fill": "#ffffff", "stroke": "#000000", '
                    '"strokeWidth": 4, "background": "#000000b0"}'},
          "box": {"type": "array", "description": "[w, h] of the captions' box"}},
         required=("comp", "path"), waits_on="probe")
def captions_import(engine, params, work):
    comp = find_comp(engine.doc, params["comp"])
    source, cues = read_cues(engine, params["path"], work)
    mode = params.get("mode", "line")
    cues = sorted(cues, key=lambda cue: cue[0])
    if source == "json" and mode != "word":
        cues = _lines_of_words(cues)
    if mode == "word":
        cues = [(start, end, word, [(start, end, word)])
                for cue in cues for start, end, word in cue[3]]
    style = dict(params.get("style") or {})
    highlight = style.pop("highlight", DEFAULT_HIGHLIGHT)
    for reserved in ("comp", "type", "text", "position", "box", "inPoint", "outPoint"):
        if reserved in style:
            where = f"; give {reserved} to captions.import itself" \
                if reserved in ("position", "box") else ""
            raise CommandError(f"captions.import: style sets the look of the captions, not "
                               f"{reserved!r}{where}.")
    width, height = comp["width"], comp["height"]
    box = params.get("box") or [width * BOX[0], height * BOX[1]]
    center, vertical = _placement(params.get("position", "bottom"), comp, box)
    size = round(height / 18)
    first, last = max(0.0, cues[0][0]), min(comp["duration"], cues[-1][1])
    if last <= first:
        raise CommandError(f"the captions run from {cues[0][0]:g} s to {cues[-1][1]:g} s, "
                           f"outside comp {comp['name']!r} (0 to {comp['duration']:g} s); "
                           "make the comp longer or retime the file.")
    layer_params = {
        "comp": comp["id"], "type": "text", "text": {"keys": _text_keys(cues)},
        "name": unique_name("Captions", {layer["name"] for layer in comp["layers"]}),
        "size": size, "fill": [1, 1, 1, 1], "stroke": [0, 0, 0, 1],
        "strokeWidth": max(size / 10, 1), "box": box, "verticalAlign": vertical,
        "fit": "shrink", "position": center, "inPoint": first, "outPoint": last, **style}
    added = layer_add(engine, layer_params, work)
    result = {"layer": added["layer"], "name": added["name"], "cues": len(cues),
              "mode": mode, "format": source, "start": cues[0][0], "end": cues[-1][1]}
    if mode == "karaoke":
        layer = find_layer(comp, added["layer"])
        animator = add_animator(engine, layer, "word", {"fill": highlight},
                                _highlight_keys(cues))
        result["animator"] = animator["id"]
    if added.get("warnings"):
        result["warnings"] = added["warnings"]
    return result


def _placement(position, comp: dict, box: list) -> tuple[list, str]:
    """(the box's center, the text's verticalAlign) for a position."""
    width, height = comp["width"], comp["height"]
    if position in ("bottom", "top"):
        # The box's outer edge MARGIN inside title-safe's, so an outline stays inside too.
        safe = safe_rect(width, height, TITLE_SAFE)
        inset = MARGIN * height
        y = safe[3] - inset - box[1] / 2 if position == "bottom" else \
            safe[1] + inset + box[1] / 2
        return [width / 2, y], position
    if isinstance(position, list) and len(position) == 2 and all(map(is_number, position)):
        return list(position), "bottom"
    raise CommandError(f"captions.import: position is bottom, top or [x, y] (the box's "
                       f"center), got {position!r}.")


def _lines_of_words(words: list) -> list:
    """Single-word cues (a .json) grouped into lines."""
    lines, current = [], []
    for cue in words:
        text = " ".join(w[2] for w in current + [cue])
        if current and (len(text) > MAX_LINE_CHARACTERS or cue[0] - current[-1][1] >
                        MAX_WORD_GAP):
            lines.append(current)
            current = []
        current.append(cue)
    lines.append(current)
    return [(line[0][0], line[-1][1], " ".join(w[2] for w in line), [w[3][0] for w in line])
            for line in lines]


class _Keys:
    """Hold keys in time order; a key at the time of the last one replaces it."""

    def __init__(self) -> None:
        self.keys: list[dict] = []

    def put(self, time: float, value) -> None:
        if self.keys and abs(self.keys[-1]["time"] - time) < SAME_TIME:
            self.keys[-1]["value"] = value
        elif not self.keys or time > self.keys[-1]["time"]:
            self.keys.append({"time": time, "value": value, "interpolation": "hold"})


def _text_keys(cues: list) -> list:
    keys = _Keys()
    if cues[0][0] > 0:
        keys.put(0.0, "")
    for index, (start, end, text, _) in enumerate(cues):
        keys.put(start, text)
        following = cues[index + 1][0] if index + 1 < len(cues) else None
        if following is None or following - end > SAME_TIME:
            keys.put(end, "")
    return keys.keys


def _highlight_keys(cues: list) -> dict:
    """The word animator's range: the span of the word being spoken, in percent of the cue's
    words; empty between cues and before a cue's first word."""
    start, end = _Keys(), _Keys()
    for put in (start.put, end.put):
        put(0.0, 0)
    for start_time, end_time, text, words in cues:
        count = len(text.split())
        start.put(start_time, 0)
        end.put(start_time, 0)
        for number, (word_start, _, _) in enumerate(words):
            start.put(max(word_start, start_time), 100.0 * number / count)
            end.put(max(word_start, start_time), 100.0 * (number + 1) / count)
        start.put(end_time, 0)
        end.put(end_time, 0)
    return {"start": {"keys": start.keys}, "end": {"keys": end.keys}}
