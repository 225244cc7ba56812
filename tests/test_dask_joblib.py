"""The forests and the wrappers parallelise through joblib, so a configured joblib backend (Dask,
processes) runs their trees and candidates elsewhere with the ``n_jobs=1`` result."""

import joblib
import numpy as np
import pytest

from weakfs.pu import PUExtraTreesClassifier
from weakfs.semi_supervised import SEWILSelector, make_forest


def _data(n=160, d=6, seed=0):
    rng = np.random.RandomState(seed)
    X = rng.normal(size=(n, d))
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    pu = y * (rng.uniform(size=n) < 0.5)
    semi = np.where(rng.uniform(size=n) < 0.3, y, -1)
    return X, pu, semi


@pytest.fixture(scope="module")
def dask_client():
    distributed = pytest.importorskip(
        "dask.distributed", reason="dask.distributed is not installed (pip install distributed)"
    )
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
    )
    with cluster, distributed.Client(cluster) as client:
        yield client


def _on_cluster(client, fit):
    """``fit()`` under the Dask joblib backend; also the number of tasks the cluster ran."""
    from dask.distributed import get_task_stream

    with joblib.parallel_config(backend="dask"), get_task_stream(client) as stream:
        fitted = fit()
    return fitted, len(stream.data)


def test_pu_extra_trees_on_dask_equal_n_jobs_1(dask_client):
    X, s, _ = _data()
    params = dict(n_estimators=12, prior=0.5, random_state=0)
    ref = PUExtraTreesClassifier(n_jobs=1, **params).fit(X, s)
    got, n_tasks = _on_cluster(
        dask_client, lambda: PUExtraTreesClassifier(n_jobs=-1, **params).fit(X, s)
    )
    assert n_tasks > 0  # the trees were grown on the cluster
    assert np.array_equal(got.feature_importances_, ref.feature_importances_)
    assert np.array_equal(got.predict_proba(X), ref.predict_proba(X))


def test_sewil_on_dask_equal_n_jobs_1(dask_client):
    X, _, y = _data()
    params = dict(n_estimators=8, n_generations=2, population_size=4, n_parents=2, random_state=0)
    ref = SEWILSelector(n_jobs=1, **params).fit(X, y)
    got, n_tasks = _on_cluster(dask_client, lambda: SEWILSelector(n_jobs=-1, **params).fit(X, y))
    assert n_tasks > 0  # candidates (and self-learning forests) ran on the cluster
    assert np.array_equal(got.support_, ref.support_)
    assert got.criterion_value_ == ref.criterion_value_
    assert np.array_equal(got.pseudo_labels_, ref.pseudo_labels_)
    assert np.array_equal(got.vote_share_, ref.vote_share_)


def test_prediction_chunks_stay_in_shared_memory_under_a_process_backend():
    # prediction adds every chunk's votes into one array in place: under a process (or Dask)
    # backend the chunks must still run as threads here, or the votes are lost
    X, s, y = _data(n=600)
    puet = PUExtraTreesClassifier(n_estimators=6, prior=0.5, random_state=0, n_jobs=2).fit(X, s)
    forest = make_forest("weakfs", 6, 0, 2).fit(X, y.clip(0))
    expected = puet.predict_proba(X), forest.predict_proba(X)
    with joblib.parallel_config(backend="loky", n_jobs=2):
        got = puet.predict_proba(X), forest.predict_proba(X)
    assert np.array_equal(got[0], expected[0])
    assert np.array_equal(got[1], expected[1])
