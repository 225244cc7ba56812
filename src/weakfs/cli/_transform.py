"""``weakfs transform``: a selector saved by ``weakfs select --save-model``, applied to a table."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

from weakfs._words import counted
from weakfs.cli._common import _fail, _names, _print_notes, _refuse_overwriting
from weakfs.cli._output import table_format, write_table
from weakfs.cli._table import _how_read, _parse_decimal, add_csv_options, parse_separator, read_file

#: how ``weakfs`` adds the subcommand (``add_subparsers().add_parser(name, **PARSER)``)
PARSER = {
    "help": "apply a selector saved by `weakfs select --save-model` to a table",
    "description": "Prepare a table as the saved selector's table was prepared, keep the "
    "selected features, and write them.",
    "allow_abbrev": False,
}


def format_parser(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Add the arguments of ``weakfs transform`` to ``parser``."""
    parser.add_argument("model", help="file written by weakfs select --save-model")
    parser.add_argument("table", help="CSV or Parquet file with the columns of the fit table")
    parser.add_argument("-o", "--output", required=True, help="reduced table (.csv or .parquet)")
    add_csv_options(parser)
    parser.add_argument(
        "--with",
        dest="carry",
        nargs="+",
        default=[],
        metavar="COL",
        help="columns copied as they are beside the selected features (an ID, the target)",
    )
    return parser


@dataclass(frozen=True)
class TransformRequest:
    """``weakfs transform MODEL TABLE -o OUT`` as asked (:meth:`from_args`)."""

    model: Path
    table: Path
    output: str
    output_format: str
    sep: str | None = None
    carry: tuple[str, ...] = ()
    decimal: str = "."

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> TransformRequest:
        model = Path(args.model)
        if not model.is_file():
            _fail(f"no such file: {model}")
        _refuse_overwriting(args.table, output=args.output)
        _refuse_overwriting(model, output=args.output)
        return cls(
            model=model,
            table=Path(args.table),
            output=args.output,
            output_format=table_format(args.output, "-o"),
            sep=parse_separator(args.sep),
            carry=tuple(args.carry),
            decimal=_parse_decimal(args.decimal),
        )


def main(args: argparse.Namespace) -> int:
    """``weakfs transform`` on parsed arguments."""
    return run(TransformRequest.from_args(args))


def run(request: TransformRequest) -> int:
    import joblib

    try:
        pipeline = joblib.load(request.model)
    except Exception as exc:  # any unpickling failure is the file's, not ours
        _fail(f"{request.model} is not a model saved by weakfs select --save-model ({exc})")
    prepare = getattr(pipeline, "named_steps", {}).get("prepare")
    if prepare is None:
        _fail(f"{request.model} is not a model saved by weakfs select --save-model")
    frame, sep = read_file(request.table, sep=request.sep, decimal=request.decimal)
    needed = [str(c) for c in getattr(prepare, "feature_names_in_", [])]
    missing = [c for c in needed if c not in frame.columns]
    if missing:
        how = "" if sep is None else f" ({_how_read(request.table, sep, frame)})"
        _fail(
            f"{request.table.name}{how} lacks the column(s) {_names(map(repr, missing))} of the fit"
        )
    absent = [c for c in request.carry if c not in frame.columns]
    if absent:
        _fail(f"--with: no column {_names(map(repr, absent))} in {request.table.name}")
    pipeline.set_output(transform="pandas")
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        reduced = pipeline.transform(frame[needed]).reset_index(drop=True)
    _print_notes(
        "transform", [str(w.message) for w in caught if "never seen in fit" in str(w.message)]
    )
    for column in request.carry:
        reduced[column] = frame[column].reset_index(drop=True)
    write_table(request.output, request.output_format, reduced)
    print(
        f"wrote {counted(reduced.shape[0], 'row')} x {counted(reduced.shape[1], 'column')} to "
        f"{request.output}"
    )
    return 0
