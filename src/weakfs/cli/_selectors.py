"""The selectors ``weakfs select`` knows, building the one a request names and resolving its
class prior."""

from __future__ import annotations

import contextlib
import importlib
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from weakfs.cli._common import _fail, _names

if TYPE_CHECKING:
    from weakfs.cli._select import SelectRequest


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
    default_k : str
        What the method selects without ``-k`` (``--help`` and ``--list`` say it).
    """

    target: str
    labels: str
    help: str
    k_param: str | None = "n_features_to_select"
    defaults: dict = field(default_factory=dict)
    from_model: bool = False
    one_hot: bool = True
    progress: str | None = None
    default_k: str = "half of the features"


# name -> spec.  Each entry is imported lazily; `weakfs select --list` shows which are available.
# Names use underscores; the same name with hyphens (fscpu-mi, semi-jmi) is accepted too.
SELECTORS: dict[str, SelectorSpec] = {
    "ufvs": SelectorSpec(
        "weakfs.unsupervised:UFVSSelector",
        "none",
        "UFVS: a set of feature *values* (e.g. sex=m) that together cover every row, without "
        "labels; for describing the data, not for choosing k columns",
        k_param=None,
        one_hot=False,
        default_k="none: the value set follows from full coverage",
    ),
    "fscpu": SelectorSpec(
        "weakfs.pu:FSCPUSelector",
        "pu",
        "FSCPU: cluster-assumption objective, compact GA",
        progress="verbose",
        default_k="half of the features",
    ),
    "fscpu_mi": SelectorSpec(
        "weakfs.pu:FSCPUSelector",
        "pu",
        "FSCPU-MI: cluster objective plus semi-JMI",
        defaults={"objective": "cluster+mi"},
        progress="verbose",
        default_k="half of the features",
    ),
    "semi_jmi": SelectorSpec(
        "weakfs.pu:SemiJMISelector",
        "pu",
        "semi-JMI: JMI with unlabeled rows as negatives",
        default_k="half of the features",
    ),
    "mrmr": SelectorSpec(
        "weakfs.pu:MRMRSelector", "pu", "mRMR (MIQ) on PU labels", default_k="half of the features"
    ),
    "pu_extra_trees": SelectorSpec(
        "weakfs.pu:PUExtraTreesClassifier",
        "pu",
        "PU Extra Trees (nnPU, quadratic, prior estimated): top k by risk-reduction importance",
        defaults={"prior": "auto", "n_jobs": -1},
        from_model=True,
        progress="verbose",
        default_k="features with above-mean importance",
    ),
    "gkf_pual": SelectorSpec(
        "weakfs.pu:GKFPUALSelector",
        "pu",
        "GKF-PUAL: the group lasso's features; with -k the k of the lambda1 path (as "
        "GKFPUALSelector(n_features_to_select=k)), screened to 32 features first when there are "
        "more (prefilter='auto')",
        defaults={"prefilter": "auto"},
        default_k="the non-zero groups at the default lambda1",
    ),
    "sewil": SelectorSpec(
        "weakfs.semi_supervised:SEWILSelector",
        "semi",
        "SEW-IL: self-learning wrapper with the CBIL criterion and FSGA",
        k_param=None,
        defaults={"n_jobs": -1},
        progress="verbose",
        default_k="its own: the features of FSGA's final vote",
    ),
}


# earlier method names, still accepted
SELECTOR_ALIASES = {"puet": "pu_extra_trees", "gkfpual": "gkf_pual"}


def canonical_method(name: str) -> str:
    """The one spelling of a method name: underscores, aliases resolved."""
    name = name.strip().lower().replace("-", "_")
    return SELECTOR_ALIASES.get(name, name)


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


def _resolve_method(name: str) -> tuple[str, SelectorSpec]:
    """``--method``: its current name (an alias resolved) and spec, if this installation has it.
    Only the method asked for is imported."""
    name = canonical_method(name)
    spec = SELECTORS.get(name)
    if spec is not None:
        try:
            _load_class(spec.target)
        except (ImportError, AttributeError):
            spec = None
    if spec is None:
        known = ", ".join(available_selectors()) or "none"
        _fail(f"unknown or unavailable method {name!r}; available: {known}")
    return name, spec


def _build_selector(request: SelectRequest) -> tuple[object, object, list[str]]:
    """``(selector, model, notes)``: the model receives the options and ``--set`` (they are the
    same object unless the spec wraps the model in ``SelectFromModel``)."""
    spec, method, k = request.spec, request.method, request.k
    cls = _load_class(spec.target)
    valid = cls().get_params(deep=False)
    unknown = [name for name in request.params if name not in valid]
    if unknown:
        _fail(
            f"{method} ({cls.__name__}) has no parameter {_names(map(repr, unknown))}; "
            f"valid: {', '.join(sorted(valid))}"
        )
    notes = []
    kwargs = dict(spec.defaults)
    if "random_state" in valid:
        kwargs["random_state"] = request.random_state
    if k == "auto" and spec.k_param is not None and _takes_auto(cls, spec.k_param):
        kwargs[spec.k_param] = "auto"  # the method's paper default; other k are set per table
    if request.n_jobs is not None:
        if "n_jobs" in valid:
            kwargs["n_jobs"] = request.n_jobs
        else:
            notes.append(f"{method} runs in one process: --n-jobs is ignored")
    if spec.progress is not None and request.progress:
        kwargs[spec.progress] = True
    if request.prior is not None:
        if "prior" not in valid:
            with_prior = [
                name
                for name, other in available_selectors().items()
                if "prior" in _load_class(other.target)().get_params(deep=False)
            ]
            _fail(f"{method} uses no class prior; --prior applies to {', '.join(with_prior)}")
        kwargs["prior"] = request.prior
    kwargs.update(request.params)
    model = cls(**kwargs)
    if hasattr(model, "_validate_params"):
        model._validate_params()  # a bad --set value fails now, not after reading the table
    if not spec.from_model:
        return model, model, notes
    from sklearn.feature_selection import SelectFromModel

    return SelectFromModel(model), model, notes


def _takes_auto(cls, param: str) -> bool:
    """Whether ``cls`` takes ``param="auto"`` (a method with a paper default for ``k``)."""
    try:
        cls(**{param: "auto"})._validate_params()
    except (ValueError, TypeError):
        return False
    return True


def apply_k(selector, model, spec: SelectorSpec, k, n_units: int):
    """Set ``k`` on the selector once the table's size is known: an int or a fraction becomes
    a number of features (the method's own default for None and ``"auto"``)."""
    if k is None or k == "auto":
        return k
    from weakfs._validation import check_n_features_to_select

    k = check_n_features_to_select(k, n_units)
    if spec.from_model:
        selector.set_params(max_features=k, threshold=-np.inf)
    elif spec.k_param is not None:
        model.set_params(**{spec.k_param: k})
    return k


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


def _estimate_prior(model, X: pd.DataFrame, labels: np.ndarray, *, progress: bool):
    """Resolve ``prior="auto"`` here, with its interval, so that the prior printed is the one the
    model uses (the model is given the value).  Returns the
    :class:`~weakfs.pu.ResolvedPrior`, the text ``"share of positives (risk='PN')"`` for a PN
    model, or None when the model uses no prior."""
    params = model.get_params(deep=False)
    if "prior" not in params:
        return None
    if params["prior"] != "auto":
        from weakfs.pu import ResolvedPrior

        return ResolvedPrior(float(params["prior"]), "given")
    if params.get("risk", "nnPU") == "PN":
        return "share of positives (risk='PN')"
    from weakfs.pu import resolve_class_prior

    with _elapsed("class prior (bbe)", enabled=progress):
        resolved = resolve_class_prior(
            X.to_numpy(dtype=np.float32),  # as the model validates X
            labels,
            unlabeled=params.get("unlabeled", "all"),
            interval=True,
            random_state=params.get("random_state"),
        )
    model.set_params(prior=resolved.value)
    return resolved


def _scar_warning(X: pd.DataFrame, labels: np.ndarray, random_state) -> str | None:
    """The SCAR check's sentence when it finds evidence against SCAR (every prior estimate
    assumes it), else None; None too when the check cannot run (too few rows of a group)."""
    from weakfs.pu import check_scar

    try:
        check = check_scar(X.to_numpy(dtype=np.float32), labels, random_state=random_state)
    except ValueError:
        return None
    return check.message if check.p_value < check.alpha else None


def _prior_key(selector) -> str | None:
    """The parameter path of the class prior inside ``selector`` (``prior`` or ``…__prior``)."""
    keys = [k for k in selector.get_params(deep=True) if k == "prior" or k.endswith("__prior")]
    return min(keys, key=len) if keys else None


def _prior_sensitivity(selector, X, labels, ends: tuple[float, float]) -> list[dict] | None:
    """Re-select at each end of the prior's interval (``selection_at_interval_ends``); None when
    the fitted ``selector`` keeps every column (the same at every prior)."""
    from sklearn.base import clone

    from weakfs.pu import selection_at_interval_ends

    key = _prior_key(selector)

    def select_at(prior: float) -> set[int]:
        other = clone(selector).set_params(**{key: prior}).fit(X, labels)
        return set(np.flatnonzero(other.get_support()))

    chosen = set(np.flatnonzero(selector.get_support()))
    return selection_at_interval_ends(select_at, chosen, ends, X.shape[1])
