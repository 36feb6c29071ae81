"""Repeated `FLAG KEY=VALUE` options (`--codec-option crf=20`, `--set title=Hello`) read into a
dict, every pair checked the same way."""

from __future__ import annotations

from supervisor.errors import UsageError


def flag_pairs(pairs: list[str], flag: str, form: str, example: str) -> dict[str, str]:
    """KEY -> VALUE of each pair given with `flag` (a later one wins); UsageError naming the
    first that is not `form` (KEY=VALUE, NAME=VALUE), with `example` to copy."""
    values = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"rendervisor render: {flag} {pair!r} is not {form}; write it like "
                             f"{flag} {example}.")
        values[key.strip()] = value
    return values
