"""search_files' content search: a pattern matched against each line of a file, by RE2.

Python's re backtracks: `^(a+)+$` against forty a's and a '!' runs for hours, holding the
interpreter lock all along, so one search froze the whole server (no ping, no cancel, no signal
was answered). RE2 never backtracks: a match takes time linear in the line times the size of the
compiled pattern, and google-re2 lets go of the interpreter lock while it matches, so the reader
and the signal handlers run during a search. What is left to bound is bounded here, each by a
named constant: the pattern's length and compiled size, and how much of one line is searched,
so that one line's match, the one step nothing can interrupt, stays short. Between lines the
caller's `stop()` is asked, which is where a cancel or the search's deadline takes effect.

This module never hands file content to Python's re: `re` only judges a pattern RE2 refused, to
tell syntax RE2 lacks from a pattern that is no regular expression at all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable

import re2

from supervisor.mcp.tools.registry import ToolError

# The longest pattern compiled. Compiling holds the interpreter lock for a time that grows with
# the pattern (60 MB of parentheses take 11 s); 10,000 characters compile in milliseconds and
# are far more than a search pattern a person or an agent writes.
PATTERN_LIMIT = 10_000
# What RE2 may use for one pattern: its program and the DFA cache it builds while matching.
# google-re2 keeps the last 128 patterns compiled, so this bounds what they hold to 128 MiB (the
# default, 8 MiB each, would allow 1 GiB); a smaller budget only makes an intricate pattern fall
# back sooner to RE2's slower matcher, which is linear too.
PATTERN_MEMORY = 1 << 20
# What one line's match may cost, in bytes searched times instructions of the compiled pattern.
# RE2's slowest matcher spends up to about 10 ns of CPU per byte per instruction (measured:
# `(a?){600}a{600}x`, 1,805 instructions, 9.3 KB in 170 ms), so one line costs at most about a
# fifth of a second of CPU: the longest a cancel or the deadline waits (on a free core; longer
# when other work shares it). A line is searched in its first LINE_WORK // instructions bytes:
# 1.2 MiB for `def \w+\(` (13 instructions), 14 KB for `\p{L}+` (1,201). More would let a
# crafted pattern hold a lane thread for minutes on one long line; less would cut more lines.
LINE_WORK = 1 << 24
# The largest compiled pattern accepted, so that every line is searched for at least its first
# LINE_WORK // PROGRAM_LIMIT = 4 KiB. Ordinary patterns are tens of instructions; `.{1000}`
# (8,004) is refused.
PROGRAM_LIMIT = 4096
# Characters of a matching line returned with it.
MATCH_TEXT_LIMIT = 500

SYNTAX = "https://github.com/google/re2/wiki/Syntax"


@dataclass(frozen=True)
class LinePattern:
    regex: Any  # a compiled re2 pattern
    line_bytes: int  # how much of each line is searched


@dataclass
class FileMatches:
    matches: list[dict] = field(default_factory=list)
    lines_cut: int = 0  # lines longer than the pattern's line_bytes, searched in their start
    finished: bool = True  # False when stop() ended the search inside this file


def compile_pattern(source: str) -> LinePattern:
    """The content pattern `source`, compiled, or a ToolError saying why it cannot be."""
    if len(source) > PATTERN_LIMIT:
        raise ToolError(f"content is {len(source):,} characters long; a search pattern may have "
                        f"at most {PATTERN_LIMIT:,}.")
    options = re2.Options()
    options.max_mem = PATTERN_MEMORY
    options.never_capture = True  # only whether a line matches is asked: the fastest match
    options.log_errors = False  # a refusal is the caller's sentence, not a line on stderr
    try:
        regex = re2.compile(source, options)
    except re2.error as exc:
        raise ToolError(_refusal(source, exc)) from None
    size = regex.programsize
    if size > PROGRAM_LIMIT:
        raise ToolError(f"content compiles to {size:,} RE2 instructions, more than the "
                        f"{PROGRAM_LIMIT:,} a search allows (each line's search grows with "
                        "them); use smaller repeat counts or several simpler searches.")
    return LinePattern(regex, LINE_WORK // max(1, size))


def _refusal(source: str, exc: Exception) -> str:
    reason = exc.args[0] if exc.args else exc
    if isinstance(reason, bytes):
        reason = reason.decode("utf-8", errors="replace")
    try:
        re.compile(source)
    except (re.error, RecursionError, OverflowError, ValueError):
        return (f"content is not a regular expression RE2 can compile ({reason}); its syntax "
                f"is at {SYNTAX}.")
    return (f"content is a regular expression RE2 cannot run ({reason}): search_files matches "
            "with RE2, which keeps every search linear in time and so has no backreferences, "
            "lookaround, atomic groups or possessive repeats, no repeat above 1000 and no huge "
            "patterns; match the text itself instead (spell out what a backreference repeats, "
            r"put what a lookaround checks into the pattern, write \Z as \z).")


def matching_lines(data: bytes, pattern: LinePattern, limit: int,
                   stop: Callable[[], bool]) -> FileMatches:
    """The lines of `data` that `pattern` matches, at most `limit` of them, numbered from 1 as
    read_file counts them (a line ends at LF; a CR before it is not part of the line).
    `stop()` is asked before each line; True ends the search there."""
    found = FileMatches()
    lines = data.split(b"\n")
    if lines[-1] == b"":
        lines.pop()  # the end of the last line, not a line
    for number, line in enumerate(lines, 1):
        if stop():
            found.finished = False
            break
        if line.endswith(b"\r"):
            line = line[:-1]  # sliced, not cut with endpos: `$` must match before the CR
        end = len(line)
        if end > pattern.line_bytes:
            found.lines_cut += 1
            end = pattern.line_bytes
        # endpos rather than a slice: no copy, and `$` does not match where the line was cut.
        if pattern.regex.search(line, 0, end):
            # A character is at most 4 bytes, so these bytes hold the text's first characters.
            text = line[:min(end, MATCH_TEXT_LIMIT * 4)].decode("utf-8", errors="replace")
            found.matches.append({"line": number, "text": text[:MATCH_TEXT_LIMIT]})
            if len(found.matches) >= limit:
                break
    return found
