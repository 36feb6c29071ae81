"""The MoviePy 2 peer for scripts/bench_templates.py: the same cards, one video per row of the
bench's rows.csv, made in one script one after another, with the encoder settings the bench
gives rendervisor (libx264, preset veryfast, crf 23, yuv420p, 30 fps, no audio). Prints one
JSON object with the wall seconds of all the rows together, building the clips and writing
them as `write_videofile` does.

    .venv/bin/python scripts/peers/moviepy_cards.py ROWS.csv OUTPUT_FOLDER

MoviePy draws with numpy and Pillow on one core and pipes raw frames to an ffmpeg process (its
own imageio-ffmpeg binary), so the encoder gets the other cores, as it would for a MoviePy
user. The card is the bench's: the same constants and motion. MoviePy places a clip by its
top-left corner, so the growing picture is placed by its scaled size about the same center,
and the title by its size from the same left end and baseline (Pillow sizes a label by the
font's ascent and descent).
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import sys
import time

import rendercv_fonts

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))

import bench_templates as card  # noqa: E402

ROBOTO = os.path.join(os.path.dirname(rendercv_fonts.__file__), "Roboto", "Roboto-Regular.ttf")
ENCODER = {"codec": "libx264", "preset": "veryfast", "pixel_format": "yuv420p",
           "ffmpeg_params": ["-crf", "23"]}


def _rgb(color: str) -> tuple[int, int, int]:
    return tuple(int(color[i:i + 2], 16) for i in (1, 3, 5))


def _along(start: float, end: float, t: float, span: float) -> float:
    return start + (end - start) * min(1.0, t / span)


def card_clip(row: dict, folder: str):
    """One row's card as a MoviePy CompositeVideoClip."""
    from moviepy import ColorClip, CompositeVideoClip, ImageClip, TextClip, vfx

    duration = card.DURATION
    background = ColorClip((card.WIDTH, card.HEIGHT), color=_rgb(row["color"]),
                           duration=duration)
    cx, cy = card.PICTURE_CENTER

    def scale(t: float) -> float:
        return _along(*card.PICTURE_SCALE, t, card.PICTURE_GROW) / 100.0

    def picture_top_left(t: float) -> tuple[float, float]:
        side = card.PICTURE_SIZE * scale(t)
        return cx - side / 2, cy - side / 2

    picture = (ImageClip(os.path.join(folder, row["logo"]), duration=duration)
               .resized(scale).with_position(picture_top_left))
    title = TextClip(font=ROBOTO, text=row["title"], font_size=card.TITLE_SIZE,
                     color=(255, 255, 255), margin=(0, card.TITLE_SIZE // 4),
                     duration=duration)
    height = title.size[1]

    def title_top_left(t: float) -> tuple[float, float]:
        x = _along(card.TITLE_FROM[0], card.TITLE_TO[0], t, card.TITLE_SLIDE)
        return x, card.TITLE_FROM[1] - height * 0.75

    title = title.with_position(title_top_left).with_effects([vfx.CrossFadeIn(card.TITLE_FADE)])
    return CompositeVideoClip([background, picture, title],
                              size=(card.WIDTH, card.HEIGHT)).with_duration(duration)


def main(argv: list[str]) -> int:
    rows_path, output = argv
    folder = os.path.dirname(os.path.abspath(rows_path))
    rows = card.read_rows(rows_path)
    os.makedirs(output, exist_ok=True)
    started = time.perf_counter()
    for number, row in enumerate(rows, start=1):
        clip = card_clip(row, folder)
        clip.write_videofile(os.path.join(output, f"card_{number}.mp4"), fps=card.FPS,
                             audio=False, logger=None, **ENCODER)
        clip.close()
    seconds = time.perf_counter() - started
    # moviepy.__version__ of 2.2.1 still says 2.1.2; the installed distribution knows.
    print(json.dumps({"peer": "moviepy", "moviepy_version": importlib.metadata.version("moviepy"),
                      "rows": len(rows), "seconds": seconds}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
