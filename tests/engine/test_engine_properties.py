"""Properties of the engine over random edit sequences (hypothesis): whatever commands do, the
document stays one that a load accepts, a failed command changes nothing, and undoing every step
gives back the original document."""

import copy

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from protocol.model.document import dumps, load_document, loads, new_document
from supervisor.errors import CommandError
from tests.helpers.engine_projects import engine_with_layers

layer_ref = st.sampled_from(["Red", "Box", "Title", 1, 2, 3, "Ghost", 0])
number = st.one_of(st.integers(-50, 400), st.floats(-50, 400, allow_nan=False))
color = st.one_of(st.sampled_from(["#ff0000", "#00ff0080", "red"]),
                  st.lists(st.floats(0, 1.2, allow_nan=False), min_size=2, max_size=5))
vector = st.lists(number, min_size=2, max_size=2)
# Mostly a path with a value of its kind, sometimes a mismatch, so both paths of a command run.
path_and_value = st.one_of(
    st.tuples(st.sampled_from(["transform.position", "transform.scale", "transform.anchor"]),
              vector),
    st.tuples(st.sampled_from(["transform.rotation", "transform.opacity", "effects.1.radius"]),
              number),
    st.tuples(st.just("color"), color),
    st.tuples(st.just("text"), st.text(max_size=4)),
    st.tuples(st.sampled_from(["size", "transform.position", "text"]),
              st.one_of(number, vector, st.text(max_size=2))),
)

commands = st.one_of(
    st.builds(lambda t, c: ("layer.add", {"comp": "Main", "type": t, **c}),
              st.sampled_from(["solid", "null", "text", "shape"]),
              st.fixed_dictionaries({}, optional={"color": color, "text": st.text(max_size=5),
                                                  "shape": st.sampled_from(["rect", "star"]),
                                                  "size": st.lists(number, min_size=2,
                                                                   max_size=2)})),
    st.builds(lambda l, pv, t, i: ("prop.addKey", {"comp": "Main", "layer": l, "path": pv[0],
                                                   "time": t, "value": pv[1],
                                                   "interpolation": i}),
              layer_ref, path_and_value, st.sampled_from([0, 0.5, 1, 2.25, 4]),
              st.sampled_from(["linear", "hold", "easeIn", "easyEase"])),
    st.builds(lambda l, pv: ("prop.set", {"comp": "Main", "layer": l, "path": pv[0],
                                          "value": pv[1]}),
              layer_ref, path_and_value),
    st.builds(lambda l, p, t: ("prop.removeKey", {"comp": "Main", "layer": l, "path": p,
                                                  "time": t}),
              layer_ref, st.sampled_from(["transform.position", "transform.rotation"]),
              st.sampled_from([0, 0.5, 1, 2.25, 4])),
    st.just(("edit.undo", {})),
    st.builds(lambda l, p: ("layer.set", {"comp": "Main", "layer": l, "parent": p}),
              layer_ref, st.one_of(st.none(), layer_ref)),
    st.builds(lambda l, i: ("layer.move", {"comp": "Main", "layer": l, "index": i}),
              layer_ref, st.integers(0, 5)),
    st.builds(lambda l: ("layer.remove", {"comp": "Main", "layer": l}), layer_ref),
    st.builds(lambda l: ("layer.duplicate", {"comp": "Main", "layer": l}), layer_ref),
    st.builds(lambda l, e: ("effect.add", {"comp": "Main", "layer": l, "effect": e}),
              layer_ref, st.sampled_from(["gaussianBlur", "glow", "sparkle"])),
    st.builds(lambda d: ("comp.set", {"comp": "Main", "duration": d}), number),
    st.builds(lambda f: ("renderQueue.add", {"comp": "Main", "output": "/o/x.mov",
                                             "frames": f}),
              st.sampled_from([None, "0-3", "5-", "9-1", "x"])),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(commands, min_size=1, max_size=12))
def test_random_edits_keep_the_document_valid_and_undo_all_restores_it(steps):
    engine = engine_with_layers()
    for command, params in steps:
        before = copy.deepcopy(engine.doc)
        try:
            engine.run(command, params)
        except CommandError as error:
            assert engine.doc == before, f"{command} failed ({error}) but changed the project"
            assert "\n" not in str(error)
        assert dumps(load_document(engine.doc)) == dumps(engine.doc)
    assert loads(dumps(engine.doc)) == engine.doc
    # Undoing every step there is, the fixture's own comp.new and layer.adds included, goes back
    # to the empty project, whatever undos the random steps already did.
    # (Random undos may already have undone everything: then there is nothing left to undo.)
    if engine.history()["undo"]:
        engine.run("edit.undo", {"steps": len(engine.history()["undo"])})
    assert {k: v for k, v in engine.doc.items() if k != "nextId"} == \
        {k: v for k, v in new_document().items() if k != "nextId"}
