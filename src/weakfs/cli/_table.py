"""The table a command reads: its options (:func:`add_table_options`), the request they make
(:class:`TableRequest`), and reading the table, the labels and the feature columns.

``weakfs select`` and ``weakfs compare`` add the same options and hold a :class:`TableRequest`;
each step takes it and returns what it prepared with the notes (remarks for stderr) and lines
(for stdout) it has for the user.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from pandas.api import types as ptypes

from weakfs._columns import is_bool_column
from weakfs._words import counted
from weakfs.cli._common import _fail, _names

PARQUET_SUFFIXES = (".parquet", ".pq")
OUTPUT_FORMATS = {".csv": "csv", ".json": "json", **dict.fromkeys(PARQUET_SUFFIXES, "parquet")}


@dataclass(frozen=True)
class TableRequest:
    """Which table, labels and columns a command reads, as asked on the command line
    (:meth:`from_args`).

    Attributes
    ----------
    method : str
        What reads the table, named in messages (a selector, or ``"compare"``).
    labels : {"pu", "semi", "none"}
        The labels it reads.
    one_hot : bool
        Text columns are one-hot encoded (False: the selector reads them itself).
    path : Path or None
        CSV/Parquet file to read, or None with ``dataset``.
    dataset : str or None
        Bundled or staged dataset to read instead of a file.
    sep : str or None
        Separator of a CSV file; None: detected.
    target, positive, negative : str or None
        Label column (file input), and the target values of the labeled positives and (for
        semi-supervised methods) negatives, as typed.
    labeled_fraction : float or None
        Share of the labels kept when simulating weak labels.
    prior : float, "auto" or None
        Class prior in (0, 1), ``"auto"`` (estimated), or None (the method's default).
    drop, categorical, keep : tuple of str
        Columns left out, one-hot encoded, used although they look like IDs or dates.
    max_categories : int
        Most distinct values of a text column.
    impute : {"median", "most_frequent"} or None
        How missing values are filled; None: they are refused.
    random_state : int
        Seed of the method and of simulated labels.
    progress : bool
        Show progress on stderr.
    decimal : str
        The decimal mark of a CSV file's numbers (``.`` or ``,``).
    """

    method: str
    labels: str
    one_hot: bool = True
    path: Path | None = None
    dataset: str | None = None
    sep: str | None = None
    target: str | None = None
    positive: str | None = None
    negative: str | None = None
    labeled_fraction: float | None = None
    prior: float | str | None = None
    drop: tuple[str, ...] = ()
    categorical: tuple[str, ...] = ()
    keep: tuple[str, ...] = ()
    max_categories: int = 50
    impute: str | None = None
    random_state: int = 0
    progress: bool = True
    decimal: str = "."

    @classmethod
    def from_args(
        cls, args: argparse.Namespace, *, method: str, labels: str, one_hot: bool = True
    ) -> TableRequest:
        """The request of the options :func:`add_table_options` added, checked as far as they
        can be without the data."""
        if not args.dataset and not args.path:
            _fail(f"give a CSV/Parquet file or --dataset NAME{_swallowed_file_hint(args)}")
        if args.max_categories < 1:
            _fail(f"--max-categories must be at least 1; got {args.max_categories}")
        sep = parse_separator(args.sep)
        return cls(
            method=method,
            labels=labels,
            one_hot=one_hot,
            path=None if args.dataset or not args.path else Path(args.path),
            dataset=args.dataset or None,
            sep=sep,
            target=args.target,
            positive=args.positive,
            negative=args.negative,
            labeled_fraction=args.labeled_fraction,
            prior=_parse_prior(args.prior),
            drop=tuple(args.drop),
            categorical=tuple(args.categorical),
            keep=tuple(args.keep),
            max_categories=args.max_categories,
            impute=args.impute,
            random_state=args.random_state,
            progress=not args.no_progress,
            decimal=_parse_decimal(args.decimal),
        )


def add_table_options(parser: argparse.ArgumentParser, *, command: str) -> None:
    """Add the options of :class:`TableRequest` to ``parser`` (``weakfs select`` and ``weakfs
    compare`` read a table the same way); ``command`` words the help of ``--labeled-fraction``
    and ``--prior``."""
    parser.add_argument("path", nargs="?", help="CSV or Parquet file")
    parser.add_argument("--dataset", help="a bundled or staged dataset instead of a file")
    add_csv_options(parser)
    lab = parser.add_argument_group("labels")
    lab.add_argument("--target", help="label column (file input)")
    lab.add_argument(
        "--positive",
        metavar="VALUE",
        help="target value of the (labeled) positives, read as the column's type "
        "(True/False, text, number); PU methods",
    )
    negative = "target value of labeled negatives, for semi-supervised methods (the other values "
    negative += "and blanks are unlabeled); PU methods read no negatives"
    if command == "compare":
        negative += "; with it, compare runs the semi-supervised selectors instead of the PU ones"
    lab.add_argument("--negative", metavar="VALUE", help=negative)
    simulate = "simulate weak labels from a fully labelled target: keep this share of the "
    simulate += "positives' labels (SCAR), hide the rest"
    if command == "compare":
        simulate += "; adds the score on the true labels"
    lab.add_argument("--labeled-fraction", type=float, metavar="F", help=simulate)
    lab.add_argument(
        "--prior",
        metavar="VALUE|auto",
        help="class prior P(y=1) for methods that use one"
        + (" and for the PU score" if command == "compare" else "")
        + " (default: auto, estimated)",
    )
    col = parser.add_argument_group("columns")
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
    run = parser.add_argument_group("run")
    run.add_argument("--random-state", type=int, default=0, metavar="SEED", help="default 0")
    run.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")


def add_csv_options(parser: argparse.ArgumentParser) -> None:
    """``--sep`` and ``--decimal``: how a CSV file is read (every subcommand that reads one)."""
    parser.add_argument(
        "--sep",
        metavar="CHAR",
        help="separator of a CSV file (default: detected among , ; tab |; '\\t' for tab)",
    )
    parser.add_argument(
        "--decimal",
        default=".",
        metavar="CHAR",
        help="decimal mark of a CSV file's numbers: '.' (default) or ',' (1,5)",
    )


def parse_separator(text: str | None) -> str | None:
    """``--sep``: one character (``'\\t'`` written as such), or None to detect it."""
    sep = None if text is None else text.encode().decode("unicode_escape")
    if sep is not None and len(sep) != 1:
        _fail(f"--sep takes one character (',', ';', '\\t', '|'); got {text!r}")
    return sep


def _parse_decimal(text: str) -> str:
    if text not in (".", ","):
        _fail(f"--decimal takes '.' or ','; got {text!r}")
    return text


def _parse_prior(text: str | None) -> float | str | None:
    if text is None or text == "auto":
        return text
    try:
        value = float(text)
    except ValueError:
        value = np.nan
    if not 0 < value < 1:
        _fail(f"--prior takes a number in (0, 1) or 'auto'; got {text!r}")
    return value


def _swallowed_file_hint(args: argparse.Namespace) -> str:
    """A file name that ``--drop``/``--categorical``/``--keep`` took as a column name."""
    swallowed = [
        v for v in (*args.drop, *args.categorical, *args.keep) if Path(v).suffix in OUTPUT_FORMATS
    ]
    return f" ({swallowed[0]} was read as a column name: put the file first)" if swallowed else ""


def _has_parquet_engine() -> bool:
    return any(importlib.util.find_spec(m) is not None for m in ("pyarrow", "fastparquet"))


def _require_parquet(what: str) -> None:
    """Fail before any work when no Parquet engine is installed."""
    if not _has_parquet_engine():
        _fail(f"{what} needs pyarrow, which is not installed: pip install pyarrow")


@dataclass(frozen=True)
class Features:
    """The feature table the selector is fitted on, the table column each feature comes from,
    and notes (columns left out, imputed, one-hot encoded)."""

    X: pd.DataFrame
    source: dict[str, str]
    notes: tuple[str, ...] = ()
    preparer: object = None


#: separators a CSV file may use, in the order preferred on a tie
_SEPARATORS = (",", ";", "\t", "|")


def _detect_separator(path) -> str:
    """The separator of a delimited text file: the candidate found most often, and as often on
    each of the first lines (a comma inside a quoted field does not count twice)."""
    import csv

    with open(path, newline="", encoding="utf-8", errors="replace") as handle:
        sample = handle.read(65536)
    try:
        return csv.Sniffer().sniff(sample, delimiters="".join(_SEPARATORS)).delimiter
    except csv.Error:
        first = sample.splitlines()[0] if sample else ""
        counts = {sep: first.count(sep) for sep in _SEPARATORS}
        best = max(counts, key=lambda sep: counts[sep])
        return best if counts[best] else ","


def _separator_name(sep: str) -> str:
    return {"\t": "tab", ",": "comma", ";": "semicolon", "|": "pipe"}.get(sep, repr(sep))


def _read_table(request: TableRequest) -> tuple[pd.DataFrame, pd.Series | None, str]:
    """Rows from a CSV/Parquet file or a bundled/staged dataset; the target column split off.

    A CSV file's separator is ``--sep`` or detected (comma, semicolon, tab or pipe)."""
    if request.dataset:
        from weakfs.datasets import load

        X, y = load(request.dataset)
        if not isinstance(X, pd.DataFrame):
            from scipy import sparse

            if sparse.issparse(X):
                X = pd.DataFrame.sparse.from_spmatrix(X).sparse.to_dense()
                X.columns = [f"x{j}" for j in range(X.shape[1])]
        y = pd.Series(y, name=getattr(y, "name", None) or "y")
        return X, y, request.dataset
    path = request.path
    frame, sep = read_file(path, sep=request.sep, decimal=request.decimal, target=request.target)
    csv = sep is not None
    target = request.target
    if target is not None and target not in frame.columns:
        how = _how_read(path, sep, frame) if csv else f"{counted(frame.shape[1], 'column')}"
        _fail(
            f"target column {target!r} not in {path.name} ({how}); columns: {_names(frame.columns)}"
        )
    X = frame if target is None else frame.drop(columns=[target])
    _check_not_empty(request, X, path.name, target)
    return X, (None if target is None else frame[target]), path.name


_DECIMAL_COMMA = r"^\s*[-+]?\d+,\d+\s*$"


def read_file(
    path: Path, *, sep: str | None, decimal: str, target: str | None = None
) -> tuple[pd.DataFrame, str | None]:
    """A CSV or Parquet file as a frame with text column names, and the separator a CSV file
    was read with (``sep``, or detected among comma, semicolon, tab and pipe; None for
    Parquet).  Refused with a one-line error: a missing, empty or unreadable file, a separator
    equal to the decimal mark, a CSV file read as one column (other than ``target``) when its
    separator was detected, and numbers written with a decimal comma read as text."""
    if not path.is_file():
        _fail(f"no such file: {path}")
    csv = path.suffix.lower() not in PARQUET_SUFFIXES
    used = None
    try:
        if not csv:
            _require_parquet(f"reading {path.name}")
            frame = pd.read_parquet(path)
        else:
            used = sep or _detect_separator(path)
            if used == decimal:
                _fail(f"the separator and --decimal are both {used!r}: give --sep")
            frame = pd.read_csv(path, sep=used, decimal=decimal, low_memory=False)
    except pd.errors.EmptyDataError:
        _fail(f"{path.name} is empty (no header, no rows)")
    except (pd.errors.ParserError, UnicodeDecodeError) as exc:
        _fail(f"{path.name} is not a readable CSV table: {str(exc).strip()}")
    frame.columns = [str(c) for c in frame.columns]
    one_column = frame.shape[1] == 1 and frame.columns[0] != target
    if one_column and not sep and csv:
        _fail(
            f"{path.name} reads as one column ({str(frame.columns[0])[:60]!r}): its separator "
            "is none of comma, semicolon, tab or pipe; give --sep"
        )
    if csv and decimal == ".":
        _refuse_decimal_commas(frame, path.name)
    return frame, used


def _refuse_decimal_commas(frame: pd.DataFrame, name: str) -> None:
    """Text columns whose values are numbers written with a decimal comma (``1,5``) would be
    one-hot encoded as categories: say so, and how to read them as numbers."""
    found = []
    for column in frame.columns:
        values = frame[column]
        if ptypes.is_numeric_dtype(values) or is_bool_column(values):
            continue
        present = values.dropna().astype(str)
        if len(present) and present.str.match(_DECIMAL_COMMA).mean() >= 0.9:
            found.append(column)
    if found:
        _fail(
            f"{name}: {_names(map(repr, found))} hold numbers with a decimal comma (1,5), which "
            "would be read as text; give --decimal ',' (and --sep if the separator is a comma)"
        )


def _how_read(path, sep: str, frame: pd.DataFrame) -> str:
    """How a CSV file was read, and the separator its header suggests when that is another."""
    said = f"read as {counted(frame.shape[1], 'column')} with separator {_separator_name(sep)}"
    with open(path, encoding="utf-8", errors="replace") as handle:
        header = handle.readline()
    counts = {other: header.count(other) for other in _SEPARATORS}
    likely = max(counts, key=lambda other: counts[other])
    if likely != sep and counts[likely] + 1 > frame.shape[1]:
        said += (
            f"; its header splits into {counted(counts[likely] + 1, 'column')} at "
            f"{_separator_name(likely)}"
            f": try --sep '{likely}'"
            if likely != "\t"
            else ": try --sep '\\t'"
        )
    return said


def _check_not_empty(request: TableRequest, X: pd.DataFrame, source: str, target) -> None:
    """A table with no row, or no column besides the target, has nothing to work on."""
    if X.shape[0] and X.shape[1]:
        return
    besides = f" besides the target {target!r}" if target is not None else ""
    what = "rows" if X.shape[0] == 0 else f"feature columns{besides}"
    _fail(
        f"{source} has no {what} ({counted(X.shape[0], 'row')}, {X.shape[1]} feature columns): "
        f"{request.method} has nothing to work on"
    )


# ---------------------------------------------------------------------------------------------
# feature columns: weakfs.preprocessing.TablePreparer, in the command line's words

#: the preparer's words for its options -> the command line's
_CLI_WORDS = [
    (re.compile(r"^(drop|categorical|keep): no column"), r"--\1: no feature column"),
    (re.compile(r"drop and categorical both name"), "--drop and --categorical both name"),
    (re.compile(r"max_categories=(\d+)"), r"--max-categories \1"),
    (
        re.compile(r"drop them, or name them in categorical to one-hot encode anyway"),
        "--drop them, or --categorical NAME to one-hot encode anyway",
    ),
    (
        re.compile(r"drop the columns, or impute \(median or most_frequent\)"),
        "--drop the columns, or give --impute median|most_frequent",
    ),
    (re.compile(r"; keep=('[^']*') uses it"), r"; --keep \1 uses it"),
    (re.compile(r"missing values \(NaN\) in"), "missing values in"),
]


def _in_cli_words(message: str) -> str:
    for pattern, words in _CLI_WORDS:
        message = pattern.sub(words, message)
    return message


def _check_names(option: str, names, columns: pd.Index, target) -> None:
    unknown = [n for n in names if n not in columns]
    if unknown:
        hint = f" ({target!r} is the target)" if target in unknown else ""
        _fail(
            f"{option}: no feature column {_names(map(repr, unknown))}{hint}; "
            f"columns: {_names(columns)}"
        )


def _prepare_features(request: TableRequest, X: pd.DataFrame) -> Features:
    """The feature table the selector is fitted on, the source column of each feature, notes.

    :class:`~weakfs.preprocessing.TablePreparer` leaves out what is no feature (``--drop``, IDs,
    dates), refuses text columns with too many values, reports (or imputes) missing values and
    one-hot encodes text columns; Python users get the same columns and names from it.
    """
    from weakfs.preprocessing import TablePreparer

    for option, names in (
        ("--drop", request.drop),
        ("--categorical", request.categorical),
        ("--keep", request.keep),
    ):
        _check_names(option, names, X.columns, request.target)
    preparer = TablePreparer(
        drop=request.drop,
        categorical=request.categorical,
        keep=request.keep,
        max_categories=request.max_categories,
        impute=request.impute,
        one_hot=request.one_hot,
    )
    try:
        prepared = preparer.fit_transform(X)
    except ValueError as exc:
        _fail(_in_cli_words(str(exc)))
    notes = tuple(_in_cli_words(note) for note in preparer.notes_)
    return Features(prepared, dict(preparer.source_columns_), notes, preparer)
