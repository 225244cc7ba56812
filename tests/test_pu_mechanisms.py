"""``make_pu_labels(mechanism=...)``: SCAR unchanged, the feature-driven mechanisms label only
positives, exactly ``n_labeled`` of them, with the documented probabilities."""

import numpy as np
import pandas as pd
import pytest
from scipy.stats import spearmanr
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import StandardScaler

from weakfs.datasets import make_pu_labels


def _data(n=300, seed=0):
    rng = np.random.RandomState(seed)
    y = rng.rand(n) < 0.4
    X = rng.normal(size=(n, 3)) + 1.5 * y[:, None]
    return X, y


def test_scar_is_unchanged():
    # the draw of the earlier releases: one choice without replacement among the positives
    X, y = _data()
    pu = make_pu_labels(y, positive=True, labeled_fraction=0.3, random_state=3)
    expected = np.sort(
        np.random.RandomState(3).choice(np.flatnonzero(y), size=round(0.3 * y.sum()), replace=False)
    )
    assert np.array_equal(pu.labeled_index, expected) and pu.mechanism == "scar"
    assert np.allclose(pu.propensity[y], pu.label_frequency) and not pu.propensity[~y].any()
    # giving X changes nothing under SCAR
    again = make_pu_labels(y, positive=True, labeled_fraction=0.3, X=X, random_state=3)
    assert np.array_equal(again.s, pu.s)


@pytest.mark.parametrize("mechanism", ["score", "features"])
@pytest.mark.parametrize("fraction", [0.1, 0.5, 1.0])
def test_only_positives_exactly_n_labeled(mechanism, fraction):
    X, y = _data()
    pu = make_pu_labels(
        y, positive=True, labeled_fraction=fraction, mechanism=mechanism, X=X, random_state=0
    )
    assert not pu.s[~y].any() and pu.s.sum() == pu.n_labeled == max(1, round(fraction * y.sum()))
    assert not pu.propensity[~y].any()
    # the labeling probabilities of the positives average the label frequency
    assert pu.propensity[y].mean() == pytest.approx(pu.label_frequency, abs=1e-9)
    assert "not SCAR" in pu.summary()


def test_score_mechanism_probability_grows_with_the_logistic_score():
    X, y = _data()
    pu = make_pu_labels(
        y, positive=True, labeled_fraction=0.3, mechanism="score", X=X, strength=2, random_state=0
    )
    Z = StandardScaler().fit_transform(X)
    z = LogisticRegression(C=1.0, max_iter=1000).fit(Z, y).decision_function(Z)[y]
    e = pu.propensity[y]
    assert spearmanr(z, e).correlation == pytest.approx(1.0)  # strictly increasing in the score
    # log-odds of the propensity: linear in the score standardised over the positives, slope 2
    logit = np.log(e / (1 - e))
    slope = np.polyfit((z - z.mean()) / z.std(), logit, 1)[0]
    assert slope == pytest.approx(2.0, rel=1e-6)


def test_features_mechanism_follows_bekker_et_al():
    X, y = _data()
    pu = make_pu_labels(
        y,
        positive=True,
        labeled_fraction=0.3,
        mechanism="features",
        X=X,
        features=[0, 2],
        random_state=0,
    )
    # e0 = geometric mean of the columns min-max scaled to [0.2, 0.8]; e = sigmoid(b + logit e0)
    scaled = 0.2 + 0.6 * (X[:, [0, 2]] - X[:, [0, 2]].min(0)) / np.ptp(X[:, [0, 2]], axis=0)
    e0 = np.sqrt(scaled[:, 0] * scaled[:, 1])[y]
    e = pu.propensity[y]
    shift = np.log(e / (1 - e)) - np.log(e0 / (1 - e0))
    assert np.allclose(shift, shift[0])  # the paper's propensity up to one shift on the logit
    # by name on a DataFrame, and by default the column most correlated with the class
    frame = pd.DataFrame(X, columns=["a", "b", "c"])
    named = make_pu_labels(
        y,
        positive=True,
        labeled_fraction=0.3,
        mechanism="features",
        X=frame,
        features=["a", "c"],
        random_state=0,
    )
    assert np.allclose(named.propensity, pu.propensity)
    default = make_pu_labels(
        y, positive=True, labeled_fraction=0.3, mechanism="features", X=X, random_state=0
    )
    best = int(np.argmax([abs(np.corrcoef(X[:, j], y)[0, 1]) for j in range(3)]))
    assert spearmanr(X[y, best], default.propensity[y]).correlation == pytest.approx(1.0)


def test_labeling_frequencies_follow_the_propensity():
    # over many draws, the positives with a high propensity are labeled more often, and the
    # inclusion frequencies are close to the propensities (conditional Poisson sampling)
    X, y = _data(n=120)
    kw = dict(positive=True, labeled_fraction=0.3, mechanism="features", X=X, features=[0])
    counts = np.zeros(y.shape[0])
    for seed in range(400):
        counts += make_pu_labels(y, strength=2, random_state=seed, **kw).s
    e = make_pu_labels(y, strength=2, random_state=0, **kw).propensity
    freq = counts / 400
    assert np.abs(freq[y] - e[y]).mean() < 0.05
    high, low = e[y] > np.median(e[y]), e[y] <= np.median(e[y])
    assert freq[y][high].mean() > 2 * freq[y][low].mean()


def test_strength_zero_is_scar_probabilities():
    X, y = _data()
    pu = make_pu_labels(
        y, positive=True, n_labeled=30, mechanism="score", X=X, strength=0, random_state=0
    )
    assert np.allclose(pu.propensity[y], 30 / y.sum())


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (dict(mechanism="score"), "needs X"),
        (dict(mechanism="random"), "'mechanism' parameter of make_pu_labels must be a str among"),
        (dict(strength=2.0), "SCAR takes neither"),
        (dict(mechanism="score", X="X", strength=-1.0), "strength must be a finite number >= 0"),
        (dict(mechanism="features", X="X", features=[7]), "out of range"),
        (dict(mechanism="features", X="X", features=["zz"]), "neither a column position"),
        (dict(mechanism="score", X="X", features=[0]), "features chooses the columns"),
        (dict(mechanism="score", X="short"), "with 300 rows"),
    ],
)
def test_mechanism_errors(kwargs, message):
    X, y = _data()
    if kwargs.get("X") == "X":
        kwargs["X"] = X
    elif kwargs.get("X") == "short":
        kwargs["X"] = X[:10]
    with pytest.raises(ValueError, match=message):
        make_pu_labels(y, positive=True, labeled_fraction=0.3, **kwargs)


def test_a_flat_propensity_is_refused_not_reported_as_biased():
    rng = np.random.RandomState(0)
    y = (rng.rand(200) < 0.5).astype(int)
    constant = np.ones((200, 3))
    with pytest.raises(ValueError, match="every positive the same labeling probability"):
        make_pu_labels(y, labeled_fraction=0.3, mechanism="score", X=constant, random_state=0)
    X = rng.normal(size=(200, 2))
    X[5, 1] = np.inf
    with pytest.raises(ValueError, match=r"column\(s\) \[1\] hold inf"):
        make_pu_labels(y, labeled_fraction=0.3, mechanism="features", X=X, features=[1])
    # strength 0 asks for SCAR probabilities through the feature-driven draw: allowed
    pu = make_pu_labels(
        y, labeled_fraction=0.3, mechanism="score", X=constant, strength=0, random_state=0
    )
    assert np.ptp(pu.propensity[y == 1]) == 0
