"""Fit/predict time of PUExtraTreesClassifier vs scikit-learn's ExtraTreesClassifier.

Both run in this process on the same float32 arrays, with the same n_estimators, max_features and
n_jobs, interleaved (ours, sklearn, ours, ...) so that load from other processes hits both alike;
the median of ``--repeats`` runs is reported with the ratio ours / sklearn.  sklearn is fitted on
the same PU labels (1 = labeled, 0 = unlabeled), i.e. it is NaivePUET.

Run:  WEAKFS_DATA=/path/to/data python benchmarks/bench_pu_extra_trees.py [--repeats 3]
      [--datasets mushrooms,mnist,unsw,synthetic] [--n-jobs 1,2] [--risks nnPU,uPU]
      [--upu-repeats 1]
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

import numpy as np
from sklearn.datasets import make_classification
from sklearn.ensemble import ExtraTreesClassifier
from sklearn.preprocessing import OrdinalEncoder

from weakfs.datasets import load, make_pu_labels
from weakfs.pu import PUExtraTreesClassifier


def dataset(name: str):
    if name == "mushrooms":
        X, y = load("mushrooms")
        X, pos = X.to_numpy(np.float32), 2
    elif name == "mnist":
        X, y = load("mnist_test10k")
        X, y, pos = X.to_numpy(np.float32), y % 2 == 0, True
    elif name == "unsw":
        X, y = load("unsw_nb15_82332")
        cat = ["proto", "service", "state"]
        X = X.copy()
        X[cat] = OrdinalEncoder().fit_transform(X[cat].astype(str))
        X, pos = X.to_numpy(np.float32), 1
    elif name == "synthetic":
        X, y = make_classification(100_000, 50, n_informative=10, n_redundant=10, random_state=0)
        X, pos = X.astype(np.float32), 1
    else:
        raise ValueError(name)
    pu = make_pu_labels(np.asarray(y), positive=pos, n_labeled=1000, random_state=0)
    return X, pu.s, pu.prior


def timed(fn):
    t = time.perf_counter()
    out = fn()
    return time.perf_counter() - t, out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--datasets", default="mushrooms,mnist,unsw,synthetic")
    ap.add_argument("--n-jobs", default="1,2")
    ap.add_argument("--risks", default="nnPU,uPU")
    ap.add_argument("--n-estimators", type=int, default=100)
    ap.add_argument(
        "--upu-repeats", type=int, default=None, help="repeats for uPU (default: --repeats)"
    )
    args = ap.parse_args()
    # compile the kernels outside the timings
    Xw = np.random.RandomState(0).rand(50, 4).astype(np.float32)
    PUExtraTreesClassifier(2, prior=0.5).fit(Xw, np.r_[np.ones(10), np.zeros(40)]).predict(Xw)
    print(
        "| dataset | n x d | max_features | n_jobs | risk | fit ours (s) | fit sklearn (s) "
        "| fit ratio | predict ours (s) | predict sklearn (s) | predict ratio | leaves ours "
        "| leaves sklearn |"
    )
    print("|" + "---|" * 13)
    for name in args.datasets.split(","):
        X, s, prior = dataset(name)
        m = math.ceil(math.sqrt(X.shape[1]))
        for n_jobs in [int(j) for j in args.n_jobs.split(",")]:
            for risk in args.risks.split(","):
                fo, fs, po, ps = [], [], [], []
                reps = args.repeats
                if risk == "uPU" and args.upu_repeats is not None:
                    reps = args.upu_repeats
                for _ in range(reps):
                    ours = PUExtraTreesClassifier(
                        args.n_estimators,
                        risk=risk,
                        max_features=m,
                        prior=prior,
                        n_jobs=n_jobs,
                        random_state=0,
                    )
                    sk = ExtraTreesClassifier(
                        args.n_estimators, max_features=m, n_jobs=n_jobs, random_state=0
                    )
                    t, _ = timed(lambda ours=ours, X=X, s=s: ours.fit(X, s))
                    fo.append(t)
                    t, _ = timed(lambda sk=sk, X=X, s=s: sk.fit(X, s))
                    fs.append(t)
                    t, _ = timed(lambda ours=ours, X=X: ours.predict_proba(X))
                    po.append(t)
                    t, _ = timed(lambda sk=sk, X=X: sk.predict_proba(X))
                    ps.append(t)
                mo, ms = statistics.median(fo), statistics.median(fs)
                qo, qs = statistics.median(po), statistics.median(ps)
                lo = ours.get_n_leaves().mean()
                ls = np.mean([e.get_n_leaves() for e in sk.estimators_])
                print(
                    f"| {name} | {X.shape[0]} x {X.shape[1]} | {m} | {n_jobs} | {risk} | "
                    f"{mo:.2f} | {ms:.2f} | {mo / ms:.2f} | {qo:.2f} | {qs:.2f} | {qo / qs:.2f} "
                    f"| {lo:.0f} | {ls:.0f} |",
                    flush=True,
                )


if __name__ == "__main__":
    main()
