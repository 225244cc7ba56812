"""What every ``weakfs`` subcommand shares: its one-line user errors and notes."""

from __future__ import annotations

SELECT = "weakfs select"


def _note(args, message: str) -> None:
    """A remark about what the command does; printed on stderr (stdout holds the result) once
    every check has passed, so that a mistake is reported on one line."""
    args.notes.append(f"{SELECT}: note: {message}")


def _fail(message: str):
    """A user mistake: one line on stderr, exit code 2 (see :func:`main`)."""
    raise SystemExit(f"{SELECT}: error: {message}")


def _names(values, limit: int = 20) -> str:
    values = [str(v) for v in values]
    more = f", … ({len(values) - limit} more)" if len(values) > limit else ""
    return ", ".join(values[:limit]) + more
