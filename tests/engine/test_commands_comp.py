import pytest

from protocol.model.document import load_document
from supervisor.engine.engine import Engine
from supervisor.errors import CommandError
from tests.helpers.engine_projects import engine_with_comp, engine_with_layers


def test_comp_new_defaults_and_returns_its_id():
    engine = Engine()
    result = engine.run("comp.new", {})
    comp = engine.doc["comps"][0]
    assert result == {"comp": comp["id"], "name": "Comp 1"}
    assert (comp["width"], comp["height"], comp["frameRate"], comp["duration"]) == \
        (1920, 1080, 30, 10.0)
    assert comp["background"] == [0.0, 0.0, 0.0, 1.0]
    assert engine.run("comp.new", {})["name"] == "Comp 2"


def test_comp_new_takes_settings_and_normalises_the_background():
    engine = Engine()
    engine.run("comp.new", {"name": "Tall", "width": 1080, "height": 1920, "frameRate": 24,
                            "duration": 3, "background": "#ffffff"})
    comp = engine.doc["comps"][0]
    assert (comp["name"], comp["width"], comp["height"], comp["frameRate"], comp["duration"]) \
        == ("Tall", 1080, 1920, 24, 3.0)
    assert comp["background"] == [1.0, 1.0, 1.0, 1.0]


@pytest.mark.parametrize("params,message", [
    ({"width": 0}, "width: expected a number above 0"),
    ({"frameRate": -1}, "frameRate: expected a number above 0"),
    ({"background": "blue"}, "background: expected a color"),
    ({"width": 100000}, "larger than the largest renderable size"),
    ({"fps": 30}, "comp.new does not take 'fps'; it takes name, width, height, frameRate"),
    ({"width": "wide"}, "width must be integer"),
])
def test_comp_new_bad_input(params, message):
    with pytest.raises(CommandError, match=message):
        Engine().run("comp.new", params)


def test_comp_set_changes_settings_by_name_or_id():
    engine = engine_with_comp()
    comp_id = engine.doc["comps"][0]["id"]
    engine.run("comp.set", {"comp": "Main", "duration": 4, "motionBlur": {"enabled": True}})
    engine.run("comp.set", {"comp": comp_id, "name": "Renamed"})
    comp = engine.doc["comps"][0]
    assert (comp["name"], comp["duration"], comp["motionBlur"]["enabled"]) == \
        ("Renamed", 4.0, True)
    with pytest.raises(CommandError, match="motionBlur takes enabled, samples and shutterAngle"):
        engine.run("comp.set", {"comp": "Renamed", "motionBlur": {"blur": 1}})
    with pytest.raises(CommandError, match="there is no comp 'Main'; the ones there are: "
                                           "'Renamed'"):
        engine.run("comp.set", {"comp": "Main", "width": 10})


def test_comp_duplicate_gives_new_ids_and_reparents_the_copies():
    engine = engine_with_layers()
    engine.run("layer.set", {"comp": "Main", "layer": "Title", "parent": "Red"})
    result = engine.run("comp.duplicate", {"comp": "Main"})
    original, duplicate = engine.doc["comps"]
    assert result == {"comp": duplicate["id"], "name": "Main 2"}
    assert {l["id"] for l in original["layers"]}.isdisjoint(l["id"] for l in duplicate["layers"])
    title = duplicate["layers"][0]
    assert title["parent"] == duplicate["layers"][2]["id"]
    with pytest.raises(CommandError, match="there is no comp 'Nope'"):
        engine.run("comp.duplicate", {"comp": "Nope"})


def test_comp_remove_refuses_while_used_and_then_removes():
    engine = engine_with_comp()
    engine.run("comp.new", {"name": "Inner"})
    engine.run("layer.add", {"comp": "Main", "type": "precomp", "source": "Inner"})
    with pytest.raises(CommandError, match="comp 'Inner' is still used by layer 'Inner' of comp "
                                           "'Main'; remove those first"):
        engine.run("comp.remove", {"comp": "Inner"})
    engine.run("layer.remove", {"comp": "Main", "layer": 1})
    assert engine.run("comp.remove", {"comp": "Inner"})["name"] == "Inner"
    assert [c["name"] for c in engine.doc["comps"]] == ["Main"]


def test_comp_list_counts_frames_and_layers():
    engine = engine_with_layers()
    [summary] = engine.run("comp.list", {})["comps"]
    assert (summary["frames"], summary["layerCount"]) == (300, 3)
    with pytest.raises(CommandError, match="comp.list does not take 'comp'; it takes no params"):
        engine.run("comp.list", {"comp": "Main"})


def test_no_comps_yet_says_how_to_make_one():
    with pytest.raises(CommandError, match="the project has no comps yet; make one with "
                                           "comp.new"):
        Engine().run("layer.list", {"comp": "Main"})


def test_unknown_command_suggests_close_ids():
    with pytest.raises(CommandError, match="there is no engine command 'layer.ad'; did you mean "
                                           "layer.add"):
        Engine().run("layer.ad", {})


def test_the_master_bus_settings_are_stored_when_set_and_refused_out_of_range():
    engine = engine_with_comp()
    engine.run("comp.set", {"comp": "Main", "audioLoudness": -14, "audioCeiling": -2,
                            "audioLimiter": False})
    comp = engine.doc["comps"][0]
    assert (comp["audioLoudness"], comp["audioCeiling"], comp["audioLimiter"]) == \
        (-14, -2, False)
    load_document(engine.doc)
    for params, words in (({"audioCeiling": 1}, "audioCeiling is -20 to 0 dBTP"),
                          ({"audioLoudness": -80}, "audioLoudness is -70 to -5 LUFS"),
                          ({"audioLimiter": "yes"}, "audioLimiter")):
        with pytest.raises(CommandError, match=words):
            engine.run("comp.set", {"comp": "Main", **params})
    engine.run("comp.set", {"comp": "Main", "audioLoudness": None})
    assert engine.doc["comps"][0]["audioLoudness"] is None
