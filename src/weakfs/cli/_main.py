"""``weakfs``: the top parser, built from the subcommands' own parsers, and the dispatch that
turns user mistakes into one line and exit code 2."""

from __future__ import annotations

import argparse
import sys

from weakfs.cli import _compare, _datasets, _reproduce, _select, _transform
from weakfs.cli._common import UsageError, _one_line

#: subcommand -> its module: ``PARSER`` (how it is added), ``format_parser(parser)`` and
#: ``main(parsed_args) -> exit code``
SUBCOMMANDS = {
    "select": _select,
    "compare": _compare,
    "transform": _transform,
    "reproduce": _reproduce,
    "datasets": _datasets,
}

#: errors that come from what the user gave (file, options, data): one line and exit code 2
USER_ERRORS = (ValueError, TypeError, KeyError, LookupError, OSError, ImportError)


class _Parser(argparse.ArgumentParser):
    """argparse, with a usage error on one line (like every other user mistake)."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="weakfs",
        description="Feature selection when labels are scarce or one-sided.",
        allow_abbrev=False,
    )
    parser.add_argument("--debug", action="store_true", help="show the full traceback of an error")
    sub = parser.add_subparsers(dest="command", required=True)
    for name, module in SUBCOMMANDS.items():
        module.format_parser(sub.add_parser(name, **module.PARSER))
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    prefix = f"weakfs {args.command}"
    try:
        return SUBCOMMANDS[args.command].main(args)
    except UsageError as exc:  # a message of ours: one line, usage-error code
        print(f"{prefix}: error: {_one_line(exc)}", file=sys.stderr)
        return 2
    except USER_ERRORS as exc:
        if args.debug:
            raise
        message = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
        print(f"{prefix}: error: {_one_line(message)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # Ctrl-C, or SIGTERM during `reproduce`
        if args.debug:
            raise
        saved = " (finished cells are saved: rerun the same command to resume)"
        print(
            f"{prefix}: interrupted{saved if args.command == 'reproduce' else ''}",
            file=sys.stderr,
        )
        return 130
