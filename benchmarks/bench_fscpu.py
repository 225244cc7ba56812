"""FSCPU speed: one objective evaluation vs scikit-learn, and the full Spambase protocol run.

    python benchmarks/bench_fscpu.py eval [--n-masks 20]
    python benchmarks/bench_fscpu.py protocol --clustering gmm|gmm-diag|kmeans [--n-iter 3000]
    python benchmarks/bench_fscpu.py cost --dataset rt_iot2022 [--n-masks 3]
    python benchmarks/bench_fscpu.py cpu --n-masks 10 [--repeats 6]
    python benchmarks/bench_fscpu.py mixture [--n-masks 25] [--shape table1|rt_iot2022|both]
    python benchmarks/bench_fscpu.py table1-run [--n-iter 300] [--n-jobs 1]

``eval``: the masks are the first candidates of a real FSCPU search on Spambase (75/25 split,
min-max scaling fitted on the training split, 3 % of the spam rows labeled; 3450 x 29 per mask).
Each mask is evaluated by our objective with (a) k-means seeds (the default), (b) the optional warm
start from the previous mask's clustering (in search order), (c) a diagonal-covariance mixture and
(d) k-means (the two faster options), (e) the default model with the dense EM kernel
(``algorithm="dense"``, the kernel before the sparse one), and (f) by scikit-learn
``GaussianMixture(n_components=10, random_state=i).fit(Z).predict(Z)`` followed by the same cluster
score.  All run in this process with one thread in every thread pool (BLAS and OpenMP, via
``threadpoolctl``; scikit-learn's k-means initialisation uses OpenMP), so the ratio compares the
algorithms, not thread counts.  Quality: the mean log-likelihood per row of each fitted mixture.

``eval`` then measures the same masks with the whole machine, as a search uses it: ours with the
two candidates of each iteration fitted at once in two threads (the compact GA's ``n_jobs=2``,
masks taken in pairs), scikit-learn with its own default threading (BLAS and OpenMP), one mask
after the other (it has no way to batch two fits).

``protocol``: Table 3's Spambase protocol (T = 3000, K = 10, 29 of 57 features, n_jobs=2), then
LightGBM (100 trees) on the PU labels of the training split, AUC on the test split.

``cost``: the price of one Table-3 run on another dataset (RT-IoT2022 by default), without running
it: the default objective (full-covariance GMM, K = 10) on random masks of half the features of
split 0, one thread, and the projection to T = 3000 (two candidates per iteration).

``cpu``: CPU time (``time.process_time``, one thread) per evaluation of the default objective on
the first distinct Spambase masks, best of several repeats with a fresh objective each time, and a
SHA-1 of the fits (log-likelihoods, objective values, EM passes). Meant for comparing numba
settings in separate processes, e.g. ``NUMBA_SLP_VECTORIZE=1`` against the default.

``mixture``: the dense EM (the default ``precision="mixed"``) against scikit-learn on dense
data, one evaluation per mask as FSCPU runs it (k-means start, EM, final labels): Table-1 shape
(``make_fscpu_synthetic("ca-40-8-1")``, min-max scaled, 4,500 x 25 of the 50 columns) and
RT-IoT2022 shape (the Table-3 training split, min-max scaled, 21,343 x 40 of its numeric
columns); random masks (a search's first candidates are random: theta = 1/2).  Per mask, each
timed alone with one thread in every pool: ours ``fit_gaussian_mixture(Z, 10, random_state=i)``
and ``scikit-learn GaussianMixture(10, covariance_type="full", tol=1e-3, reg_covar=1e-6,
max_iter=100, random_state=i).fit(Z).predict(Z)``; the ratio of the median times.  Precision:
our float64 fit from the same k-means start (``precision="float64"``), the mean log-likelihood
per row and the hard labels of both.

``table1-run``: one FSCPU run on Table-1 data (ca-40-8-1, seed 0, 25 of 50 features, K = 10,
the default mixture) with ``--n-iter`` compact-GA iterations (the paper's T = 3000 if given),
timed, and the time of a T = 3000 run extrapolated per iteration (cache hits grow over a run,
so the extrapolation is an upper bound).

``pass-cost``: where the time of one Table-1 evaluation goes (the same masks and shape as
``mixture``, one thread): k-means start, the numba EM passes, and the per-iteration M-step and
precision factors in Python; then the M-step's product on one block of rows as the EM kernel
forms it (``W^T [X_b, 1]``, one float32 ``gemm`` for all ``K`` components) against the symmetric
alternative (``K`` float32 ``syrk`` calls, ``W_k^T W_k``, half the multiplications), both through
scipy's BLAS, median of 200 calls each.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import time

import numpy as np
from sklearn.mixture import GaussianMixture
from sklearn.preprocessing import MinMaxScaler
from threadpoolctl import threadpool_limits

from weakfs.datasets import make_fscpu_synthetic
from weakfs.experiments.fscpu import lgbm_auc, spambase_split, table3_split
from weakfs.pu import FSCPUSelector
from weakfs.pu._fscpu._cluster_objective import cluster_objective
from weakfs.pu._fscpu._gmm import fit_gaussian_mixture
from weakfs.pu._fscpu._selector import ClusterAssumptionObjective
from weakfs.search._base import CachedObjective


def _search_masks(Xtr, s, n_masks: int, seed: int) -> list[np.ndarray]:
    """The first ``n_masks`` distinct candidates of an FSCPU search, in search order."""
    sel = FSCPUSelector(29, n_iter=n_masks, random_state=seed).fit(Xtr, s)
    seen, order = set(), []
    for m in sel.candidates_.reshape(-1, Xtr.shape[1]):
        key = m.tobytes()
        if key not in seen:
            seen.add(key)
            order.append(m)
    return order[:n_masks]


def bench_eval(n_masks: int, seed: int) -> None:
    Xtr, s, _, _ = spambase_split(seed)
    masks = _search_masks(Xtr, s, n_masks, seed)
    with threadpool_limits(limits=1):  # every pool: BLAS and OpenMP
        warm = ClusterAssumptionObjective(Xtr, s, 10, warm_start=True, seed=seed)
        cold = ClusterAssumptionObjective(Xtr, s, 10, warm_start=False, seed=seed)
        diag = ClusterAssumptionObjective(Xtr, s, 10, clustering="gmm-diag", seed=seed)
        km = ClusterAssumptionObjective(Xtr, s, 10, clustering="kmeans", seed=seed)
        t_diag = t_km = t_dense = 0.0
        ll_dense = []
        t_warm = t_cold = t_sk = 0.0
        ll_sk, v_sk, v_warm, v_cold = [], [], [], []
        for i, m in enumerate(masks):
            t = time.perf_counter()
            v_warm.append(warm(m))
            t_warm += time.perf_counter() - t
            warm.notify(i, m, m, 1.0)  # the next fit starts from this one, as in a search
            t = time.perf_counter()
            v_cold.append(cold(m))
            t_cold += time.perf_counter() - t
            t = time.perf_counter()
            diag(m)
            t_diag += time.perf_counter() - t
            t = time.perf_counter()
            km(m)
            t_km += time.perf_counter() - t
            Z = Xtr[:, m]
            t = time.perf_counter()
            seed_m = cold._mask_seed(CachedObjective.key(m))  # the default's k-means seed
            fd = fit_gaussian_mixture(
                Z, 10, random_state=seed_m, limit_blas_threads=False, algorithm="dense"
            )
            cluster_objective(fd.labels, s, 10)
            t_dense += time.perf_counter() - t
            ll_dense.append(fd.log_likelihood)
            t = time.perf_counter()
            g = GaussianMixture(n_components=10, random_state=i).fit(Z)
            labels = g.predict(Z)
            v_sk.append(cluster_objective(labels, s, 10))
            t_sk += time.perf_counter() - t
            ll_sk.append(g.score(Z))
    ll_warm, ll_cold, ll_sk = (
        np.array(v) for v in (warm.log_likelihoods, cold.log_likelihoods, ll_sk)
    )
    k = len(masks)
    print(f"masks: {k} distinct candidates of an FSCPU search on Spambase ({Xtr.shape[0]} x 29)")
    print(f"sklearn GaussianMixture(10) fit+predict: {t_sk / k * 1000:8.1f} ms/eval")
    print(
        f"ours, warm start (option):              {t_warm / k * 1000:8.1f} ms/eval   "
        f"ratio {t_sk / t_warm:5.1f}x   EM iterations {np.mean(warm.n_em_iter):.1f}"
    )
    print(
        f"ours, k-means seeds (default):         {t_cold / k * 1000:8.1f} ms/eval   "
        f"ratio {t_sk / t_cold:5.1f}x   EM iterations {np.mean(cold.n_em_iter):.1f}"
    )
    print(
        f"ours, dense EM kernel (previous default): {t_dense / k * 1000:8.1f} ms/eval   "
        f"ratio {t_sk / t_dense:5.1f}x   (same model and seeds; mean log-likelihood "
        f"{np.mean(ll_dense):.3f})"
    )
    print(
        f"ours, diagonal covariance (option):     {t_diag / k * 1000:8.1f} ms/eval   "
        f"ratio {t_sk / t_diag:5.1f}x   (a different, coarser model)"
    )
    print(
        f"ours, k-means (fastest option):         {t_km / k * 1000:8.1f} ms/eval   "
        f"ratio {t_sk / t_km:5.1f}x   (a different clustering)"
    )
    print(
        f"mean log-likelihood per row: sklearn {ll_sk.mean():.3f}, ours warm {ll_warm.mean():.3f}"
        f" (>= sklearn on {np.mean(ll_warm >= ll_sk - 1e-9):.0%} of masks), ours cold "
        f"{ll_cold.mean():.3f} (>= sklearn on {np.mean(ll_cold >= ll_sk - 1e-9):.0%})"
    )
    print(
        f"objective f(m): sklearn {np.mean(v_sk):.4f}, ours warm {np.mean(v_warm):.4f}, "
        f"ours cold {np.mean(v_cold):.4f}"
    )
    bench_eval_whole_machine(Xtr, s, masks, seed)


def bench_eval_whole_machine(Xtr, s, masks, seed: int) -> None:
    """Ours: two candidates at once in two threads, as the search does; sklearn: its threads."""
    from concurrent.futures import ThreadPoolExecutor

    k = len(masks) - len(masks) % 2
    with threadpool_limits(limits=1, user_api="blas"):  # as FSCPUSelector.fit sets it
        cold = ClusterAssumptionObjective(Xtr, s, 10, warm_start=False, seed=seed)
        with ThreadPoolExecutor(2) as pool:
            t = time.perf_counter()
            for i in range(0, k, 2):
                list(pool.map(cold, masks[i : i + 2]))
            t_pair = time.perf_counter() - t
    t = time.perf_counter()
    for i, m in enumerate(masks[:k]):  # the same fits as above (same seeds), timed again
        Z = Xtr[:, m]
        cluster_objective(GaussianMixture(n_components=10, random_state=i).fit(Z).predict(Z), s, 10)
    t_sk = time.perf_counter() - t
    print(
        f"whole machine ({k} masks): sklearn default threads {t_sk / k * 1000:.1f} ms/eval, "
        f"ours two candidates in 2 threads {t_pair / k * 1000:.1f} ms/eval, ratio "
        f"{t_sk / t_pair:.1f}x (mean log-likelihood of our fits "
        f"{np.mean(cold.log_likelihoods):.3f}, the same fits as the one-thread rows)"
    )


def bench_protocol(clustering: str, n_iter: int, seed: int, n_jobs: int) -> None:
    Xtr, s, Xte, yte = spambase_split(seed)
    t = time.perf_counter()
    sel = FSCPUSelector(
        29, n_iter=n_iter, clustering=clustering, n_jobs=n_jobs, random_state=seed, verbose=True
    ).fit(Xtr, s)
    elapsed = time.perf_counter() - t
    auc = lgbm_auc(Xtr[:, sel.support_], s, Xte[:, sel.support_], yte, seed)
    conv = np.mean((sel.theta_ <= 0.1) | (sel.theta_ >= 0.9))
    print(
        f"Spambase FSCPU clustering={clustering} T={n_iter} n_jobs={n_jobs}: {elapsed:.1f} s, "
        f"{sel.n_evaluations_} clusterings (cache misses of {2 * n_iter}), AUC {auc:.3f}, "
        f"theta converged {conv:.1%}"
    )


def bench_cpu(n_masks: int, repeats: int, seed: int) -> None:
    Xtr, s, _, _ = spambase_split(seed)
    masks = _search_masks(Xtr, s, n_masks, seed)
    per_eval = []
    with threadpool_limits(limits=1):
        for _ in range(repeats):
            obj = ClusterAssumptionObjective(Xtr, s, 10, seed=seed)  # empty mask cache
            t = time.process_time()
            values = [obj(m) for m in masks]
            per_eval.append((time.process_time() - t) / len(masks) * 1000)
    fits = np.array(obj.log_likelihoods + values + obj.n_em_iter, dtype=float)
    print(
        f"NUMBA_SLP_VECTORIZE={os.environ.get('NUMBA_SLP_VECTORIZE', '0')}: "
        f"{len(masks)} masks, CPU ms/eval best {min(per_eval):.1f} median "
        f"{np.median(per_eval):.1f} of {repeats}; fits sha1 "
        f"{hashlib.sha1(fits.tobytes()).hexdigest()[:12]}"
    )


def bench_cost(dataset: str, n_masks: int, n_iter: int, seed: int) -> None:
    Xtr, s, _, _ = table3_split(dataset, seed)
    d = Xtr.shape[1]
    k = (d + 1) // 2
    rng = np.random.default_rng(seed)
    times = []
    with threadpool_limits(limits=1):
        obj = ClusterAssumptionObjective(Xtr, s, 10, seed=seed)
        for _ in range(n_masks):
            mask = np.zeros(d, dtype=bool)
            mask[rng.choice(d, k, replace=False)] = True
            t = time.perf_counter()
            obj(mask)
            times.append(time.perf_counter() - t)
    per_eval = float(np.median(times))
    print(
        f"{dataset} split {seed}: {Xtr.shape[0]} x {k} of {d} per mask, {int(s.sum())} labeled; "
        f"one evaluation {min(times):.2f}-{max(times):.2f} s (median {per_eval:.2f} s, "
        f"EM passes {obj.n_em_iter}); T={n_iter} (~{2 * n_iter} evaluations) ~ "
        f"{per_eval * 2 * n_iter / 3600:.1f} core-hours per run"
    )


def _mixture_masks(shape: str, n_masks: int, seed: int) -> tuple[np.ndarray, list[np.ndarray]]:
    if shape == "table1":
        data = make_fscpu_synthetic("ca-40-8-1", random_state=seed)
        X, k = MinMaxScaler().fit_transform(data.X), 25
    else:
        X, k = table3_split("rt_iot2022", seed)[0], 40
    rng = np.random.default_rng(seed)
    masks = []
    for _ in range(n_masks):
        mask = np.zeros(X.shape[1], dtype=bool)
        mask[rng.choice(X.shape[1], k, replace=False)] = True
        masks.append(mask)
    return X, masks


def bench_mixture(shape: str, n_masks: int, seed: int) -> None:
    X, masks = _mixture_masks(shape, n_masks, seed)
    t_ours, t_sk, t_f64, iters, iters_sk, d_ll, agree, ll_vs_sk, same = ([] for _ in range(9))
    with threadpool_limits(limits=1):  # every pool: BLAS and OpenMP
        Z = np.ascontiguousarray(X[:200, masks[0]])
        for precision in ("mixed", "float64"):  # compile (or load) the numba kernels
            fit_gaussian_mixture(Z, 10, random_state=0, precision=precision)
        for i, mask in enumerate(masks):
            Z = np.ascontiguousarray(X[:, mask])
            t = time.perf_counter()
            ours = fit_gaussian_mixture(Z, 10, random_state=i, limit_blas_threads=False)
            t_ours.append(time.perf_counter() - t)
            t = time.perf_counter()
            ref = fit_gaussian_mixture(
                Z, 10, random_state=i, limit_blas_threads=False, precision="float64"
            )
            t_f64.append(time.perf_counter() - t)
            t = time.perf_counter()
            gm = GaussianMixture(
                10, covariance_type="full", tol=1e-3, reg_covar=1e-6, max_iter=100, random_state=i
            ).fit(Z)
            gm.predict(Z)
            t_sk.append(time.perf_counter() - t)
            iters.append(ours.n_iter)
            iters_sk.append(gm.n_iter_)
            d_ll.append(ours.log_likelihood - ref.log_likelihood)
            agree.append(np.mean(ours.labels == ref.labels))
            same.append(ours.n_iter == ref.n_iter)
            ll_vs_sk.append(ours.log_likelihood - gm.score(Z))
    t_ours, t_sk, t_f64, d_ll = map(np.asarray, (t_ours, t_sk, t_f64, d_ll))
    print(
        f"{shape}: {len(masks)} masks of {X.shape[0]} x {int(masks[0].sum())}, one thread; "
        f"median one evaluation: ours {np.median(t_ours) * 1000:.1f} ms "
        f"({np.mean(iters):.1f} EM iterations), scikit-learn {np.median(t_sk) * 1000:.1f} ms "
        f"({np.mean(iters_sk):.1f}); ratio {np.median(t_sk) / np.median(t_ours):.2f}x "
        f"(per-mask ratios: median {np.median(t_sk / t_ours):.2f}x, "
        f"min {np.min(t_sk / t_ours):.2f}x); ours float64 {np.median(t_f64) * 1000:.1f} ms"
    )
    print(
        f"  mixed vs float64 from the same start: mean log-likelihood per row differs by at most "
        f"{np.max(np.abs(d_ll)):.1e} (mean {np.mean(d_ll):+.1e}); same hard labels on "
        f"{np.min(agree):.2%} of the rows at least (mean {np.mean(agree):.4%}), the same EM "
        f"iterations on {sum(same)} of {len(same)} masks; ours minus "
        f"scikit-learn's (own start) mean log-likelihood: mean {np.mean(ll_vs_sk):+.3f}, "
        f">= on {np.mean(np.asarray(ll_vs_sk) >= -1e-9):.0%} of masks"
    )


def bench_table1_run(n_iter: int, n_jobs: int, seed: int) -> None:
    data = make_fscpu_synthetic("ca-40-8-1", random_state=seed)
    X = MinMaxScaler().fit_transform(data.X)
    fit_gaussian_mixture(X[:200, :25], 10, random_state=0)  # compile (or load) the kernels
    t = time.perf_counter()
    sel = FSCPUSelector(25, n_iter=n_iter, n_jobs=n_jobs, random_state=seed).fit(X, data.s)
    elapsed = time.perf_counter() - t
    recall = np.isin(np.flatnonzero(sel.support_), data.relevant).mean()
    print(
        f"Table-1 ca-40-8-1 seed {seed} ({X.shape[0]} x {X.shape[1]}, 25 selected, K = 10): "
        f"T={n_iter} n_jobs={n_jobs} took {elapsed:.1f} s ({elapsed / n_iter * 1000:.0f} ms per "
        f"iteration, {sel.n_evaluations_} mixture fits, {np.mean(sel.log_likelihoods_):.3f} "
        f"mean log-likelihood); FSR {recall:.2f}"
        + (
            ""
            if n_iter >= 3000
            else f"; T=3000 extrapolated: {elapsed / n_iter * 3000 / 60:.1f} min (upper bound)"
        )
    )


def bench_pass_cost(n_masks: int, seed: int) -> None:
    from scipy.linalg import blas

    from weakfs.pu._fscpu import _gmm

    X, masks = _mixture_masks("table1", n_masks, seed)
    spent: dict[str, float] = {}

    def timed(owner, name: str, label: str) -> None:
        original = getattr(owner, name)

        def wrapper(*args, **kwargs):
            t = time.perf_counter()
            out = original(*args, **kwargs)
            spent[label] = spent.get(label, 0.0) + time.perf_counter() - t
            return out

        setattr(owner, name, wrapper)

    timed(_gmm, "_kmeans", "k-means start")
    timed(_gmm._DenseEM, "run_pass", "EM passes (numba)")
    timed(_gmm._DenseEM, "m_step", "M-step (Python)")
    timed(_gmm._DenseEM, "set_parameters", "precision factors")
    passes = 0
    with threadpool_limits(limits=1):
        fit_gaussian_mixture(np.ascontiguousarray(X[:200, masks[0]]), 10, random_state=0)
        spent.clear()
        t = time.perf_counter()
        for i, mask in enumerate(masks):
            passes += fit_gaussian_mixture(
                np.ascontiguousarray(X[:, mask]), 10, random_state=i
            ).n_iter
        total = time.perf_counter() - t
        per_fit = {k: v / len(masks) * 1000 for k, v in spent.items()}
        print(
            f"table1: {len(masks)} masks, one thread: {total / len(masks) * 1000:.1f} ms per "
            f"evaluation, {passes / len(masks):.1f} EM iterations; "
            + ", ".join(f"{k} {v:.1f} ms" for k, v in per_fit.items())
        )
        n_rows, d, K = 524, int(masks[0].sum()), 10  # the kernel's block: 2^17 values / (K d)
        rng = np.random.default_rng(seed)
        W = np.asfortranarray(rng.random((n_rows, K * d), dtype=np.float32))
        X1 = np.asfortranarray(np.c_[X[:n_rows, masks[0]], np.ones(n_rows)].astype(np.float32))
        parts = [np.asfortranarray(W[:, k * d : (k + 1) * d]) for k in range(K)]

        def median_ms(f) -> float:
            f()
            times = []
            for _ in range(200):
                t = time.perf_counter()
                f()
                times.append(time.perf_counter() - t)
            return float(np.median(times) * 1000)

        gemm = median_ms(lambda: blas.sgemm(1.0, W, X1, trans_a=1))
        syrk = median_ms(lambda: [blas.ssyrk(1.0, w, trans=1) for w in parts])
        print(
            f"  M-step product of one {n_rows}-row block: one sgemm for all {K} components "
            f"{gemm:.3f} ms, {K} ssyrk calls {syrk:.3f} ms (ratio {gemm / syrk:.2f})"
        )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument(
        "what",
        choices=["eval", "protocol", "cost", "cpu", "mixture", "table1-run", "pass-cost"],
    )
    ap.add_argument("--shape", choices=["table1", "rt_iot2022", "both"], default="both")
    ap.add_argument("--repeats", type=int, default=6)
    ap.add_argument("--dataset", default="rt_iot2022")
    ap.add_argument("--n-masks", type=int, default=20)
    ap.add_argument("--clustering", default="gmm")
    ap.add_argument("--n-iter", type=int, default=3000)
    ap.add_argument("--n-jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    if a.what == "eval":
        bench_eval(a.n_masks, a.seed)
    elif a.what == "cpu":
        bench_cpu(a.n_masks, a.repeats, a.seed)
    elif a.what == "mixture":
        for shape in ("table1", "rt_iot2022") if a.shape == "both" else (a.shape,):
            bench_mixture(shape, a.n_masks, a.seed)
    elif a.what == "pass-cost":
        bench_pass_cost(a.n_masks, a.seed)
    elif a.what == "table1-run":
        bench_table1_run(a.n_iter, a.n_jobs, a.seed)
    elif a.what == "cost":
        bench_cost(a.dataset, a.n_masks, a.n_iter, a.seed)
    else:
        bench_protocol(a.clustering, a.n_iter, a.seed, a.n_jobs)


if __name__ == "__main__":
    main()
