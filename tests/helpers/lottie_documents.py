"""Lottie animations for the tests and the benchmark, built as Bodymovin writes them: shape
layers of rectangles and ellipses with keyframed positions, rotations and fills.

Every builder returns a plain dict (json.dumps it to a file); nothing here renders.
"""

from __future__ import annotations


def _static(value):
    return {"a": 0, "k": value}


def _moving(start, end, first, last):
    """A linearly keyframed value from `start` at frame `first` to `end` at `last`."""
    return {"a": 1, "k": [{"t": first, "s": list(start), "i": {"x": [1], "y": [1]},
                           "o": {"x": [0], "y": [0]}},
                          {"t": last, "s": list(end)}]}


def shape_layer(index: int, kind: str, size, color, start, end, *, first=0, last=60,
                turn=0.0, stroke=None) -> dict:
    """A layer holding one rect ("rc") or ellipse ("el") of `size`, moving from `start` to
    `end` (its center, px) and turning by `turn` degrees over frames first..last."""
    items = [{"ty": kind, "d": 1, "s": _static(list(size)), "p": _static([0, 0]),
              **({"r": _static(8)} if kind == "rc" else {})},
             {"ty": "fl", "c": _static([*color, 1]), "o": _static(100), "r": 1}]
    if stroke:
        items.append({"ty": "st", "c": _static([*stroke, 1]), "o": _static(100),
                      "w": _static(4), "lc": 2, "lj": 2})
    items.append({"ty": "tr", "p": _static([0, 0]), "a": _static([0, 0]),
                  "s": _static([100, 100]), "r": _static(0), "o": _static(100)})
    return {"ddd": 0, "ind": index, "ty": 4, "nm": f"shape {index}", "sr": 1,
            "ks": {"o": _static(100),
                   "r": _moving([0], [turn], first, last) if turn else _static(0),
                   "p": _moving([*start, 0], [*end, 0], first, last),
                   "a": _static([0, 0, 0]), "s": _static([100, 100, 100])},
            "ao": 0, "shapes": [{"ty": "gr", "it": items, "nm": "group"}],
            "ip": first, "op": last, "st": 0, "bm": 0}


def animation(layers: list, *, width=320, height=180, frame_rate=30, first=0, last=60,
              **extra) -> dict:
    return {"v": "5.7.0", "fr": frame_rate, "ip": first, "op": last, "w": width, "h": height,
            "nm": "test", "ddd": 0, "assets": [], "layers": layers, **extra}


def moving_square(width=320, height=180, frame_rate=30, first=0, last=60) -> dict:
    """A 40 px red square crossing from x = 20 to x = width - 20 over the animation."""
    return animation([shape_layer(1, "rc", (40, 40), (1, 0, 0), (20, height / 2),
                                  (width - 20, height / 2), first=first, last=last)],
                     width=width, height=height, frame_rate=frame_rate, first=first, last=last)


def many_shapes(count=50, width=1920, height=1080, frame_rate=30, frames=60) -> dict:
    """`count` rects and ellipses in a grid, each moving, turning and stroked: the kind of
    busy animation a motion designer exports."""
    layers = []
    columns = 10
    for i in range(count):
        x = (i % columns + 0.5) * width / columns
        y = (i // columns + 0.5) * height / max(1, (count + columns - 1) // columns)
        color = ((i * 37) % 255 / 255, (i * 91) % 255 / 255, (i * 53) % 255 / 255)
        layers.append(shape_layer(i + 1, "rc" if i % 2 else "el", (120, 80), color, (x, y),
                                  (x + 60, y - 40), last=frames, turn=90 * (i % 3),
                                  stroke=(1, 1, 1)))
    return animation(layers, width=width, height=height, frame_rate=frame_rate, last=frames)


def old_bodymovin_square(version="3.1.6") -> dict:
    """A 320x180 animation as Bodymovin before 4.1.9 wrote it: a full-frame rect whose fill is
    near-black in 0..255 channels ([7, 6, 6, 255]), its opacity keyed in the old style (each
    key with its end value `e`, the last key only a time), from 100% at frame 0 to 50% at 10."""
    layer = shape_layer(1, "rc", (320, 180), (0, 0, 0), (160, 90), (160, 90))
    fill = layer["shapes"][0]["it"][1]
    fill["c"] = {"k": [7, 6, 6, 255]}
    layer["ks"]["o"] = {"k": [{"t": 0, "s": [100], "e": [50], "i": {"x": [1], "y": [1]},
                               "o": {"x": [0], "y": [0]}}, {"t": 10}]}
    return {**animation([layer]), "v": version}


def path_from_a_slot() -> dict:
    """A square whose path is given by a slot (`sid`), which the ThorVG that thorvg-python
    bundles (1.0) crashes on (SIGSEGV) when it draws a frame, given the file as it is."""
    square = {"c": True, "v": [[-10, -10], [10, -10], [10, 10], [-10, 10]],
              "i": [[0, 0]] * 4, "o": [[0, 0]] * 4}
    layer = shape_layer(1, "rc", (20, 20), (1, 0, 0), (32, 32), (32, 32))
    layer["shapes"][0]["it"][0] = {"ty": "sh", "ks": {"a": 0, "k": square, "sid": "outline"}}
    return animation([layer], width=64, height=64, last=30,
                     slots={"outline": {"p": {"a": 0, "k": square}}})


def randomised_text_selector() -> dict:
    """A text layer whose range selector takes its characters in random order (`rn`), which
    the ThorVG that thorvg-python bundles (1.0) crashes on (SIGFPE) when it draws a frame, as
    it did on lottie-web's banner.json."""
    selector = {"s": {"t": 0, "xe": {"a": 0, "k": 100}, "ne": {"a": 0, "k": 50},
                      "a": {"a": 0, "k": 100}, "b": 1, "rn": 1, "sh": 3, "o": {"a": 0, "k": 0},
                      "r": 1},
                "a": {"p": {"a": 0, "k": [0, 50, 0]}}}
    text = {"ddd": 0, "ind": 1, "ty": 5, "nm": "title", "sr": 1,
            "ks": {"o": _static(100), "r": _static(0), "p": _static([40, 100, 0]),
                   "a": _static([0, 0, 0]), "s": _static([100, 100, 100])},
            "ao": 0, "ip": 0, "op": 60, "st": 0, "bm": 0,
            "t": {"d": {"k": [{"s": {"s": 40, "f": "Sans", "t": "LIVE", "j": 0, "tr": 0,
                                     "lh": 48, "ls": 0, "fc": [0, 0, 0]}, "t": 0}]},
                  "p": {}, "m": {"g": 1, "a": _static([0, 0])}, "a": [selector]}}
    return animation([text], fonts={"list": [{"fName": "Sans", "fFamily": "Sans",
                                              "fStyle": "Regular", "ascent": 75}]})


def dot_tracing_a_path() -> dict:
    """A dot placed by an expression on a point along another layer's path (After Effects'
    Trace Path): ThorVG 1.0 evaluates the expression, and crashes (SIGSEGV) doing so when it
    draws on the calling thread (threads=0), not on a task thread as the render workers play
    it (threads=1)."""
    bar = shape_layer(1, "rc", (40, 40), (1, 0, 0), (100, 90), (200, 90))
    bar["nm"] = "bar"
    bar["shapes"][0]["it"][0] = {"ty": "sh", "nm": "Path 1", "ks": {"a": 0, "k": {
        "c": False, "v": [[0, 0], [50, 0]], "i": [[0, 0], [0, 0]], "o": [[0, 0], [0, 0]]}}}
    dot = shape_layer(2, "el", (10, 10), (0, 0, 1), (10, 10), (10, 10))
    dot["nm"] = "dot"
    dot["ef"] = [{"ty": 5, "nm": "Trace Path", "np": 3, "mn": "Pseudo/ADBE Trace Path", "ix": 1,
                  "en": 1, "ef": [{"ty": 0, "nm": "Progress", "ix": 1,
                                   "mn": "Pseudo/ADBE Trace Path-0001",
                                   "v": {"a": 0, "k": 50, "ix": 1}}]}]
    dot["ks"]["p"] = {"a": 0, "k": [10, 10, 0], "x": (
        "var $bm_rt;\nvar pathLayer = thisComp.layer('bar');\n"
        "var progress = div(thisLayer.effect('Pseudo/ADBE Trace Path')"
        "('Pseudo/ADBE Trace Path-0001'), 100);\n"
        "var pathToTrace = pathLayer('ADBE Root Vectors Group')(1)('ADBE Vector Shape');\n"
        "$bm_rt = pathLayer.toComp(pathToTrace.pointOnPath(progress));")}
    return animation([dot, bar])
