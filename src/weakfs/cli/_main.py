"""Command line: ``weakfs select``, ``weakfs reproduce``, ``weakfs datasets``."""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys
import time
from pathlib import Path

from weakfs.cli._select import cmd_select


def _parse_options(pairs: list[str]) -> dict:
    options = {}
    for pair in pairs:
        if "=" not in pair:
            raise SystemExit(f"weakfs reproduce: --set takes key=value, got {pair!r}")
        key, value = pair.split("=", 1)
        for cast in (int, float):
            try:
                value = cast(value)
                break
            except ValueError:
                continue
        options[key] = value
    return options


def cmd_reproduce(args) -> int:
    from weakfs.experiments import RunConfig, canonical_name, names, run_experiment

    if args.list or not args.experiment:
        from weakfs.experiments import get

        for name in names():
            try:
                print(f"{name:16s} {get(name).title}")
            except Exception as exc:  # an experiment whose optional dependency is missing
                print(f"{name:16s} (unavailable: {exc})")
        return 0
    if importlib.util.find_spec("matplotlib") is None:
        # every report draws figures: fail before the cells run, not after
        raise SystemExit(
            "weakfs reproduce: error: the reports draw figures with matplotlib, which is not "
            "installed: pip install 'weakfs[experiments]'"
        )
    split = lambda text: None if text is None else [v for v in text.split(",") if v]  # noqa: E731
    config = RunConfig(
        runs=args.runs,
        datasets=split(args.datasets),
        methods=split(args.methods),
        quick=args.quick,
        options=_parse_options(args.set or []),
    )
    command = "weakfs " + " ".join(sys.argv[1:]) if sys.argv[0].endswith("weakfs") else None
    start = time.perf_counter()
    failed = []

    def log(message: str) -> None:
        if message.startswith("cell failed"):
            failed.append(message)
        print(message)

    table = run_experiment(
        args.experiment,
        config,
        out_dir=args.out,
        scheduler=args.scheduler,
        n_jobs=args.n_jobs,
        command=command,
        progress=True,
        log=log,
        cached_only=args.cached_only,
    )
    print(
        f"{len(table)} cells in {time.perf_counter() - start:.1f} s; "
        f"report: {Path(args.out) / (canonical_name(args.experiment) + '.md')}"
    )
    if failed:
        print(f"weakfs reproduce: {len(failed)} cell(s) failed (see above)", file=sys.stderr)
        return 1
    return 0


def cmd_datasets(args) -> int:
    from weakfs.datasets import list_datasets

    table = list_datasets(args.data_home)
    print("searched: " + ", ".join(table.attrs["searched"]))
    show = table[["name", "rows", "features", "task", "bundled", "path"]]
    print(show.to_string(index=False))
    missing = int((table["path"] == "missing").sum())
    if missing:
        print(
            f"\n{missing} dataset(s) missing: copy the files into a directory and set WEAKFS_DATA"
        )
    return 0


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

    sel = sub.add_parser(
        "select",
        help="select features of a CSV/Parquet file or a dataset",
        description="Select features of a table (CSV or Parquet) or of a bundled dataset.",
        allow_abbrev=False,
    )
    sel.add_argument("path", nargs="?", help="CSV or Parquet file")
    sel.add_argument("--dataset", help="a bundled or staged dataset instead of a file")
    sel.add_argument("--list", action="store_true", help="list the selectors")
    lab = sel.add_argument_group("labels")
    lab.add_argument("--target", help="label column (file input)")
    lab.add_argument(
        "--positive",
        metavar="VALUE",
        help="target value of the (labeled) positives, read as the column's type "
        "(True/False, text, number); PU methods",
    )
    lab.add_argument(
        "--labeled-fraction",
        type=float,
        metavar="F",
        help="simulate weak labels from a fully labelled target: keep this share of the "
        "positives' labels (SCAR), hide the rest",
    )
    lab.add_argument(
        "--prior",
        metavar="VALUE|auto",
        help="class prior P(y=1) for methods that use one (default: auto, estimated)",
    )
    col = sel.add_argument_group("columns")
    col.add_argument("--drop", nargs="+", default=[], metavar="COL", help="leave these out")
    col.add_argument(
        "--categorical",
        nargs="+",
        default=[],
        metavar="COL",
        help="one-hot encode these (numbers or text, any number of values)",
    )
    col.add_argument(
        "--keep",
        nargs="+",
        default=[],
        metavar="COL",
        help="use these although they look like IDs or dates",
    )
    col.add_argument(
        "--max-categories",
        type=int,
        default=50,
        metavar="N",
        help="refuse text columns with more distinct values (default 50)",
    )
    col.add_argument(
        "--impute",
        choices=["median", "most_frequent"],
        help="fill missing values (text columns: most frequent value); default: refuse them",
    )
    run = sel.add_argument_group("method")
    run.add_argument(
        "--method", default="pu_extra_trees", help="selector (see --list); default pu_extra_trees"
    )
    run.add_argument("-k", type=int, default=None, help="number of features to select")
    run.add_argument(
        "--set",
        action="append",
        metavar="PARAM=VALUE",
        help="a parameter of the selector (repeatable; VALUE read as a Python literal, else text)",
    )
    run.add_argument(
        "--n-jobs", type=int, metavar="N", help="parallel jobs (methods that have them)"
    )
    run.add_argument("--random-state", type=int, default=0, metavar="SEED", help="default 0")
    run.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    out = sel.add_argument_group("output")
    out.add_argument(
        "-o",
        "--output",
        help="write the selected features and their scores (.csv, .parquet or .json)",
    )
    out.add_argument(
        "--format", choices=["csv", "parquet", "json"], help="format of -o (default: its suffix)"
    )
    sel.set_defaults(func=cmd_select)

    rep = sub.add_parser(
        "reproduce", help="run a paper experiment and write results/NAME.md", allow_abbrev=False
    )
    rep.add_argument("experiment", nargs="?")
    rep.add_argument("--list", action="store_true", help="list the experiments")
    rep.add_argument("--runs", type=int, help="number of seeds/splits (default: the paper's)")
    rep.add_argument("--datasets", help="comma-separated subset of datasets")
    rep.add_argument("--methods", help="comma-separated subset of methods")
    rep.add_argument("--quick", action="store_true", help="reduced protocol (smoke test)")
    rep.add_argument("--set", action="append", metavar="KEY=VALUE", help="experiment option")
    rep.add_argument("--n-jobs", type=int, default=1, help="cells run in parallel")
    rep.add_argument("--scheduler", help="'local' for a Dask LocalCluster or tcp://host:port")
    rep.add_argument("--out", default="results", help="output directory (default results/)")
    rep.add_argument(
        "--cached-only",
        action="store_true",
        help="run nothing; report the cells already cached (the header counts the missing ones)",
    )
    rep.set_defaults(func=cmd_reproduce)

    dat = sub.add_parser("datasets", help="list the datasets and where they were found")
    dat.add_argument("--data-home", help="data directory (default $WEAKFS_DATA or ~/.weakfs/data)")
    dat.set_defaults(func=cmd_datasets)
    return parser


#: errors that come from what the user gave (file, options, data): one line and exit code 2
USER_ERRORS = (ValueError, TypeError, KeyError, LookupError, OSError, ImportError)


def _one_line(message) -> str:
    return " ".join(str(message).split())


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except SystemExit as exc:
        if isinstance(exc.code, str):  # a message of ours: one line, usage-error code
            print(_one_line(exc.code), file=sys.stderr)
            return 2
        raise
    except USER_ERRORS as exc:
        if args.debug:
            raise
        message = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
        print(f"weakfs {args.command}: error: {_one_line(message)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # Ctrl-C, or SIGTERM during `reproduce`
        if args.debug:
            raise
        saved = " (finished cells are saved: rerun the same command to resume)"
        print(
            f"weakfs {args.command}: interrupted{saved if args.command == 'reproduce' else ''}",
            file=sys.stderr,
        )
        return 130
