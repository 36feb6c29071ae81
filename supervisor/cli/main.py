"""The `rendervisor` command: mcp, render, preview, watch, export, info, collect, clean,
commands, --version.

Bad usage and bad input exit 2 with one line on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import os
import sys

from protocol.model.output_formats import FORMATS
from protocol.model.timeline_formats import TIMELINE_FORMATS
from supervisor import __version__
from supervisor.confinement.shell_policy import SHELL_MODES
from supervisor.cli.claims import POLL_INTERVAL, SETTLE_TIME, STALE_AFTER
from supervisor.cli.display import PROGRESS_STYLES
from supervisor.cli.log_lines import append_to_log
from supervisor.errors import UsageError
from supervisor.runtime.teardown import JOIN_GRACE, TEARDOWN_GRACE

# Each subcommand's module, with its `run(args) -> exit code`. Imported only when chosen, so
# `rendervisor commands` or a usage error does not pay for Skia, PyAV and the worker pool.
SUBCOMMANDS = {"mcp": "supervisor.cli.mcp", "render": "supervisor.cli.render",
               "preview": "supervisor.cli.preview", "watch": "supervisor.cli.watch",
               "commands": "supervisor.cli.commands", "clean": "supervisor.cli.clean",
               "info": "supervisor.cli.info", "export": "supervisor.cli.export",
               "studio": "supervisor.cli.studio", "collect": "supervisor.cli.collect"}
# The subcommands that start this machine's workers at once (render without --cluster): their
# forkserver starts before their module is imported, so it imports Skia, PyAV and numpy for
# the workers while this process imports the rest of the supervisor, not after it.
FORKSERVER_FIRST = ("render", "studio")


EXPORT_FORMATS = (*TIMELINE_FORMATS, "lottie")


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


def whole_number(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r} must not be negative")
    return value


def seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r} must not be negative")
    return value


def positive_seconds(text: str) -> float:
    value = seconds(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} must be above 0 seconds")
    return value


def host_port(text: str) -> tuple[str, int]:
    """HOST:PORT ([::1]:PORT for IPv6); port 0 takes a free one."""
    host, colon, port = text.rpartition(":")
    host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if not colon or not host or not port.isdigit() or int(port) > 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not HOST:PORT (e.g. 127.0.0.1:8123, "
                                         "or port 0 for a free one)")
    return host, int(port)


def port_number(text: str) -> int:
    if not text.isdigit() or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port (0 to 65535; 0 takes a free "
                                         "one)")
    return int(text)


def usable_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


RENDER_EPILOG = """\
frame specs (--frames, comp frames from 0, inclusive):
  N  one frame   A-B  A through B   A-  A to the comp's end   0-29,60  a comma list
  A-BxS, A-xS    every Sth frame from A: 0-100x5 is 0, 5, ..., 100

examples:
  rendervisor render shot.rvproj                        the project's render queue
  rendervisor render shot.rvproj --comp Main --output Main.mp4
  rendervisor render shot.rvproj --comp Main --frames 0-99 --format png \\
      --output /farm/shot/Main_[####].png --skip-existing     one farm task
  rendervisor render shot.rvproj --comp Main --frames 0-100x10 --start-number 1001 \\
      --output /farm/shot/Main_[####].png                    every 10th frame, files from 1001
  rendervisor render shot.rvproj --json                 one JSON event per line on stdout
  rendervisor render shot.rvproj --cluster tcp://scheduler:8786

exit codes:
  0    every item rendered
  1    some item failed (the others still rendered); the summary says why
  2    bad usage or input (unreadable project, unknown comp, bad frame spec, an output that
       cannot be written), said in one line on stderr
  130  interrupted (Ctrl-C or SIGTERM); partial outputs were removed, and a video's finished
       segments kept for a rerun with --skip-existing
"""


def build_parser() -> Parser:
    parser = Parser(prog="rendervisor", description="A headless motion-graphics render engine.")
    parser.add_argument("--version", action="version", version=f"rendervisor {__version__}",
                        help="print the version and exit")
    commands = parser.add_subparsers(dest="command", parser_class=Parser)
    cores = usable_cores()

    mcp = commands.add_parser("mcp", help="serve MCP on stdin/stdout",
                              description="Serve MCP (newline-delimited JSON-RPC) on stdin and "
                              "stdout for an agent host; logs go to stderr.")
    mcp.add_argument("--project", metavar="FILE", help="open this project at start")
    mcp.add_argument("--read-root", metavar="DIR", action="append", default=[],
                     help="confine reads to DIR (repeatable); with no root nothing is confined")
    mcp.add_argument("--write-root", metavar="DIR", action="append", default=[],
                     help="confine writes to DIR, which may also be read (repeatable)")
    mcp.add_argument("--workers", type=positive_int, default=cores, metavar="N",
                     help="render worker processes (default: the usable cores, %(default)s)")
    mcp.add_argument("--max-inflight", type=positive_int, default=8, metavar="N",
                     help="tool calls running at once in each lane (default %(default)s)")
    mcp.add_argument("--join-grace", type=seconds, default=JOIN_GRACE, metavar="S",
                     help="seconds calls may finish in after stdin ends, before they are "
                     "cancelled (default %(default)s)")
    mcp.add_argument("--teardown-grace", type=seconds, default=TEARDOWN_GRACE, metavar="S",
                     help="seconds a cancelled job has to stop before its process tree is "
                     "killed (default %(default)s)")
    mcp.add_argument("--log-level", default="WARNING",
                     choices=["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"],
                     help="what reaches stderr (default %(default)s)")
    mcp.add_argument("--shell", choices=SHELL_MODES,
                     help="off, sandbox (bubblewrap, bound to the roots; the default while "
                          "confined) or host (the default unconfined)")
    mcp.add_argument("--studio", nargs="?", const=("127.0.0.1", 0), type=host_port,
                     metavar="HOST:PORT",
                     help="serve the studio, a page following this session live, on "
                     "HOST:PORT (default 127.0.0.1 and a free port); its address goes to stderr")

    render = commands.add_parser(
        "render", help="render a saved project", epilog=RENDER_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Render a saved project's render queue, or one comp with --comp, on this\n"
        "machine's cores or on a Dask cluster. The project file is never changed.")
    render.add_argument("project", metavar="PROJECT", help="the .rvproj file")
    render.add_argument("--comp", metavar="NAME",
                        help="render this comp alone (its name or id) instead of the queue")
    render.add_argument("--frames", metavar="SPEC",
                        help="comp frames to write: N, A-B, A-, A-BxS (every Sth frame) or "
                        "a comma list (0-29,60); default: every frame")
    render.add_argument("--start-number", type=whole_number, metavar="N",
                        help="number a sequence's files from N: comp frame 0 is file N (farm "
                        "pipelines use 1001); default 0")
    render.add_argument("--output", metavar="PATTERN",
                        help="the file, or a sequence's pattern with [####] for the frame "
                        "number and [compName]; default [compName].mp4 beside the project")
    render.add_argument("--format", metavar="FMT",
                        help=f"{', '.join(FORMATS)}; default: from --output's extension, "
                        "else h264")
    render.add_argument("--skip-existing", action="store_true",
                        help="leave sequence frames, and videos, whose file exists")
    render.add_argument("--codec-option", metavar="KEY=VALUE", action="append", default=[],
                        help="an encoder option from the format's list, e.g. crf=20 "
                        "(repeatable; docs/outputs.md lists each format's)")
    render.add_argument("--set", metavar="NAME=VALUE", action="append", default=[],
                        help="a template param's value for this render (repeatable; "
                        "template.list names the params)")
    render.add_argument("--data", metavar="FILE",
                        help="template rows: a CSV with a header, a JSON array or JSON lines; "
                        "one output per row")
    render.add_argument("--rows", metavar="SPEC",
                        help="with --data, the rows to render (1-based, e.g. 1-10,12)")
    render.add_argument("--workers", type=positive_int, default=cores, metavar="N",
                        help="render worker processes (default: the usable cores, "
                        "%(default)s)")
    render.add_argument("--chunk-size", type=positive_int, metavar="N",
                        help="frames a worker takes at a time (default: planned from the "
                        "item's length and the workers)")
    render.add_argument("--cluster", metavar="ADDRESS",
                        help="render on a Dask cluster: tcp://HOST:8786, or local for one "
                        "started here")
    render.add_argument("--item", metavar="NAME|INDEX", action="append", default=[],
                        help="render this queue item alone (repeatable): its index from 1, as "
                        "rendervisor info lists it, its id, or its comp's name")
    render.add_argument("--allow-missing", action="store_true",
                        help="render even with footage missing: it is drawn as a placeholder "
                        "and each item says so (default: refuse before rendering)")
    render.add_argument("--json", action="store_true",
                        help="one JSON event per line on stdout: progress, then done (or "
                        "error, before exit 2)")
    render.add_argument("--progress", choices=PROGRESS_STYLES, default="auto",
                        help="auto (a bar on a terminal, else lines), bar, lines, or openjd: "
                        "openjd_progress and openjd_status lines on stdout, for Open Job "
                        "Description runners such as AWS Deadline Cloud")
    render.add_argument("--log", metavar="FILE",
                        help="also append every plain line, with its time, to FILE")
    render.add_argument("--quiet", action="store_true",
                        help="print nothing but errors")

    preview = commands.add_parser("preview", help="render one frame to a PNG",
                                  description="Render one frame of a saved project to a PNG.")
    preview.add_argument("project", metavar="PROJECT", help="the .rvproj file")
    preview.add_argument("--comp", metavar="NAME",
                         help="the comp (name or id; default: the first comp)")
    where = preview.add_mutually_exclusive_group()
    where.add_argument("--time", type=float, metavar="S",
                       help="comp time in seconds, floored to its frame (default 0)")
    where.add_argument("--frame", type=int, metavar="N", help="comp frame number, from 0")
    preview.add_argument("--output", metavar="FILE.png", required=True,
                         help="where to write the PNG")
    preview.add_argument("--max-side", type=int, metavar="N",
                         help="scale so the longer side is at most N pixels (default: full "
                         "size)")

    export = commands.add_parser(
        "export", help="hand a comp to an editor (OTIO, FCP XML, EDL) or write it as Lottie",
        description="Write a comp of a saved project as an editorial timeline (OpenTimelineIO, "
        "Final Cut Pro X or 7 XML, CMX 3600 EDL) or as a Lottie animation; what the format "
        "cannot hold is listed as warnings. The project file is never changed.")
    export.add_argument("project", metavar="PROJECT", help="the .rvproj file")
    export.add_argument("--comp", metavar="NAME", required=True, help="the comp (name or id)")
    export.add_argument("--output", metavar="FILE", required=True, help="the file to write")
    export.add_argument("--format", metavar="F", choices=EXPORT_FORMATS,
                        help=f"{', '.join(EXPORT_FORMATS)}; default: from --output's "
                        "extension (.otio, .fcpxml, .xml, .edl, .json)")
    export.add_argument("--render-graphics", action="store_true",
                        help="pre-render the layers a timeline cannot hold (text, shapes, "
                        "effects) to ProRes 4444 with alpha beside it and place them as clips")
    export.add_argument("--workers", type=positive_int, default=cores, metavar="N",
                        help="render worker processes for --render-graphics (default: the "
                        "usable cores, %(default)s)")

    watch = commands.add_parser(
        "watch", help="render projects dropped into a folder",
        description="Render every project (*.rvproj) dropped into FOLDER or one level down "
        "whose queue has items; nodes watching one shared folder each take a project by a "
        "claim file, and a status file beside it says how it went.")
    watch.add_argument("folder", metavar="FOLDER", help="the folder to watch")
    watch.add_argument("--workers", type=positive_int, default=cores, metavar="N",
                       help="render worker processes (default: the usable cores, "
                       "%(default)s)")
    watch.add_argument("--once", action="store_true",
                       help="render what is there now, then exit")
    watch.add_argument("--poll", type=positive_seconds, default=POLL_INTERVAL, metavar="SECONDS",
                       help="seconds between looks at the folder: how long a dropped project "
                       "may wait (default %(default)g)")
    watch.add_argument("--stale", type=positive_seconds, default=STALE_AFTER, metavar="SECONDS",
                       help="take over another node's claim untouched this long (the node "
                       "died or lost the share); give every node the same (default %(default)g)")
    watch.add_argument("--settle", type=seconds, default=SETTLE_TIME, metavar="SECONDS",
                       help="leave a project whose size or time changed this recently: it is "
                       "still being copied in (default %(default)g)")
    watch.add_argument("--json", action="store_true",
                       help="one JSON event per line on stdout instead of plain lines")
    watch.add_argument("--log", metavar="FILE",
                       help="also append every line, with its time, to FILE")

    info = commands.add_parser(
        "info", help="list a project's comps, footage, params and render queue",
        description="List a project's comps (size, frame rate, duration, frame count), its "
        "footage (missing files marked), its template params (name, type, default, whether "
        "required) and its render queue (each item's index for render --item, comp, output, "
        "format and frames), to plan farm tasks. The project is not written.")
    info.add_argument("project", metavar="PROJECT", help="the .rvproj file")
    info.add_argument("--json", action="store_true",
                      help="one JSON object on stdout instead of the listing")

    collect = commands.add_parser(
        "collect", help="copy a project and every file it reads into one folder",
        description="Copy the project and every file it reads (footage, a sequence's frames, "
        "font files, footage params' files) into DIR, its paths rewritten to point there, so "
        "the job can be sent to render nodes without a shared mount. With --check, copy "
        "nothing and list what a node given the project's folder alone would miss.")
    collect.add_argument("project", metavar="PROJECT", help="the .rvproj file")
    collect.add_argument("dir", metavar="DIR", nargs="?",
                         help="a new or empty folder to collect into")
    collect.add_argument("--check", action="store_true",
                         help="list the files outside the project's folder or missing here, "
                         "copy nothing (exit 1 when there are any)")

    studio = commands.add_parser(
        "studio", help="a page to look at a project: scrub, play, render",
        description="Serve the studio for a saved project: its comps and layers on a "
        "timeline, a viewer that scrubs and plays, its render queue with live progress. The "
        "page follows the file as it changes on disk and never writes it. The address printed "
        "carries a random token; Ctrl-C stops the studio.")
    studio.add_argument("project", metavar="PROJECT", help="the .rvproj file")
    studio.add_argument("--host", default="127.0.0.1", metavar="H",
                        help="the address to listen on (default %(default)s: this machine "
                        "alone)")
    studio.add_argument("--port", type=port_number, default=0, metavar="P",
                        help="the port (default: a free one)")
    studio.set_defaults(workers=cores)

    clean = commands.add_parser(
        "clean", help="remove the segments and temporaries interrupted renders left",
        description="Remove the finished segments that interrupted video renders of a project "
        "keep beside their outputs for a resume (hidden folders named .OUTPUT.segments), and "
        "the temporaries renders that were killed left (.OUTPUT.TOKEN.part), beside the "
        "project's outputs and the --output pattern given.")
    clean.add_argument("project", metavar="PROJECT", help="the .rvproj file")
    clean.add_argument("--output", metavar="PATTERN",
                       help="also clean beside this output or pattern, as render --output "
                       "named it (out/b_[####].png, out/v.mp4)")

    listing = commands.add_parser("commands", help="list the engine commands",
                                  description="List the engine commands an agent can run.")
    listing.add_argument("--json", action="store_true",
                         help="the catalog as JSON, with each command's parameter schema")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one command; `argv` None: this process is the command (its words are sys.argv)."""
    code = run_command(argv)
    if argv is None:
        no_collections_at_exit()
    return code


def no_collections_at_exit() -> None:
    """Stop the cyclic garbage collector for the interpreter's teardown, which follows. Tearing
    the modules down ran collection after collection over everything a render had loaded
    (Skia, PyAV, numpy, the document): 0.25 to 0.3 s of every `rendervisor render`'s exit on a
    busy machine, 0.06 s without. The process is ending, so nothing is lost: objects still go
    by their reference counts (this process writes its files through raw descriptors, and
    Python flushes stdout and stderr itself); only cycles are left for the exit to reclaim.
    Not for a caller that goes on running after main()."""
    gc.freeze()
    gc.disable()


def run_command(argv: list[str] | None) -> int:
    args = None
    try:
        args = build_parser().parse_args(argv)
        if args.command is None:
            raise UsageError("rendervisor: name a command: mcp, render, preview, studio, watch, "
                             "export, info, collect, clean or commands (see rendervisor --help)")
        if args.command in FORKSERVER_FIRST and getattr(args, "cluster", None) is None:
            from supervisor.runtime.pool import start_forkserver
            start_forkserver()
        return importlib.import_module(SUBCOMMANDS[args.command]).run(args)
    except UsageError as exc:
        print(str(exc), file=sys.stderr)
        say_failure(args, argv if argv is not None else sys.argv[1:], str(exc))
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # `rendervisor commands | head`: the reader left; nothing more to say, and no
        # traceback from the interpreter flushing stdout at exit either.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as exc:  # a bug: still one line, never a traceback
        sentence = (f"rendervisor: failed unexpectedly ({type(exc).__name__}: {exc}); this is "
                    "a bug in rendervisor, please report it with the command that caused it.")
        print(sentence, file=sys.stderr)
        say_failure(args, argv if argv is not None else sys.argv[1:], sentence)
        return 1


def say_failure(args, argv: list[str], sentence: str) -> None:
    """The sentence that ends a command, also where its output is read: a JSON `error` event
    on stdout with --json (a script reading events would otherwise see nothing at all), an
    `openjd_fail` line with --progress openjd, and the --log file. Before the flags were
    parsed (a usage error), --json is looked for in the words themselves."""
    wants_json = getattr(args, "json", False) if args is not None else "--json" in argv
    if wants_json:
        print(json.dumps({"event": "error", "message": sentence}), flush=True)
    elif getattr(args, "progress", None) == "openjd":
        print(f"openjd_fail: {sentence}", flush=True)
    if getattr(args, "log", None):
        append_to_log(args.log, sentence)
