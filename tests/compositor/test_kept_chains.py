"""A float effect chain's result kept across frames (workers/compositor/kept_chains.py): reused
only while what it is made from is the same, and then the very pixels computing it again gives."""

import numpy as np

from protocol.model.keyframes import frame_time
from tests.helpers.compositor_documents import comp, document, effect, keys, solid, text
from tests.helpers.cube_luts import cube_table, write_cube
from workers.compositor import FootageCache, RenderPlan, render_frame
from workers.compositor.kept_chains import KEPT_CHAINS, KeptChains

SHADOW = effect("s", "dropShadow", distance=8, direction=135, softness=16, opacity=60)
FRAMES = range(0, 12)


def frames_by_plan(doc: dict) -> list:
    """The comp's FRAMES drawn as a render worker draws them: one plan, one reused array."""
    plan = RenderPlan(doc, "c", FootageCache())
    times = [frame_time(number, 30) for number in FRAMES]
    plan.prepare(times, reused_out=True)
    out = np.empty((200, 320, 4), np.uint8)
    return [render_frame(doc, "c", at, out=out, plan=plan).pixels.copy() for at in times]


def fresh(doc: dict, number: int) -> np.ndarray:
    """One frame drawn by a plan of its own: nothing kept from another frame."""
    return render_frame(doc, "c", frame_time(number, 30)).pixels


def title(**transform) -> dict:
    return text("t", "Title", 160, 100, size=64, **transform) | {"effects": [SHADOW]}


def test_a_title_at_rest_fading_in_reuses_its_shadow_with_the_same_pixels():
    # Still, fading in: its opacity is applied when the kept result is drawn.
    doc = document(comp("c", [title(opacity=keys((0.0, 0.0), (0.3, 100.0))),
                              solid("bg", [0.1, 0.2, 0.4, 1], 0, 0, 320, 200)],
                        width=320, height=200))
    hits = KEPT_CHAINS.hits
    drawn = frames_by_plan(doc)
    # Frame 0 is at opacity 0 (not drawn); frame 1 computes the chain, the other ten reuse it.
    assert KEPT_CHAINS.hits - hits == len(FRAMES) - 2
    for number, pixels in zip(FRAMES, drawn):
        assert np.array_equal(pixels, fresh(doc, number)), f"frame {number}"
    assert not np.array_equal(drawn[3], drawn[9])  # the fade shows


def test_a_moving_title_computes_its_shadow_each_frame():
    doc = document(comp("c", [title(), solid("bg", [0.1, 0.2, 0.4, 1], 0, 0, 320, 200)],
                        width=320, height=200))
    doc["comps"][0]["layers"][0]["transform"]["position"] = keys((0.0, [100, 100]),
                                                                 (0.4, [220, 120]))
    hits = KEPT_CHAINS.hits
    drawn = frames_by_plan(doc)
    assert KEPT_CHAINS.hits == hits
    for number, pixels in zip(FRAMES, drawn):
        assert np.array_equal(pixels, fresh(doc, number)), f"frame {number}"


def test_a_lut_replaced_on_disk_is_read_again_for_the_next_frame(tmp_path):
    lut = tmp_path / "look.cube"
    write_cube(lut, cube_table(5))
    doc = document(comp("c", [title() | {"effects": [effect("l", "lut", path=str(lut)), SHADOW]},
                              solid("bg", [0.1, 0.2, 0.4, 1], 0, 0, 320, 200)],
                        width=320, height=200))
    plan = RenderPlan(doc, "c", FootageCache())
    plan.prepare([0.0, 1 / 30], reused_out=True)
    out = np.empty((200, 320, 4), np.uint8)
    first = render_frame(doc, "c", 0.0, out=out, plan=plan).pixels.copy()
    write_cube(lut, 1.0 - cube_table(3))  # another table, another size: a new version
    second = render_frame(doc, "c", 1 / 30, out=out, plan=plan).pixels
    assert np.array_equal(second, fresh(doc, 1))
    assert not np.array_equal(first, second)


def test_a_result_is_kept_for_its_inputs_alone_within_the_budget():
    kept = KeptChains(budget_bytes=1000)
    small = (np.zeros((10, 10, 4), np.float32), 1)  # 1,600 bytes: over the budget
    kept.put(1, ("inputs",), small)
    assert kept.get(1, ("inputs",)) is None
    tiny = (np.zeros((5, 5, 4), np.float32), 1)  # 400 bytes
    kept.put(1, ("inputs",), tiny)
    kept.put(2, ("other",), tiny)
    assert kept.get(1, ("inputs",)) is tiny
    assert kept.get(1, ("changed",)) is None
    kept.put(3, ("third",), tiny)  # past the budget: the least recently used goes
    assert kept.get(2, ("other",)) is None
    assert kept.get(1, ("inputs",)) is tiny and kept.get(3, ("third",)) is tiny
