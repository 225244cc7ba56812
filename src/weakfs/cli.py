"""Command line: ``weakfs select``, ``weakfs reproduce``, ``weakfs datasets``."""

from __future__ import annotations

import argparse
import ast
import contextlib
import importlib
import importlib.util
import inspect
import json
import os
import re
import sys
import threading
import time
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
from pandas.api import types as ptypes

__all__ = ["SELECTORS", "main"]

SELECT = "weakfs select"


@dataclass(frozen=True)
class SelectorSpec:
    """How ``weakfs select`` builds one selector.

    Attributes
    ----------
    target : str
        ``"module:Class"`` of the selector, or of the model whose importances pick the top k
        features when ``from_model`` is true.
    labels : {"pu", "semi", "none"}
        The labels the selector reads.
    help : str
        One line for ``weakfs select --list``.
    k_param : str or None
        Parameter receiving ``-k``; ``None``: the method chooses its own number of features.
    defaults : dict
        Parameters the command line sets unless ``--set`` overrides them.
    from_model : bool
        Wrap the model in ``SelectFromModel(max_features=k)``.
    one_hot : bool
        Text columns are one-hot encoded by the command line; ``False``: the selector reads
        them itself.
    progress : str or None
        Parameter that turns on the selector's own progress bar; ``None``: the command line
        shows the elapsed time instead.
    """

    target: str
    labels: str
    help: str
    k_param: str | None = "n_features_to_select"
    defaults: dict = field(default_factory=dict)
    from_model: bool = False
    one_hot: bool = True
    progress: str | None = None


# name -> spec.  Each entry is imported lazily; `weakfs select --list` shows which are available.
SELECTORS: dict[str, SelectorSpec] = {
    "ufvs": SelectorSpec(
        "weakfs.unsupervised:UFVSSelector",
        "none",
        "UFVS: unsupervised feature-value selection under full coverage (k is ignored)",
        k_param=None,
        one_hot=False,
    ),
    "fscpu": SelectorSpec(
        "weakfs.pu:FSCPUSelector",
        "pu",
        "FSCPU: cluster-assumption objective, compact GA",
        progress="verbose",
    ),
    "fscpu-mi": SelectorSpec(
        "weakfs.pu:FSCPUSelector",
        "pu",
        "FSCPU-MI: cluster objective plus semi-JMI",
        defaults={"objective": "cluster+mi"},
        progress="verbose",
    ),
    "semi-jmi": SelectorSpec(
        "weakfs.pu:SemiJMISelector", "pu", "semi-JMI: JMI with unlabeled rows as negatives"
    ),
    "mrmr": SelectorSpec("weakfs.pu:MRMRSelector", "pu", "mRMR (MIQ) on PU labels"),
    "pu_extra_trees": SelectorSpec(
        "weakfs.pu:PUExtraTreesClassifier",
        "pu",
        "PU Extra Trees (nnPU, quadratic, prior estimated): top k by risk-reduction importance",
        defaults={"prior": "auto", "n_jobs": -1},
        from_model=True,
        progress="verbose",
    ),
    "gkf_pual": SelectorSpec(
        "weakfs.pu:GKFPUALClassifier",
        "pu",
        "GKF-PUAL: features whose group-lasso group is non-zero (top k by group norm)",
        from_model=True,
    ),
    "sewil": SelectorSpec(
        "weakfs.semi_supervised:SEWILSelector",
        "semi",
        "SEW-IL: self-learning wrapper with the CBIL criterion and FSGA (k is ignored)",
        k_param=None,
        defaults={"n_jobs": -1},
        progress="verbose",
    ),
}


# earlier method names, still accepted
SELECTOR_ALIASES = {"puet": "pu_extra_trees", "gkfpual": "gkf_pual"}

PARQUET_SUFFIXES = (".parquet", ".pq")
OUTPUT_FORMATS = {".csv": "csv", ".json": "json", **dict.fromkeys(PARQUET_SUFFIXES, "parquet")}

# a date/time string holds a 4-digit year, a clock time or a d/m/y triple
_DATE_SHAPE = re.compile(r"\d{4}|\d:\d\d|\d[-/.]\d{1,2}[-/.]\d")
# share of the (sampled) values of a text column that must parse as dates/times
_DATE_SHARE = 0.5
_DATE_SAMPLE = 500


def _load_class(target: str):
    module, name = target.split(":")
    return getattr(importlib.import_module(module), name)


def available_selectors() -> dict[str, SelectorSpec]:
    found = {}
    for name, spec in SELECTORS.items():
        try:
            _load_class(spec.target)
        except (ImportError, AttributeError):
            continue
        found[name] = spec
    return found


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


def _has_parquet_engine() -> bool:
    return any(importlib.util.find_spec(m) is not None for m in ("pyarrow", "fastparquet"))


def _require_parquet(what: str) -> None:
    """Fail before any work when no Parquet engine is installed."""
    if not _has_parquet_engine():
        _fail(f"{what} needs pyarrow, which is not installed: pip install pyarrow")


def _parse_set(pairs: list[str]) -> dict:
    """``--set PARAM=VALUE`` pairs; a value is a Python literal when it reads as one, else text."""
    params = {}
    for pair in pairs:
        name, sep, text = pair.partition("=")
        name, text = name.strip(), text.strip()
        if not sep or not name:
            _fail(f"--set takes PARAM=VALUE; got {pair!r}")
        try:
            params[name] = ast.literal_eval(text)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            params[name] = text
    return params


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


def _output_format(args) -> str | None:
    """The output format, checked (with the output folder) before any work is done."""
    if not args.output:
        if args.format:
            _fail("--format needs -o/--output")
        return None
    path = Path(args.output)
    folder = path.resolve().parent
    if not folder.is_dir():
        # checked before the fit: a long run must not end in a failed write
        _fail(f"the folder of --output does not exist: {path.parent}")
    if path.is_dir():
        _fail(f"--output {path} is a folder; give a file name")
    fmt = args.format or OUTPUT_FORMATS.get(path.suffix.lower())
    if fmt is None:
        _fail(
            f"cannot tell the format of {path.name}: name it .csv, .parquet or .json, "
            "or give --format"
        )
    if not os.access(folder, os.W_OK):
        _fail(f"cannot write into the folder of --output: {folder}")
    if fmt == "parquet":
        _require_parquet(f"writing {path.name}")
    return fmt


def _read_table(args) -> tuple[pd.DataFrame, pd.Series | None, str]:
    """Rows from a CSV/Parquet file or a bundled/staged dataset; the target column split off."""
    if args.dataset:
        from weakfs.datasets import load

        X, y = load(args.dataset)
        if not isinstance(X, pd.DataFrame):
            from scipy import sparse

            if sparse.issparse(X):
                X = pd.DataFrame.sparse.from_spmatrix(X).sparse.to_dense()
                X.columns = [f"x{j}" for j in range(X.shape[1])]
        y = pd.Series(y, name=getattr(y, "name", None) or "y")
        return X, y, args.dataset
    path = Path(args.path)
    if not path.is_file():
        _fail(f"no such file: {path}")
    if path.suffix.lower() in PARQUET_SUFFIXES:
        _require_parquet(f"reading {path.name}")
        frame = pd.read_parquet(path)
    else:
        frame = pd.read_csv(path, low_memory=False)
    frame.columns = [str(c) for c in frame.columns]
    if args.target is None:
        return frame, None, path.name
    if args.target not in frame.columns:
        _fail(f"target column {args.target!r} not in {path.name}; columns: {_names(frame.columns)}")
    return frame.drop(columns=[args.target]), frame[args.target], path.name


# ---------------------------------------------------------------------------------------------
# labels


def _is_bool_column(column: pd.Series) -> bool:
    """A bool column, or an object column of booleans with missing values (as CSV reads it)."""
    if ptypes.is_bool_dtype(column):
        return True
    if column.dtype != object:
        return False
    present = column.dropna()
    return len(present) > 0 and all(isinstance(v, bool | np.bool_) for v in present)


def _label_kind(y: pd.Series) -> str:
    if _is_bool_column(y):
        return "bool"
    if ptypes.is_integer_dtype(y):
        return "int"
    if ptypes.is_float_dtype(y):
        return "float"
    return "text"


def _equal(y: pd.Series, value) -> np.ndarray:
    """``y == value`` as a numpy bool array, missing entries False."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        match = y.notna() & (y == value)
    return match.fillna(False).to_numpy(dtype=bool)


def _positive_mask(y: pd.Series, text: str) -> tuple[np.ndarray, object]:
    """Rows whose target equals ``--positive``, read as the column's own type."""
    kind = _label_kind(y)
    value = None
    if kind == "bool":
        value = {"true": True, "1": True, "false": False, "0": False}.get(text.strip().lower())
    elif kind in ("int", "float"):
        try:
            number = float(text)
        except ValueError:
            number = None
        if number is not None:
            value = number if kind == "float" or not number.is_integer() else int(number)
    else:
        value = text
    if value is None:
        mask = np.zeros(len(y), dtype=bool)
    elif kind == "text":
        mask = (y.notna() & (y.astype(str) == value)).to_numpy(dtype=bool)
    else:
        mask = _equal(y, value)
    if not mask.any():
        counts = y.value_counts(dropna=False)
        found = _names([f"{v} ({n})" for v, n in counts.items()], limit=10)
        _fail(
            f"--positive {text!r} matches no row of the {kind} target column {y.name!r}; "
            f"its values: {found}"
        )
    return mask, value


def _prepare_labels(spec: SelectorSpec, y: pd.Series | None, args) -> np.ndarray | None:
    if spec.labels == "none":
        if args.positive is not None or args.labeled_fraction is not None:
            _note(
                args,
                f"{args.method} reads no labels: --positive and --labeled-fraction are ignored",
            )
        return None
    if y is None:
        _fail(f"method {args.method!r} needs labels: give --target")
    n = len(y)
    if spec.labels == "pu":
        if args.positive is None:
            _fail("PU methods need --positive VALUE (the target value of labeled positives)")
        mask, value = _positive_mask(y, args.positive)
        if args.labeled_fraction is None:
            if mask.all():
                _fail(
                    f"every row has {y.name} = {value}: PU data needs unlabeled rows (to "
                    "simulate weak labels from a fully labelled target, give --labeled-fraction)"
                )
            args.lines.append(
                f"PU labels: {int(mask.sum())} labeled positives ({y.name} = {value}), "
                f"{n - int(mask.sum())} unlabeled rows"
            )
            return mask.astype(np.int8)
        if y.isna().any():
            _fail(
                f"--labeled-fraction simulates weak labels from a fully labelled target, but "
                f"{int(y.isna().sum())} rows of {y.name!r} have no value"
            )
        from weakfs.datasets import make_pu_labels

        pu = make_pu_labels(
            mask,
            positive=True,
            labeled_fraction=args.labeled_fraction,
            random_state=args.random_state,
        )
        args.lines.append(
            f"PU labels simulated from {y.name} = {value}: {pu.n_labeled} of {pu.n_positive} "
            f"positives labeled (label frequency {pu.label_frequency:.3f}), "
            f"{n - pu.n_labeled} unlabeled rows; true prior of the simulated labels "
            f"{pu.prior:.3f} (not used)"
        )
        return pu.s
    # semi-supervised: missing = unlabeled = -1; text or bool classes become codes 0, 1, ...
    if ptypes.is_numeric_dtype(y) and not _is_bool_column(y):
        values = y.to_numpy(dtype=float, na_value=np.nan)
        labels = np.where(np.isnan(values), -1.0, values)
        if np.all(labels == np.round(labels)):
            labels = labels.astype(np.int64)
    else:
        labels, _ = pd.factorize(y, sort=True)
    if args.labeled_fraction is not None:
        rng = np.random.RandomState(args.random_state)
        labels = labels.copy()
        labels[rng.random_sample(n) >= args.labeled_fraction] = -1
    n_labeled = int((labels != -1).sum())
    args.lines.append(f"semi-supervised labels: {n_labeled} labeled, {n - n_labeled} unlabeled")
    return labels


# ---------------------------------------------------------------------------------------------
# feature columns


def _looks_like_dates(values: pd.Series) -> bool:
    """Most (sampled) values of a text column are date/time strings pandas can parse."""
    if len(values) > _DATE_SAMPLE:
        values = values.sample(_DATE_SAMPLE, random_state=0)
    text = values.astype(str)
    shaped = text.str.contains(_DATE_SHAPE)
    if shaped.mean() <= _DATE_SHARE:
        return False
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parsed = pd.to_datetime(text[shaped], errors="coerce", format="mixed")
    return parsed.notna().sum() > _DATE_SHARE * len(text)


def _is_text(column: pd.Series) -> bool:
    return not (ptypes.is_numeric_dtype(column) or _is_bool_column(column))


def _why_left_out(column: pd.Series) -> str | None:
    """Why a column is no feature (an ID, dates, no values), or None."""
    if ptypes.is_datetime64_any_dtype(column) or ptypes.is_timedelta64_dtype(column):
        return "dates/times"
    if isinstance(column.dtype, pd.PeriodDtype):
        return "dates/times"
    present = column.dropna()
    if _is_text(column) and _looks_like_dates(present):
        return "date/time strings"
    id_like = _is_text(column) or ptypes.is_integer_dtype(column)
    if id_like and not _is_bool_column(column) and len(present) > 1 and present.is_unique:
        return "a different value on every row, like an ID"
    return None


def _check_names(option: str, names: list[str], columns: pd.Index, target) -> None:
    unknown = [n for n in names if n not in columns]
    if unknown:
        hint = f" ({target!r} is the target)" if target in unknown else ""
        _fail(
            f"{option}: no feature column {_names(map(repr, unknown))}{hint}; "
            f"columns: {_names(columns)}"
        )


def _prepare_features(
    X: pd.DataFrame, spec: SelectorSpec, args, target
) -> tuple[pd.DataFrame, dict[str, str]]:
    """The feature table the selector is fitted on, and the source column of each feature.

    Leaves out what is no feature (``--drop``, IDs, dates), refuses text columns with too many
    values, reports (or imputes) missing values and one-hot encodes text columns.
    """
    for option, names in (
        ("--drop", args.drop),
        ("--categorical", args.categorical),
        ("--keep", args.keep),
    ):
        _check_names(option, names, X.columns, target)
    both = sorted(set(args.drop) & set(args.categorical))
    if both:
        _fail(f"--drop and --categorical both name {_names(map(repr, both))}")
    X = X.drop(columns=args.drop)
    forced = set(args.categorical)
    left_out = {}
    for name in X.columns:
        if X[name].isna().all():
            left_out[name] = "no values at all"
            continue
        if name in forced or name in args.keep:
            continue
        why = _why_left_out(X[name])
        if why is not None:
            left_out[name] = why
    for name, why in left_out.items():
        keep = "" if why == "no values at all" else f"; --keep {name!r} uses it"
        _note(args, f"left out column {name!r} ({why}){keep}")
    X = X.drop(columns=list(left_out))
    text = [c for c in X.columns if c in forced or _is_text(X[c])]
    too_many = {c: X[c].nunique() for c in text if c not in forced}
    too_many = {c: k for c, k in too_many.items() if k > args.max_categories}
    if too_many:
        listed = _names(f"{c!r} ({k})" for c, k in too_many.items())
        _fail(
            f"text column(s) with more than --max-categories {args.max_categories} distinct "
            f"values: {listed}; --drop them, or --categorical NAME to one-hot encode anyway"
        )
    if X.shape[1] == 0:
        reasons = _names(f"{c!r} ({why})" for c, why in left_out.items())
        _fail(f"no feature column left; left out: {reasons}")
    missing = X.isna().sum()
    missing = missing[missing > 0]
    if len(missing) and args.impute is None:
        listed = ", ".join(f"{c!r} ({k})" for c, k in missing.items())
        _fail(
            f"missing values in {len(missing)} column(s): {listed}; fill them, --drop the "
            "columns, or give --impute median|most_frequent"
        )
    for name in X.columns:
        if _is_bool_column(X[name]) and name not in forced:
            X[name] = X[name].astype(float)
    if len(missing):
        for name in missing.index:
            numeric = name not in text and args.impute == "median"
            fill = X[name].median() if numeric else X[name].mode(dropna=True).iloc[0]
            X[name] = X[name].fillna(fill)
        how = "median" if args.impute == "median" else "most frequent value"
        if args.impute == "median" and set(missing.index) & set(text):
            how += "; most frequent value in text columns"
        _note(
            args,
            f"imputed {int(missing.sum())} missing values in {len(missing)} column(s) ({how})",
        )
    source = {str(c): str(c) for c in X.columns}
    if text and spec.one_hot:
        _note(args, f"one-hot encoding {len(text)} text/categorical column(s): {_names(text, 8)}")
        encoded = pd.get_dummies(X[text].astype(str), prefix_sep="=", dtype=float)
        for name in encoded.columns:
            source[name] = max((c for c in text if name.startswith(f"{c}=")), key=len)
        X = pd.concat([X.drop(columns=text), encoded], axis=1)
    elif text:
        X = X.astype({c: str for c in text})  # the selector encodes them itself
    return X, source


# ---------------------------------------------------------------------------------------------
# selector, fit and output


def _build_selector(spec: SelectorSpec, args, params: dict):
    """``(selector, model)``: the model receives the options and ``--set`` (they are the same
    object unless the spec wraps the model in ``SelectFromModel``)."""
    cls = _load_class(spec.target)
    valid = cls().get_params(deep=False)
    unknown = [name for name in params if name not in valid]
    if unknown:
        _fail(
            f"{args.method} ({cls.__name__}) has no parameter {_names(map(repr, unknown))}; "
            f"valid: {', '.join(sorted(valid))}"
        )
    kwargs = dict(spec.defaults)
    if "random_state" in valid:
        kwargs["random_state"] = args.random_state
    if args.k is not None and spec.k_param is not None and not spec.from_model:
        kwargs[spec.k_param] = args.k
    if args.n_jobs is not None:
        if "n_jobs" in valid:
            kwargs["n_jobs"] = args.n_jobs
        else:
            _note(args, f"{args.method} runs in one process: --n-jobs is ignored")
    if spec.progress is not None and not args.no_progress:
        kwargs[spec.progress] = True
    if args.prior is not None:
        if "prior" not in valid:
            with_prior = [
                name
                for name, other in available_selectors().items()
                if "prior" in _load_class(other.target)().get_params(deep=False)
            ]
            _fail(f"{args.method} uses no class prior; --prior applies to {', '.join(with_prior)}")
        kwargs["prior"] = args.prior
    kwargs.update(params)
    model = cls(**kwargs)
    if hasattr(model, "_validate_params"):
        model._validate_params()  # a bad --set value fails now, not after reading the table
    if not spec.from_model:
        return model, model
    from sklearn.feature_selection import SelectFromModel

    k = args.k
    selector = SelectFromModel(model, max_features=k, threshold=-np.inf if k else None)
    return selector, model


@contextlib.contextmanager
def _elapsed(desc: str, *, enabled: bool) -> Iterator[None]:
    """A tqdm line on stderr showing the elapsed time, for work without a progress bar."""
    if not enabled:
        yield
        return
    from tqdm import tqdm

    bar = tqdm(desc=desc, bar_format="{desc}: {elapsed}", file=sys.stderr, leave=False)
    stop = threading.Event()

    def tick() -> None:
        while not stop.wait(0.5):
            bar.refresh()

    thread = threading.Thread(target=tick, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()
        bar.close()


def _estimate_prior(model, X: pd.DataFrame, labels: np.ndarray, args) -> str | None:
    """Resolve ``prior="auto"`` here, so that the prior printed is the one the model uses.

    Same call as the model's own ``"auto"`` (the model validates ``X`` to float32 first).
    Returns how the prior was obtained, or None when the model uses none.
    """
    params = model.get_params(deep=False)
    if "prior" not in params:
        return None
    if params["prior"] != "auto":
        return "given"
    if params.get("risk", "nnPU") == "PN":
        return "share of positives (risk='PN')"
    from weakfs.pu import estimate_class_prior

    method = inspect.signature(estimate_class_prior).parameters["method"].default
    with _elapsed(f"class prior ({method})", enabled=not args.no_progress):
        prior = estimate_class_prior(
            X.to_numpy(dtype=np.float32),
            labels,
            unlabeled=params.get("unlabeled", "all"),
            random_state=params.get("random_state"),
        )
    model.set_params(prior=prior)
    return f"estimated from the data by estimate_class_prior, method {method!r}"


def _ranked(selector, names: list[str]) -> tuple[list[str], dict[str, float], str | None]:
    """The selected features best first, their scores and what the scores are.

    Scores come from :func:`weakfs.plotting.feature_scores`.  A selector with ``ranking_`` (the
    features in selection order) keeps that order: a greedy criterion such as semi-JMI's grows
    along the selection, so its values do not rank the features.
    """
    from weakfs.plotting import feature_scores

    try:
        found = feature_scores(selector)
    except TypeError:
        return names, {}, None
    scores = {
        str(n): float(v) for n, v in zip(found.names, found.scores) if np.isfinite(v) and n in names
    }
    label = found.label.replace("$", "").replace("\\", "")  # plain text, not matplotlib TeX
    order = getattr(selector, "ranking_", None)
    columns = getattr(selector, "feature_names_in_", None)
    if order is not None and columns is not None:
        in_order = [str(columns[i]) for i in np.asarray(order)]
        if set(names) <= set(in_order):
            return [n for n in in_order if n in names], scores, label
    if set(names) <= set(scores):
        names = sorted(names, key=lambda name: -scores[name])
    return names, scores, label


def _source_column(feature: str, source: dict[str, str]) -> str:
    """The table column a selected feature comes from (UFVS names its values ``column=value``)."""
    if feature in source:
        return source[feature]
    owners = [c for c in source if feature.startswith(f"{c}=")]
    return max(owners, key=len) if owners else feature


def _write_atomic(path: Path, fmt: str, table: pd.DataFrame, meta: dict) -> None:
    """Write beside ``path`` and rename: an interrupted run leaves no half-written file."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        if fmt == "csv":
            table.to_csv(tmp, index=False)
        elif fmt == "parquet":
            table.to_parquet(tmp, index=False)
        else:
            records = [
                {k: (None if isinstance(v, float) and np.isnan(v) else v) for k, v in row.items()}
                for row in table.astype(object).to_dict(orient="records")
            ]
            payload = {**meta, "selected": records}
            tmp.write_text(json.dumps(payload, indent=2, default=str) + "\n")
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def cmd_select(args) -> int:
    if args.list:
        specs = available_selectors()
        for name, spec in SELECTORS.items():
            state = "" if name in specs else "  (not available in this installation)"
            print(f"{name:14s} [{spec.labels:4s}] {spec.help}{state}")
        return 0
    args.method = SELECTOR_ALIASES.get(args.method, args.method)
    spec = SELECTORS.get(args.method)
    if spec is not None:
        try:
            _load_class(spec.target)  # only the method asked for is imported
        except (ImportError, AttributeError):
            spec = None
    if spec is None:
        known = ", ".join(available_selectors()) or "none"
        _fail(f"unknown or unavailable method {args.method!r}; available: {known}")
    if not args.dataset and not args.path:
        swallowed = [
            v
            for v in (*args.drop, *args.categorical, *args.keep)
            if Path(v).suffix in OUTPUT_FORMATS
        ]
        hint = (
            f" ({swallowed[0]} was read as a column name: put the file first)" if swallowed else ""
        )
        _fail(f"give a CSV/Parquet file or --dataset NAME{hint}")
    if args.k is not None and args.k < 1:
        _fail(f"-k must be at least 1; got {args.k}")
    if args.max_categories < 1:
        _fail(f"--max-categories must be at least 1; got {args.max_categories}")
    args.prior = _parse_prior(args.prior)
    args.notes, args.lines = [], []  # printed once every check has passed
    # everything that can be checked without the data is checked before reading it
    fmt = _output_format(args)
    params = _parse_set(args.set or [])
    selector, model = _build_selector(spec, args, params)
    X, y, source_name = _read_table(args)
    if X.shape[0] == 0 or X.shape[1] == 0:
        _fail(
            f"{source_name} has {X.shape[0]} rows and {X.shape[1]} feature columns; "
            "nothing to select from"
        )
    labels = _prepare_labels(spec, y, args)
    X, source = _prepare_features(X, spec, args, args.target)
    if args.k is not None and args.k > X.shape[1]:
        _fail(f"-k {args.k} is more than the {X.shape[1]} features")
    if args.k is not None and spec.k_param is None:
        _note(args, f"{args.method} chooses its own number of features: -k is ignored")
    for note in args.notes:
        print(note, file=sys.stderr)
    for line in args.lines:
        print(line)
    if hasattr(selector, "set_output"):
        selector.set_output(transform="pandas")
    print(f"{args.method} on {source_name}: {X.shape[0]} rows x {X.shape[1]} features")
    start = time.perf_counter()
    prior_how = _estimate_prior(model, X, labels, args) if labels is not None else None
    with _elapsed(args.method, enabled=spec.progress is None and not args.no_progress):
        selector.fit(X, labels) if labels is not None else selector.fit(X)
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
    if fmt is not None:
        table = pd.DataFrame(
            {
                "rank": np.arange(1, len(names) + 1),
                "feature": names,
                "column": [_source_column(name, source) for name in names],
                "score": [scores.get(name, np.nan) for name in names],
            }
        )
        meta = {
            "method": args.method,
            "source": source_name,
            "rows": int(X.shape[0]),
            "features": int(X.shape[1]),
            "class_prior": None if prior is None else {"value": prior, "how": prior_how},
            "score": label,
            "parameters": {"k": args.k, "random_state": args.random_state, **params},
        }
        _write_atomic(Path(args.output), fmt, table, meta)
        print(f"wrote the {len(names)} selected features to {args.output}")
    return 0


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


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
