"""The supervisor's error types, at the bottom of its import graph: every room raises them and
none has to import a room above it to do so. Each message is the whole report, a sentence a
person can act on (what failed, on what, and what to do); no traceback goes with it.
"""


class CommandError(Exception):
    """An engine command (or anything it calls) failed in a way the caller can act on."""


class UsageError(Exception):
    """Bad usage or bad input on the command line: one line for stderr, exit code 2."""
