"""What the server tells an agent before it starts: the instructions sent at initialize (and
server/discover), and the compact how-to behind the rendervisor://guide resource.

Both cost the agent's context on every session, so they stay short: the formats a command
takes are in its own schema (command_list), the whole recipes in the prompts (prompts.py); the
guide holds what no single schema can say (coordinates, anchors, layer order, how to check
work). What this session's confinement allows is said from the session itself, so the
instructions never promise a shell the session refuses.
"""

from __future__ import annotations

from protocol.model.animation_presets import PRESETS
from protocol.model.legibility import TITLE_SAFE
from protocol.model.scenes import TRANSITIONS
from protocol.model.text_presets import PRESETS as TEXT_PRESETS
from supervisor.engine.commands.registry import COLOR_FORMAT, EASING_FORMAT, GRADIENT_FORMAT
from workers.compositor.fonts import bundled_families, bundled_index

GUIDE_URI = "rendervisor://guide"
# The bundled Latin families with serifs (the rest are sans serif).
SERIF_FAMILIES = ("EB Garamond", "Gentium Book Plus", "XCharter")

def fonts_by_purpose() -> str:
    """The bundled families, grouped: Latin sans and serif, each script's Noto, icons, emoji."""
    names = sorted({faces[0].family for faces in bundled_index().values()})
    serif = [name for name in names if name in SERIF_FAMILIES]
    sans = [name for name in bundled_families() if name not in serif]
    scripts = [name[len("Noto Sans "):] for name in names
               if name.startswith("Noto Sans ") and name != "Noto Sans Symbols"]
    icons = [name for name in names if name.startswith("Font Awesome")]
    return (f"sans {', '.join(sans)}; serif {', '.join(serif)}; other scripts Noto Sans + "
            f"{', '.join(scripts)} (text in any script falls back to them); icons "
            f"{' and '.join(icons)} (Free: weight 900 solid, 400 regular); emoji Noto Color "
            "Emoji")


GUIDE = f"""# rendervisor: a compact guide

Work in this order: build with one command_batch (a step's result is "$N.key" in later
steps: "$0.comp", "$1.layer"), animate with preset.apply, look with render_filmstrip (one
sheet of frames), check with layout_check (fix every finding, check again), then
renderQueue.add {{comp, output: "/abs/out.mp4"}} and render_start.

Coordinates: comp pixels, (0, 0) top-left, y down; times in seconds. A new layer is
centered: its anchor is the center of its content, its position the comp's center, and
position places the anchor. A solid, shape or image draws in its content box (0, 0)-(w, h).
Text without a box is the exception: its anchor [0, 0] is its alignment point, the left edge,
center or right edge of its lines (align) and the top, middle or bottom of the block
(verticalAlign, default middle). Text with box [w, h] wraps at w, fit "shrink" keeps it
inside, and its anchor is the box's center. A layer with parent moves with it, its position
in the parent's content box.

Layer order: index 1 is the top, drawn last; layer.add puts a layer on top unless index says
otherwise, so add the background first. A layer shows from inPoint to outPoint.

Values:
- color: {COLOR_FORMAT}
- gradient (a shape's fill): {GRADIENT_FORMAT}
- easing (prop.addKey's interpolation): {EASING_FORMAT}
- scale and opacity are percent ([100, 100], 100), rotation degrees clockwise.

Text: size in px, fill a color. Bundled fonts, the same on every machine:
{fonts_by_purpose()}. font.list lists all;
font.glyphs {{family, search}} finds an icon's character by name. text.animate plays a text
preset ({", ".join(TEXT_PRESETS)}).

Scenes: make each part its own comp, then scene.add {{comp, source}} them to a main comp
(end to end) and transition.set {{comp, scene, kind, duration}} between two ({", ".join(TRANSITIONS)}):
no empty frames between parts. Backdrop, captions and music are the main comp's layers.

Footage: layer.add {{type, path}}: a still or SVG on an image layer, a video or sequence
("/shots/f_[####].png") on a video layer, Lottie on a lottie layer, sound on an audio layer
(audio.level in dB; audio_levels measures the mix: previews are silent).

Expressions: prop.setExpression {{comp, layer, path, expression}} in After Effects'
language (wiggle(2, 30), time * 90); try it with expression.check.

Templates: template.addParam {{name, comp, layer, path}}; renderQueue.add {{params}} renders
a version.

Hand-off: timeline.export {{comp, path}} (.otio, .fcpxml, .xml, .edl) gives an editor the
cut, timeline.import {{path}} reads one, lottie.export {{comp, path}} writes Lottie.

Animate: preset.apply {{comp, layer, preset, time?, duration?, params?}} with
{", ".join(PRESETS)} (preset.list gives their params), or prop.addKey {{path, time, value}}.
To fade a whole comp, fadeIn / fadeOut it as a precomp layer of another comp.

Render: render_start returns a job at once; call render_status {{job, wait: 30}} until its
state is done (or failed: each item says why). Each call ends within a minute, so no host
timeout cuts a render off.

Check: layout_check finds layers off the comp, text outside the title-safe area (the middle
{TITLE_SAFE:g}%), overflowing, too small, under 4.5:1 contrast or on other text, and empty
stretches; each message says what to change. render_filmstrip {{comp, count?, times?}} shows
motion in one image. Drafts: renderQueue.add {{scale: 0.5}}. Comp audioLoudness: -14 sets
LUFS. prompts/list gives whole recipes.
"""


BASE_INSTRUCTIONS = (
    "rendervisor is a motion-graphics render engine. Read the resource rendervisor://guide "
    "first (coordinates, value formats, how to check your work; prompts give whole recipes). "
    "Build a project with command_batch and command_run (command_list gives every command's "
    "params and formats), animate with preset.apply, look at many frames at once with "
    "render_filmstrip, check the layout with layout_check, and render with "
    "renderQueue.add, then render_start and render_status {job, wait: 30} until it is done: "
    "every call ends within a minute, however long the render.")


def instructions(session) -> str:
    """The server's instructions for this session: the base, and what its roots allow."""
    return (f"{BASE_INSTRUCTIONS} {allowed(session.confinement)} The shell tool: "
            f"{session.shell.describe()}{studio(session)}")


def studio(session) -> str:
    """Where a person can watch this session, when the studio serves it."""
    url = getattr(session, "studio_url", None)
    if url is None:
        return ""
    return (f" A person can watch this session live in the studio at {url} (the project as "
            "you edit it, your calls, renders and shells, with a cancel button); tell them to "
            "open it in a browser.")


def allowed(confinement) -> str:
    """What the file tools, engine commands and shell may reach in this session."""
    if not confinement.confined:
        return ("This session is not confined: the file tools and engine commands may use any "
                "path.")
    readable = ", ".join(confinement.read_roots + confinement.write_roots)
    writes = (f"written only under {', '.join(confinement.write_roots)}"
              if confinement.write_roots else "never written (it has no write root)")
    return (f"This session is confined: every path must be absolute; files are read only "
            f"under {readable} and {writes}.")
