"""Conformance of SVG and Lottie footage against test suites rendervisor did not write, beside
the other renderers a Python program could use, on the same files, with one pixel rule.

    .venv/bin/python scripts/conformance.py svg RESVG_TESTS [--per-category 60] [--json OUT]
    .venv/bin/python scripts/conformance.py lottie CORPUS REFERENCES [--json OUT]

- `svg`: RESVG_TESTS is resvg's tests folder (crates/resvg/tests: tests/<category>/... with a
  reference PNG beside each SVG, and fonts/). A sample of `--per-category` tests of each
  category, chosen by a hash of their paths, each drawn 300 px wide (as the references are) by
  rendervisor (an image layer showing the SVG as footage, through the engine's commands and
  the compositor), resvg alone (resvg-py, with the suite's own fonts, as the suite renders),
  cairosvg, and Skia's SVG module (as rendervisor drew SVG before it used resvg).
- `lottie`: CORPUS holds Lottie files and REFERENCES the frames lottie-web drew of a sample of
  them (scripts/lottie_references.py). Each frame is drawn by rendervisor (a lottie layer, the
  animation scaled to the reference's size), by rendervisor after `lottie.bake` ("baked": a
  file's expressions evaluated into keys, as a user does on the import's warning), ThorVG
  alone (thorvg-python given the file as it is) and rlottie (rlottie-python).

The pixel rule: both images are put over white and over black; a pixel differs when nothing
within 1 px of it in the other image is within 20% on every channel; a test (or a frame)
passes when at most 0.1% of its pixels differ. Prints a table per category (or per source
folder) and, with --json, writes every verdict. Fetches nothing: docs/conformance.md says how
to make the local copies.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import sys
import tempfile
from collections import defaultdict

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import numpy as np  # noqa: E402
import skia  # noqa: E402

from supervisor.engine.engine import Engine  # noqa: E402
from workers.compositor import render_frame  # noqa: E402

CLOSE = 0.2 * 255  # within 20% on a channel
MOST_DIFFERING = 0.001  # at most 0.1% of the pixels
REFERENCE_WIDTH = 300  # resvg's references are drawn 300 px wide
# The Lottie players compared: rendervisor as the file is, rendervisor after `lottie.bake` (its
# expressions evaluated into keys; the same frames for a file without expressions), ThorVG
# alone and rlottie.
LOTTIE_PLAYERS = ("rendervisor", "baked", "thorvg", "rlottie")


# --- the pixel rule -------------------------------------------------------------------------

def differing_fraction(ours: np.ndarray, theirs: np.ndarray) -> float:
    """The share of pixels that differ between two straight RGBA images (1.0 when their sizes
    differ), over white and over black, each way."""
    if ours.shape != theirs.shape:
        return 1.0
    differs = np.zeros(ours.shape[:2], bool)
    for background in (255.0, 0.0):
        a, b = _over(ours, background), _over(theirs, background)
        differs |= ~_matched(a, b) | ~_matched(b, a)
    return float(differs.mean())


def passes(ours: np.ndarray | None, theirs: np.ndarray) -> bool:
    return ours is not None and differing_fraction(ours, theirs) <= MOST_DIFFERING


def _over(rgba: np.ndarray, background: float) -> np.ndarray:
    alpha = rgba[..., 3:4].astype(np.float32) / 255
    return rgba[..., :3].astype(np.float32) * alpha + background * (1 - alpha)


def _matched(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Pixels of `a` for which some pixel of `b` within 1 px is close on every channel."""
    height, width = a.shape[:2]
    padded = np.pad(b, ((1, 1), (1, 1), (0, 0)), mode="edge")
    found = np.zeros((height, width), bool)
    for dy in (0, 1, 2):
        for dx in (0, 1, 2):
            near = padded[dy:dy + height, dx:dx + width]
            found |= (np.abs(a - near) <= CLOSE).all(axis=-1)
    return found


def straight_rgba(png: bytes) -> np.ndarray | None:
    image = skia.Image.MakeFromEncoded(png)
    if image is None:
        return None
    return image.toarray(colorType=skia.kRGBA_8888_ColorType, alphaType=skia.kUnpremul_AlphaType)


def sampled(paths: list[str], count: int) -> list[str]:
    """`count` of `paths`, chosen by a hash of each path: the same sample on every machine."""
    return sorted(paths, key=lambda p: hashlib.sha1(p.encode()).hexdigest())[:count]


# --- SVG ------------------------------------------------------------------------------------

def svg_tests(tests: str, per_category: int) -> dict[str, list[str]]:
    """Category -> the sampled SVG files (paths relative to `tests`/tests) with a reference."""
    base = os.path.join(tests, "tests")
    chosen = {}
    for category in sorted(os.listdir(base)):
        found = []
        for folder, _, names in os.walk(os.path.join(base, category)):
            for name in names:
                if name.endswith(".svg") and os.path.exists(os.path.join(folder, name[:-4] +
                                                                       ".png")):
                    found.append(os.path.relpath(os.path.join(folder, name), base))
        chosen[category] = sorted(sampled(sorted(found), per_category))
    return chosen


def svg_by_rendervisor(path: str, size: tuple[int, int]) -> np.ndarray | None:
    engine = Engine()
    engine.run("comp.new", {"name": "Test", "width": size[0], "height": size[1]})
    try:
        item = engine.run("footage.import", {"path": path})
    except Exception:  # the import refused it: a failure of this renderer, counted as one
        return None
    scale = 100 * size[0] / item["width"]
    engine.run("layer.add", {"comp": "Test", "type": "image", "footage": item["id"],
                             "scale": [scale, scale]})
    return render_frame(engine.doc, "Test", 0.0, transparent=True).pixels


def svg_by_resvg(path: str, fonts: str) -> np.ndarray | None:
    import resvg_py
    try:
        return straight_rgba(resvg_py.svg_to_bytes(
            svg_path=path, width=REFERENCE_WIDTH, skip_system_fonts=True, font_dirs=[fonts],
            resources_dir=os.path.dirname(path), font_family="Noto Sans",
            serif_family="Noto Serif", sans_serif_family="Noto Sans",
            cursive_family="Yellowtail", fantasy_family="Sedgwick Ave Display",
            monospace_family="Noto Mono"))
    except Exception:
        return None


def svg_by_cairosvg(path: str) -> np.ndarray | None:
    import cairosvg
    try:
        return straight_rgba(cairosvg.svg2png(url=path, output_width=REFERENCE_WIDTH))
    except Exception:
        return None


def svg_by_skia(path: str, size: tuple[int, int]) -> np.ndarray | None:
    with open(path, "rb") as handle:
        dom = skia.SVGDOM.MakeFromStream(skia.MemoryStream(handle.read()))
    if dom is None:
        return None
    own = dom.containerSize()
    if not (own.width() > 0 and own.height() > 0):
        own = skia.Size(200, 200)  # the suite's viewBox
        dom.setContainerSize(own)
    surface = skia.Surface(*size)
    canvas = surface.getCanvas()
    canvas.clear(skia.ColorTRANSPARENT)
    canvas.scale(size[0] / own.width(), size[1] / own.height())
    dom.render(canvas)
    return surface.toarray(colorType=skia.kRGBA_8888_ColorType,
                           alphaType=skia.kUnpremul_AlphaType)


def run_svg(tests: str, per_category: int) -> dict:
    verdicts = []
    fonts = os.path.join(tests, "fonts")
    for category, files in svg_tests(tests, per_category).items():
        for relative in files:
            path = os.path.join(tests, "tests", relative)
            with open(path[:-4] + ".png", "rb") as handle:
                reference = straight_rgba(handle.read())
            size = (reference.shape[1], reference.shape[0])
            drawn = {"rendervisor": svg_by_rendervisor(path, size),
                     "resvg": svg_by_resvg(path, fonts),
                     "cairosvg": svg_by_cairosvg(path),
                     "skia": svg_by_skia(path, size)}
            verdicts.append({"test": relative, "category": category,
                             **{name: passes(image, reference) for name, image in drawn.items()}})
            print(f"{relative}: " + " ".join(f"{name}={'pass' if verdicts[-1][name] else 'FAIL'}"
                                            for name in drawn), file=sys.stderr)
    return {"verdicts": verdicts,
            "table": table(verdicts, "category", ("rendervisor", "resvg", "cairosvg", "skia"))}


# --- Lottie ---------------------------------------------------------------------------------

def lottie_by_rendervisor(path: str, animation: dict, size: tuple[int, int], frame: int,
                          folder: str, cache: dict) -> np.ndarray | None:
    key = (path, size)
    if key not in cache:
        engine = Engine()
        rate = animation["fr"]
        engine.run("comp.new", {"name": "Test", "width": size[0], "height": size[1],
                                "frameRate": rate,
                                "duration": (animation["op"] - animation["ip"]) / rate})
        try:
            engine.run("layer.add", {"comp": "Test", "type": "lottie",
                                     "path": _as_json(path, folder),
                                     "scale": [100 * size[0] / animation["w"],
                                               100 * size[1] / animation["h"]]})
        except Exception:  # the import refused it
            cache[key] = None
        else:
            cache[key] = engine.doc
    if cache[key] is None:
        return None
    return render_frame(cache[key], "Test", frame / animation["fr"], transparent=True).pixels


def _as_json(path: str, folder: str) -> str:
    """`path`, or a copy of it in `folder` named .json when it has another suffix (ThorVG's
    tests name Lottie files .lot): rendervisor knows Lottie footage by its suffix."""
    if path.lower().endswith(".json"):
        return path
    copy = os.path.join(folder, os.path.splitext(os.path.basename(path))[0] + ".json")
    shutil.copyfile(path, copy)
    return copy


def lottie_by_thorvg(data: bytes, size: tuple[int, int], frame: int) -> np.ndarray | None:
    import thorvg_python as tvg
    engine = tvg.Engine(threads=1)
    canvas = tvg.SwCanvas(engine)
    canvas.set_target(size[0], size[1], cs=tvg.Colorspace.ABGR8888)
    player = tvg.LottieAnimation(engine)
    picture = player.get_picture()
    if picture.load_data(data, "lottie", None, True) != tvg.Result.SUCCESS:
        return None
    picture.set_size(*size)
    canvas.add(picture)
    player.set_frame(float(frame))
    canvas.update()
    canvas.draw(True)
    canvas.sync()
    return _unpremultiplied(np.frombuffer(canvas.buffer_arr, np.uint8)
                            .reshape(size[1], size[0], 4))


def lottie_by_rlottie(data: bytes, size: tuple[int, int], frame: int) -> np.ndarray | None:
    from rlottie_python import LottieAnimation
    try:
        player = LottieAnimation.from_data(data.decode("utf-8-sig"))
        buffer = player.lottie_animation_render(frame_num=frame, width=size[0], height=size[1])
    except Exception:
        return None
    bgra = np.frombuffer(buffer, np.uint8).reshape(size[1], size[0], 4)
    return _unpremultiplied(bgra[..., [2, 1, 0, 3]])


def _unpremultiplied(rgba: np.ndarray) -> np.ndarray:
    alpha = rgba[..., 3:4].astype(np.float32)
    color = np.where(alpha > 0, rgba[..., :3] * 255.0 / np.maximum(alpha, 1), 0)
    return np.concatenate([np.clip(np.rint(color), 0, 255), alpha], axis=-1).astype(np.uint8)


def run_lottie(corpus: str, references: str, isolated: bool, shard: tuple[int, int] = (1, 1)
               ) -> dict:
    with open(os.path.join(references, "manifest.json")) as handle:
        manifest = json.load(handle)
    verdicts = []
    part, parts = shard
    for entry in manifest["files"][part - 1::parts]:
        with open(os.path.join(corpus, entry["path"]), "rb") as handle:
            data = handle.read()
        references_drawn = []
        for name in entry["references"]:
            with open(os.path.join(references, name), "rb") as handle:
                references_drawn.append(straight_rgba(handle.read()))
        drawn = {player: _guarded(isolated, _all_frames, player, os.path.join(corpus,
                                                                             entry["path"]),
                                  data, (entry["width"], entry["height"]), entry["frames"])
                 if player != "baked" or b'"x"' in data else None
                 for player in LOTTIE_PLAYERS}
        if drawn["baked"] is None:  # no expression to bake: the file as it is
            drawn["baked"] = drawn["rendervisor"]
        for index, (frame, reference) in enumerate(zip(entry["frames"], references_drawn)):
            verdicts.append({"file": entry["path"], "frame": frame,
                             "source": entry["path"].split(os.sep)[0],
                             **{player: passes(frames[index] if frames else None, reference)
                                for player, frames in drawn.items()}})
            print(f"{entry['path']} @{frame}: " + " ".join(
                f"{p}={'pass' if verdicts[-1][p] else 'FAIL'}" for p in drawn), file=sys.stderr)
    return {"lottie-web": manifest.get("lottie-web"), "verdicts": verdicts,
            "table": table(verdicts, "source", LOTTIE_PLAYERS)}


def _all_frames(player: str, path: str, data: bytes, size: tuple[int, int],
                frames: list[int]) -> list:
    """Every frame of one file drawn by one player."""
    from protocol.model.lottie_files import read_animation
    if player in ("rendervisor", "baked"):
        animation, cache = read_animation(data)[0], {}
        with tempfile.TemporaryDirectory() as folder:
            if player == "baked":
                path = _baked(animation, path, folder)
            return [lottie_by_rendervisor(path, animation, size, frame, folder, cache)
                    for frame in frames]
    draw = lottie_by_thorvg if player == "thorvg" else lottie_by_rlottie
    return [draw(data, size, frame) for frame in frames]


def _baked(animation: dict, path: str, folder: str) -> str:
    """A copy of the animation at `path` with its expressions evaluated into keys, as
    `lottie.bake` makes it (workers/expressions/lottie_bake.py), written into `folder`."""
    from workers.expressions.lottie_bake import bake
    baked = os.path.join(folder, "baked-" + os.path.splitext(os.path.basename(path))[0] +
                         ".json")
    with open(baked, "w") as handle:
        json.dump(bake(animation)[0], handle)
    return baked


def _guarded(isolated: bool, draw, *args):
    """`draw(*args)`, in a child process when `isolated`: a file that crashes a native player
    (or stalls it past ten minutes) then fails that player's frames instead of ending the run."""
    if not isolated:
        return draw(*args)
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing import get_context
    with ProcessPoolExecutor(1, mp_context=get_context("fork")) as pool:
        try:
            return pool.submit(draw, *args).result(timeout=600)
        except Exception:  # the child died (BrokenProcessPool) or timed out
            for child in list(getattr(pool, "_processes", {}).values()):
                child.kill()
            return None


# --- the table ------------------------------------------------------------------------------

def table(verdicts: list[dict], by: str, renderers: tuple[str, ...]) -> list[dict]:
    groups: dict[str, list[dict]] = defaultdict(list)
    for verdict in verdicts:
        groups[verdict[by]].append(verdict)
    rows = []
    for group, members in sorted(groups.items()) + [("all", verdicts)]:
        rows.append({by: group, "count": len(members),
                     **{name: round(100 * sum(v[name] for v in members) / len(members), 1)
                        for name in renderers}})
    return rows


def markdown(rows: list[dict]) -> str:
    header = list(rows[0])
    lines = ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
    for row in rows:
        lines.append("| " + " | ".join(
            f"{row[k]}%" if isinstance(row[k], float) else str(row[k]) for k in header) + " |")
    return "\n".join(lines)


def joined(runs: list[str]) -> dict:
    """The verdicts of several Lottie runs (the shards of one) as one run's result."""
    results = []
    for path in runs:
        with open(path) as handle:
            results.append(json.load(handle))
    verdicts = [verdict for result in results for verdict in result["verdicts"]]
    return {"lottie-web": results[0].get("lottie-web"), "verdicts": verdicts,
            "table": table(verdicts, "source", LOTTIE_PLAYERS)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    kinds = parser.add_subparsers(dest="kind", required=True)
    svg = kinds.add_parser("svg")
    svg.add_argument("tests")
    svg.add_argument("--per-category", type=int, default=60)
    svg.add_argument("--json")
    lottie = kinds.add_parser("lottie")
    lottie.add_argument("corpus")
    lottie.add_argument("references")
    lottie.add_argument("--json")
    lottie.add_argument("--in-process", action="store_true",
                        help="draw the native players in this process (faster; a file that "
                             "crashes one ends the run)")
    lottie.add_argument("--shard", default="1/1", metavar="K/N",
                        help="draw only the K-th of every N files (run N at once, then "
                             "`tables` their JSON together)")
    tables = kinds.add_parser("tables", help="one table from the JSON of several runs")
    tables.add_argument("runs", nargs="+")
    tables.add_argument("--json")
    args = parser.parse_args()
    if args.kind == "tables":
        result = joined(args.runs)
    elif args.kind == "svg":
        result = run_svg(args.tests, args.per_category)
    else:
        part, parts = (int(n) for n in args.shard.split("/"))
        result = run_lottie(args.corpus, args.references, not args.in_process, (part, parts))
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(result, handle, indent=1)
    print(markdown(result["table"]))


if __name__ == "__main__":
    main()
