"""Reference frames of Lottie files drawn by lottie-web (the reference player, its SVG renderer)
in Chromium, for scripts/conformance.py's Lottie part. A script, not a test: it needs Debian's
`chromium`, Playwright for Python and lottie-web from npm, none of which rendervisor needs.

    apt-get install chromium
    .venv/bin/pip install -e '.[conformance]'
    npm install --prefix /tmp/lottie-web lottie-web@5
    .venv/bin/python scripts/lottie_references.py CORPUS REFERENCES \\
        --lottie-web /tmp/lottie-web/node_modules/lottie-web [--files 96] [--frames 4]

CORPUS is a folder holding Lottie files (`.json`, `.lot`) anywhere under it (docs/conformance.md
says how to make it); it is only read. The sample is `--files` of them chosen by a hash of
their paths (the same sample on every machine), passing over files lottie-web reports an
error on (it then draws what it had, often nothing), each drawn at `--frames` frames spread
over its length, at most `--side` px on its longer side. REFERENCES gets one PNG per frame
(transparent where nothing is drawn) and manifest.json, which says for each file its path in
CORPUS, the size drawn at and the frames. Nothing is fetched: lottie-web is read from the
folder given, and the page has no network.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from protocol.model.lottie_files import LottieError, read_animation  # noqa: E402

LOTTIE_SUFFIXES = (".json", ".lot")
PAGE = """<!doctype html><html><head><style>
html, body { margin: 0; background: transparent; }
#stage { width: %dpx; height: %dpx; overflow: hidden; }
</style></head><body><div id="stage"></div></body></html>"""
# lottie-web catches what goes wrong while it builds or draws a frame and reports it as an
# `error` event (it then draws what it had, often nothing): a file that raised one is not
# played as its author meant, and gets no reference.
LOAD = """data => {
    window.errors = [];
    window.anim = lottie.loadAnimation({container: document.getElementById('stage'),
        renderer: 'svg', loop: false, autoplay: false, animationData: data});
    window.anim.addEventListener('error', e => window.errors.push(String(e.nativeError || e)));
    window.anim.addEventListener('data_failed', () => window.errors.push('data failed'));
}"""


def lottie_files(corpus: str) -> list[str]:
    """Every Lottie animation under `corpus` (a JSON file with the keys one has), relative."""
    found = []
    for folder, subfolders, names in os.walk(corpus):
        subfolders.sort()
        for name in sorted(names):
            if not name.lower().endswith(LOTTIE_SUFFIXES):
                continue
            path = os.path.join(folder, name)
            try:
                with open(path, "rb") as handle:
                    read_animation(handle.read())
            except (OSError, LottieError):
                continue
            found.append(os.path.relpath(path, corpus))
    return found


def in_sample_order(paths: list[str]) -> list[str]:
    """`paths` in the order of a hash of each: the same sample on every machine."""
    return sorted(paths, key=lambda p: hashlib.sha1(p.encode()).hexdigest())


def frames_of(animation: dict, count: int) -> list[int]:
    """`count` whole frames spread over the animation (from 0, its first), none at its end."""
    length = int(animation["op"] - animation["ip"])
    return sorted({min(length - 1, round(length * (i + 0.5) / count)) for i in range(count)})


def drawn_size(animation: dict, side: int) -> tuple[int, int]:
    scale = min(1.0, side / max(animation["w"], animation["h"]))
    return max(1, round(animation["w"] * scale)), max(1, round(animation["h"] * scale))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("corpus")
    parser.add_argument("references")
    parser.add_argument("--lottie-web", required=True,
                        help="the lottie-web package folder (node_modules/lottie-web)")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--files", type=int, default=96)
    parser.add_argument("--frames", type=int, default=4)
    parser.add_argument("--side", type=int, default=400)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    player = os.path.join(args.lottie_web, "build", "player", "lottie.min.js")
    with open(player, encoding="utf-8") as handle:
        player_script = handle.read()
    os.makedirs(args.references, exist_ok=True)
    manifest = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=args.chromium,
                                             args=["--no-sandbox"])
        context = browser.new_context(offline=True)
        for relative in in_sample_order(lottie_files(args.corpus)):
            if len(manifest) == args.files:
                break
            with open(os.path.join(args.corpus, relative), "rb") as handle:
                animation = read_animation(handle.read())[0]
            width, height = drawn_size(animation, args.side)
            frames = frames_of(animation, args.frames)
            page = context.new_page()
            page.set_viewport_size({"width": width, "height": height})
            page.set_content(PAGE % (width, height))
            page.add_script_tag(content=player_script)
            index, names = len(manifest), []
            try:
                page.evaluate(LOAD, animation)
                for frame in frames:
                    page.evaluate("f => window.anim.goToAndStop(f, true)", frame)
                    name = f"{index:03d}_{frame:05d}.png"
                    page.locator("#stage").screenshot(path=os.path.join(args.references, name),
                                                      omit_background=True)
                    names.append(name)
                errors = page.evaluate("window.errors")
                if errors:
                    raise RuntimeError(errors[0])
            except Exception as error:  # a file lottie-web cannot play: no reference for it
                print(f"{relative}: lottie-web did not play it ({error})", file=sys.stderr)
                page.close()
                for name in names:
                    os.remove(os.path.join(args.references, name))
                continue
            page.close()
            manifest.append({"path": relative, "width": width, "height": height,
                             "frames": frames, "references": names})
            print(f"{index + 1}: {relative} ({len(frames)} frames)", file=sys.stderr)
        browser.close()
    with open(os.path.join(args.references, "manifest.json"), "w") as handle:
        json.dump({"lottie-web": _version(args.lottie_web), "files": manifest}, handle,
                  indent=1)


def _version(folder: str) -> str:
    with open(os.path.join(folder, "package.json"), encoding="utf-8") as handle:
        return json.load(handle).get("version", "?")


if __name__ == "__main__":
    main()
