"""MCP prompts: whole recipes an agent can follow (prompts/list, prompts/get): a title card, a
lower third, a captioned clip, a product card, and an animation preset on a layer (whose comp,
layer and preset names completion/complete offers).

Each recipe is the command_batch that builds it, from the prompt's arguments, with a few lines
around it saying what it makes and how to check and render it. The steps are real commands
with real values (tests run every recipe and hold it to layout_check), so a recipe is also an
example of every value format it uses.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Callable

from protocol.model.animation_presets import PRESETS
from supervisor.engine.engine import literal


class PromptError(Exception):
    """A prompt that does not exist or lacks an argument; the message says which."""


@dataclass(frozen=True)
class Argument:
    name: str
    description: str
    required: bool = True


@dataclass(frozen=True)
class Recipe:
    title: str
    description: str
    arguments: tuple
    makes: str  # what the batch builds, for the message's first line
    steps: Callable[[dict], list[dict]]


def _step(command: str, **params) -> dict:
    return {"id": command, "params": params}


def _title_card(args: dict) -> list[dict]:
    comp = "$0.comp"
    return [
        _step("comp.new", name="Title Card", width=1920, height=1080, duration=5,
              background="#0b1026"),
        _step("layer.add", comp=comp, type="shape", name="Backdrop", shape="rect",
              size=[1920, 1080], fill={"type": "linear", "start": [0, 0], "end": [1920, 1080],
                                       "stops": [[0, "#0b1026"], [1, "#1f3b73"]]}),
        _step("layer.add", comp=comp, type="text", name="Title", text=literal(args["title"]),
              font="Poppins", weight=700, size=120, fill="#ffffff", box=[1440, 160],
              fit="shrink", position=[960, 500]),
        _step("layer.add", comp=comp, type="text", name="Subtitle",
              text=literal(args.get("subtitle") or ""), font="Poppins", size=48,
              fill="#c9d6ff", box=[1200, 70], fit="shrink", position=[960, 620]),
        _step("preset.apply", comp=comp, layer="$2.layer", preset="slideIn",
              params={"from": "bottom", "distance": 80}),
        _step("preset.apply", comp=comp, layer="$2.layer", preset="fadeIn"),
        _step("preset.apply", comp=comp, layer="$3.layer", preset="fadeIn", time=0.6),
        _step("preset.apply", comp=comp, layer="$2.layer", preset="fadeOut"),
        _step("preset.apply", comp=comp, layer="$3.layer", preset="fadeOut"),
    ]


def _lower_third(args: dict) -> list[dict]:
    comp = "$0.comp"
    return [
        _step("comp.new", name="Lower Third", width=1920, height=1080, duration=6,
              background="#1a1a1a"),
        # The bar's content box is (0, 0)-(760, 150); the texts are its children, placed in it.
        _step("layer.add", comp=comp, type="shape", name="Bar", shape="rect", size=[760, 150],
              cornerRadius=12, fill="#0b3d91", position=[520, 900]),
        _step("layer.add", comp=comp, type="text", name="Name", text=literal(args["name"]),
              font="Lato", weight=700, size=56, fill="#ffffff", align="left", box=[680, 70],
              fit="shrink", parent="$1.layer", position=[420, 47]),
        _step("layer.add", comp=comp, type="text", name="Role",
              text=literal(args.get("role") or ""), font="Lato", size=36, fill="#cfe0ff",
              align="left", box=[680, 50], fit="shrink", parent="$1.layer",
              position=[420, 110]),
        _step("preset.apply", comp=comp, layer="$1.layer", preset="slideIn",
              params={"from": "left"}),
        _step("preset.apply", comp=comp, layer="$2.layer", preset="wipe", time=0.4),
        _step("preset.apply", comp=comp, layer="$3.layer", preset="fadeIn", time=0.7),
        _step("preset.apply", comp=comp, layer="$1.layer", preset="slideOut",
              params={"to": "left"}),
    ]


def _captioned_clip(args: dict) -> list[dict]:
    return [
        _step("footage.import", path=args["video"]),
        _step("comp.new", name="Captioned", width=1920, height=1080, duration="$0.duration",
              frameRate="$0.frameRate"),
        _step("layer.add", comp="$1.comp", type="video", name="Clip", footage="$0.footage"),
        # White words outlined in black read over any picture; captions.import's box sits
        # inside title-safe by itself.
        _step("captions.import", comp="$1.comp", path=args["captions"],
              style={"font": "Lato", "weight": 700, "size": 44, "fill": "#ffffff",
                     "stroke": "#000000", "strokeWidth": 6}),
    ]


def _product_card(args: dict) -> list[dict]:
    comp = "$0.comp"
    return [
        _step("comp.new", name="Product Card", width=1080, height=1080, duration=6,
              background="#f4f1ea"),
        _step("footage.import", path=args["image"]),
        _step("layer.add", comp=comp, type="image", name="Product", footage="$1.footage",
              position=[540, 420]),
        # The card's content box is (0, 0)-(860, 220); the texts are its children.
        _step("layer.add", comp=comp, type="shape", name="Card", shape="rect", size=[860, 220],
              cornerRadius=24, fill="#1d1d1f", position=[540, 860]),
        _step("layer.add", comp=comp, type="text", name="Name", text=literal(args["product"]),
              font="Poppins", weight=600, size=56, fill="#ffffff", box=[760, 70], fit="shrink",
              parent="$3.layer", position=[430, 75]),
        _step("layer.add", comp=comp, type="text", name="Price",
              text=literal(args.get("price") or ""), font="Poppins", weight=700, size=64,
              fill="#ffd166", box=[760, 80], fit="shrink", parent="$3.layer",
              position=[430, 155]),
        _step("preset.apply", comp=comp, layer="$2.layer", preset="kenBurns",
              params={"endScale": 108}),
        _step("preset.apply", comp=comp, layer="$2.layer", preset="fadeIn"),
        _step("preset.apply", comp=comp, layer="$3.layer", preset="slideIn", time=0.3,
              params={"from": "bottom"}),
        _step("preset.apply", comp=comp, layer="$5.layer", preset="pop", time=0.9),
    ]


RECIPES: dict[str, Recipe] = {
    "title-card": Recipe(
        "Title card", "A 5 s 1920x1080 title card: a gradient backdrop, a title that slides "
        "up and fades in, a subtitle, both fading out.",
        (Argument("title", "the title"), Argument("subtitle", "a line under it", False)),
        "a 5 s title card (comp 'Title Card')", _title_card),
    "lower-third": Recipe(
        "Lower third", "A 6 s lower third: a bar that slides in from the left carrying a "
        "name (wiped on) and a role (faded in), sliding out at the end.",
        (Argument("name", "the person's name"), Argument("role", "their role", False)),
        "a 6 s lower third (comp 'Lower Third'; put it over footage as a precomp, or add a "
        "video layer under the bar)", _lower_third),
    "captioned-clip": Recipe(
        "Captioned clip", "A video with its captions (.srt, .vtt or word timings .json) "
        "shown over it, outlined so they read over any picture.",
        (Argument("video", "the video file (an absolute path)"),
         Argument("captions", "the caption file (an absolute path)")),
        "the clip in a 1920x1080 comp of its length, with its captions (a clip of another "
        "size needs a scale: 150% for 1280x720, 50% for 3840x2160)", _captioned_clip),
    "product-card": Recipe(
        "Product card", "A 6 s 1080x1080 product card: the product image zooming slowly, a "
        "dark card sliding up with its name and price, the price popping in.",
        (Argument("product", "the product's name"), Argument("price", "its price", False),
         Argument("image", "the product image (an absolute path; about 700 px across)")),
        "a 6 s product card (comp 'Product Card')", _product_card),
}


def _animate_layer(args: dict) -> list[dict]:
    return [_step("preset.apply", comp=args["comp"], layer=args["layer"],
                  preset=args["preset"])]


RECIPES["animate-layer"] = Recipe(
    "Animate a layer", "Play an animation preset on a layer of a comp, then look at the motion "
    "and check the layout.",
    (Argument("comp", "the comp (id or name)"), Argument("layer", "the layer (id or name)"),
     Argument("preset", "an animation preset (preset.list gives them)")),
    "the animation (comp as given)", _animate_layer)


def complete_argument(session, name: str, argument: str, value: str) -> list[str]:
    """completion/complete for a prompt's argument: comp, layer (of the comp named so far) and
    preset names; nothing for free text."""
    recipe = RECIPES.get(name) if isinstance(name, str) else None
    if recipe is None:
        raise PromptError(f"Unknown prompt {name!r}; the prompts are {', '.join(RECIPES)}.")
    engine = session.engine
    with engine.lock:
        if argument == "comp":
            names = [comp["name"] for comp in engine.doc["comps"]]
        elif argument == "layer":
            names = [layer["name"] for comp in engine.doc["comps"] for layer in comp["layers"]]
        elif argument == "preset":
            names = list(PRESETS)
        else:
            return []
    lowered = value.lower()
    return list(dict.fromkeys(n for n in names if n.lower().startswith(lowered)))


def list_prompts() -> list[dict]:
    return [{"name": name, "title": recipe.title, "description": recipe.description,
             "arguments": [{"name": a.name, "description": a.description,
                            "required": a.required} for a in recipe.arguments]}
            for name, recipe in RECIPES.items()]


def recipe_steps(name: str, arguments: dict) -> list[dict]:
    """The recipe's command_batch steps for `arguments`; PromptError naming what is wrong."""
    recipe = RECIPES.get(name) if isinstance(name, str) else None
    if recipe is None:
        raise PromptError(f"Unknown prompt {name!r}; the prompts are {', '.join(RECIPES)}.")
    if not isinstance(arguments, dict) or \
            not all(isinstance(value, str) for value in arguments.values()):
        raise PromptError(f"Prompt {name}'s arguments are an object of strings.")
    known = {argument.name for argument in recipe.arguments}
    unknown = [key for key in arguments if key not in known]
    if unknown:
        raise PromptError(f"Prompt {name} does not take {', '.join(map(repr, unknown))}; it "
                          f"takes {', '.join(known)}.")
    missing = [a.name for a in recipe.arguments if a.required and not arguments.get(a.name)]
    if missing:
        raise PromptError(f"Prompt {name} needs {', '.join(map(repr, missing))}.")
    return recipe.steps(arguments)  # texts through `literal`: a price "$49" is no reference


def get_prompt(name: str, arguments: dict) -> dict:
    """prompts/get's result: the recipe as one user message."""
    steps = recipe_steps(name, arguments)
    recipe = RECIPES[name]
    batch = ",\n".join("  " + json.dumps(step, ensure_ascii=False) for step in steps)
    text = (f"Build {recipe.makes} with one command_batch call, atomic, with these steps "
            "(\"$N.key\" is step N's result):\n\n```json\n{\"atomic\": true, \"steps\": [\n"
            f"{batch}\n]}}\n```\n\nThen look at it with render_filmstrip {{\"comp\": ...}}, "
            "run layout_check on it and fix every finding (each says what to change), and "
            "render it with renderQueue.add {\"comp\": ..., \"output\": \"/abs/path.mp4\"} "
            "and render_start, then render_status {\"job\": ..., \"wait\": 30} until it is "
            "done.")
    return {"description": recipe.description,
            "messages": [{"role": "user", "content": {"type": "text", "text": text}}]}
