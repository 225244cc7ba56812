import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from weakfs.metrics import feature_selection_recall, pu_precision_recall, puf_score


def test_fsr_masks_and_indices():
    assert feature_selection_recall([0, 1, 7], [0, 1, 2, 3]) == 0.5
    mask = np.zeros(10, dtype=bool)
    mask[[2, 3]] = True
    assert feature_selection_recall(mask, [2, 3, 4, 5], n_features=10) == 0.5
    with pytest.raises(ValueError, match="relevant is empty"):
        feature_selection_recall([1], [])


def test_puf_score_by_hand():
    s = np.array([1, 1, 1, 1, 0, 0, 0, 0, 0, 0])
    pred = np.array([1, 1, 1, 0, 1, 1, 0, 0, 0, 0])
    # recall 3/4, share of unlabeled predicted positive 2/6
    assert puf_score(s, pred) == pytest.approx((0.75**2) / (2 / 6))
    assert puf_score(s, np.where(pred == 1, 1, -1)) == pytest.approx(puf_score(s, pred))
    precision, recall = pu_precision_recall(s, pred, prior=0.5)
    assert recall == 0.75 and precision == pytest.approx(min(1, 0.75 * 0.5 / 0.5))
    with pytest.raises(ValueError, match="prior"):
        pu_precision_recall(s, pred, prior=1.0)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.booleans(), st.integers(0, 4)), min_size=2, max_size=40).filter(
        lambda rows: len({label for label, _ in rows}) == 2
    )
)
def test_fast_auc_is_scikit_learns(rows):
    from sklearn.metrics import roc_auc_score

    from weakfs._estimator_scores import binary_roc_auc as _binary_roc_auc

    y = np.array([int(label) for label, _ in rows])
    score = np.array([value / 4 for _, value in rows])  # few values: many ties
    assert _binary_roc_auc(y, score) == pytest.approx(roc_auc_score(y, score), abs=1e-12)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(-3, 3), min_size=1, max_size=50), st.sampled_from([1.0, 0.1, 1e-300]))
def test_average_ranks_are_scipys_rankdata_exactly(values, scale):
    from scipy.stats import rankdata

    from weakfs._estimator_scores import average_ranks

    x = np.array(values, dtype=float) * scale  # few values: many ties, and -0.0 beside 0.0
    ranks = average_ranks(x)
    assert ranks.dtype == np.float64 and np.array_equal(ranks, rankdata(x))


def test_a_scorer_bound_to_one_fold_scores_as_the_scorer():
    from sklearn.linear_model import LogisticRegression

    from weakfs.model_selection import make_pu_scorer

    rng = np.random.RandomState(0)
    X = rng.normal(size=(80, 4))
    s = (X[:, 0] + rng.normal(size=80) > 1).astype(int)
    model = LogisticRegression().fit(X, s)
    for metric in ("roc_auc", "f1", "puf"):
        scorer = make_pu_scorer(metric, prior=None if metric == "puf" else 0.5)
        bound = scorer._bound_to(s)
        for shift in (0.0, 0.5):
            assert bound(model, X + shift) == scorer(model, X + shift, s)
    with pytest.raises(ValueError, match="below the share of labeled"):
        make_pu_scorer("roc_auc", prior=0.01)._bound_to(s)
    with pytest.raises(ValueError, match="rows"):
        make_pu_scorer("roc_auc", prior=0.5)._bound_to(s)(model, X[:10])
