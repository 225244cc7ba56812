"""Diagnostic plots: every selector's scores with feature names; FSCPU's named theta lines;
importance images of any shape."""

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pandas as pd
import pytest
from matplotlib.colors import to_rgba

from weakfs.plotting import (
    feature_scores,
    plot_feature_scores,
    plot_pu_extra_trees_importance_images,
    plot_theta_history,
)
from weakfs.pu import (
    FSCPUSelector,
    GKFPUALSelector,
    MRMRSelector,
    PUExtraTreesClassifier,
    SemiJMISelector,
)
from weakfs.semi_supervised import SemiFisherSelector, SEWILSelector
from weakfs.unsupervised import UFVSSelector


@pytest.fixture(scope="module")
def frame():
    rng = np.random.RandomState(0)
    X = pd.DataFrame(rng.rand(160, 6), columns=[f"col {c}" for c in "abcdef"])
    y = (X["col c"] + 0.2 * rng.rand(160) > 0.6).astype(int).to_numpy()
    s = y.copy()
    s[rng.rand(160) < 0.5] = 0
    y_semi = y.copy()
    y_semi[40:] = -1
    return X, y, s, y_semi


def _fitted(name, X, s, y_semi):
    if name == "semi-jmi":
        return SemiJMISelector(n_features_to_select=2).fit(X, s)
    if name == "mrmr":
        return MRMRSelector(n_features_to_select=2).fit(X, s)
    if name == "fscpu":
        return FSCPUSelector(2, n_iter=30, clustering="kmeans", random_state=0).fit(X, s)
    if name == "pu-et":
        return PUExtraTreesClassifier(n_estimators=10, prior=0.6, random_state=0).fit(X, s)
    if name == "gkf":
        return GKFPUALSelector().fit(X, s)
    if name == "sewil":
        return SEWILSelector(
            n_estimators=8, n_generations=2, population_size=8, n_parents=4, random_state=0
        ).fit(X, y_semi)
    if name == "semi-fisher":
        return SemiFisherSelector(n_features_to_select=2).fit(X, y_semi)
    return UFVSSelector().fit(X)


@pytest.mark.parametrize(
    "name", ["semi-jmi", "mrmr", "fscpu", "pu-et", "gkf", "sewil", "semi-fisher", "ufvs"]
)
def test_every_selector_gets_a_named_score_plot(frame, name):
    X, _, s, y_semi = frame
    est = _fitted(name, X, s, y_semi)
    fs = feature_scores(est)
    fig = plot_feature_scores(est, top=4)
    ax = fig.axes[0]
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert 1 <= len(labels) <= 4
    assert all(label.startswith("col ") for label in labels)  # the DataFrame's names
    bars = ax.patches
    # blue bars are exactly the selected features among those shown
    by_name = dict(zip(fs.names, fs.selected))
    for bar, label in zip(bars, labels):
        assert (bar.get_facecolor() == to_rgba("tab:blue")) == bool(by_name[label])
    if name != "ufvs":  # bars ordered by score, best at the top
        widths = [b.get_width() for b in bars]
        assert widths == sorted(widths)
    matplotlib.pyplot.close(fig)


def test_plot_errors(frame):
    X, _, s, _ = frame
    with pytest.raises(TypeError, match="no per-feature scores"):
        plot_feature_scores(SemiJMISelector())
    est = SemiJMISelector(n_features_to_select=2).fit(X, s)
    with pytest.raises(ValueError, match="top must be a positive integer"):
        plot_feature_scores(est, top=0)


def test_theta_lines_of_selected_features_are_named(frame, tmp_path):
    X, _, s, _ = frame
    sel = FSCPUSelector(2, n_iter=40, clustering="kmeans", random_state=0).fit(X, s)
    fig = plot_theta_history(sel)
    texts = sorted(t.get_text() for t in fig.axes[0].texts)
    assert texts == sorted(X.columns[sel.support_])
    plot_theta_history(sel, path=tmp_path / "theta.png")
    assert (tmp_path / "theta.png").stat().st_size > 0


def test_importance_images_of_any_shape(tmp_path):
    rng = np.random.RandomState(0)
    fig = plot_pu_extra_trees_importance_images([rng.rand(6 * 4)] * 2, image_shape=(6, 4))
    assert fig.axes[0].images[0].get_array().shape == (6, 4)
    fig = plot_pu_extra_trees_importance_images(rng.rand(49))  # square inferred
    assert fig.axes[0].images[0].get_array().shape == (7, 7)
    with pytest.raises(ValueError, match="not a square image"):
        plot_pu_extra_trees_importance_images(rng.rand(10))
    with pytest.raises(ValueError, match="holds 12 pixels"):
        plot_pu_extra_trees_importance_images(rng.rand(10), image_shape=(3, 4))
    X = rng.rand(100, 12)
    s = (X[:, 0] > 0.5).astype(int)
    s[::3] = 0
    clf = PUExtraTreesClassifier(n_estimators=5, prior=0.5, random_state=0).fit(X, s)
    path = tmp_path / "img.png"
    plot_pu_extra_trees_importance_images([clf], image_shape=(3, 4), path=path)
    assert path.stat().st_size > 0
