"""The `rendervisor` command: mcp, render, preview, watch, commands, --version.

Bad usage and bad input exit 2 with one line on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from supervisor import __version__
from supervisor.confinement.shell_policy import SHELL_MODES
from supervisor.errors import UsageError
from supervisor.runtime.teardown import JOIN_GRACE, TEARDOWN_GRACE

# Each subcommand's module, with its `run(args) -> exit code`. Imported only when chosen, so
# `rendervisor commands` or a usage error does not pay for Skia, PyAV and the worker pool.
SUBCOMMANDS = {"mcp": "supervisor.cli.mcp", "render": "supervisor.cli.render",
               "preview": "supervisor.cli.preview", "watch": "supervisor.cli.watch",
               "commands": "supervisor.cli.commands"}


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 2, as argparse does, but shorter
        raise UsageError(f"{self.prog}: {message} (see {self.prog} --help)")


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} must be at least 1")
    return value


def seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r} must not be negative")
    return value


def usable_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def build_parser() -> Parser:
    parser = Parser(prog="rendervisor", description="A headless motion-graphics render engine.")
    parser.add_argument("--version", action="version", version=f"rendervisor {__version__}")
    commands = parser.add_subparsers(dest="command", parser_class=Parser)

    mcp = commands.add_parser("mcp", help="serve MCP on stdin/stdout")
    mcp.add_argument("--project", metavar="FILE")
    mcp.add_argument("--read-root", metavar="DIR", action="append", default=[])
    mcp.add_argument("--write-root", metavar="DIR", action="append", default=[])
    mcp.add_argument("--workers", type=positive_int, default=usable_cores())
    mcp.add_argument("--max-inflight", type=positive_int, default=8)
    mcp.add_argument("--join-grace", type=seconds, default=JOIN_GRACE)
    mcp.add_argument("--teardown-grace", type=seconds, default=TEARDOWN_GRACE)
    mcp.add_argument("--log-level", default="WARNING",
                     choices=["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"])
    mcp.add_argument("--shell", choices=SHELL_MODES,
                     help="off, sandbox (bubblewrap, bound to the roots; the default while "
                          "confined) or host (the default unconfined)")

    render = commands.add_parser("render", help="render a saved project")
    render.add_argument("project", metavar="PROJECT")
    render.add_argument("--comp", metavar="NAME")
    render.add_argument("--frames", metavar="SPEC")
    render.add_argument("--output", metavar="PATTERN")
    render.add_argument("--format", metavar="FMT")
    render.add_argument("--skip-existing", action="store_true")
    render.add_argument("--codec-option", metavar="KEY=VALUE", action="append", default=[])
    render.add_argument("--set", metavar="NAME=VALUE", action="append", default=[])
    render.add_argument("--data", metavar="FILE")
    render.add_argument("--rows", metavar="SPEC")
    render.add_argument("--workers", type=positive_int, default=usable_cores())
    render.add_argument("--chunk-size", type=positive_int)
    render.add_argument("--cluster", metavar="ADDRESS")
    render.add_argument("--json", action="store_true")
    render.add_argument("--quiet", action="store_true")

    preview = commands.add_parser("preview", help="render one frame to a PNG")
    preview.add_argument("project", metavar="PROJECT")
    preview.add_argument("--comp", metavar="NAME")
    where = preview.add_mutually_exclusive_group()
    where.add_argument("--time", type=float)
    where.add_argument("--frame", type=int)
    preview.add_argument("--output", metavar="FILE.png", required=True)
    preview.add_argument("--max-side", type=int)

    watch = commands.add_parser("watch", help="render projects dropped into a folder")
    watch.add_argument("folder", metavar="FOLDER")
    watch.add_argument("--workers", type=positive_int, default=usable_cores())
    watch.add_argument("--once", action="store_true")

    listing = commands.add_parser("commands", help="list the engine commands")
    listing.add_argument("--json", action="store_true")
    return parser


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        if args.command is None:
            raise UsageError("rendervisor: name a command: mcp, render, preview, watch or "
                             "commands (see rendervisor --help)")
        return importlib.import_module(SUBCOMMANDS[args.command]).run(args)
    except UsageError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # `rendervisor commands | head`: the reader left; nothing more to say, and no
        # traceback from the interpreter flushing stdout at exit either.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as exc:  # a bug: still one line, never a traceback
        print(f"rendervisor: failed unexpectedly ({type(exc).__name__}: {exc}); this is a bug "
              "in rendervisor, please report it with the command that caused it.",
              file=sys.stderr)
        return 1
