import pytest

from protocol.model.effects import EFFECTS
from supervisor.errors import CommandError
from tests.helpers.engine_projects import engine_with_layers


def effects(engine):
    return engine.doc["comps"][0]["layers"][2]["effects"]


@pytest.mark.parametrize("effect", list(EFFECTS))
def test_effect_add_every_effect_with_its_defaults(effect):
    engine = engine_with_layers()
    result = engine.run("effect.add", {"comp": "Main", "layer": "Red", "effect": effect})
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
