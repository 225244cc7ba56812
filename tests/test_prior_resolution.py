"""One owner of ``prior="auto"``: resolve_class_prior and selection_at_interval_ends."""

from __future__ import annotations

import ast
import pathlib

import numpy as np
import pytest

from weakfs.datasets import load, make_pu_labels
from weakfs.feature_selection import PUPermutationSelector, default_model
from weakfs.pu import (
    PUExtraTreesClassifier,
    ResolvedPrior,
    estimate_class_prior,
    resolve_class_prior,
    selection_at_interval_ends,
)

SRC = pathlib.Path(__file__).resolve().parents[1] / "src" / "weakfs"


@pytest.fixture(scope="module")
def ionosphere_pu():
    X, y = load("ionosphere")
    pu = make_pu_labels(y, positive="g", labeled_fraction=0.3, random_state=0)
    return X.to_numpy(dtype=float), pu.s


def test_a_given_prior_is_used_as_it_is(ionosphere_pu):
    X, s = ionosphere_pu
    resolved = resolve_class_prior(X, s, 0.4)
    assert resolved == ResolvedPrior(0.4, "given")
    assert resolved.describe() == "given" and not resolved.estimated


@pytest.mark.slow
def test_auto_is_the_estimate_and_the_interval_holds_it(ionosphere_pu):
    X, s = ionosphere_pu
    point = resolve_class_prior(X, s, random_state=0)
    with_interval = resolve_class_prior(X, s, interval=True, random_state=0)
    assert point.value == pytest.approx(estimate_class_prior(X, s, random_state=0))
    assert with_interval.value == point.value  # the interval does not move the estimate
    low, high = with_interval.interval
    assert low <= with_interval.value <= high
    assert "bbe" in with_interval.describe() and "interval" in with_interval.describe()


def test_every_caller_uses_the_same_prior(ionosphere_pu):
    """PU Extra Trees' own "auto" and the meta-selectors' scorer resolve the same value."""
    X, s = ionosphere_pu
    expected = resolve_class_prior(X.astype(np.float32), s, random_state=0).value
    forest = PUExtraTreesClassifier(n_estimators=5, random_state=0).fit(X, s)
    assert forest.prior_ == pytest.approx(expected)
    perm = PUPermutationSelector(default_model(), 3, n_repeats=1, random_state=0).fit(X, s)
    assert perm.prior_ == pytest.approx(resolve_class_prior(X, s, random_state=0).value)


def test_an_estimate_on_the_labeled_share_is_raised_just_above_it():
    # the labeled rows are a copy of some unlabeled rows' region and nothing else: the estimate
    # finds no unlabeled positive, so it sits on the labeled share
    rng = np.random.RandomState(0)
    X = np.vstack([rng.normal(5, 0.1, size=(40, 2)), rng.normal(-5, 0.1, size=(360, 2))])
    s = np.r_[np.ones(40, int), np.zeros(360, int)]
    resolved = resolve_class_prior(X, s, random_state=0)
    assert resolved.value == pytest.approx(0.11)
    assert "raised to just above the labeled share" in resolved.how
    forest = PUExtraTreesClassifier(n_estimators=3, random_state=0).fit(X, s)
    assert forest.prior_ == pytest.approx(0.11)  # the forest's own "auto": the same rule


def test_too_few_labels_give_the_point_estimate_and_say_why():
    rng = np.random.RandomState(0)
    X = rng.normal(size=(200, 3))
    s = np.zeros(200, int)
    s[:5] = 1
    resolved = resolve_class_prior(X, s, interval=True, random_state=0)
    assert resolved.interval is None
    assert resolved.no_interval.startswith("no interval: it needs 10 labeled")


def test_printed_digits_show_the_estimate_inside_its_interval():
    resolved = ResolvedPrior(0.1761, "estimated", (0.1675, 0.1814), 0.9)
    assert resolved.value_text() == "0.176"
    assert "0.168–0.181" in resolved.describe()
    assert ResolvedPrior(0.47, "estimated", (0.39, 0.51), 0.9).value_text() == "0.47"


def test_the_reselection_is_skipped_when_every_column_is_chosen():
    calls = []

    def select_at(prior):
        calls.append(prior)
        return {0, 1}

    assert selection_at_interval_ends(select_at, {0, 1, 2}, (0.2, 0.4), 3) is None
    assert calls == []
    found = selection_at_interval_ends(select_at, {0, 2}, (0.2, 0.4), 3)
    assert calls == [0.2, 0.4]
    assert found == [{"prior": 0.2, "jaccard": 1 / 3}, {"prior": 0.4, "jaccard": 1 / 3}]


def test_no_module_but_the_owner_estimates_the_prior_for_auto():
    """estimate_class_prior is called only by the prior's own modules (and the benchmark of
    the estimator, which compares estimators); every prior="auto" goes through
    resolve_class_prior."""
    allowed = {"pu/_prior.py", "pu/_prior_resolution.py", "pu/_scar_check.py"}
    callers = []
    for path in SRC.rglob("*.py"):
        rel = path.relative_to(SRC).as_posix()
        if rel in allowed or rel.startswith("experiments/"):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call):
                name = ast.unparse(node.func)
                if name.endswith(("estimate_class_prior", "_estimate_many")):
                    callers.append(f"{rel}:{node.lineno}")
    assert callers == []


def test_screen_estimates_on_the_screened_columns_of_a_wide_table(monkeypatch):
    import weakfs.pu._prior_resolution as resolution
    from weakfs._screen import screen_columns

    seen = []

    def estimate(X, s, **settings):  # records what the estimator reads (no fit: fast)
        seen.append(np.asarray(X).copy())
        return 0.45

    monkeypatch.setattr(resolution, "_estimate_class_prior", estimate)
    rng = np.random.RandomState(0)
    y = (rng.uniform(size=1000) < 0.4).astype(int)
    X = rng.normal(size=(1000, resolution.PRIOR_SCREEN_COLUMNS + 4))
    X[:, :3] += 2.0 * y[:, None]
    s = y * (rng.uniform(size=1000) < 0.5)
    screened = resolution.resolve_class_prior(X, s, "auto", screen=True, random_state=0)
    cols = screen_columns(X, s, resolution.PRIOR_SCREEN_COLUMNS)
    assert cols.size == resolution.PRIOR_SCREEN_COLUMNS and {0, 1, 2} <= set(cols.tolist())
    np.testing.assert_array_equal(seen[-1], X[:, cols])
    assert screened.value == 0.45 and "500 columns" in screened.how
    # without screen, or under 1,000 rows (a logistic regression estimates, cheaply): every column
    resolution.resolve_class_prior(X, s, "auto", random_state=0)
    assert seen[-1].shape == X.shape
    resolution.resolve_class_prior(X[:999], s[:999], "auto", screen=True, random_state=0)
    assert seen[-1].shape == (999, X.shape[1])


def test_a_time_limit_leaves_out_an_interval_it_cannot_hold_and_says_why(ionosphere_pu):
    X, s = ionosphere_pu
    point = resolve_class_prior(X, s, random_state=0)
    limited = resolve_class_prior(X, s, interval=True, interval_seconds=0.0, random_state=0)
    assert limited.value == point.value and limited.interval is None
    assert "the budget leaves time for 0 bootstrap resamples" in limited.no_interval


def test_a_time_limit_runs_the_resamples_that_fit(monkeypatch, ionosphere_pu):
    from weakfs.pu import _prior_resolution

    asked = []
    estimate = _prior_resolution._estimate_class_prior

    def counting(X, s, **settings):
        asked.append(settings.get("n_bootstrap"))
        return estimate(X, s, **{**settings, "n_bootstrap": 10})

    monkeypatch.setattr(_prior_resolution, "_estimate_class_prior", counting)
    monkeypatch.setattr(_prior_resolution.time, "perf_counter", iter(range(0, 100, 2)).__next__)
    X, s = ionosphere_pu
    # each point estimate "takes" 2 s: 30 s leave 15 estimates, the point's again and 14
    resolved = resolve_class_prior(X, s, interval=True, interval_seconds=30.0, random_state=0)
    assert asked == [None, 14] and resolved.interval is not None
