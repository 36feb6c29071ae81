"""font.list: the font families text can be set in, and where each comes from.

`bundled` families ship with rendervisor's packages and draw the same on every node; `system`
ones are this machine's (a render farm node may lack them); `file` ones are the font files the
project's text layers name, each read on a probe worker (supervisor/engine/probes.py).
"""

from __future__ import annotations

from supervisor.engine.commands.registry import command
from supervisor.engine.font_files import read_font_file
from supervisor.errors import CommandError
from workers.compositor.fonts import all_families


@command("font.list", "List fonts",
         "The font families text can use: {fonts: [{family, styles, source}]}, source being "
         "bundled (ships with rendervisor, the same on every node), system (this machine's) or "
         "file (a fontFile of a text layer, with its path). filter keeps families whose name "
         "contains it (any case).",
         {"filter": {"type": "string", "description": "part of a family name"}}, kind="read",
         waits_on="probe")
def font_list(engine, params, work):
    fonts = all_families()
    for path in sorted({layer["content"]["fontFile"] for comp in engine.doc["comps"]
                        for layer in comp["layers"]
                        if layer["type"] == "text" and layer["content"].get("fontFile")}):
        try:
            faces = read_font_file(engine, path, work)[1]["faces"]
        except CommandError:
            continue  # gone, or no font: the layer's warnings say so
        fonts.append({"family": faces[0]["family"], "source": "file", "path": path,
                      "styles": list(dict.fromkeys(face["style"] for face in faces))})
    wanted = (params.get("filter") or "").lower()
    return {"fonts": [entry for entry in fonts if wanted in entry["family"].lower()]}
