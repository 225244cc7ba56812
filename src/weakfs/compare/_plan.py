"""The :class:`Plan` a comparison's steps share: the table, the folds, the scorer, the budget's
deadline and what the steps learn on the way (settings used, probes, rankers deferred)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from weakfs.compare._folds import FoldTask, Scorer
from weakfs.compare._methods import METHODS

__all__ = ["Plan"]


@dataclass
class Plan:
    """What the steps of a comparison share, fixed before any fit."""

    X: np.ndarray
    y: np.ndarray
    names: list[str]
    kind: str
    methods: list[str]
    ks: list[int]
    splits: list
    seeds: list[int]
    scorer: Scorer
    prior: float | None
    deadline: float | None
    started: float
    n_jobs: object
    progress: bool
    notes: list
    #: settings the caller fixed per method (never scaled by the budget)
    fixed_settings: dict = field(default_factory=dict)
    #: the settings each method ran with (a wrapper's as the budget scaled them)
    settings_used: dict = field(default_factory=dict)
    #: rankers the plan left out for the budget -> their estimated cost per fold (seconds);
    #: tried again with the time the wrappers leave
    deferred: dict = field(default_factory=dict)
    #: wrappers the plan probed -> seconds of their whole run at their cheapest setting
    wrapper_need: dict = field(default_factory=dict)
    #: wrapper -> {its probe's settings: seconds of the probe fit, scaled to the columns read}
    wrapper_probes: dict = field(default_factory=dict)
    #: the first fold's columns the probes sample from, in a random order (set on first use)
    probe_pool: np.ndarray | None = None
    #: wrappers whose warm-up fit has run (``_budget.warm_up_wrapper``)
    warmed: set = field(default_factory=set)
    #: the first fold's all-features ``(score, raw score, truth, seconds)``, scored by the
    #: references' plan (its cost probe) and not fitted again
    first_all_features: tuple | None = None
    #: the references' estimated seconds per fold (0 without a budget)
    reference_seconds: float = 0.0
    #: folds the budget's plan left out, in order: scored after all if time is left
    dropped_splits: list = field(default_factory=list)

    def settings_for(self, m: str) -> dict:
        """The settings ``m`` runs (or ran) with: the budget's, else the caller's, else its
        defaults."""
        if m in self.settings_used:
            return self.settings_used[m]
        return {**METHODS[m].settings, **self.fixed_settings.get(m, {})}

    def fold_task(self, m: str | None, fold: int, settings: dict | None = None, **rows) -> FoldTask:
        """The task of method ``m`` (None: the references) on fold ``fold`` at ``settings``
        (default: :meth:`settings_for`), on the fold's rows of the whole table at every k;
        ``rows`` replace any of ``X``, ``train``, ``test`` or ``ks`` (a probe's subsample)."""
        train, test = self.splits[fold]
        if settings is None:
            settings = {} if m is None else self.settings_for(m)
        task = FoldTask(
            method=m,
            fold=fold,
            settings=settings,
            prior=self.prior,
            seed=self.seeds[fold],
            X=self.X,
            y=self.y,
            train=train,
            test=test,
            ks=self.ks,
            scorer=self.scorer,
            deadline=self.deadline,
        )
        return task._replace(**rows)

    @property
    def n_features(self) -> int:
        return self.X.shape[1]
