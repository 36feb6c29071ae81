"""Sound in a confined `rendervisor mcp`: a sound file outside the roots is not imported, and a
project whose audio footage (crafted, or from before the roots) points outside them is neither
measured by audio_levels nor rendered, each refused in one sentence naming the file, and
nothing is written."""

from __future__ import annotations

import json
import os

import numpy as np

from supervisor.engine.engine import Engine
from tests.helpers.mcp_process import McpProcess
from tests.helpers.sound_files import tone, write_wav


def reply(result: dict) -> str:
    return result["content"][0]["text"]


def test_sound_outside_the_roots_is_neither_imported_measured_nor_rendered(tmp_path):
    inside, outside = tmp_path / "inside", tmp_path / "outside"
    inside.mkdir()
    outside.mkdir()
    secret = write_wav(outside / "secret.wav", np.stack([tone(1.0)] * 2))
    stand_in = write_wav(inside / "stand_in.wav", np.stack([tone(1.0)] * 2))
    engine = Engine()
    engine.run("comp.new", {"name": "Spot", "width": 16, "height": 16, "duration": 1})
    engine.run("layer.add", {"comp": "Spot", "type": "audio", "path": stand_in})
    engine.run("renderQueue.add", {"comp": "Spot", "output": str(inside / "spot.wav")})
    project = str(inside / "crafted.rvproj")
    engine.run("project.save", {"path": project})
    document = json.loads(open(project).read())
    document["footage"][0]["path"] = secret
    open(project, "w").write(json.dumps(document))
    os.unlink(stand_in)

    process = McpProcess("--read-root", str(inside), "--write-root", str(inside))
    try:
        process.initialize()
        imported = process.run("command_run", {"id": "footage.import",
                                               "params": {"path": secret}})
        assert imported["isError"]
        assert f"reading {secret} is refused" in reply(imported) and "read roots" in \
            reply(imported)
        opened = process.run("command_run", {"id": "project.open", "params": {"path": project}})
        assert opened.get("isError") is not True, opened
        measured = process.run("audio_levels", {"comp": "Spot"})
        assert measured["isError"] and "\n" not in reply(measured).strip()
        assert reply(measured).startswith("footage 'stand_in.wav' cannot be played: reading "
                                          f"{secret} is refused")
        rendered = process.run("command_run", {"id": "renderQueue.render"}, timeout=120)
        assert rendered["isError"] and f"reading {secret} is refused" in reply(rendered)
        assert sorted(os.listdir(inside)) == ["crafted.rvproj"]
    finally:
        process.stop()
