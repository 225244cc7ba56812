"""The selectors ``compare`` runs, for each kind of labels, and how each is built for a k.

A *ranker* is fitted once per fold and its ranking's prefixes give every k; a *wrapper* (its k
changes its search) is refitted per k, at settings the time budget allows.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["METHODS", "MethodSpec", "applicable_methods"]


@dataclass(frozen=True)
class MethodSpec:
    """How ``compare`` builds one selector.

    Attributes
    ----------
    labels : {"pu", "semi"}
        The labels it reads.
    build : callable
        ``build(k, settings, prior, seed) -> estimator`` (a ranker ignores ``k``).
    ranker : bool
        Its ranking's prefixes give every k (fitted once per fold).
    settings : dict
        Its default settings; a wrapper's ``budget_param`` is scaled to the time budget.
    budget_param : str or None
        The setting the budget scales (iterations, generations), with ``budget_range``.
    """

    labels: str
    build: object
    ranker: bool = True
    settings: dict = field(default_factory=dict)
    budget_param: str | None = None
    budget_range: tuple[int, int] = (1, 1)


def _semi_jmi(k, settings, prior, seed):
    from weakfs.pu import SemiJMISelector

    return SemiJMISelector(n_features_to_select=k)


def _mrmr(k, settings, prior, seed):
    from weakfs.pu import MRMRSelector

    return MRMRSelector(n_features_to_select=k)


def _pu_extra_trees(k, settings, prior, seed):
    from weakfs.pu import PUExtraTreesClassifier

    return PUExtraTreesClassifier(
        n_estimators=settings.get("n_estimators", 100),
        prior=prior,
        n_jobs=1,
        random_state=seed,
        verbose=False,
    )


def _permutation(k, settings, prior, seed):
    from weakfs.feature_selection import PUPermutationSelector, default_model

    return PUPermutationSelector(default_model(), k, prior=prior, n_repeats=3, random_state=seed)


def _fscpu(objective):
    def build(k, settings, prior, seed):
        from weakfs.pu import FSCPUSelector

        return FSCPUSelector(
            k,
            n_iter=settings["n_iter"],
            objective=objective,
            clustering=settings.get("clustering", "gmm"),
            n_jobs=1,
            random_state=seed,
            verbose=False,
        )

    return build


def _gkf_pual(k, settings, prior, seed):
    from weakfs.pu import GKFPUALSelector

    return GKFPUALSelector(
        n_features_to_select=k, prefilter="auto", n_lambdas=settings.get("n_lambdas", 20)
    )


def _semi_ranker(name):
    def build(k, settings, prior, seed):
        import weakfs.semi_supervised as semi

        return getattr(semi, name)(n_features_to_select=k)

    return build


def _sewil(k, settings, prior, seed):
    from weakfs.semi_supervised import SEWILSelector

    return SEWILSelector(
        n_generations=settings["n_generations"],
        n_estimators=settings.get("n_estimators", 50),
        n_jobs=1,
        random_state=seed,
        verbose=False,
    )


#: name -> spec, in the order of the leaderboard's method column
METHODS: dict[str, MethodSpec] = {
    "semi_jmi": MethodSpec("pu", _semi_jmi),
    "mrmr": MethodSpec("pu", _mrmr),
    "pu_extra_trees": MethodSpec("pu", _pu_extra_trees, settings={"n_estimators": 100}),
    "pu_permutation": MethodSpec("pu", _permutation),
    "fscpu": MethodSpec(
        "pu",
        _fscpu("cluster"),
        ranker=False,
        settings={"n_iter": 3000, "clustering": "gmm"},
        budget_param="n_iter",
        budget_range=(30, 3000),
    ),
    "fscpu_mi": MethodSpec(
        "pu",
        _fscpu("cluster+mi"),
        ranker=False,
        settings={"n_iter": 3000, "clustering": "gmm"},
        budget_param="n_iter",
        budget_range=(30, 3000),
    ),
    "gkf_pual": MethodSpec("pu", _gkf_pual, ranker=False, settings={"n_lambdas": 20}),
    "semi_fisher": MethodSpec("semi", _semi_ranker("SemiFisherSelector")),
    "ssls": MethodSpec("semi", _semi_ranker("SSLSSelector")),
    "rlsr": MethodSpec("semi", _semi_ranker("RLSRSelector")),
    "sselect": MethodSpec("semi", _semi_ranker("SSelectSelector")),
    "sewil": MethodSpec(
        "semi",
        _sewil,
        settings={"n_generations": 20, "n_estimators": 50},
        budget_param="n_generations",
        budget_range=(2, 20),
    ),
}


def applicable_methods(labels: str, methods=None) -> list[str]:
    """The methods that read ``labels`` (all of them, or those asked for, checked)."""
    fitting = [name for name, spec in METHODS.items() if spec.labels == labels]
    if methods is None:
        return fitting
    names = [m.strip().lower().replace("-", "_") for m in methods]
    unknown = [m for m in names if m not in METHODS]
    if unknown:
        raise ValueError(f"unknown method(s) {unknown}; known: {', '.join(METHODS)}")
    wrong = [m for m in names if m not in fitting]
    if wrong:
        raise ValueError(
            f"{', '.join(wrong)} read(s) {METHODS[wrong[0]].labels} labels, not {labels}; "
            f"methods for {labels} labels: {', '.join(fitting)}"
        )
    return names
