"""The selectors ``weakfs select`` knows, building the one a request names and resolving its
class prior."""

from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import Iterator, Mapping

import numpy as np
import pandas as pd

from weakfs._methods import METHODS, MethodSpec, canonical_method, load_method_class
from weakfs.cli._common import _fail, _names


def available_selectors() -> dict[str, MethodSpec]:
    """The selectors of weakfs's one method list (``weakfs._methods``) this installation has:
    every method a board shows can be run by ``weakfs select`` under the same name."""
    found = {}
    for name, spec in METHODS.items():
        try:
            load_method_class(spec)
        except (ImportError, AttributeError):
            continue
        found[name] = spec
    return found


def _resolve_method(name: str) -> tuple[str, MethodSpec]:
    """``--method``: its current name (an alias resolved) and spec, if this installation has it.
    Only the method asked for is imported."""
    name = canonical_method(name)
    spec = METHODS.get(name)
    if spec is not None:
        try:
            load_method_class(spec)
        except (ImportError, AttributeError):
            spec = None
    if spec is None:
        known = ", ".join(available_selectors()) or "none"
        _fail(f"unknown or unavailable method {name!r}; available: {known}")
    return name, spec


#: --set parameters a method reads only at another parameter's value: (method, parameter) ->
#: (that parameter, its value)
READ_ONLY_WITH = {("sewil", "n_features_to_select"): ("search", "fss")}


def _refuse_unread_settings(method: str, model, params: Mapping[str, object]) -> None:
    """A ``--set`` the chosen configuration would ignore without a word is refused."""
    for (name, param), (other, value) in READ_ONLY_WITH.items():
        if name == method and param in params and getattr(model, other) != value:
            _fail(
                f"{method} reads {param} only with --set {other}={value}; its {other}="
                f"{getattr(model, other)!r} chooses the number of features itself"
            )


def _build_selector(
    method: str,
    spec: MethodSpec,
    k,
    params: Mapping[str, object],
    *,
    prior=None,
    n_jobs: int | None = None,
    random_state: int = 0,
    progress: bool = True,
) -> tuple[object, object, list[str]]:
    """``(selector, model, notes)``: the model receives the options and ``--set`` (they are the
    same object unless the spec wraps the model in ``SelectFromModel``)."""
    cls = load_method_class(spec)
    valid = cls().get_params(deep=False)
    unknown = [name for name in params if name not in valid]
    if unknown:
        _fail(
            f"{method} ({cls.__name__}) has no parameter {_names(map(repr, unknown))}; "
            f"valid: {', '.join(sorted(valid))}"
        )
    _refuse_double_settings(method, spec, k, params, prior)
    notes = []
    kwargs = dict(spec.defaults)
    if "random_state" in valid:
        kwargs["random_state"] = random_state
    if k == "auto" and spec.k_param is not None and _takes_auto(cls, spec.k_param):
        kwargs[spec.k_param] = "auto"  # the method's paper default; other k are set per table
    if n_jobs is not None:
        if "n_jobs" in valid:
            kwargs["n_jobs"] = n_jobs
        else:
            notes.append(f"{method} runs in one process: --n-jobs is ignored")
    if spec.progress is not None and progress:
        kwargs[spec.progress] = True
    if prior is not None:
        if "prior" not in valid:
            with_prior = [
                name for name, other in available_selectors().items() if other.reads_prior
            ]
            _fail(f"{method} uses no class prior; --prior applies to {', '.join(with_prior)}")
        kwargs["prior"] = prior
    kwargs.update(params)
    model = cls(**kwargs)
    if hasattr(model, "_validate_params"):
        model._validate_params()  # a bad --set value fails now, not after reading the table
    _refuse_unread_settings(method, model, params)
    if not spec.from_model:
        return model, model, notes
    from sklearn.feature_selection import SelectFromModel

    return SelectFromModel(model), model, notes


def _refuse_double_settings(method, spec, k, params, prior) -> None:
    """``--set`` of a parameter that an option sets too (the number of features, the prior) is
    a contradiction to refuse, not to resolve silently."""
    if k is not None and spec.k_param is not None and spec.k_param in params:
        _fail(
            f"-k and --set {spec.k_param}=... both set the number of features of {method}: "
            "give one of them"
        )
    if prior is not None and "prior" in params:
        _fail(f"--prior and --set prior=... both set the class prior of {method}: give one")
    for param, option in (("random_state", "--random-state"), ("n_jobs", "--n-jobs")):
        if param in params:
            _fail(f"--set {param}=... is what {option} sets for {method}: use {option}")


def _takes_auto(cls, param: str) -> bool:
    """Whether ``cls`` takes ``param="auto"`` (a method with a paper default for ``k``)."""
    try:
        cls(**{param: "auto"})._validate_params()
    except (ValueError, TypeError):
        return False
    return True


def apply_k(selector, model, spec: MethodSpec, k, n_units: int):
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
    if params.get("risk") == "PN":  # the PU forest's PN risk reads no prior
        return "share of positives (risk='PN')"
    from weakfs.pu import resolve_class_prior

    # the model's convention of the prior when it has one, else resolve_class_prior's default
    convention = {"unlabeled": params["unlabeled"]} if "unlabeled" in params else {}
    with _elapsed("class prior (bbe)", enabled=progress):
        resolved = resolve_class_prior(
            X.to_numpy(dtype=np.float32),  # as the model validates X
            labels,
            **convention,
            interval=True,
            screen=True,  # as compare does, so the board's prior and this one agree
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
