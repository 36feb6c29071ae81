"""How many calls a 6-second explainer takes an agent: the official MCP SDK client drives a real
`rendervisor mcp` the way the guide says to work (read rendervisor://guide, build in one
command_batch with presets, look with render_filmstrip, check with layout_check, render), with
the values written as the tool descriptions give them. Every request to the server counts.
Prints one JSON object: the calls, the findings, and the rendered file's frames and size.

    .venv/bin/python scripts/agent_explainer.py [--out /tmp/explainer]

The explainer: a gradient backdrop, a title sliding in from the top, three numbered steps
fading in a second apart, and the whole comp fading to black over its last half second.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

import anyio
import av
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

SERVER = StdioServerParameters(command=sys.executable, args=["-m", "supervisor.cli", "mcp"])
STEPS_TEXT = ("1. Sunlight hits the cells", "2. Electrons start to flow",
              "3. An inverter makes it mains power")


def explainer_steps() -> list[dict]:
    """The one command_batch that builds and animates the explainer."""
    def add(**params):
        return {"id": "layer.add", "params": {"comp": "$0.comp", **params}}

    def preset(layer, name, **more):
        return {"id": "preset.apply", "params": {"comp": "$0.comp", "layer": layer,
                                                 "preset": name, **more}}

    steps = [
        {"id": "comp.new", "params": {"name": "Explainer", "width": 1920, "height": 1080,
                                      "duration": 6, "frameRate": 30}},
        add(type="shape", name="Backdrop", shape="rect", size=[1920, 1080],
            fill={"type": "linear", "start": [0, 0], "end": [1920, 1080],
                  "stops": [[0, "#0d1b2a"], [1, "#1b4965"]]}),
        add(type="text", name="Title", text="How a solar panel works", font="Poppins",
            weight=700, size=96, fill="#ffffff", position=[960, 260]),
    ]
    steps += [add(type="text", name=f"Step {n}", text=text, font="Lato", size=56,
                  fill="#e0fbfc", align="left", position=[400, 360 + 120 * n], inPoint=n)
              for n, text in enumerate(STEPS_TEXT, start=1)]
    steps += [preset("$2.layer", "slideIn", params={"from": "top"})]
    steps += [preset(f"${2 + n}.layer", "fadeIn", time=n) for n in range(1, 4)]
    # The guide's fade of a whole comp: a black solid on top, faded in at the end.
    steps += [add(type="solid", name="Fade", color="#000000"),
              preset(f"${len(steps)}.layer", "fadeIn", time=5.5)]
    return steps


async def build_and_render(out: str) -> dict:
    calls = 0

    async def call(name: str, arguments: dict):
        nonlocal calls
        calls += 1
        result = await client.call_tool(name, arguments)
        if result.is_error:
            raise SystemExit(f"{name} failed: {result.content[0].text}")
        return result

    async with stdio_client(SERVER) as (read, write):
        async with ClientSession(read, write) as client:
            await client.initialize()
            calls += 1
            await client.read_resource("rendervisor://guide")
            await call("command_batch", {"atomic": True, "steps": explainer_steps()})
            await call("render_filmstrip", {"comp": "Explainer", "count": 8})
            checked = await call("layout_check", {"comp": "Explainer"})
            output = os.path.join(out, "explainer.mp4")
            await call("command_batch", {"steps": [
                {"id": "renderQueue.add", "params": {"comp": "Explainer", "output": output}},
                {"id": "renderQueue.render"}]})
    with av.open(output) as container:
        frames = sum(1 for _ in container.decode(video=0))
    return {"calls": calls, "findings": checked.structured_content["findings"],
            "output": output, "frames": frames}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="/tmp/explainer")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    print(json.dumps(anyio.run(build_and_render, args.out)))


if __name__ == "__main__":
    main()
