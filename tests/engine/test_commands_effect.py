import pytest

from protocol.model.effects import EFFECTS
from supervisor.errors import CommandError
from tests.helpers.cube_luts import cube_table, write_cube
from tests.helpers.engine_projects import engine_with_layers


def effects(engine):
    return engine.doc["comps"][0]["layers"][2]["effects"]


@pytest.mark.parametrize("effect", list(EFFECTS))
def test_effect_add_every_effect_with_its_defaults(effect, tmp_path):
    engine = engine_with_layers()
    # A LUT has no default file: it is the one param an effect cannot go without.
    params = {"params": {"path": write_cube(tmp_path / "a.cube", cube_table(2))}} \
        if effect == "lut" else {}
    result = engine.run("effect.add", {"comp": "Main", "layer": "Red", "effect": effect,
                                       **params})
    [stored] = effects(engine)
    assert result["effect"] == stored["id"] and stored["enabled"] is True
    assert set(stored["params"]) == set(EFFECTS[effect])


def test_effect_add_with_params_then_set_and_remove_by_name_and_index():
    engine = engine_with_layers()
    engine.run("effect.add", {"comp": "Main", "layer": "Red", "effect": "dropShadow",
                              "params": {"color": "#ff0000", "distance": 4}})
    engine.run("effect.add", {"comp": "Main", "layer": "Red", "effect": "gaussianBlur"})
    shadow = effects(engine)[0]
    assert shadow["params"]["color"] == [1.0, 0.0, 0.0, 1.0]
    assert shadow["params"]["distance"] == 4 and shadow["params"]["softness"] == 10
    engine.run("effect.set", {"comp": "Main", "layer": "Red", "effect": "gaussianBlur",
                              "params": {"radius": 2}, "enabled": False})
    assert effects(engine)[1]["params"]["radius"] == 2 and effects(engine)[1]["enabled"] is False
    engine.run("effect.remove", {"comp": "Main", "layer": "Red", "effect": 1})
    assert [fx["effect"] for fx in effects(engine)] == ["gaussianBlur"]


@pytest.mark.parametrize("command,params,message", [
    ("effect.add", {"effect": "sparkle"}, "effect must be one of gaussianBlur"),
    ("effect.add", {"effect": "glow", "params": {"size": 3}},
     "a glow effect has no param 'size'; its params are radius, intensity, threshold"),
    ("effect.add", {"effect": "tint", "params": {"black": "dark"}},
     "params.black: expected a color"),
    ("effect.set", {"effect": "glow"}, "layer 'Red' has no effects"),
    ("effect.remove", {"effect": 1}, "layer 'Red' has no effects"),
])
def test_effect_bad_input(command, params, message):
    engine = engine_with_layers()
    with pytest.raises(CommandError, match=message):
        engine.run(command, {"comp": "Main", "layer": "Red", **params})


def test_effect_set_names_the_effects_there_are():
    engine = engine_with_layers()
    engine.run("effect.add", {"comp": "Main", "layer": "Red", "effect": "fill"})
    with pytest.raises(CommandError, match="there is no effect 'glow' on layer 'Red'"):
        engine.run("effect.set", {"comp": "Main", "layer": "Red", "effect": "glow"})


def test_a_lut_needs_an_absolute_path_to_a_file_a_probe_worker_reads_as_a_lut(tmp_path):
    engine = engine_with_layers()
    add = {"comp": "Main", "layer": "Red", "effect": "lut"}
    with pytest.raises(CommandError, match="a lut effect needs params.path, the absolute path"):
        engine.run("effect.add", add)
    with pytest.raises(CommandError, match="a lut effect's path must be an absolute path, got 'a.cube'"):
        engine.run("effect.add", {**add, "params": {"path": "a.cube"}})
    with pytest.raises(CommandError, match=f"the LUT {tmp_path}: it is a folder, not a .cube 3D LUT file"):
        engine.run("effect.add", {**add, "params": {"path": str(tmp_path)}})
    with pytest.raises(CommandError, match="gone.cube: there is no such file"):
        engine.run("effect.add", {**add, "params": {"path": str(tmp_path / "gone.cube")}})
    # Parsed on a probe worker, as the compositor will parse it: a file that is no LUT is
    # refused now, naming its line.
    text = tmp_path / "notes.cube"
    text.write_text("hello\n")
    with pytest.raises(CommandError, match=f"the LUT file {text} cannot be read at line 1: "
                                           "'hello' is not a .cube keyword or an entry"):
        engine.run("effect.add", {**add, "params": {"path": str(text)}})
    text.write_text("LUT_3D_SIZE 2\n" + "0 0 0\n" * 8)
    engine.run("effect.add", {**add, "params": {"path": str(text), "amount": 50}})
    with pytest.raises(CommandError, match="params.path: this property cannot be animated"):
        engine.run("effect.set", {"comp": "Main", "layer": "Red", "effect": "lut", "params": {
            "path": {"keys": [{"time": 0, "value": str(text)}]}}})


def test_grade_takes_a_number_or_r_g_b_for_lift_gamma_and_gain():
    engine = engine_with_layers()
    engine.run("effect.add", {"comp": "Main", "layer": "Red", "effect": "grade",
                              "params": {"gain": 1.5, "lift": [0, 0.1, 0]}})
    [grade] = effects(engine)
    assert grade["params"]["gain"] == [1.5, 1.5, 1.5]
    assert grade["params"]["lift"] == [0, 0.1, 0] and grade["params"]["gamma"] == [1, 1, 1]
    with pytest.raises(CommandError, match=r"params.gamma: expected a number or \[r, g, b\]"):
        engine.run("effect.set", {"comp": "Main", "layer": "Red", "effect": "grade",
                                  "params": {"gamma": [1, 2]}})
