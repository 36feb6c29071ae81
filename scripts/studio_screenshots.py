"""Make docs/studio.md's screenshots: the studio of an example mid-render, a live session's
calls, and the inline player in a small host page.

    .venv/bin/python scripts/studio_screenshots.py [--out docs]

Needs Debian's chromium (as the studio's tests do). Every run starts real processes on copies
of the examples in a temporary folder; nothing is written beside the repository's files but
the PNGs.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)

from tests.helpers.browser import chromium  # noqa: E402
from tests.helpers.mcp_process import McpProcess  # noqa: E402
from tests.helpers.studio_process import StudioProcess  # noqa: E402
from tests.studio.test_player import HOST  # noqa: E402

VIEWPORT = {"width": 1100, "height": 680}


def project_studio(browser, folder: str, out: str) -> None:
    for name in ("lower_third.rvproj", "lower_third_clip.mp4", "lower_third_bed.wav"):
        shutil.copy(os.path.join(ROOT, "examples", name), folder)
    studio = StudioProcess(os.path.join(folder, "lower_third.rvproj"))
    try:
        page = browser.new_page(viewport=VIEWPORT)
        page.goto(studio.url)
        page.wait_for_selector(".layer-name")
        page.locator("#scrub").evaluate(
            "(el) => { el.value = 45; el.dispatchEvent(new Event('input')); }")
        page.wait_for_selector("#frame[data-frame='45']")
        page.click("#render")
        item = page.locator("li.render-item[data-status=rendering]")
        item.wait_for(timeout=120_000)
        while float(item.get_attribute("data-progress") or 0) < 0.3:
            time.sleep(0.05)
        page.screenshot(path=os.path.join(out, "studio.png"))
        page.wait_for_selector("li.render-item[data-status=done]", timeout=300_000)
    finally:
        studio.stop()


def live_session(browser, folder: str, out: str) -> None:
    for name in ("title_card.rvproj",):
        shutil.copy(os.path.join(ROOT, "examples", name), folder)
    server = McpProcess("--studio")
    try:
        server.initialize()
        while not any("studio follows" in line for line in server.stderr_lines):
            time.sleep(0.05)
        url = next(line.split(" at ", 1)[1].strip() for line in server.stderr_lines
                   if "studio follows" in line)
        server.run("command_run", {"id": "project.open",
                                   "params": {"path": os.path.join(folder, "title_card.rvproj")}})
        page = browser.new_page(viewport=VIEWPORT)
        page.goto(url)
        page.wait_for_selector(".layer-name")
        server.run("command_run", {"id": "layer.add", "params": {
            "comp": "Title Card", "type": "text", "text": "rendervisor", "name": "Credit", "size": 28,
            "fill": "#ffffff", "position": [1100, 660]}})
        comp = server.run("command_run", {"id": "comp.list"})["structuredContent"]
        server.run("layout_check", {"comp": comp["comps"][0]["name"]})
        server.call("shell", {"command": "for part in 1 2 3 4 5 6 7 8 9; do echo encoding part "
                                         "$part of 9; sleep 1; done"},
                    meta={"progressToken": "shell"})
        page.locator("#scrub").evaluate(
            "(el) => { el.value = 50; el.dispatchEvent(new Event('input')); }")
        page.wait_for_selector("li.call[data-tool=shell] .progress-text:has-text('part 3')",
                               timeout=60_000)
        page.wait_for_selector("#frame[data-frame='50']")
        page.screenshot(path=os.path.join(out, "studio-live.png"))
    finally:
        server.stop()


def player(browser, out: str) -> None:
    server = McpProcess()
    try:
        server.initialize()
        server.run("command_run", {"id": "project.open", "params": {
            "path": os.path.join(ROOT, "examples", "logo_reveal.rvproj")}})
        comps = server.run("command_run", {"id": "comp.list"})["structuredContent"]["comps"]
        arguments = {"comp": comps[0]["name"], "count": 8}
        result = server.run("render_filmstrip", arguments)
        html = server.wait_for(server.request("resources/read", {
            "uri": "ui://rendervisor/player"}))["result"]["contents"][0]["text"]
    finally:
        server.stop()
    page = browser.new_page(viewport={"width": 620, "height": 420})
    page.set_content(HOST)
    page.evaluate("([player, args, result]) => window.host(player, args, result)",
                  [html, arguments, result])
    app = page.frame_locator("#app")
    app.locator("#screen").wait_for()
    app.locator("#cell").evaluate(
        "(el) => { el.value = 5; el.dispatchEvent(new Event('input')); }")
    page.screenshot(path=os.path.join(out, "player.png"))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default=os.path.join(ROOT, "docs"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder, chromium() as browser:
        project_studio(browser, folder, args.out)
        live_session(browser, folder, args.out)
        player(browser, args.out)
    for name in ("studio.png", "studio-live.png", "player.png"):
        print(name, os.path.getsize(os.path.join(args.out, name)), "bytes")


if __name__ == "__main__":
    main()
