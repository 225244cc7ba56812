"""``weakfs datasets``: its parser, its request and the listing."""

from __future__ import annotations

import argparse
from dataclasses import dataclass

#: how ``weakfs`` adds the subcommand (``add_subparsers().add_parser(name, **PARSER)``)
PARSER = {"help": "list the datasets and where they were found"}


def format_parser(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Add the arguments of ``weakfs datasets`` to ``parser``."""
    parser.add_argument(
        "--data-home", help="data directory (default $WEAKFS_DATA or ~/.weakfs/data)"
    )
    return parser


@dataclass(frozen=True)
class DatasetsRequest:
    """``weakfs datasets`` as asked on the command line.

    Attributes
    ----------
    data_home : str or None
        Data directory; None: ``$WEAKFS_DATA`` or ``~/.weakfs/data``.
    """

    data_home: str | None = None

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> DatasetsRequest:
        return cls(data_home=args.data_home)


def main(args: argparse.Namespace) -> int:
    """``weakfs datasets`` on parsed arguments."""
    return run(DatasetsRequest.from_args(args))


def run(request: DatasetsRequest) -> int:
    """Print every dataset, its size and where it was found (or that it is missing)."""
    from weakfs.datasets import list_datasets

    table = list_datasets(request.data_home)
    print("searched: " + ", ".join(table.attrs["searched"]))
    show = table[["name", "rows", "features", "task", "bundled", "path"]]
    print(show.to_string(index=False))
    missing = int((table["path"] == "missing").sum())
    if missing:
        print(
            f"\n{missing} dataset(s) missing: copy the files into a directory and set WEAKFS_DATA"
        )
    return 0
