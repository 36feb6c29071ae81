"""A render plan draws the very bytes the document walk draws (tests/helpers/walked_frames.py):
every golden scene, every example and comps of every feature, frame after frame, prepared in
chunks as the render_chunk task prepares them (one reused array, the still bottom kept and
put back in part), at full and half size, opaque and transparent; and the same with nothing
kept at all."""

import os
import random

import numpy as np
import pytest

from supervisor.engine.engine import Engine
from tests.helpers.cli_projects import ROOT
from tests.helpers.compositor_documents import comp, document, keys, layer, shape, solid, text
from tests.helpers.compositor_golden_scenes import SCENES
from tests.helpers.feature_scenes import feature_engine, frame_times
from tests.helpers.walked_frames import walked_frame
from workers.compositor import FootageCache, RenderPlan, render_frame
from workers.compositor.still_layers import StillLayers

EXAMPLES = ("title_card", "lower_third", "logo_reveal", "bench")


def plan_frames(doc: dict, comp_id: str, times: list, *, chunk: int = 12,
                still_layers: StillLayers | None = None, **options):
    """(time, frame) for each of `times`, as a render worker draws them."""
    plan = RenderPlan(doc, comp_id, FootageCache(),
                      still_layers if still_layers is not None else StillLayers(always=True))
    out = None
    for start in range(0, len(times), chunk):
        plan.prepare(times[start:start + chunk], reused_out=True)
        for time in times[start:start + chunk]:
            frame = render_frame(doc, comp_id, time, plan=plan, out=out, **options)
            out = frame.pixels
            yield time, frame


def assert_walks_bytes(doc: dict, comp_id: str, times: list, **options) -> None:
    for time, frame in plan_frames(doc, comp_id, times, **options):
        walked = walked_frame(doc, comp_id, time, footage=FootageCache(), **{
            key: value for key, value in options.items() if key in ("scale", "transparent")})
        assert frame.missing == walked.missing
        differ = np.argwhere(frame.pixels != walked.pixels)
        assert len(differ) == 0, f"at {time} s, {len(differ)} channels differ, first {differ[:3]}"


@pytest.mark.parametrize("options", [{}, {"scale": 0.5}, {"transparent": True}])
@pytest.mark.parametrize("name", sorted(SCENES))
def test_golden_scenes_draw_the_walks_bytes(name, options, tmp_path):
    build, comp_id, golden_time = SCENES[name]
    times = sorted({golden_time, *[n / 30 for n in range(0, 60, 3)]})
    assert_walks_bytes(build(str(tmp_path)), comp_id, times, **options)


@pytest.mark.parametrize("name", EXAMPLES)
def test_examples_draw_the_walks_bytes(name):
    doc = Engine(os.path.join(ROOT, "examples", f"{name}.rvproj")).snapshot()[1]
    shown = doc["comps"][0]
    assert_walks_bytes(doc, shown["id"], frame_times(shown, step=2), scale=0.5)


@pytest.fixture(scope="module")
def features(tmp_path_factory):
    return feature_engine(str(tmp_path_factory.mktemp("features"))).snapshot()[1]


@pytest.mark.parametrize("options", [{}, {"transparent": True}, {"scale": 0.5},
                                     {"still_layers": StillLayers(budget_bytes=0)}])
@pytest.mark.parametrize("name", ["Main", "Blurred", "Still"])
def test_every_feature_draws_the_walks_bytes(features, name, options):
    shown = next(c for c in features["comps"] if c["name"] == name)
    step = 3 if name == "Blurred" else 1
    assert_walks_bytes(features, shown["id"], frame_times(shown, step), **options)


def test_frames_out_of_the_prepared_chunk_and_out_of_order_draw_the_walks_bytes(features):
    shown = next(c for c in features["comps"] if c["name"] == "Main")
    plan = RenderPlan(features, shown["id"], FootageCache(), StillLayers(always=True))
    plan.prepare(frame_times(shown)[:10], reused_out=True)
    out = None
    for time in (1.5, 0.1, 0.2, 1.95, 0.2, 0.333, 0.0):  # prepared or not, back and forth
        out = render_frame(features, shown["id"], time, plan=plan, out=out).pixels
        assert (out == walked_frame(features, shown["id"], time).pixels).all(), time


def random_comp(seed: int, still_bottom: int = 0) -> dict:
    """Layers of every drawn kind at random, keyed at random (eases, holds, springs), some
    parented, matted, blended, faded, switched off or out of their time; the bottom
    `still_bottom` of them keyed not at all."""
    chance = random.Random(seed)
    eases = ["linear", "hold", "easeIn", "easyEase", "bounce", {"bezier": [0.3, 0, 0.2, 1.4]}]
    count = chance.randint(3, 14) + still_bottom

    def maybe_keyed(still, make):
        if chance.random() < 0.5 or len(layers) >= count - still_bottom:
            return still
        times = sorted(chance.uniform(-0.5, 2.5) for _ in range(chance.randint(1, 4)))
        return {"keys": [{"time": t, "value": make(), "interpolation": chance.choice(eases)}
                         for t in times]}

    layers = []
    for index in range(count):
        x, y = chance.uniform(0, 160), chance.uniform(0, 90)
        kind = chance.choice(["solid", "rect", "ellipse", "star", "text"])
        color = [chance.random(), chance.random(), chance.random(), 1.0]
        if kind == "solid":
            made = solid(f"l{index}", color, x, y, chance.uniform(5, 60), chance.uniform(5, 40))
        elif kind == "text":
            made = text(f"l{index}", "Plan", x, y, size=chance.uniform(8, 24), fill=color)
        else:
            made = shape(f"l{index}", kind, x, y, chance.uniform(5, 50), chance.uniform(5, 50),
                         fill=color if chance.random() < 0.8 else None,
                         stroke=[1, 1, 1, 1] if chance.random() < 0.5 else None,
                         strokeWidth=chance.uniform(0, 4), cornerRadius=chance.uniform(0, 6))
        transform = made["transform"]
        transform["position"] = maybe_keyed(transform["position"],
                                            lambda: [chance.uniform(-20, 180),
                                                     chance.uniform(-20, 110)])
        transform["rotation"] = maybe_keyed(chance.uniform(-90, 90),
                                            lambda: chance.uniform(-360, 360))
        transform["scale"] = maybe_keyed([100.0, 100.0], lambda: [chance.uniform(20, 200),
                                                                  chance.uniform(20, 200)])
        transform["anchor"] = maybe_keyed([0.0, 0.0], lambda: [chance.uniform(-20, 20),
                                                               chance.uniform(-20, 20)])
        transform["opacity"] = maybe_keyed(chance.choice([100.0, 100.0, 60.0, 0.0]),
                                           lambda: chance.uniform(-20, 120))
        made["blendMode"] = chance.choice(["normal"] * 4 + ["multiply", "screen", "add"])
        made["enabled"] = chance.random() > 0.1
        made["inPoint"], made["outPoint"] = sorted(chance.uniform(-0.5, 2.5) for _ in range(2))
        if chance.random() < 0.7:
            made["inPoint"], made["outPoint"] = 0.0, 10.0
        if index and chance.random() < 0.3 and index < count - still_bottom:
            made["parent"] = f"l{chance.randrange(index)}"
        if index and chance.random() < 0.15:
            made["trackMatte"] = chance.choice(["alpha", "alphaInverted", "luma"])
        layers.append(made)
    layers.append(layer("null", "null", {}, position=(80, 45)))
    return document(comp("c", layers, background=(0.1, 0.1, 0.1, 1)))


@pytest.mark.parametrize("seed", range(12))
def test_random_comps_draw_the_walks_bytes(seed):
    times = [n / 30 for n in range(0, 75)]
    assert_walks_bytes(random_comp(seed), "c", times, chunk=7)


@pytest.mark.parametrize("seed", range(12))
def test_random_layers_moving_over_still_ones_draw_the_walks_bytes(seed):
    # Frames after the first put back only the boxes the moving layers drew over the kept
    # bottom: those boxes must hold every pixel they touched.
    times = [n / 30 for n in range(0, 60)]
    assert_walks_bytes(random_comp(seed, still_bottom=6), "c", times, chunk=20)


def test_a_plan_evaluates_a_long_chunk_a_window_at_a_time():
    doc = document(comp("c", [solid("s", (1, 0, 0, 1), 0, 0, 10, 10,
                                    position=keys((0, [0, 0]), (10, [150, 80])))]))
    times = [n / 30 for n in range(300)]
    assert_walks_bytes(doc, "c", times, chunk=300)
