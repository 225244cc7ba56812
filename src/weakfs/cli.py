"""Command line: ``weakfs select``, ``weakfs reproduce``, ``weakfs datasets``."""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

__all__ = ["SELECTORS", "main"]


@dataclass(frozen=True)
class SelectorSpec:
    """How the CLI builds one selector: where it lives, what labels it reads, how k is passed."""

    target: str  # "module:Class"
    labels: str  # "pu", "semi" or "none"
    help: str
    make: Callable[[type, int | None, int], object]


def _k_param(name: str) -> Callable[[type, int | None, int], object]:
    def make(cls, k, seed):
        params = cls().get_params()
        kwargs = {}
        if k is not None:
            kwargs[name] = k
        if "random_state" in params:
            kwargs["random_state"] = seed
        if "progress" in params:
            kwargs["progress"] = True
        return cls(**kwargs)

    return make


def _from_model(module: str, cls_name: str, **model_kwargs):
    def make(_cls, k, seed):
        from sklearn.feature_selection import SelectFromModel

        model_cls = getattr(importlib.import_module(module), cls_name)
        params = model_cls().get_params()
        kwargs = dict(model_kwargs)
        if "random_state" in params:
            kwargs["random_state"] = seed
        return SelectFromModel(
            model_cls(**kwargs), max_features=k, threshold=-np.inf if k is not None else None
        )

    return make


# name -> spec.  Each entry is imported lazily; `weakfs select --list` shows which are available.
SELECTORS: dict[str, SelectorSpec] = {
    "ufvs": SelectorSpec(
        "weakfs.unsupervised:UFVSSelector",
        "none",
        "UFVS: unsupervised feature-value selection under full coverage (k is ignored)",
        lambda cls, k, seed: cls(),
    ),
    "fscpu": SelectorSpec(
        "weakfs.pu:FSCPUSelector",
        "pu",
        "FSCPU: cluster-assumption objective, compact GA",
        _k_param("n_features_to_select"),
    ),
    "fscpu-mi": SelectorSpec(
        "weakfs.pu:FSCPUSelector",
        "pu",
        "FSCPU-MI: cluster objective plus semi-JMI",
        lambda cls, k, seed: _k_param("n_features_to_select")(cls, k, seed).set_params(
            objective="cluster+mi"
        ),
    ),
    "semi-jmi": SelectorSpec(
        "weakfs.pu:SemiJMISelector",
        "pu",
        "semi-JMI: JMI with unlabeled rows as negatives",
        _k_param("n_features_to_select"),
    ),
    "mrmr": SelectorSpec(
        "weakfs.pu:MRMRSelector",
        "pu",
        "mRMR (MIQ) on PU labels",
        _k_param("n_features_to_select"),
    ),
    "pu_extra_trees": SelectorSpec(
        "weakfs.pu:PUExtraTreesClassifier",
        "pu",
        "PU Extra Trees (nnPU, quadratic, prior estimated): top k by risk-reduction importance",
        _from_model("weakfs.pu", "PUExtraTreesClassifier", prior="auto", n_jobs=-1),
    ),
    "gkf_pual": SelectorSpec(
        "weakfs.pu:GKFPUALClassifier",
        "pu",
        "GKF-PUAL: features whose group-lasso group is non-zero (top k by group norm)",
        _from_model("weakfs.pu", "GKFPUALClassifier"),
    ),
    "sewil": SelectorSpec(
        "weakfs.semi_supervised:SEWILSelector",
        "semi",
        "SEW-IL: self-learning wrapper with the CBIL criterion and FSGA (k is ignored)",
        lambda cls, k, seed: cls(random_state=seed, n_jobs=-1),
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
        return X, y, args.dataset
    path = Path(args.path)
    if not path.exists():
        raise SystemExit(f"weakfs select: no such file: {path}")
    if path.suffix in {".parquet", ".pq"}:
        frame = pd.read_parquet(path)
    else:
        frame = pd.read_csv(path, low_memory=False)
    if args.target is None:
        return frame, None, path.name
    if args.target not in frame.columns:
        raise SystemExit(
            f"weakfs select: target column {args.target!r} not in {path.name}; columns: "
            f"{', '.join(map(str, frame.columns[:20]))}"
        )
    return frame.drop(columns=[args.target]), frame[args.target], path.name


def _parse_value(text: str, column: pd.Series):
    if column.dtype.kind in "iuf":
        try:
            return float(text) if column.dtype.kind == "f" else int(text)
        except ValueError:
            return text
    return text


def _prepare_labels(spec: SelectorSpec, y: pd.Series | None, args) -> np.ndarray | None:
    if spec.labels == "none":
        return None
    if y is None:
        raise SystemExit(f"weakfs select: method {args.method!r} needs labels: give --target")
    if spec.labels == "pu":
        if args.positive is None:
            raise SystemExit(
                "weakfs select: PU methods need --positive VALUE (the label of labeled positives)"
            )
        from weakfs.datasets import make_pu_labels

        positive = _parse_value(args.positive, y)
        if args.labeled_fraction is not None:
            pu = make_pu_labels(
                y,
                positive=positive,
                labeled_fraction=args.labeled_fraction,
                random_state=args.random_state,
            )
            print(f"PU labels: {pu.summary()}")
            return pu.s
        s = (y.to_numpy() == positive).astype(np.int8)
        print(
            f"PU labels: {int(s.sum())} labeled positives ({positive!r}), "
            f"{int((s == 0).sum())} unlabeled rows"
        )
        return s
    # semi-supervised: -1 or missing = unlabeled
    labels = y.to_numpy(copy=True)
    if labels.dtype.kind == "f":
        labels = np.where(np.isnan(labels), -1, labels)
    if args.labeled_fraction is not None:
        rng = np.random.RandomState(args.random_state)
        hide = rng.random_sample(labels.shape[0]) >= args.labeled_fraction
        labels = labels.astype(object) if labels.dtype.kind not in "iuf" else labels
        labels[hide] = -1
        print(f"semi-supervised labels: {int((~hide).sum())} labeled, {int(hide.sum())} unlabeled")
    return labels


def _scores(selector, feature_names: list[str]) -> pd.Series | None:
    for attr in ("scores_", "feature_importances_"):
        values = getattr(selector, attr, None)
        if values is None and hasattr(selector, "estimator_"):
            values = getattr(selector.estimator_, attr, None)
        if values is not None and np.ndim(values) == 1 and len(values) == len(feature_names):
            return pd.Series(np.asarray(values, dtype=float), index=feature_names)
    return None


def cmd_select(args) -> int:
    specs = available_selectors()
    if args.list:
        for name, spec in SELECTORS.items():
            state = "" if name in specs else "  (not available in this installation)"
            print(f"{name:10s} [{spec.labels:4s}] {spec.help}{state}")
        return 0
    args.method = SELECTOR_ALIASES.get(args.method, args.method)
    if args.method not in specs:
        known = ", ".join(specs) or "none"
        raise SystemExit(
            f"weakfs select: unknown or unavailable method {args.method!r}; available: {known}"
        )
    if not args.dataset and not args.path:
        raise SystemExit("weakfs select: give a CSV/Parquet file or --dataset NAME")
    spec = specs[args.method]
    if args.k is not None and args.k < 1:
        raise SystemExit(f"weakfs select: -k must be at least 1; got {args.k}")
    if args.output and not Path(args.output).resolve().parent.is_dir():
        # checked before the fit: a long run must not end in a failed write
        raise SystemExit(
            f"weakfs select: the folder of --output does not exist: {Path(args.output).parent}"
        )
    X, y, source = _read_table(args)
    if X.shape[0] == 0 or X.shape[1] == 0:
        raise SystemExit(
            f"weakfs select: {source} has {X.shape[0]} rows and {X.shape[1]} feature columns; "
            "nothing to select from"
        )
    if args.k is not None and args.k > X.shape[1]:
        raise SystemExit(f"weakfs select: -k {args.k} is more than the {X.shape[1]} features")
    if args.target and args.dataset is None and y is None:
        raise SystemExit("weakfs select: --target column missing")
    labels = _prepare_labels(spec, y, args)
    if spec.labels != "none" or args.method != "ufvs":
        non_numeric = [c for c in X.columns if X[c].dtype.kind not in "biuf"]
        if non_numeric:
            print(
                f"one-hot encoding {len(non_numeric)} non-numeric column(s): "
                f"{', '.join(map(str, non_numeric[:8]))}"
            )
            X = pd.get_dummies(X, columns=non_numeric, dtype=float)
    selector = spec.make(_load_class(spec.target), args.k, args.random_state)
    if hasattr(selector, "set_output"):
        selector.set_output(transform="pandas")
    print(f"{args.method} on {source}: {X.shape[0]} rows x {X.shape[1]} features")
    start = time.perf_counter()
    selector.fit(X, labels) if labels is not None else selector.fit(X)
    seconds = time.perf_counter() - start
    names = list(map(str, selector.get_feature_names_out()))
    scores = _scores(selector, list(map(str, X.columns)))
    if scores is not None and all(name in scores.index for name in names):
        names = sorted(names, key=lambda name: -scores[name])  # best first
    print(f"\nselected {len(names)} in {seconds:.2f} s:")
    for rank, name in enumerate(names, 1):
        score = "" if scores is None or name not in scores.index else f"  score {scores[name]:.4g}"
        print(f"  {rank:3d}. {name}{score}")
    if args.output:
        out = selector.transform(X)
        out = out if isinstance(out, pd.DataFrame) else pd.DataFrame(out, columns=names)
        if y is not None:
            out[y.name if y.name is not None else "target"] = y.to_numpy()
        path = Path(args.output)
        out.to_parquet(path) if path.suffix in {".parquet", ".pq"} else out.to_csv(
            path, index=False
        )
        print(f"wrote {out.shape[0]} rows x {out.shape[1]} columns to {path}")
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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="weakfs",
        description="Feature selection when labels are scarce or one-sided.",
        allow_abbrev=False,
    )
    parser.add_argument("--debug", action="store_true", help="show the full traceback of an error")
    sub = parser.add_subparsers(dest="command", required=True)

    sel = sub.add_parser(
        "select", help="select features of a CSV/Parquet file or a dataset", allow_abbrev=False
    )
    sel.add_argument("path", nargs="?", help="CSV or Parquet file")
    sel.add_argument("--dataset", help="a bundled or staged dataset instead of a file")
    sel.add_argument("--target", help="label column (file input)")
    sel.add_argument("--positive", help="label value of the (labeled) positives, for PU methods")
    sel.add_argument(
        "--labeled-fraction",
        type=float,
        help="simulate weak labels: keep this share of labels (SCAR), hide the rest",
    )
    sel.add_argument(
        "--method", default="pu_extra_trees", help="selector (see --list); default pu_extra_trees"
    )
    sel.add_argument("-k", type=int, default=None, help="number of features to select")
    sel.add_argument("-o", "--output", help="write the selected columns (+ target) here")
    sel.add_argument("--random-state", type=int, default=0)
    sel.add_argument("--list", action="store_true", help="list the selectors")
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


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except SystemExit as exc:
        if isinstance(exc.code, str):  # a message of ours: one line, usage-error code
            print(exc.code, file=sys.stderr)
            return 2
        raise
    except USER_ERRORS as exc:
        if args.debug:
            raise
        message = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
        print(f"weakfs {args.command}: error: {message}", file=sys.stderr)
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
