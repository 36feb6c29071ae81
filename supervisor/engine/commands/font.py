"""font.list: the font families text can be set in, and where each comes from.

`bundled` families ship with rendervisor's packages and draw the same on every node; `system`
ones are this machine's (a render farm node may lack them); `file` ones are the font files the
project's text layers name.
"""

from __future__ import annotations

from supervisor.engine.commands.registry import command
from workers.compositor.fonts import NotAFont, all_families, file_faces


@command("font.list", "List fonts",
         "The font families text can use: {fonts: [{family, styles, source}]}, source being "
         "bundled (ships with rendervisor, the same on every node), system (this machine's) or "
         "file (a fontFile of a text layer, with its path). filter keeps families whose name "
         "contains it (any case).",
         {"filter": {"type": "string", "description": "part of a family name"}}, kind="read")
def font_list(engine, params, work):
    fonts = all_families()
    for path in sorted({layer["content"]["fontFile"] for comp in engine.doc["comps"]
                        for layer in comp["layers"]
                        if layer["type"] == "text" and layer["content"].get("fontFile")}):
        try:
            faces = file_faces(path)
        except NotAFont:
            continue
        fonts.append({"family": faces[0].family, "source": "file", "path": path,
                      "styles": [face.style_name() for face in faces]})
    wanted = (params.get("filter") or "").lower()
    return {"fonts": [entry for entry in fonts if wanted in entry["family"].lower()]}
