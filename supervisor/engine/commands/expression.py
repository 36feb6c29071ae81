"""Expression commands: prop.setExpression (an edit: the text is stored, never run or parsed
here), expression.check (tried on the preview worker: supervisor/render/expression_checks.py)
and lottie.bake (a Lottie file's expressions baked into keys on the preview worker:
supervisor/render/lottie_bakes.py).

What the language is and what it can reach: docs/expressions.md.
"""

from __future__ import annotations

from protocol.model.expressions import set_expression
from supervisor.engine.commands.lookup import find_comp, find_layer
from supervisor.engine.commands.prop import PATH
from supervisor.engine.commands.registry import (COMP_REF, FOOTAGE_REF, LAYER_REF, OUTPUT_PATH,
                                                 command, formatted)
from supervisor.engine.commands.render import render_command
from supervisor.errors import CommandError

EXPRESSION = {"type": ["string", "null"],
              "description": "After Effects expression JavaScript (wiggle(2, 30), "
              "loopOut(\"cycle\"), time * 90, thisComp.layer(\"Title\").transform.position, "
              "...; docs/expressions.md); its last statement is the value; null removes it"}


@command("prop.setExpression", "Set a property's expression",
         "Drive a property by an After Effects expression (JavaScript evaluated at each frame "
         "in the workers; `value` is the property's own value or keys), or remove it with "
         "null. The text is stored as it is; try it first with expression.check. Transforms, "
         "colors, text, effect params, masks and text animators take expressions; sound "
         "levels do not.",
         {"comp": COMP_REF, "layer": LAYER_REF, "path": PATH, "expression": EXPRESSION},
         required=("comp", "layer", "path", "expression"))
def prop_set_expression(engine, params, work):
    layer = find_layer(find_comp(engine.doc, params["comp"]), params["layer"])
    try:
        path = set_expression(layer, params["path"], params["expression"])
    except ValueError as error:
        raise CommandError(f"{error}.") from None
    return {"path": path, "expression": params["expression"],
            "expressions": sorted(layer.get("expressions") or {})}


render_command(
    "expression.check", "Try an expression",
    "Parse and evaluate an expression on a property (the given text, or the one it has) at a "
    "few times of its layer, on the preview worker; the project is unchanged. Returns {ok, "
    "values: [{time, value}]} or {ok: false, error}: one sentence naming the time, the line "
    "and the column.",
    {"comp": COMP_REF, "layer": LAYER_REF, "path": PATH,
     "expression": {"type": "string", "description": "the expression to try (default: the "
                    "one the property has)"}},
    required=("comp", "layer", "path"), method=lambda renderer: renderer.check_expression,
    waits_on="preview")


render_command(
    "lottie.bake", "Bake a Lottie file's expressions",
    "Evaluate the After Effects expressions of a Lottie footage item's file at each of its "
    "frames (on the preview worker) and write them as keys into a new file beside it "
    "(NAME_baked.json, or output), then point the footage at it (one undo step), so its layers "
    "play the expressions' motion, which the Lottie player does not run. Expressions that "
    "fail keep their keys and are listed in failed. Returns {footage, output, expressions, "
    "baked, failed?}.",
    {"footage": FOOTAGE_REF,
     "output": formatted(OUTPUT_PATH, "the baked .json to write (default: beside the file, "
                                      "NAME_baked.json)")},
    required=("footage",), method=lambda renderer: renderer.bake_lottie,
    waits_on="preview")
