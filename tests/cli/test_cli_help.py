"""`rendervisor ... --help` as a new user reads it: every option of every subcommand says what
it does, and `render --help` ends with examples and the exit codes."""

import argparse

from supervisor.cli.main import build_parser
from tests.helpers.cli_projects import rendervisor


def subcommand_parsers() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    choices = next(action.choices for action in parser._actions
                   if isinstance(action, argparse._SubParsersAction))
    return dict(choices)


def test_every_option_of_every_subcommand_has_help_text():
    parsers = subcommand_parsers()
    assert {"mcp", "render", "preview", "watch", "commands"} <= set(parsers)
    silent = [f"{name} {'/'.join(action.option_strings) or action.dest}"
              for name, parser in parsers.items() for action in parser._actions
              if not isinstance(action, argparse._HelpAction)
              and not (action.help and action.help.strip())]
    assert silent == []


def test_render_help_ends_with_examples_and_exit_codes():
    result = rendervisor("render", "--help")
    assert result.returncode == 0, result.stderr
    text = result.stdout
    examples, codes = text.find("examples:"), text.find("exit codes:")
    assert 0 < examples < codes, text
    tail = text[codes:]
    for code in ("0 ", "1 ", "2 ", "130 "):
        assert f"\n  {code}" in tail, tail
    assert "rendervisor render shot.rvproj" in text[examples:codes]
    # The frame spec syntax and the formats are explained where the options are.
    assert "0-29,60" in text and "png" in text and "h264" in text

