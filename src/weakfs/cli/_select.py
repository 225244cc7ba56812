"""``weakfs select``: its parser, the request it makes of the command line, and the run."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from weakfs._methods import METHODS
from weakfs._words import counted
from weakfs.cli._common import _add_set_option, _fail, _print_notes
from weakfs.cli._labels import _prepare_labels
from weakfs.cli._output import _ranked, _selected_table, _write_atomic, write_table
from weakfs.cli._select_request import SelectRequest
from weakfs.cli._selectors import (
    _build_selector,
    _elapsed,
    _estimate_prior,
    _prior_key,
    _prior_sensitivity,
    _scar_warning,
    apply_k,
    available_selectors,
)
from weakfs.cli._streamed_table import _stream_table
from weakfs.cli._table import _prepare_features, _read_table, add_table_options

#: how ``weakfs`` adds the subcommand (``add_subparsers().add_parser(name, **PARSER)``)
PARSER = {
    "help": "select features of a CSV/Parquet file or a dataset",
    "description": "Select features of a table (CSV or Parquet) or of a bundled dataset.",
    "allow_abbrev": False,
}


def format_parser(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Add the arguments of ``weakfs select`` to ``parser``."""
    add_table_options(parser, command="select")
    parser.add_argument("--list", action="store_true", help="list the selectors")
    parser.add_argument(
        "--chunksize",
        type=int,
        metavar="N",
        help="stream a Parquet file N rows at a time in bounded memory (semi_jmi, mrmr; the "
        "same selection as in memory): numeric and boolean columns only (text left out, IDs not "
        "detected), missing values an error, -o the only output",
    )
    parser.add_argument(
        "--from-board",
        metavar="BOARD",
        help="take the selection of a board that `weakfs compare -o BOARD` wrote (.csv or .json):"
        " its recommended row's features as the board wrote them (no refit); -o and --reduced "
        "as usual",
    )
    parser.add_argument(
        "--no-prior-checks",
        action="store_true",
        help="with an estimated prior, skip the SCAR check and the re-selection at the ends of "
        "the prior's interval (each costs about one more estimate or fit)",
    )
    run = parser.add_argument_group("method")
    run.add_argument(
        "--method", default="pu_extra_trees", help="selector (see --list); default pu_extra_trees"
    )
    run.add_argument(
        "-k",
        metavar="K",
        help="features to select: a number (10), a fraction (0.2) or 'auto' (the method's "
        "default). Defaults: " + "; ".join(f"{n} {s.default_k}" for n, s in METHODS.items()),
    )
    run.add_argument(
        "--per-column",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="k counts source columns, each scored from its one-hot features (default: on when "
        "text columns were encoded and -k is given)",
    )
    _add_set_option(run, "PARAM=VALUE", "a parameter of the selector")
    run.add_argument(
        "--n-jobs", type=int, metavar="N", help="parallel jobs (methods that have them)"
    )
    out = parser.add_argument_group("output")
    out.add_argument(
        "-o",
        "--output",
        help="write the selected features and their scores (.csv, .parquet or .json)",
    )
    out.add_argument(
        "--format", choices=["csv", "parquet", "json"], help="format of -o (default: its suffix)"
    )
    out.add_argument(
        "--reduced",
        metavar="FILE",
        help="also write the table reduced to the selected features and the target (.csv or "
        ".parquet)",
    )
    out.add_argument(
        "--save-model",
        metavar="FILE",
        help="save the fitted table preparation and selector (joblib) to reuse with "
        "`weakfs transform FILE TABLE`",
    )
    return parser


def main(args: argparse.Namespace) -> int:
    """``weakfs select`` on parsed arguments."""
    if args.list:
        specs = available_selectors()
        for name, spec in METHODS.items():
            state = "" if name in specs else "  (not available in this installation)"
            print(f"{name:14s} [{spec.labels:4s}] {spec.help}{state}")
            print(f"{'':21s}without -k: {spec.default_k}")
        print(
            "labels: pu = labeled positives and unlabeled rows; semi = a few labels per class; "
            "none = no labels. Names are also accepted with hyphens (semi-jmi)."
        )
        return 0
    return run(SelectRequest.from_args(args))


def run(request: SelectRequest) -> int:
    """Read the table, fit the selector, print the selected features and write the outputs."""
    if request.from_board is not None:
        return _run_from_board(request)
    if request.reference is not None:
        return _run_reference(request)
    method = request.method
    selector, model, notes = _build_selector(
        request.method,
        request.spec,
        request.k,
        request.params,
        prior=request.table.prior,
        n_jobs=request.n_jobs,
        random_state=request.table.random_state,
        progress=request.table.progress,
    )
    if request.chunksize is not None:
        return _run_streamed(request, selector, notes)
    X, y, source_name = _read_table(request.table)
    labels = _prepare_labels(request.table, y)
    features = _prepare_features(request.table, X)
    X = features.X
    per_column = _per_column(request, features)
    units = len(set(features.source.values())) if per_column else X.shape[1]
    k = request.k
    if isinstance(k, int) and k > units:
        what = "source columns" if per_column else "features"
        _fail(f"-k {k} is more than the {units} {what}")
    notes += [*labels.notes, *features.notes]
    if k is not None and request.spec.k_param is None and not per_column:
        notes.append(_no_k_note(method))
    if per_column:
        from weakfs.feature_selection import SelectPerColumn

        selector = SelectPerColumn(
            model, n_columns_to_select=None if k == "auto" else k, columns=features.source
        )
        notes.append(
            "k counts source columns (each scored from its one-hot features); --no-per-column "
            "counts the encoded features"
        )
    else:
        apply_k(selector, model, request.spec, k, units)
    _print_notes("select", notes)
    for line in labels.lines:
        print(line)
    if hasattr(selector, "set_output"):
        selector.set_output(transform="pandas")
    print(
        f"{method} on {source_name}: {counted(X.shape[0], 'row')} x "
        f"{counted(X.shape[1], 'feature')}"
    )
    start = time.perf_counter()
    resolved, prior_ends = None, None
    if labels.values is not None:
        resolved = _estimate_prior(model, X, labels.values, progress=request.table.progress)
        prior_ends = getattr(resolved, "interval", None)
        if prior_ends is not None and request.prior_checks:
            scar = _scar_warning(X, labels.values, request.table.random_state)
            if scar is not None:
                _print_notes("select", [scar])
    with _elapsed(method, enabled=request.spec.progress is None and request.table.progress):
        if labels.values is not None:
            selector.fit(X, labels.values)
        else:
            selector.fit(X)
    seconds = time.perf_counter() - start
    fitted = getattr(selector, "estimator_", selector)
    # the prior is the selector's own (PU permutation) or its model's (SelectFromModel)
    prior = getattr(selector, "prior_", getattr(fitted, "prior_", None))
    prior_how = resolved.describe() if hasattr(resolved, "describe") else resolved
    if prior is not None:
        shown = resolved.value_text() if hasattr(resolved, "value_text") else f"{prior:.2f}"
        print(f"class prior used: {shown} ({prior_how})")
    sensitivity = None
    if prior_ends is not None and request.prior_checks and _prior_key(selector) is not None:
        sensitivity = _reselect_at_interval_ends(
            selector, X, labels.values, resolved, progress=request.table.progress
        )
    _print_screening(selector, fitted)
    names, scores, label = _ranked(selector, list(map(str, selector.get_feature_names_out())))
    if per_column:  # the features of the best column first
        rank = {column: i for i, column in enumerate(selector.columns_)}
        group = dict(zip(map(str, selector.feature_names_in_), selector.groups_))
        names = sorted(names, key=lambda name: rank[group[name]])
        _print_columns(selector, names, seconds)
    else:
        _print_selected(names, scores, label, seconds)
        if request.k is not None and request.spec.k_param is None and method != "ufvs":
            # said beside the selection too: a note on stderr is easily missed
            print(f"{method} chose these {len(names)} itself: -k {request.k} does not apply to it")
    if request.spec.labels == "none" and method == "ufvs":
        print(UFVS_READING)
    prior_info = None if prior is None else {"value": prior, "how": prior_how}
    if prior_info is not None and sensitivity is not None:
        prior_info["selection_at_interval_ends"] = sensitivity
    _write_outputs(request, selector, features, y, names, scores, label, prior_info)
    return 0


def _print_screening(selector, fitted) -> None:
    """GKF-PUAL's prefilter, when it screened the columns before the quadratic model."""
    screened = next(
        (o.screened_ for o in (selector, fitted) if getattr(o, "screened_", None) is not None),
        None,
    )
    if screened is not None:
        print(
            f"screened to {int(screened.sum())} of {counted(screened.shape[0], 'feature')} by PU "
            "relevance "
            "before the quadratic model (prefilter; the paper has no screening)"
        )


def _reselect_at_interval_ends(selector, X, y, resolved, *, progress: bool):
    """The selection re-made at the ends of the prior's interval, printed as its overlap with
    the selection at the prior used; None when every column is selected (nothing refitted)."""
    with _elapsed("re-selecting at the prior interval's ends", enabled=progress):
        sensitivity = _prior_sensitivity(selector, X, y, resolved.interval)
    if sensitivity is None:
        print("selection at the interval's ends: not refitted (every column is selected)")
        return None
    low, high = sensitivity
    digits = len(resolved.value_text().split(".")[1])
    print(
        f"selection at the interval's ends: prior {low['prior']:.{digits}f} Jaccard "
        f"{low['jaccard']:.2f}, prior {high['prior']:.{digits}f} Jaccard "
        f"{high['jaccard']:.2f} (overlap with the set above; 1 = the same columns)"
    )
    return sensitivity


def _run_streamed(request: SelectRequest, selector, notes: list[str]) -> int:
    """``--chunksize``: the selector fitted on the Parquet file's batches of rows
    (``fit_chunks``), its labels from the target column read whole."""
    table = _stream_table(request.table, request.chunksize)
    labels = _prepare_labels(request.table, table.y)
    units = len(table.columns)
    if isinstance(request.k, int) and request.k > units:
        _fail(f"-k {request.k} is more than the {counted(units, 'feature')}")
    apply_k(selector, selector, request.spec, request.k, units)
    _print_notes("select", [*notes, *labels.notes, *table.notes])
    for line in labels.lines:
        print(line)
    print(
        f"{request.method} on {request.table.path.name}: {counted(table.n_rows, 'row')} x "
        f"{counted(units, 'feature')}, "
        f"streamed {counted(request.chunksize, 'row')} at a time"
    )
    start = time.perf_counter()
    with _elapsed(request.method, enabled=request.table.progress):
        selector.fit_chunks(table.chunks(labels.values))
    seconds = time.perf_counter() - start
    names, scores, label = _ranked(selector, list(map(str, selector.get_feature_names_out())))
    _print_selected(names, scores, label, seconds)
    if request.output_format is not None:
        source = {name: name for name in table.columns}
        _write_selected(request, (table.n_rows, units), names, scores, source, label, None)
    return 0


def _print_selected(names: list[str], scores: dict, label, seconds: float) -> None:
    what = f" (score: {label})" if label not in (None, "score") else ""
    print(f"\nselected {len(names)} in {seconds:.2f} s{what}:")
    for rank, name in enumerate(names, 1):
        score = f"  score {scores[name]:.4g}" if name in scores else ""
        print(f"  {rank:3d}. {name}{score}")


#: what a newcomer needs to read UFVS's output
UFVS_READING = (
    "\nUFVS selects feature values, not columns: each line above is a value (column=value "
    "or a bin) held by some rows, and together they cover every row with values whose "
    "entropy is small. They describe the table; as features for a classifier they are 0/1 "
    "indicators and usually predict little. To choose k columns for a model, use a method "
    "that reads your labels (weakfs select --list)."
)


def _no_k_note(method: str) -> str:
    if method == "ufvs":
        return (
            "ufvs has no k: the number of values follows from covering every row; "
            "--set min_count=N drops values held by at most N rows (fewer values)"
        )
    return f"{method} chooses its own number of features: -k is ignored"


def _per_column(request: SelectRequest, features) -> bool:
    """Whether ``k`` counts source columns: as asked, else when one-hot encoding happened and
    ``k`` was given (never for UFVS, which selects values)."""
    if request.spec.labels == "none" or not request.spec.one_hot:
        if request.per_column:
            _fail(f"{request.method} selects feature values: --per-column does not apply")
        return False
    if request.per_column is not None:
        return request.per_column
    encoded = any(name != column for name, column in features.source.items())
    return encoded and request.k is not None


def _print_columns(selector, names: list[str], seconds: float) -> None:
    scores = selector.column_scores_
    label = (
        "order of the first choice"
        if selector._is_greedy_ranker()
        else (f"{selector.aggregate} of its features' scores")
    )
    print(
        f"\nselected {counted(len(selector.columns_), 'column')} in {seconds:.2f} s (score: "
        f"{label}):"
    )
    for rank, column in enumerate(selector.columns_, 1):
        own = [
            n
            for n in names
            if selector.groups_[list(selector.feature_names_in_).index(n)] == column
        ]
        listed = f"  ({', '.join(own)})" if own != [column] else ""
        print(f"  {rank:3d}. {column}  score {scores[column]:.4g}{listed}")


def _write_selected(request, shape, names, scores, source, label, prior_info):
    """``-o``: the selected features, their source columns and scores, and what was run."""
    meta = {
        "method": request.method,
        "rows": None if shape is None else int(shape[0]),
        "features": None if shape is None else int(shape[1]),
        "class_prior": prior_info,
        "score": label,
        "parameters": {
            "k": request.k,
            "random_state": None if request.table is None else request.table.random_state,
            **request.params,
        },
    }
    table = _selected_table(names, scores, source)
    _write_atomic(Path(request.output), request.output_format, table, meta)
    print(f"wrote the {counted(len(names), 'selected feature')} to {request.output}")


def _write_outputs(request, selector, features, y, names, scores, label, prior_info):
    """``-o`` (the selected features), ``--reduced`` (the table reduced to them) and
    ``--save-model`` (the fitted preparation and selector)."""
    if request.output_format is not None:
        shape, source = (None, {}) if features is None else (features.X.shape, features.source)
        _write_selected(request, shape, names, scores, source, label, prior_info)
    if request.reduced is not None:
        # the table's column order, as `weakfs transform` writes it (-o lists the ranking)
        chosen = set(names)
        reduced = features.X[[c for c in features.X.columns if c in chosen]]
        reduced = reduced.reset_index(drop=True)
        if y is not None:
            reduced[str(y.name)] = y.reset_index(drop=True)
        write_table(request.reduced, request.reduced_format, reduced)
        print(f"wrote the table reduced to {counted(len(names), 'feature')} to {request.reduced}")
    if request.save_model is not None:
        import joblib
        from sklearn.pipeline import Pipeline

        pipeline = Pipeline([("prepare", features.preparer), ("select", selector)])
        joblib.dump(pipeline, request.save_model)
        print(
            f"saved the fitted preparation and selector to {request.save_model} "
            f"(weakfs transform {request.save_model} TABLE -o OUT)"
        )


def _board_row(path: Path, k=None) -> dict:
    """The recommended row of a board file (``weakfs compare -o``): method, k, features; on a
    board made at several named sizes (``weakfs compare -k 10,20``), the one at ``k``."""
    import json

    import pandas as pd

    if path.suffix.lower() == ".json":
        rows = json.loads(path.read_text())["rows"]
        frame = pd.DataFrame(rows)
        frame["features"] = frame["features"].map(list)
    else:
        frame = pd.read_csv(path, keep_default_na=False)
        frame["features"] = frame["features"].map(lambda v: [f for f in str(v).split(";") if f])
    if "recommended" not in frame:
        _fail(f"{path.name} is not a board written by weakfs compare -o (.csv or .json)")
    picked = frame[frame["recommended"].astype(str).str.lower().isin(["true", "1"])]
    sizes = ", ".join(str(v) for v in picked["k"])
    if k is not None:  # -k names the size whose recommendation is wanted
        at = picked[picked["k"].astype(int) == k] if isinstance(k, int) else picked.iloc[:0]
        if len(at) != 1:
            _fail(f"{path.name} recommends no selection at -k {k} (its recommended k: {sizes})")
        picked = at
    elif len(picked) > 1:  # one per named size
        _fail(f"{path.name} recommends a selection at each of k = {sizes}: give -k with one")
    if len(picked) != 1:
        _fail(f"{path.name} has no recommended row (no selector ran at the sizes it names?)")
    return picked.iloc[0].to_dict()


def _run_from_board(request: SelectRequest) -> int:
    """``--from-board``: the recommended row's features, exactly as the board wrote them; the
    table is read only to check them and for ``--reduced`` (nothing is refitted)."""
    path = Path(request.from_board)
    if not path.is_file():
        _fail(f"no such file: {path}")
    row = _board_row(path, request.k)
    names = [str(f) for f in row["features"]]
    features, y = None, None
    if request.table is not None:
        X, y, source_name = _read_table(request.table)
        features = _prepare_features(request.table, X)
        missing = [f for f in names if f not in features.X.columns]
        if missing:
            _fail(
                f"the board's features {missing[:5]} are not columns of {source_name} as "
                "prepared here: read the table with the options the board was made with"
            )
    print(
        f"from the board {path.name}: {row['method']} at k={row['k']}, its recommended row "
        f"(features as the board wrote them: {row.get('features_from', 'refit on all rows')})"
    )
    scores = {name: float(row["score"]) for name in names}
    label = "the board's weak-label score of the row (the same for every feature)"
    _print_summary(names, written_to=request.output)
    _write_outputs(request, None, features, y, names, scores, label, None)
    return 0


#: names a summary shows before "and N more"
SUMMARY_NAMES = 10


def _print_summary(names: list[str], *, written_to: str | None) -> None:
    """The count and the first few of ``names``, and where all of them go (a board's selection
    can hold thousands of columns: they go to ``-o``, not the terminal)."""
    shown = ", ".join(names[:SUMMARY_NAMES])
    more = len(names) - SUMMARY_NAMES
    print(f"\nselected {len(names)}: {shown}" + (f", and {more} more" if more > 0 else ""))
    if written_to is None and more > 0:
        print(f"-o FILE writes all {len(names)} (feature, column, score)")


def _run_reference(request: SelectRequest) -> int:
    """A board's reference row as a selection: ``all features`` (every column of the prepared
    table) or ``random`` (-k columns drawn with --random-state), no fit."""
    X, y, source_name = _read_table(request.table)
    features = _prepare_features(request.table, X)
    columns = [str(c) for c in features.X.columns]
    if request.reference == "all features":
        names = columns
        print(f"all features of {source_name}: all {len(names)} of its features, no selection")
    else:
        k = request.k
        if isinstance(k, float) and 0 < k < 1:
            k = max(1, round(k * len(columns)))
        if not isinstance(k, int) or not 1 <= k <= len(columns):
            _fail(f"--method random draws -k columns: give -k between 1 and {len(columns)}")
        import numpy as np

        rng = np.random.RandomState(request.table.random_state)
        drawn = set(rng.choice(len(columns), size=k, replace=False).tolist())
        names = [c for j, c in enumerate(columns) if j in drawn]
        print(
            f"random: {k} of the {counted(len(columns), 'feature')} of {source_name}, drawn with "
            f"--random-state {request.table.random_state} (the board's reference, not a selection)"
        )
    _print_summary(names, written_to=request.output)
    _write_outputs(request, None, features, y, names, {}, request.reference, None)
    return 0
