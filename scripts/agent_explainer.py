"""How many calls a finished 15-second explainer takes an agent, and what layout_check says of
it: the official MCP SDK client drives a real `rendervisor mcp` the way the guide says to work
(read rendervisor://guide, build in one command_batch with scenes, transitions and presets,
look with render_filmstrip, check with layout_check, render), with the values written as the
tool descriptions give them. Every request to the server counts, and so does every call that
failed. Prints one JSON object: the calls, the failures, the findings, the rendered file's
frames, length and sound (loudness by pyloudnorm, true peak), and where the filmstrip is.

    .venv/bin/python scripts/agent_explainer.py [--out /tmp/explainer] [--filmstrip PNG]
                                                [--first-cut]

The explainer, 1920x1080 at 30 fps: four scenes, each its own comp, over one graded backdrop:
an intro (a logo from Font Awesome and a title sliding up), three features with icons
cascading in, a bar chart growing bar after bar with a number counting up, and a tagline in
English, Arabic and Japanese; joined by a push, a crossfade and a zoom. Over them: captions
from an SRT file and a music bed that fades in and out, the mix brought to -16 LUFS.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import sys
import wave

import anyio
import av
import numpy as np
import pyloudnorm
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from scipy.signal import resample_poly

SERVER = StdioServerParameters(command=sys.executable, args=["-m", "supervisor.cli", "mcp"])
WIDTH, HEIGHT = 1920, 1080
LINES = ("Meet Lumen, the light that learns your day", "Lights, heat and power in one app",
         "Homes using Lumen save a third of their energy", "Brighter homes, everywhere")
# Each line's cue, in seconds: with transitions the scenes overlap; the first cut's scenes play
# end to end (4, 4.5, 4.5 and 3.7 s), each line shown while its scene is.
CUES = ((0.4, 3.4), (3.9, 7.6), (8.1, 11.4), (11.9, 14.6))
FIRST_CUT_CUES = ((0.4, 3.6), (4.4, 8.1), (8.9, 12.6), (13.4, 16.3))
FEATURES = (("lightbulb", "Lights that follow the sun"), ("temperature-half", "Heat where you are"),
            ("solar-panel", "Power from your roof"))
BARS = (0.35, 0.55, 0.75, 1.0)
TAGLINES = (("Brighter homes, everywhere.", "Poppins"), ("منازل أكثر إشراقًا في كل مكان", "Noto Sans Arabic"),
            ("どこでも、明るい家を。", "Noto Sans JP"))


class Steps:
    """A command_batch being written: `add` returns the step's index, for "$N.key"."""

    def __init__(self) -> None:
        self.steps: list[dict] = []

    def add(self, command: str, **params) -> int:
        self.steps.append({"id": command, "params": params})
        return len(self.steps) - 1


def scene(steps: Steps, name: str, seconds: float) -> str:
    steps.add("comp.new", name=name, width=WIDTH, height=HEIGHT, duration=seconds,
              frameRate=30)
    return name


def text(steps: Steps, comp: str, **params) -> int:
    return steps.add("layer.add", comp=comp, type="text", **{"fill": "#ffffff", **params})


def explainer_steps(captions: str, music: str, first_cut: bool = False) -> list[dict]:
    """The one atomic command_batch that builds, animates and joins the explainer; with
    `first_cut`, the scenes end to end without transitions, each fading in and out, as a
    first cut made without scenes' transitions would be."""
    s = Steps()
    # Scene 1: the logo (a ring holding a bolt icon) and the title.
    intro = scene(s, "Intro", 4.0)
    bolt = s.add("font.glyphs", family="Font Awesome 7 Free", search="bolt")
    ring = s.add("layer.add", comp=intro, type="shape", name="Ring", shape="ellipse",
                 size=[220, 220], fill="#ffd166", position=[960, 400])
    s.add("preset.apply", comp=intro, layer=f"${ring}.layer", preset="pop", time=0.2)
    icon = text(s, intro, name="Bolt", text=f"${bolt}.glyphs.0.text", font="Font Awesome 7 Free",
                weight=900, size=120, fill="#1b263b", position=[960, 400])
    s.add("preset.apply", comp=intro, layer=f"${icon}.layer", preset="pop", time=0.35)
    title = text(s, intro, name="Title", text="Lumen Home", font="Poppins", weight=700,
                 size=120, position=[960, 640])
    s.add("preset.apply", comp=intro, layer=f"${title}.layer", preset="slideIn", time=0.6,
          params={"from": "bottom", "distance": 80})
    s.add("preset.apply", comp=intro, layer=f"${title}.layer", preset="fadeIn", time=0.6)
    # Scene 2: three features, each an icon and a line, cascading in from the left.
    features = scene(s, "Features", 4.5)
    rows = []
    for number, (icon_name, line) in enumerate(FEATURES):
        found = s.add("font.glyphs", family="Font Awesome 7 Free", search=icon_name)
        y = 300 + 170 * number
        rows.append(text(s, features, name=f"Icon {number + 1}", text=f"${found}.glyphs.0.text",
                         font="Font Awesome 7 Free", weight=900, size=80, fill="#ffd166",
                         position=[520, y]))
        rows.append(text(s, features, name=f"Feature {number + 1}", text=line, font="Lato",
                         size=64, align="left", position=[620, y]))
    s.add("preset.apply", comp=features, layer=f"${rows[0]}.layer", preset="cascade",
          time=0.5, params={"layers": [f"${row}.layer" for row in rows[1:]],
                            "preset": "slideIn", "stagger": 0.15,
                            "params": {"from": "left", "distance": 120}})
    # Scene 3: a bar chart growing bar after bar, and the number they add up to.
    growth = scene(s, "Growth", 4.5)
    s.add("layer.add", comp=growth, type="shape", name="Axis", shape="rect", size=[900, 6],
          fill="#e0fbfc", position=[960, 700])
    bars = [s.add("layer.add", comp=growth, type="shape", name=f"Bar {n + 1}", shape="rect",
                  size=[140, 400 * height], cornerRadius=8, fill="#ffd166",
                  position=[660 + 200 * n, 697 - 200 * height])
            for n, height in enumerate(BARS)]
    s.add("preset.apply", comp=growth, layer=f"${bars[0]}.layer", preset="cascade", time=0.3,
          params={"layers": [f"${bar}.layer" for bar in bars[1:]], "preset": "growFrom",
                  "stagger": 0.2})
    total = text(s, growth, name="Total", text="0", font="Poppins", weight=700, size=110,
                 position=[960, 190])
    s.add("preset.apply", comp=growth, layer=f"${total}.layer", preset="countUp", time=0.5,
          duration=2.0, params={"to": 1250000, "format": "{} homes"})
    # Scene 4: the tagline in three languages.
    tagline = scene(s, "Tagline", 3.7)
    lines = [text(s, tagline, name=f"Tagline {n + 1}", text=words, font=font,
                  weight=700 if n == 0 else 400, size=96 if n == 0 else 72,
                  position=[960, 330 + 150 * n])
             for n, (words, font) in enumerate(TAGLINES)]
    s.add("preset.apply", comp=tagline, layer=f"${lines[0]}.layer", preset="cascade", time=0.4,
          params={"layers": [f"${line}.layer" for line in lines[1:]], "preset": "fadeIn",
                  "stagger": 0.35})
    # The explainer: a graded backdrop, the scenes end to end, captions and music over them.
    s.add("comp.new", name="Explainer", width=WIDTH, height=HEIGHT, frameRate=30,
          background="#0d1b2a", audioLoudness=-16)
    s.add("layer.add", comp="Explainer", type="shape", name="Backdrop", shape="rect",
          size=[WIDTH, HEIGHT], fill={"type": "linear", "start": [0, 0], "end": [WIDTH, HEIGHT],
                                      "stops": [[0, "#0d1b2a"], [1, "#1b4965"]]})
    for source in (intro, features, growth, tagline):
        added = s.add("scene.add", comp="Explainer", source=source)
        if first_cut:
            for preset in ("fadeIn", "fadeOut"):
                s.add("preset.apply", comp="Explainer", layer=f"${added}.layer", preset=preset)
    for number, kind, params in ((2, "push", {"direction": "fromRight"}), (3, "crossfade", {}),
                                 (4, "zoom", {"direction": "in"})):
        if not first_cut:
            s.add("transition.set", comp="Explainer", scene=number, kind=kind, duration=0.6,
                  **params)
    s.add("captions.import", comp="Explainer", path=captions,
          style={"font": "Lato", "weight": 700, "size": 48})
    bed = s.add("layer.add", comp="Explainer", type="audio", name="Music", path=music)
    s.add("preset.apply", comp="Explainer", layer=f"${bed}.layer", preset="audioFadeIn")
    s.add("preset.apply", comp="Explainer", layer=f"${bed}.layer", preset="audioFadeOut",
          duration=1.5)
    return s.steps


def write_captions(path: str, cues) -> str:
    """The lines as an SRT file, each at its cue."""
    def stamp(seconds: float) -> str:
        return f"00:00:{int(seconds):02d},{round(seconds % 1 * 1000):03d}"

    with open(path, "w") as handle:
        for number, (line, (start, end)) in enumerate(zip(LINES, cues), start=1):
            handle.write(f"{number}\n{stamp(start)} --> {stamp(end)}\n{line}\n\n")
    return path


def write_music(path: str, seconds: float = 16.0, rate: int = 48000) -> str:
    """A soft chord pad (A major, a slow swell), as 16-bit stereo WAV."""
    times = np.arange(int(seconds * rate)) / rate
    pad = sum(np.sin(2 * np.pi * f * times) for f in (220.0, 277.18, 329.63, 440.0)) / 4
    pad *= 0.5 * (0.8 + 0.2 * np.sin(2 * np.pi * 0.25 * times))
    samples = (np.stack([pad, pad], axis=1) * 32767).astype("<i2")
    with wave.open(path, "wb") as out:
        out.setnchannels(2)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(samples.tobytes())
    return path


def sound_of(path: str) -> dict:
    """The rendered file's sound: its loudness (pyloudnorm) and true peak (4x oversampled)."""
    with av.open(path) as container:
        stream = container.streams.audio[0]
        resampler = av.AudioResampler(format="fltp", layout="stereo", rate=48000)
        chunks = [resampled.to_ndarray() for frame in container.decode(stream)
                  for resampled in resampler.resample(frame)]
    signal = np.concatenate(chunks, axis=1).astype(np.float64)
    peak = np.abs(resample_poly(signal, 4, 1, axis=1)).max()
    return {"loudness": round(pyloudnorm.Meter(48000).integrated_loudness(signal.T), 2),
            "truePeak": round(20 * np.log10(peak), 2)}


async def build_and_render(out: str, filmstrip: str, first_cut: bool) -> dict:
    calls, failures = 0, []

    async def call(name: str, arguments: dict):
        nonlocal calls
        calls += 1
        result = await client.call_tool(name, arguments)
        if result.is_error:
            failures.append({"tool": name, "error": result.content[0].text[:300]})
        return result

    captions = write_captions(os.path.join(out, "explainer.srt"),
                              FIRST_CUT_CUES if first_cut else CUES)
    music = write_music(os.path.join(out, "music.wav"))
    output = os.path.join(out, "explainer.mp4")
    async with stdio_client(SERVER) as (read, write):
        async with ClientSession(read, write) as client:
            await client.initialize()
            calls += 1
            await client.read_resource("rendervisor://guide")
            calls += 1
            await call("command_batch", {"atomic": True,
                                         "steps": explainer_steps(captions, music,
                                                                  first_cut)})
            sheet = await call("render_filmstrip", {"comp": "Explainer", "count": 12,
                                                    "columns": 4, "max_side": 1200})
            image = next(part for part in sheet.content if part.type == "image")
            with open(filmstrip, "wb") as handle:
                handle.write(base64.b64decode(image.data))
            checked = await call("layout_check", {"comp": "Explainer"})
            await call("command_batch", {"steps": [
                {"id": "renderQueue.add", "params": {"comp": "Explainer", "output": output}},
                {"id": "renderQueue.render"}]})
    with av.open(output) as container:
        frames = sum(1 for _ in container.decode(video=0))
        seconds = float(container.duration / av.time_base)
    findings = checked.structured_content["findings"]
    return {"calls": calls, "failed": len(failures), "failures": failures,
            "findings": [{key: found.get(key) for key in ("kind", "layer", "scene", "time",
                                                           "message")} for found in findings],
            "output": output, "frames": frames, "seconds": round(seconds, 2),
            "sound": sound_of(output), "filmstrip": filmstrip}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="/tmp/explainer")
    parser.add_argument("--filmstrip", default=None,
                        help="where the filmstrip PNG goes (default: OUT/filmstrip.png)")
    parser.add_argument("--first-cut", action="store_true",
                        help="no transitions: each scene fades in and out, as a first cut")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    filmstrip = args.filmstrip or os.path.join(args.out, "filmstrip.png")
    print(json.dumps(anyio.run(build_and_render, args.out, filmstrip, args.first_cut),
                     ensure_ascii=False))


if __name__ == "__main__":
    main()
