"""``weakfs select``: the selectors it knows, building one, fitting it and writing the result."""

from __future__ import annotations

import ast
import contextlib
import importlib
import importlib.util
import inspect
import json
import os
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from weakfs.cli._common import _fail, _names, _note
from weakfs.cli._table import (
    OUTPUT_FORMATS,
    _prepare_features,
    _prepare_labels,
    _read_table,
    _require_parquet,
)


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
