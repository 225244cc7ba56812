"""``check_scar``: no alarm on SCAR labels, an alarm on strongly feature-driven ones (synthetic
data), its region and statistic by hand, and its errors."""

import numpy as np
import pytest
from scipy.stats import mannwhitneyu
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold

from weakfs.datasets import make_pu_labels
from weakfs.pu import SCARCheck, check_scar
from weakfs.pu._prior_estimators import out_of_fold_proba


def _gaussians(n=600, seed=0):
    rng = np.random.RandomState(seed)
    y = rng.rand(n) < 0.5
    X = rng.normal(size=(n, 3)) + 4 * y[:, None]
    return X, y


@pytest.mark.parametrize("seed", range(3))
def test_scar_labels_raise_no_alarm(seed):
    X, y = _gaussians(seed=seed)
    pu = make_pu_labels(y, positive=True, labeled_fraction=0.4, random_state=seed)
    result = check_scar(X, pu.s, random_state=seed)
    assert isinstance(result, SCARCheck) and result.p_value > 0.05
    assert result.message.startswith("No evidence against SCAR")


@pytest.mark.parametrize("seed", range(3))
def test_strongly_score_driven_labels_are_flagged(seed):
    X, y = _gaussians(seed=seed)
    pu = make_pu_labels(
        y,
        positive=True,
        labeled_fraction=0.4,
        mechanism="score",
        X=X,
        strength=3,
        random_state=seed,
    )
    p_value, message = check_scar(X, pu.s, random_state=seed)  # unpacks as (p, sentence)
    assert p_value < 0.05 and message.startswith("SCAR is doubtful")


def test_region_and_statistic_by_hand():
    X, y = _gaussians(seed=4)
    s = make_pu_labels(y, positive=True, labeled_fraction=0.4, random_state=4).s
    model = LogisticRegression()
    result = check_scar(X, s, estimator=model, cv=4, random_state=1)
    folds = StratifiedKFold(4, shuffle=True, random_state=1)
    score = out_of_fold_proba(X, s, model, folds, single_thread=False)
    threshold = min(np.quantile(score[s == 1], 0.5), np.sort(score[s == 0])[-10])
    region = score >= threshold
    labeled, unlabeled = score[(s == 1) & region], score[(s == 0) & region]
    test = mannwhitneyu(labeled, unlabeled, alternative="greater")
    assert result.threshold == pytest.approx(threshold)
    assert (result.n_labeled, result.n_unlabeled) == (labeled.size, unlabeled.size)
    assert result.p_value == pytest.approx(test.pvalue)
    assert result.auc == pytest.approx(test.statistic / (labeled.size * unlabeled.size))


def test_region_keeps_ten_unlabeled_rows():
    # every labeled row scores above every unlabeled one: the threshold drops to the 10th-highest
    # unlabeled score, and the labeled rows rank above them (a perfect AUC)
    X, y = _gaussians(seed=5)
    pu = make_pu_labels(
        y,
        positive=True,
        labeled_fraction=0.4,
        mechanism="score",
        X=X,
        strength=8,
        random_state=5,
    )
    result = check_scar(X, pu.s, random_state=0)
    assert result.n_unlabeled >= 10 and result.p_value < 0.01


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        (dict(top_share=0.0), r"'top_share' parameter of check_scar .* range \(0(\.0)?, 1(\.0)?\]"),
        (dict(top_share=1.5), r"'top_share' parameter of check_scar .* range \(0(\.0)?, 1(\.0)?\]"),
        (dict(alpha=1.0), r"'alpha' parameter of check_scar .* range \(0(\.0)?, 1(\.0)?\)"),
        (dict(cv="five"), "'cv' parameter of check_scar must be"),
    ],
)
def test_bad_settings(kwargs, match):
    X, y = _gaussians()
    s = make_pu_labels(y, positive=True, labeled_fraction=0.4, random_state=0).s
    with pytest.raises(ValueError, match=match):
        check_scar(X, s, **kwargs)


def test_too_few_labeled_rows():
    X, y = _gaussians()
    s = make_pu_labels(y, positive=True, n_labeled=15, random_state=0).s
    with pytest.raises(ValueError, match="needs at least 20 labeled rows"):
        check_scar(X, s)
    with pytest.raises(ValueError, match="rows but y has"):
        check_scar(X[:10], s)
