import pytest

from protocol.model.document import load_document
from supervisor.errors import CommandError
from tests.helpers.engine_projects import engine_with_layers


def red(engine):
    return engine.doc["comps"][0]["layers"][2]


def run(engine, command, **params):
    return engine.run(command, {"comp": "Main", "layer": "Red", **params})


def test_prop_set_static_values_for_transform_content_and_effect_params():
    engine = engine_with_layers()
    run(engine, "prop.set", path="transform.position", value=[10, 20])
    run(engine, "prop.set", path="color", value="#00ff00")
    run(engine, "effect.add", effect="gaussianBlur")
    run(engine, "prop.set", path="effects.gaussianBlur.radius", value=4)
    layer = red(engine)
    assert layer["transform"]["position"] == [10, 20]
    assert layer["content"]["color"] == [0.0, 1.0, 0.0, 1.0]
    assert layer["effects"][0]["params"]["radius"] == 4
    assert run(engine, "prop.get", path="effects.1.radius")["value"] == 4


def test_prop_add_key_animates_and_prop_get_evaluates_like_the_renderer():
    engine = engine_with_layers()
    run(engine, "prop.addKey", path="transform.position", time=0, value=[0, 0])
    result = run(engine, "prop.addKey", path="transform.position", time=2, value=[100, 50],
                 interpolation="hold")
    assert result == {"path": "transform.position", "index": 2, "keys": 2, "replaced": False}
    got = run(engine, "prop.get", path="transform.position", time=1)
    assert got["value"] == [50.0, 25.0] and got["animated"] is True
    run(engine, "prop.addKey", path="transform.position", time=0, value=[0, 0],
        interpolation="hold")
    assert run(engine, "prop.get", path="transform.position", time=1.9)["value"] == [0, 0]
    run(engine, "prop.addKey", path="color", time=1, value=[0, 0, 1])
    assert red(engine)["content"]["color"] == {"keys": [
        {"time": 1, "value": [0.0, 0.0, 1.0, 1.0], "interpolation": "linear"}]}
    load_document(engine.doc)


def test_prop_add_key_at_an_existing_time_replaces_it_and_keeps_its_interpolation():
    engine = engine_with_layers()
    run(engine, "prop.addKey", path="transform.rotation", time=1, value=0, interpolation="easeIn")
    result = run(engine, "prop.addKey", path="transform.rotation", time=1.0, value=90)
    assert result["replaced"] is True and result["keys"] == 1
    assert red(engine)["transform"]["rotation"]["keys"] == [
        {"time": 1, "value": 90, "interpolation": "easeIn"}]


def test_keys_stay_sorted_whatever_order_they_are_added_in():
    engine = engine_with_layers()
    for time in (3, 1, 2):
        run(engine, "prop.addKey", path="transform.opacity", time=time, value=time * 10)
    assert [k["time"] for k in red(engine)["transform"]["opacity"]["keys"]] == [1, 2, 3]


def test_prop_remove_key_by_time_and_index_and_the_last_key_leaves_a_static_value():
    engine = engine_with_layers()
    run(engine, "prop.addKey", path="transform.opacity", time=0, value=0)
    run(engine, "prop.addKey", path="transform.opacity", time=1, value=100)
    run(engine, "prop.addKey", path="transform.opacity", time=2, value=40)
    assert run(engine, "prop.removeKey", path="transform.opacity", time=1)["keys"] == 2
    assert run(engine, "prop.removeKey", path="transform.opacity", index=1)["keys"] == 1
    run(engine, "prop.removeKey", path="transform.opacity", index=1)
    assert red(engine)["transform"]["opacity"] == 40


def test_prop_set_with_a_whole_animation_and_prop_set_static_drops_keys():
    engine = engine_with_layers()
    animation = {"keys": [{"time": 0, "value": 0}, {"time": 1, "value": 10,
                                                    "interpolation": {"bezier": [0, 0, 1, 1]}}]}
    result = run(engine, "prop.set", path="transform.rotation", value=animation)
    assert result["animated"] is True
    assert run(engine, "prop.get", path="transform.rotation", time=0.5)["value"] == 5.0
    run(engine, "prop.set", path="transform.rotation", value=12)
    assert red(engine)["transform"]["rotation"] == 12


@pytest.mark.parametrize("command,params,message", [
    ("prop.set", {"path": "transform.skew", "value": 1},
     "layer 'Red' has no property 'transform.skew'; its properties are transform.anchor"),
    ("prop.set", {"path": "transform.position", "value": 3}, r"expected \[x, y\], got 3"),
    ("prop.set", {"path": "effects.1.radius", "value": 3}, "layer 'Red' has no effect '1'"),
    ("prop.set", {"path": "color", "value": {"keys": []}}, "expected a non-empty list of keys"),
    ("prop.addKey", {"path": "transform.opacity", "time": 0, "value": "half"},
     "transform.opacity: expected a number"),
    ("prop.addKey", {"path": "transform.opacity", "time": 0, "value": 1,
                     "interpolation": "bouncy"}, "interpolation: expected an interpolation"),
    ("prop.addKey", {"path": "transform.opacity", "time": "0", "value": 1},
     "time must be seconds or \"marker:NAME\""),
    ("prop.addKey", {"path": "transform.opacity", "value": 1}, "prop.addKey needs 'time'"),
    ("prop.removeKey", {"path": "transform.opacity", "time": 0},
     "has no keys to remove"),
    ("prop.removeKey", {"path": "transform.opacity"}, "needs either time or index"),
    ("prop.get", {"path": "text"}, "has no property 'text'"),
])
def test_prop_bad_input(command, params, message):
    engine = engine_with_layers()
    with pytest.raises(CommandError, match=message):
        run(engine, command, **params)


def test_unanimatable_content_is_refused_for_keys():
    engine = engine_with_layers()
    with pytest.raises(CommandError, match="shape cannot be animated"):
        engine.run("prop.addKey", {"comp": "Main", "layer": "Box", "path": "shape", "time": 0,
                                   "value": "ellipse"})
    with pytest.raises(CommandError, match="this property cannot be animated"):
        engine.run("prop.set", {"comp": "Main", "layer": "Box", "path": "strokeJoin",
                                "value": {"keys": [{"time": 0, "value": "round"}]}})


def test_removing_a_key_that_is_not_there_lists_the_key_times():
    engine = engine_with_layers()
    run(engine, "prop.addKey", path="transform.opacity", time=0.5, value=0)
    with pytest.raises(CommandError, match="has no key at 2 s; its keys are at 0.5"):
        run(engine, "prop.removeKey", path="transform.opacity", time=2)
