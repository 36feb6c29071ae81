"""Render a long video through the official MCP TypeScript SDK client at its default 60 s request
timeout, the way the guide teaches (render_start, then render_status with wait), and check every
tool's schemas under Ajv's strict mode and every result against its outputSchema.

    .venv/bin/python scripts/ts_host_render.py [--seconds 180] [--output /abs/long.mp4]

Installs @modelcontextprotocol/sdk and ajv from npm into a temporary folder (needs node and npm),
runs scripts/peers/ts_host_render.mjs against `rendervisor mcp` from this checkout, prints its
JSON, and decodes the output with PyAV to count its frames. Not part of the test suite: a 3-minute
720p render takes minutes. docs/mcp.md gives its figures.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

import av

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PEER = os.path.join(REPO, "scripts", "peers", "ts_host_render.mjs")
PACKAGES = ("@modelcontextprotocol/sdk@1", "ajv@8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=180.0)
    parser.add_argument("--output", help="the video to write (default: a temporary folder's)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="rendervisor-ts-host-") as folder:
        subprocess.run(["npm", "init", "-y"], cwd=folder, check=True, capture_output=True)
        subprocess.run(["npm", "install", "--no-audit", "--no-fund", *PACKAGES], cwd=folder,
                       check=True, capture_output=True)
        output = args.output or os.path.join(folder, "long.mp4")
        run = subprocess.run(["node", PEER, folder, output, f"{args.seconds:g}", sys.executable,
                              REPO], capture_output=True, text=True)
        if run.returncode != 0:
            sys.stderr.write(run.stderr[-4000:])
            raise SystemExit(run.returncode)
        report = json.loads(run.stdout)
        with av.open(output) as container:
            stream = container.streams.video[0]
            report["decodedFrames"] = sum(1 for _ in container.decode(stream))
            report["decodedSize"] = f"{stream.codec_context.width}x{stream.codec_context.height}"
        report["outputBytes"] = os.path.getsize(output)
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
