"""How GKF-PUAL's ADMM solves its graph system, eq. 25 ``(2R + μ4 I) b = rhs``: a Cholesky
factor (dense graph), a sparse LU (small k-NN graphs) or conjugate gradients (larger ones)."""

from __future__ import annotations

import numbers

import numpy as np
import scipy.linalg
from scipy import sparse
from scipy.sparse.linalg import splu

__all__ = [
    "CG_MAX_ITER",
    "CG_RTOL",
    "GRAPH_SOLVERS",
    "GRAPH_SOLVER_AUTO_ROWS",
    "_ConjugateGradient",
    "_DenseFactor",
    "_SparseFactor",
    "resolve_graph_solver",
]

#: ``graph_solver`` values and the row count above which ``"auto"`` takes conjugate gradients:
#: the sparse LU is faster only on small graphs (one thread, bench_gkf_pual_graph_solver.py:
#: LU 2.7x faster at 250 x 8, 1.3x at 500 x 8, but conjugate gradients 1.4x faster at 500 x 20,
#: 1.1-1.6x at 750 rows, 2-3x at 1,000 and 3-5x at 2,000)
GRAPH_SOLVERS = ("auto", "direct", "cg")
GRAPH_SOLVER_AUTO_ROWS = 500
#: relative residual at which the conjugate-gradient solve of eq. 25 stops, and its iteration cap;
#: 1e-8 or 1e-10 (10-25 % faster) keep a single fit's iterations, support and predictions, but
#: move a λ1 path's bisected λ1 (a GKFPUALSelector with ``n_features_to_select``), so a
#: committed result would change; 1e-12 keeps the factored solve's results
CG_RTOL = 1e-12
CG_MAX_ITER = 5000


def resolve_graph_solver(graph_solver: str | int, n_samples: int, dense_graph: bool) -> str:
    """``"direct"`` or ``"cg"``: how eq. 25, ``(2R + μ4 I) b = rhs``, is solved.

    ``"auto"`` factorises the dense graph of all pairs (``n_neighbors=None``: the matrix is dense
    anyway) and k-NN graphs of at most :data:`GRAPH_SOLVER_AUTO_ROWS` rows; above that it takes
    conjugate gradients, since the sparse LU of a k-NN Laplacian fills in towards a dense
    ``n × n`` factor and its factorisations dominate the fit from a few hundred rows (one
    thread: conjugate gradients 3x faster at 2,000 × 8, 18x at 5,000 × 8).  An integer is
    ``"auto"`` with that many rows instead (2000 is the rule before the switch moved to 500).
    """
    if isinstance(graph_solver, numbers.Integral) and not isinstance(graph_solver, bool):
        rows = int(graph_solver)
    elif graph_solver in GRAPH_SOLVERS:
        if graph_solver != "auto":
            return graph_solver
        rows = GRAPH_SOLVER_AUTO_ROWS
    else:
        raise ValueError(
            f"graph_solver must be one of {GRAPH_SOLVERS} or a number of rows; got {graph_solver!r}"
        )
    return "direct" if dense_graph or n_samples <= rows else "cg"


class _DenseFactor:
    """``solve`` of the dense symmetric positive definite system of eq. 25 (dense graph)."""

    def __init__(self, K: np.ndarray):
        self.chol = scipy.linalg.cho_factor(K, lower=False, check_finite=False)

    def solve(self, rhs: np.ndarray, x0: np.ndarray | None = None) -> np.ndarray:
        return scipy.linalg.cho_solve(self.chol, rhs, check_finite=False)


class _SparseFactor:
    """``solve`` of eq. 25 with the sparse LU factors of ``2R + μ4 I`` (k-NN graph)."""

    def __init__(self, K: sparse.spmatrix):
        self.lu = splu(K.tocsc())

    def solve(self, rhs: np.ndarray, x0: np.ndarray | None = None) -> np.ndarray:
        return self.lu.solve(rhs)


class _ConjugateGradient:
    """``solve`` of eq. 25 by Jacobi-preconditioned conjugate gradients, warm-started.

    ``K = 2R + μ4 I`` is symmetric positive definite and is only multiplied by (O(nnz) per step
    for a sparse ``R``), so the memory stays that of ``R``: O(n k) for a k-NN graph, where the
    LU factors of a direct solve fill in towards ``n²``.  ``K``'s diagonal ``2·deg + μ4`` is the
    preconditioner; the previous ADMM iterate ``b`` is the start, so late iterations need few
    steps.  Stops at ``‖rhs − K x‖ ≤ CG_RTOL · ‖rhs‖`` (or after ``CG_MAX_ITER`` steps): equal
    to the direct solve to ~1e-12, far inside the ADMM's own tolerance.
    """

    def __init__(self, K):
        self.K = K.tocsr() if sparse.issparse(K) else np.asarray(K)
        self.inv_diag = 1.0 / np.asarray(K.diagonal(), dtype=float)
        self.n_steps = 0  # summed over the solves, for benchmarks

    def solve(self, rhs: np.ndarray, x0: np.ndarray | None = None) -> np.ndarray:
        K, inv_diag = self.K, self.inv_diag
        x = rhs * inv_diag if x0 is None else np.array(x0, dtype=float, copy=True)
        r = rhs - K @ x
        stop = (CG_RTOL * np.linalg.norm(rhs)) ** 2
        rr = r @ r
        if rr <= stop:
            return x
        z = inv_diag * r
        d = z.copy()
        rz = r @ z
        for _ in range(CG_MAX_ITER):
            Kd = K @ d
            step = rz / (d @ Kd)
            x += step * d
            r -= step * Kd
            self.n_steps += 1
            rr = r @ r
            if rr <= stop:
                break
            z = inv_diag * r
            rz_new = r @ z
            d *= rz_new / rz
            d += z
            rz = rz_new
        return x
