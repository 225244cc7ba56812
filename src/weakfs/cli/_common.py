"""What every ``weakfs`` subcommand shares: user errors, notes and the ``--set`` parser.

A subcommand never writes its own name into a message: :func:`_fail` raises a
:class:`UsageError` that :func:`weakfs.cli.main` prints as ``weakfs COMMAND: error: ...``, and
the notes a step returns are printed by :func:`_print_notes` with the running command's name.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterable


class UsageError(Exception):
    """A user mistake: :func:`weakfs.cli.main` prints it on one line, exit code 2."""


def _fail(message: str):
    """A user mistake: one line on stderr, exit code 2 (see :func:`weakfs.cli.main`)."""
    raise UsageError(message)


def _one_line(message) -> str:
    return " ".join(str(message).split())


def _print_notes(command: str, notes: Iterable[str]) -> None:
    """Remarks about what the command does, on stderr (stdout holds the result); printed once
    every check has passed, so that a mistake is reported on one line."""
    for note in notes:
        print(f"weakfs {command}: note: {note}", file=sys.stderr)


def _names(values, limit: int = 20) -> str:
    values = [str(v) for v in values]
    more = f", … ({len(values) - limit} more)" if len(values) > limit else ""
    return ", ".join(values[:limit]) + more


# ---------------------------------------------------------------------------------------------
# --set KEY=VALUE, the same for every subcommand


def _add_set_option(parser, metavar: str, what: str) -> None:
    """``--set METAVAR``, repeatable, read by :func:`_parse_set`; ``what`` says what it sets."""
    help = f"{what} (repeatable; VALUE read as a Python literal, else text)"
    parser.add_argument("--set", action="append", metavar=metavar, help=help)


def _literal(text: str):
    """``text`` as a Python literal, else the text itself.

    A comma-separated list without brackets (``0.5,0.25``, ``t2,t3``) stays text: the
    experiments split such options themselves; ``(0.5, 0.25)`` or ``[0.5, 0.25]`` is a tuple
    or list.
    """
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return text
    if isinstance(value, tuple) and not text.startswith("("):
        return text
    return value


def _parse_set(pairs: Iterable[str] | None, *, form: str = "KEY=VALUE") -> dict:
    """``--set KEY=VALUE`` entries as a dict (the last of a repeated key wins); ``form`` names
    the entry in the error for one without ``=`` or without a key."""
    options = {}
    for pair in pairs or ():
        key, sep, text = pair.partition("=")
        key, text = key.strip(), text.strip()
        if not sep or not key:
            _fail(f"--set takes {form}; got {pair!r}")
        options[key] = _literal(text)
    return options


def _refuse_overwriting(source, **outputs) -> None:
    """A user mistake that would lose the input: an output option naming the table read."""
    from pathlib import Path

    if source is None:
        return
    source = Path(source).resolve()
    for option, path in outputs.items():
        if path and Path(path).resolve() == source:
            flag = "-o" if option == "output" else "--" + option.replace("_", "-")
            _fail(
                f"{flag} names the input table {Path(path).name}: it would be overwritten; "
                "write to another file"
            )
