"""``weakfs select``: its parser, the request it makes of the command line, and the run."""

from __future__ import annotations

import argparse
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

import numpy as np

from weakfs.cli._common import _add_set_option, _fail, _parse_set, _print_notes
from weakfs.cli._output import _output_format, _ranked, _selected_table, _write_atomic
from weakfs.cli._selectors import (
    SELECTORS,
    SelectorSpec,
    _build_selector,
    _elapsed,
    _estimate_prior,
    _resolve_method,
    available_selectors,
)
from weakfs.cli._table import OUTPUT_FORMATS, _prepare_features, _prepare_labels, _read_table

#: how ``weakfs`` adds the subcommand (``add_subparsers().add_parser(name, **PARSER)``)
PARSER = {
    "help": "select features of a CSV/Parquet file or a dataset",
    "description": "Select features of a table (CSV or Parquet) or of a bundled dataset.",
    "allow_abbrev": False,
}


def format_parser(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Add the arguments of ``weakfs select`` to ``parser``."""
    parser.add_argument("path", nargs="?", help="CSV or Parquet file")
    parser.add_argument("--dataset", help="a bundled or staged dataset instead of a file")
    parser.add_argument("--list", action="store_true", help="list the selectors")
    lab = parser.add_argument_group("labels")
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
    run = parser.add_argument_group("method")
    run.add_argument(
        "--method", default="pu_extra_trees", help="selector (see --list); default pu_extra_trees"
    )
    run.add_argument("-k", type=int, default=None, help="number of features to select")
    _add_set_option(run, "PARAM=VALUE", "a parameter of the selector")
    run.add_argument(
        "--n-jobs", type=int, metavar="N", help="parallel jobs (methods that have them)"
    )
    run.add_argument("--random-state", type=int, default=0, metavar="SEED", help="default 0")
    run.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    out = parser.add_argument_group("output")
    out.add_argument(
        "-o",
        "--output",
        help="write the selected features and their scores (.csv, .parquet or .json)",
    )
    out.add_argument(
        "--format", choices=["csv", "parquet", "json"], help="format of -o (default: its suffix)"
    )
    return parser


@dataclass(frozen=True)
class SelectRequest:
    """``weakfs select`` as asked on the command line, checked as far as it can be without the
    data (:meth:`from_args`).

    Attributes
    ----------
    method : str
        Name of the selector, an alias resolved (``puet`` -> ``pu_extra_trees``).
    spec : SelectorSpec
        How the selector is built.
    path : Path or None
        CSV/Parquet file to read, or None with ``dataset``.
    dataset : str or None
        Bundled or staged dataset to read instead of a file.
    target, positive : str or None
        Label column (file input) and the target value of the labeled positives, as typed.
    labeled_fraction : float or None
        Share of the positives' labels kept when simulating weak labels.
    prior : float, "auto" or None
        Class prior in (0, 1), ``"auto"`` (estimated), or None (the method's default).
    drop, categorical, keep : tuple of str
        Columns left out, one-hot encoded, used although they look like IDs or dates.
    max_categories : int
        Most distinct values of a text column.
    impute : {"median", "most_frequent"} or None
        How missing values are filled; None: they are refused.
    k : int or None
        Number of features to select.
    params : mapping
        Parameters of the selector from ``--set`` (read-only).
    n_jobs : int or None
        Parallel jobs, for methods that have them.
    random_state : int
        Seed of the selector and of simulated labels.
    progress : bool
        Show a progress bar (or the elapsed time) on stderr.
    output : str or None
        File receiving the selected features, as typed.
    output_format : {"csv", "parquet", "json"} or None
        Format of ``output``; None without one.
    """

    method: str
    spec: SelectorSpec
    path: Path | None = None
    dataset: str | None = None
    target: str | None = None
    positive: str | None = None
    labeled_fraction: float | None = None
    prior: float | str | None = None
    drop: tuple[str, ...] = ()
    categorical: tuple[str, ...] = ()
    keep: tuple[str, ...] = ()
    max_categories: int = 50
    impute: str | None = None
    k: int | None = None
    params: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))
    n_jobs: int | None = None
    random_state: int = 0
    progress: bool = True
    output: str | None = None
    output_format: str | None = None

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> SelectRequest:
        """The request of parsed arguments; everything that can be checked without the data
        is checked here, before any work."""
        method, spec = _resolve_method(args.method)
        if not args.dataset and not args.path:
            _fail(f"give a CSV/Parquet file or --dataset NAME{_swallowed_file_hint(args)}")
        if args.k is not None and args.k < 1:
            _fail(f"-k must be at least 1; got {args.k}")
        if args.max_categories < 1:
            _fail(f"--max-categories must be at least 1; got {args.max_categories}")
        prior = _parse_prior(args.prior)
        output_format = _output_format(args.output, args.format)
        params = _parse_set(args.set, form="PARAM=VALUE")
        return cls(
            method=method,
            spec=spec,
            path=None if args.dataset or not args.path else Path(args.path),
            dataset=args.dataset or None,
            target=args.target,
            positive=args.positive,
            labeled_fraction=args.labeled_fraction,
            prior=prior,
            drop=tuple(args.drop),
            categorical=tuple(args.categorical),
            keep=tuple(args.keep),
            max_categories=args.max_categories,
            impute=args.impute,
            k=args.k,
            params=MappingProxyType(params),
            n_jobs=args.n_jobs,
            random_state=args.random_state,
            progress=not args.no_progress,
            output=args.output or None,
            output_format=output_format,
        )


def _swallowed_file_hint(args: argparse.Namespace) -> str:
    """A file name that ``--drop``/``--categorical``/``--keep`` took as a column name."""
    swallowed = [
        v for v in (*args.drop, *args.categorical, *args.keep) if Path(v).suffix in OUTPUT_FORMATS
    ]
    return f" ({swallowed[0]} was read as a column name: put the file first)" if swallowed else ""


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


def main(args: argparse.Namespace) -> int:
    """``weakfs select`` on parsed arguments."""
    if args.list:
        specs = available_selectors()
        for name, spec in SELECTORS.items():
            state = "" if name in specs else "  (not available in this installation)"
            print(f"{name:14s} [{spec.labels:4s}] {spec.help}{state}")
        return 0
    return run(SelectRequest.from_args(args))


def run(request: SelectRequest) -> int:
    """Read the table, fit the selector, print the selected features and write ``-o``."""
    method, k = request.method, request.k
    selector, model, notes = _build_selector(request)
    X, y, source_name = _read_table(request)
    if X.shape[0] == 0 or X.shape[1] == 0:
        _fail(
            f"{source_name} has {X.shape[0]} rows and {X.shape[1]} feature columns; "
            "nothing to select from"
        )
    labels = _prepare_labels(request, y)
    features = _prepare_features(request, X)
    X = features.X
    if k is not None and k > X.shape[1]:
        _fail(f"-k {k} is more than the {X.shape[1]} features")
    notes += [*labels.notes, *features.notes]
    if k is not None and request.spec.k_param is None:
        notes.append(f"{method} chooses its own number of features: -k is ignored")
    # printed once every check has passed, so that a mistake is reported on one line
    _print_notes("select", notes)
    for line in labels.lines:
        print(line)
    if hasattr(selector, "set_output"):
        selector.set_output(transform="pandas")
    print(f"{method} on {source_name}: {X.shape[0]} rows x {X.shape[1]} features")
    start = time.perf_counter()
    prior_how = None
    if labels.values is not None:
        prior_how = _estimate_prior(model, X, labels.values, progress=request.progress)
    with _elapsed(method, enabled=request.spec.progress is None and request.progress):
        if labels.values is not None:
            selector.fit(X, labels.values)
        else:
            selector.fit(X)
    seconds = time.perf_counter() - start
    fitted = getattr(selector, "estimator_", selector)
    prior = getattr(fitted, "prior_", None)
    if prior is not None:
        print(f"class prior used: {prior:.4g} ({prior_how})")
    names, scores, label = _ranked(selector, list(map(str, selector.get_feature_names_out())))
    what = f" (score: {label})" if label not in (None, "score") else ""
    print(f"\nselected {len(names)} in {seconds:.2f} s{what}:")
    for rank, name in enumerate(names, 1):
        score = f"  score {scores[name]:.4g}" if name in scores else ""
        print(f"  {rank:3d}. {name}{score}")
    if request.output_format is not None:
        meta = {
            "method": method,
            "source": source_name,
            "rows": int(X.shape[0]),
            "features": int(X.shape[1]),
            "class_prior": None if prior is None else {"value": prior, "how": prior_how},
            "score": label,
            "parameters": {"k": k, "random_state": request.random_state, **request.params},
        }
        table = _selected_table(names, scores, features.source)
        _write_atomic(Path(request.output), request.output_format, table, meta)
        print(f"wrote the {len(names)} selected features to {request.output}")
    return 0
