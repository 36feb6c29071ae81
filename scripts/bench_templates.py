"""Templates at scale: N rows (100 by default) of a 3-second 720p card, each row its own title,
background color and picture, rendered three ways, one after another on this machine:

- `rendervisor render card.rvproj --data rows.csv` on every core (one process, rows x chunks
  on the render workers);
- N separate `rendervisor render card.rvproj --set title=... --set color=... --set logo=...`
  processes, run the same way (each on every core), one after another as a shell loop over
  the rows would;
- MoviePy 2 making the same cards in one script (scripts/peers/moviepy_cards.py).

Prints one JSON object: each way's wall seconds and rows per minute, and the ratios of
`--data` to the other two. Every video is H.264, 1280x720, 30 fps, preset veryfast, crf 23,
yuv420p (x264's defaults as MoviePy's ffmpeg uses them), no audio.

    .venv/bin/python scripts/bench_templates.py [--rows 100] [--workers N]
                                                          [--keep DIR]

The card: a full-frame background in the row's color, the row's 240x240 picture growing from
80% to 100% over its first second, and the row's title (Roboto 64 px, white) sliding 40 px
left and fading in over its first 0.8 s. Pictures are drawn here, one distinct badge per row.
Goals: `--data` at least 2x the separate processes and 5x MoviePy in rows per minute.
"""

from __future__ import annotations

import argparse
import colorsys
import csv
import json
import math
import os
import subprocess
import sys
import tempfile
import time

import skia

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from supervisor.engine.engine import Engine  # noqa: E402

WIDTH, HEIGHT, FPS, DURATION = 1280, 720, 30, 3.0
PICTURE_SIZE = 240
PICTURE_CENTER = (330, 360)
PICTURE_SCALE = (80, 100)  # percent, over PICTURE_GROW seconds, then held
PICTURE_GROW = 1.0
TITLE_SIZE = 64
TITLE_FROM, TITLE_TO = (560, 380), (520, 380)  # the title's left end at its baseline
TITLE_SLIDE = 0.8  # seconds of the slide
TITLE_FADE = 0.5  # seconds of the fade in
CODEC_OPTIONS = {"preset": "veryfast", "crf": "23", "pix_fmt": "yuv420p"}
GOAL_VS_SEPARATE, GOAL_VS_MOVIEPY = 2.0, 5.0


def row_color(number: int, rows: int) -> str:
    red, green, blue = colorsys.hsv_to_rgb(number / rows, 0.55, 0.45)
    return "#" + "".join(f"{round(c * 255):02x}" for c in (red, green, blue))


def write_picture(path: str, number: int, rows: int) -> str:
    """A badge of its own for each row: a disc in another hue, a white polygon of 3 to 8
    corners on it."""
    surface = skia.Surface(PICTURE_SIZE, PICTURE_SIZE)
    canvas = surface.getCanvas()
    canvas.clear(skia.ColorTRANSPARENT)
    red, green, blue = colorsys.hsv_to_rgb((number / rows + 0.5) % 1, 0.6, 0.95)
    paint = skia.Paint(AntiAlias=True, Color=skia.Color4f(red, green, blue, 1).toColor())
    half = PICTURE_SIZE / 2
    canvas.drawCircle(half, half, half, paint)
    corners = 3 + number % 6
    points = [skia.Point(half + 70 * math.cos(-math.pi / 2 + 2 * math.pi * c / corners),
                         half + 70 * math.sin(-math.pi / 2 + 2 * math.pi * c / corners))
              for c in range(corners)]
    paint.setColor(skia.ColorWHITE)
    canvas.drawPath(skia.Path.Polygon(points, True), paint)
    surface.makeImageSnapshot().save(path, skia.kPNG)
    return path


def write_rows(folder: str, rows: int) -> str:
    """The pictures and rows.csv (title, color, logo: relative to the CSV's folder)."""
    os.makedirs(os.path.join(folder, "pictures"), exist_ok=True)
    path = os.path.join(folder, "rows.csv")
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["title", "color", "logo"])
        for number in range(1, rows + 1):
            write_picture(os.path.join(folder, "pictures", f"{number}.png"), number, rows)
            writer.writerow([f"Card number {number}", row_color(number, rows),
                             f"pictures/{number}.png"])
    return path


def read_rows(path: str) -> list[dict]:
    with open(path, newline="") as handle:
        return list(csv.DictReader(handle))


def build_card(folder: str, first_picture: str) -> str:
    """The card as a template (params title, color, logo), saved as card.rvproj with one
    queue item writing out/data/card_[row].mp4."""
    engine = Engine()
    run = engine.run
    run("comp.new", {"name": "Card", "width": WIDTH, "height": HEIGHT, "frameRate": FPS,
                     "duration": DURATION})
    run("layer.add", {"comp": "Card", "type": "solid", "name": "Background",
                      "color": "#333333"})
    run("layer.add", {"comp": "Card", "type": "image", "name": "Picture", "path": first_picture,
                      "position": list(PICTURE_CENTER)})
    for time_, scale in ((0.0, PICTURE_SCALE[0]), (PICTURE_GROW, PICTURE_SCALE[1])):
        run("prop.addKey", {"comp": "Card", "layer": "Picture", "path": "transform.scale",
                            "time": time_, "value": [scale, scale]})
    run("layer.add", {"comp": "Card", "type": "text", "name": "Title", "text": "Title",
                      "font": "Roboto", "size": TITLE_SIZE, "fill": "#ffffff",
                      "align": "left"})
    for time_, where in ((0.0, TITLE_FROM), (TITLE_SLIDE, TITLE_TO)):
        run("prop.addKey", {"comp": "Card", "layer": "Title", "path": "transform.position",
                            "time": time_, "value": list(where)})
    for time_, opacity in ((0.0, 0), (TITLE_FADE, 100)):
        run("prop.addKey", {"comp": "Card", "layer": "Title", "path": "transform.opacity",
                            "time": time_, "value": opacity})
    run("template.addParam", {"name": "title", "comp": "Card", "layer": "Title",
                              "path": "text", "default": "Title"})
    run("template.addParam", {"name": "color", "comp": "Card", "layer": "Background",
                              "path": "color", "default": "#333333"})
    run("template.addParam", {"name": "logo", "comp": "Card", "layer": "Picture",
                              "path": "footage", "default": first_picture})
    path = os.path.join(folder, "card.rvproj")
    run("project.save", {"path": path})
    run("renderQueue.add", {"comp": "Card", "output": os.path.join(folder, "out", "data",
                                                                   "card_[row].mp4"),
                            "codecOptions": CODEC_OPTIONS})
    run("project.save", {})
    return path


def rendervisor(*args: str, workers: int | None) -> None:
    command = [sys.executable, "-m", "supervisor.cli", "render", *args, "--quiet"]
    if workers is not None:
        command += ["--workers", str(workers)]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False,
                            env={**os.environ, "PYTHONPATH": ROOT})
    if result.returncode != 0:
        raise SystemExit(f"rendervisor render failed ({result.returncode}): {result.stderr}")


def timed(action) -> float:
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


def cpu_pressure() -> float | None:
    """/proc/pressure/cpu "some avg10": how much other work kept tasks waiting for a core."""
    try:
        with open("/proc/pressure/cpu") as handle:
            return float(handle.readline().split()[1].split("=")[1])
    except (OSError, IndexError, ValueError):
        return None


def measure(rows: int, workers: int | None, keep: str | None) -> dict:
    with tempfile.TemporaryDirectory(prefix="rendervisor-bench-templates-") as scratch:
        folder = keep or scratch
        os.makedirs(folder, exist_ok=True)
        data = write_rows(folder, rows)
        table = read_rows(data)
        project = build_card(folder, os.path.join(folder, table[0]["logo"]))
        pressure = {"before": cpu_pressure()}

        with_data = timed(lambda: rendervisor(project, "--data", data, workers=workers))
        pressure["after_data"] = cpu_pressure()

        def separately() -> None:
            for number, row in enumerate(table, start=1):
                rendervisor(project, "--set", f"title={row['title']}",
                            "--set", f"color={row['color']}",
                            "--set", f"logo={os.path.join(folder, row['logo'])}",
                            "--output", os.path.join(folder, "out", "separate",
                                                     f"card_{number}.mp4"), workers=workers)

        separate = timed(separately)
        pressure["after_separate"] = cpu_pressure()

        peer = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "peers",
                                                            "moviepy_cards.py"), data,
                               os.path.join(folder, "out", "moviepy")],
                              capture_output=True, text=True, check=False)
        if peer.returncode != 0:
            raise SystemExit(f"the MoviePy peer failed: {peer.stderr}")
        moviepy = json.loads(peer.stdout.splitlines()[-1])
        pressure["after_moviepy"] = cpu_pressure()
        made = {way: len(os.listdir(os.path.join(folder, "out", way)))
                for way in ("data", "separate", "moviepy")}

    def per_minute(seconds: float) -> float:
        return round(rows * 60 / seconds, 2)

    result = {
        "rows": rows, "frames_per_row": int(DURATION * FPS), "size": [WIDTH, HEIGHT],
        "workers": workers or len(os.sched_getaffinity(0)), "codec_options": CODEC_OPTIONS,
        "videos_made": made,
        "data": {"seconds": round(with_data, 2), "rows_per_minute": per_minute(with_data)},
        "separate_processes": {"seconds": round(separate, 2),
                               "rows_per_minute": per_minute(separate)},
        "moviepy": {"seconds": round(moviepy["seconds"], 2),
                    "rows_per_minute": per_minute(moviepy["seconds"]),
                    "version": moviepy["moviepy_version"]},
        "cpu_pressure_some_avg10": pressure,
    }
    result["ratio_vs_separate"] = round(separate / with_data, 2)
    result["ratio_vs_moviepy"] = round(moviepy["seconds"] / with_data, 2)
    result["goals_met"] = {"vs_separate": result["ratio_vs_separate"] >= GOAL_VS_SEPARATE,
                           "vs_moviepy": result["ratio_vs_moviepy"] >= GOAL_VS_MOVIEPY}
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=100,
                        help="how many rows (cards) each way renders (default 100)")
    parser.add_argument("--workers", type=int, help="render workers (default: every core)")
    parser.add_argument("--keep", metavar="DIR", help="make everything in DIR and keep it")
    args = parser.parse_args(argv)
    print(json.dumps(measure(args.rows, args.workers, args.keep), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
