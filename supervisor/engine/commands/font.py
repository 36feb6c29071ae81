"""font.list: the font families text can be set in, and where each comes from; font.glyphs: a
bundled family's glyphs by name (an icon font's icons).

`bundled` families ship with rendervisor's packages and draw the same on every node; `system`
ones are this machine's (a render farm node may lack them); `file` ones are the font files the
project's text layers name, each read on a probe worker (supervisor/engine/probes.py).
"""

from __future__ import annotations

from supervisor.engine.commands.registry import command
from supervisor.engine.font_files import read_font_file
from supervisor.engine.font_index import font_index
from supervisor.errors import CommandError


@command("font.list", "List fonts",
         "The font families text can use: {fonts: [{family, styles, source}]}, source being "
         "bundled (ships with rendervisor, the same on every node), system (this machine's) or "
         "file (a fontFile of a text layer, with its path). filter keeps families whose name "
         "contains it (any case).",
         {"filter": {"type": "string", "description": "part of a family name"}}, kind="read",
         waits_on="probe")
def font_list(engine, params, work):
    fonts = font_index().all_families()
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


# An answer lists at most this many glyphs (a CJK family has thousands): search narrows it.
MAX_GLYPHS = 200


@command("font.glyphs", "Find glyphs by name",
         "The named glyphs of a bundled family, for icon fonts above all: {family, glyphs: "
         "[{name, codepoint, text, weights}], count}, each glyph's text being the character "
         "to put in a text layer's text, weights the weights of the faces that draw it. "
         "search keeps glyphs whose name holds every word of it (any case), best matches "
         f"first; at most {MAX_GLYPHS} are listed (count says how many matched). Icons: "
         "Font Awesome 7 Free (weight 900 solid, 400 regular) and Font Awesome 7 Brands. "
         'Example: {"family": "Font Awesome 7 Free", "search": "chart"}, then layer.add '
         '{"type": "text", "font": "Font Awesome 7 Free", "weight": 900, "text": TEXT}.',
         {"family": {"type": "string", "description": "a bundled family (font.list)"},
          "search": {"type": "string", "description": "words of the glyph's name, e.g. "
                     "\"arrow right\""}},
         required=("family",), kind="read")
def font_glyphs(engine, params, work):
    # The glyph names sit beside the font index, and import it: not with the engine either
    # (supervisor/engine/font_index.py says why).
    from workers.compositor.glyph_names import family_glyphs
    faces = [face for face in font_index().family_faces(params["family"])
             if face.source == "bundled"]
    if not faces:
        raise CommandError(f"font.glyphs reads the bundled families, and {params['family']!r} "
                           "is not one; font.list lists them (filter \"Awesome\" for the "
                           "icon fonts).")
    glyphs = family_glyphs(tuple(faces), params.get("search"))
    return {"family": faces[0].family, "count": len(glyphs), "glyphs": glyphs[:MAX_GLYPHS]}
