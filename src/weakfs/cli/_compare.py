"""``weakfs compare``: which selector works on this table, judged from its own weak labels."""

from __future__ import annotations

import argparse
import contextlib
import re
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from weakfs._words import counted, singular_counts
from weakfs.cli._common import _fail, _print_notes, _refuse_overwriting
from weakfs.cli._labels import _prepare_labels
from weakfs.cli._table import TableRequest, _prepare_features, _read_table, add_table_options

#: how ``weakfs`` adds the subcommand (``add_subparsers().add_parser(name, **PARSER)``)
PARSER = {
    "help": "compare the selectors on a table: a leaderboard from the weak labels alone",
    "description": "Run every selector that reads the table's labels at several k under "
    "PU-aware cross-validation, score a model on the selected columns with the weak labels "
    "alone, and rank them beside random selection and all features. --positive alone gives "
    "PU labels and the PU selectors; --negative as well gives semi-supervised labels and the "
    "semi-supervised selectors.",
    "epilog": "Reading the board: k_rule 'auto' marks the k each method's own rule picks (the "
    "smallest k not found worse than its best); the top group ('=', tied) holds the candidates "
    "not found worse than the best on the same folds, and 'recommended' ('*') is all features "
    "when they are in it, else its simplest member. When the labels cannot tell the candidates "
    "apart (most of them tied, or too few labeled rows per test fold) the board abstains: it "
    "says so and recommends all features. With -k K the board answers at that size instead: "
    "k_rule 'named' marks the selections of K columns, '*' the one with the highest posterior "
    "(its weak score shrunk toward the weak-label benchmark's record of that selector at that "
    "size), '=' those within noise of it; all features stays as the reference.",
    "allow_abbrev": False,
}


def format_parser(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Add the arguments of ``weakfs compare`` to ``parser``."""
    add_table_options(parser, command="compare")
    run = parser.add_argument_group("comparison")
    run.add_argument("--methods", help="comma-separated selectors (default: every one that fits)")
    run.add_argument(
        "-k",
        metavar="K[,K...]",
        help="the size you must keep: compare the selectors at exactly K features (a number "
        "of features, not names; several sizes give one recommendation each); all features "
        "stays as the reference. Without -k: about 8 sizes from 1 to the number of features, "
        "each method's automatic k, and whether to select at all",
    )
    run.add_argument("--cv", type=int, default=5, metavar="N", help="folds (default 5)")
    run.add_argument(
        "--budget",
        default="5m",
        metavar="TIME",
        help="time for the whole comparison (300, 300s, 10m, 1h; default 5m): the wrappers get "
        "cheaper settings to fit, and say which; 'none' runs them at their defaults",
    )
    run.add_argument("--n-jobs", type=int, metavar="N", help="parallel (method, fold) jobs")
    run.add_argument("--scheduler", help="'local' for a Dask LocalCluster or tcp://host:port")
    out = parser.add_argument_group("output")
    out.add_argument("-o", "--output", help="the leaderboard (.md, .csv, .json or .html)")
    out.add_argument("--plot", metavar="FILE.png", help="score vs k and stability vs score")
    return parser


def parse_budget(text: str | None) -> float | None:
    """``300``, ``300s``, ``10m``, ``1h`` or ``none`` as seconds."""
    if text is None or text.strip().lower() == "none":
        return None
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([smh]?)\s*", text.lower())
    if not match:
        _fail(f"--budget takes a time such as 300, 300s, 10m or 1h, or 'none'; got {text!r}")
    return float(match[1]) * {"": 1, "s": 1, "m": 60, "h": 3600}[match[2]]


@dataclass(frozen=True)
class CompareRequest:
    """``weakfs compare`` as asked: the table and labels as ``weakfs select`` reads them, and the
    comparison's settings."""

    table: TableRequest
    methods: tuple[str, ...] | None
    sizes: tuple[int, ...] | None
    cv: int
    budget: float | None
    n_jobs: int | None
    scheduler: str | None
    output: str | None
    plot: str | None

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> CompareRequest:
        kind = "semi" if args.negative is not None else "pu"
        table = TableRequest.from_args(args, method="compare", labels=kind)
        _refuse_overwriting(table.path, output=args.output, plot=args.plot)
        ks = None
        if args.k:
            try:
                ks = tuple(int(v) for v in args.k.split(",") if v.strip())
            except ValueError:
                _fail(f"-k takes numbers of features separated by commas; got {args.k!r}")
            if min(ks) < 1:
                _fail(f"-k takes numbers of features, each at least 1; got {args.k!r}")
        if args.cv < 2:
            _fail(f"--cv must be at least 2; got {args.cv}")
        for option, path, suffixes in (
            ("-o", args.output, (".md", ".csv", ".json", ".html")),
            ("--plot", args.plot, (".png", ".pdf", ".svg")),
        ):
            if path and Path(path).suffix.lower() not in suffixes:
                _fail(f"{option} writes {', '.join(suffixes)}; got {Path(path).name}")
            if path and not Path(path).resolve().parent.is_dir():
                _fail(f"the folder of {option} does not exist: {Path(path).parent}")
        from weakfs.compare import MIN_BUDGET_SECONDS

        budget = parse_budget(args.budget)
        if budget is not None and budget < MIN_BUDGET_SECONDS:
            _fail(
                f"--budget {args.budget} cannot be met: a comparison needs at least "
                f"{MIN_BUDGET_SECONDS:g} s (or --budget none)"
            )
        methods = None if not args.methods else tuple(args.methods.split(","))
        return cls(
            table,
            methods,
            ks,
            args.cv,
            budget,
            args.n_jobs,
            args.scheduler,
            args.output,
            args.plot,
        )


def main(args: argparse.Namespace) -> int:
    """``weakfs compare`` on parsed arguments."""
    return run(CompareRequest.from_args(args))


@contextlib.contextmanager
def _scheduler(address: str | None):
    """joblib on a Dask cluster (``local`` starts one) for the duration, or nothing."""
    if address is None:
        yield
        return
    import joblib
    from dask.distributed import Client, LocalCluster

    cluster = LocalCluster(processes=True, dashboard_address=None) if address == "local" else None
    client = Client(cluster if cluster is not None else address)
    try:
        with joblib.parallel_config(backend="dask"):
            yield
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def run(request: CompareRequest) -> int:
    began = time.perf_counter()  # the budget bounds the whole command, the table read included

    from weakfs.compare import (
        board_headline,
        compare_selectors,
        plot_leaderboard,
        write_leaderboard,
    )

    table = request.table
    X, y, source = _read_table(table)
    if y is None:
        _fail("compare judges selectors by their labels: give --target (and --positive)")
    if table.labels == "pu" and table.positive is None:
        _fail("give --positive VALUE (PU labels), or --positive and --negative (semi-supervised)")
    labels = _prepare_labels(table, y)
    features = _prepare_features(table, X)
    y_true = None
    if table.labeled_fraction is not None and table.labels == "pu":
        from weakfs.cli._labels import _positive_mask

        y_true = _positive_mask(y, table.positive)[0].astype(int)
    _print_notes("compare", [*labels.notes, *features.notes])
    for line in labels.lines:
        print(line)
    print(
        f"compare on {source}: {counted(features.X.shape[0], 'row')} x "
        f"{counted(features.X.shape[1], 'feature')}"
    )
    start = time.perf_counter()
    prior = "auto" if table.prior in (None, "auto") else table.prior
    with _scheduler(request.scheduler):
        board = compare_selectors(
            features.X,
            labels.values,
            methods=None if request.methods is None else list(request.methods),
            k=None if request.sizes is None else list(request.sizes),
            cv=request.cv,
            prior=prior,
            prior_interval=prior == "auto" and table.labels == "pu",
            y_true=y_true,
            budget=_left(request.budget, began),
            n_jobs=request.n_jobs,
            random_state=table.random_state,
            progress=table.progress,
        )
    for note in board.attrs["notes"]:
        print(singular_counts(note))  # the board's notes are stored as they were written
    _print_board(board, time.perf_counter() - start)
    remaining = None if request.budget is None else request.budget - (time.perf_counter() - began)
    _print_prior_sensitivity(request, features.X, labels.values, board, remaining)
    if request.output:
        write_leaderboard(board, request.output)
        print(f"wrote the leaderboard to {request.output}")
    if request.plot:
        plot_leaderboard(board, request.plot)
        print(f"drew the plots to {request.plot}")
    # a board of references alone answers nothing: said first, and not a success
    return 1 if board_headline(board) else 0


def _print_board(board: pd.DataFrame, seconds: float) -> None:
    """The leaderboard: its first line says when no selector ran; each candidate's primary score
    with its interval (or that the folds are too few for one), the abstention whenever it
    applies, and the recommendation as a command."""
    from weakfs.compare import (
        board_headline,
        interval_text,
        leaderboard_summary,
        primary_score_reason,
        stated_verdict,
    )

    summary = leaderboard_summary(board)
    truth = "truth" in summary
    pu = board.attrs.get("labels") == "pu" and "raw_score" in summary
    raw_first = primary_score_reason(board)
    headline = board_headline(board)
    sizes = board.attrs.get("sizes")
    each = (
        f"every selection of k = {', '.join(map(str, sizes))}, highest posterior first"
        if sizes
        else "each method at its automatic k"
    )
    marks = "= within noise of it, * recommended" if sizes else "= top group, * recommended"
    if headline:
        print(f"\nleaderboard: {headline[0].lower()}{headline[1:]}; give a larger --budget.")
    elif raw_first:
        print(
            f"\nleaderboard ({seconds:.0f} s; {each}; score = raw PU AUC "
            f"of labeled against unlabeled rows [90 % interval], the primary score here: "
            f"{raw_first}; {marks}):"
        )
    else:
        print(
            f"\nleaderboard ({seconds:.0f} s; {each}; "
            f"score = {_score_words(board)}, [90 % interval]; {marks}):"
        )
    for rank, (_, row) in enumerate(summary.iterrows(), 1):
        stab = "" if np.isnan(row["stability"]) else f"  stability {row['stability']:.2f}"
        hidden = f"  true labels {row['truth']:.3f}" if truth else ""
        corrected = f"{row['score']:.3f} {interval_text(row['score_low'], row['score_high'])}"
        if raw_first:
            raw = interval_text(row["raw_score_low"], row["raw_score_high"])
            scores = f"raw PU AUC {row['raw_score']:.3f} {raw}  prior-corrected {corrected}"
        else:
            # the raw AUC of labeled against unlabeled rows needs no prior: a corrected score
            # above 1 (an over-estimated prior) is read beside it
            scores = f"score {corrected}" + (f"  raw PU AUC {row['raw_score']:.3f}" if pu else "")
        flag = "*" if row["recommended"] else ("=" if row["tied"] else " ")
        print(f"  {rank:2d}.{flag} {row['method']:15s} {_k_text(row):9s} {scores}{hidden}{stab}")
    own = [m for m in summary["method"] if _chooses_its_own_size(m)]
    for method in own:
        print(
            f"{method} chooses its own number of features: one row, whatever -k lists (k= gives "
            "the number it selected)"
        )
    verdict = stated_verdict(board)
    if verdict and verdict != board.attrs.get("verdict"):  # the notes hold the board's own
        print(singular_counts(verdict))
    if verdict and board.attrs.get("if_fewer_columns"):
        print(board.attrs["if_fewer_columns"])
    if sizes:
        _print_named_recommendations(board)
        return
    pick = board[board["recommended"]].iloc[0]
    if pick["method"] == "all features":
        print("recommended: all features (no selection)" + _not_the_leader(summary, pick))
        return
    k = "" if _chooses_its_own_size(pick["method"]) else f" -k {pick['k']}"
    print(
        f"recommended: {pick['method']} with k={_k_text(pick)[2:]} "
        f"(weakfs select --method {pick['method'].replace(' ', '_')}{k})"
    )


def _print_named_recommendations(board: pd.DataFrame) -> None:
    """One line per size the user named: the recommended selection as a command (the notes
    said why it, and which rows are within noise of it)."""
    for _, pick in board[board["recommended"]].iterrows():
        shown = ", ".join(pick["features"][:8]) + (", ..." if len(pick["features"]) > 8 else "")
        print(
            f"recommended at k={pick['k']}: {pick['method']} ({shown}; weakfs select --method "
            f"{pick['method']} -k {pick['k']})"
        )


def _chooses_its_own_size(method: str) -> bool:
    from weakfs._methods import METHODS

    return method in METHODS and METHODS[method].k_param is None


def _k_text(row: pd.Series) -> str:
    """``k=K``; for a method choosing its own size, the number of features it selected."""
    if _chooses_its_own_size(row["method"]):
        return f"k={len(row['features'])}"
    return f"k={row['k']}"


def _not_the_leader(summary: pd.DataFrame, pick: pd.Series) -> str:
    """When all features is recommended below a higher-scoring selection of the top group: that
    the selection's lead is within noise, in words (the user sees what was passed over)."""
    leader = summary.iloc[0]
    if leader["method"] == pick["method"] or leader["score"] <= pick["score"]:
        return ""
    lead = f"; {leader['method']} (k={leader['k']}) scored higher ({leader['score']:.3f} against "
    if not pick["tied"]:
        # the abstaining board keeps every column although the paired test finds it worse
        return (
            lead + f"{pick['score']:.3f}), but labels that cannot tell the selections apart are "
            "no evidence against every column either"
        )
    return (
        lead + f"{pick['score']:.3f}) but not significantly on these folds, and a selection must "
        "be found better than every column before the board trades columns for it"
    )


def _left(budget: float | None, began: float) -> float | None:
    """The budget less the time the command has used, at least the comparison's minimum."""
    if budget is None:
        return None
    from weakfs.compare import MIN_BUDGET_SECONDS

    return max(budget - (time.perf_counter() - began), MIN_BUDGET_SECONDS)


def _score_words(board) -> str:
    if board.attrs.get("labels") == "pu":
        return (
            "prior-corrected AUC of the PU labels (above 1 when the prior is over-estimated; "
            "the raw AUC of labeled against unlabeled rows needs no prior)"
        )
    return "accuracy on the labeled test rows"


def _print_prior_sensitivity(request: CompareRequest, X, labels, board, remaining) -> None:
    """With an estimated prior: its interval (the one ``compare_selectors`` resolved with the
    prior), and the prior-reading selectors re-run at the interval's ends (Jaccard overlap with
    their board selection), when the budget's ``remaining`` seconds allow it (four fits per
    selector: at the prior and at both ends, each a fit on all rows and columns:
    ``prior_sensitivity_seconds``)."""
    from weakfs.compare import PRIOR_READERS, prior_sensitivity, prior_sensitivity_seconds

    resolved = board.attrs.get("prior_resolved")
    if resolved is None or not resolved.estimated:
        return
    if not set(PRIOR_READERS) & set(board["method"]):
        return
    if resolved.interval is None:
        print(f"class prior: {resolved.no_interval}")
        return
    print(f"class prior {resolved.value_text()}: {resolved.describe()}")
    cost = prior_sensitivity_seconds(board, X.shape[1])
    if remaining is not None and cost > remaining:
        print(
            f"  not re-selected at the interval's ends: about {cost:.0f} s, the budget leaves "
            f"{max(remaining, 0):.0f} s"
        )
        return
    found = prior_sensitivity(
        X.to_numpy(dtype=np.float32),
        labels,
        board,
        resolved.value,
        resolved.interval,
        random_state=request.table.random_state,
    )
    digits = len(resolved.value_text().split(".")[1])
    for _, row in found.iterrows():
        print(
            f"  {row['method']} (k={row['k']}) re-selected at prior {row['prior_low']:.{digits}f}: "
            f"Jaccard {row['jaccard_low']:.2f}; at {row['prior_high']:.{digits}f}: "
            f"Jaccard {row['jaccard_high']:.2f} (1 = the same columns)"
        )
