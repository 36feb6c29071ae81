"""What holds for every engine command, whatever its family."""

import pytest

from supervisor.engine.commands.registry import COMMANDS
from supervisor.errors import CommandError
from tests.helpers.engine_projects import engine_with_layers


@pytest.mark.parametrize("command_id", sorted(COMMANDS))
def test_every_command_refuses_an_unknown_param_naming_the_accepted_ones(command_id):
    cmd = COMMANDS[command_id]
    engine = engine_with_layers()
    before, revision = engine.doc, engine.revision
    with pytest.raises(CommandError) as caught:
        engine.run(command_id, {"bogusParam": 1})
    message = str(caught.value)
    assert message.startswith(f"{command_id} does not take 'bogusParam'; it takes ")
    for name in cmd.properties:
        assert name in message
    assert engine.doc is before and engine.revision == revision


@pytest.mark.parametrize("command_id", sorted(c for c in COMMANDS if COMMANDS[c].required))
def test_every_command_names_its_missing_required_params(command_id):
    first = COMMANDS[command_id].required[0]
    with pytest.raises(CommandError, match=f"{command_id} needs '{first}'"):
        engine_with_layers().run(command_id, {})


@pytest.mark.parametrize("command_id", sorted(COMMANDS))
def test_every_command_has_a_title_description_and_closed_schema(command_id):
    cmd = COMMANDS[command_id]
    assert cmd.title and cmd.description.endswith((".", ")"))
    schema = cmd.schema()
    assert schema["type"] == "object" and schema["additionalProperties"] is False
    assert set(schema.get("required", [])) <= set(schema["properties"])


def test_params_that_are_not_an_object_are_refused():
    with pytest.raises(CommandError, match="comp.set takes its params as an object, not list; "
                                           'for example {"comp": ...}'):
        engine_with_layers().run("comp.set", [1])
