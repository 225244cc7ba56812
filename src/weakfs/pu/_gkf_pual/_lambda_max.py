"""The smallest λ1 at which every GKF-PUAL group is zero (λ1_max).

All groups are zero at the optimum exactly when the all-zero solution
``α* = 0`` satisfies the KKT conditions of the objective (paper eq. 11).  With ``α* = 0`` the score
is the constant ``β0``, the manifold and kernel-free terms vanish, and ``β0`` minimises
``C1·n_P·[1 − β0]₊ + C2·n_U·(1 + β0)²``: ``β0 = C1·n_P / (2·C2·n_U) − 1`` when
``C1·n_P < 4·C2·n_U``, otherwise ``β0 = 1`` (every labeled positive sits at the hinge's kink).
Stationarity in ``α*`` then reads ``c = Σ_j D_jᵀ v_j`` with ``‖v_j‖ ≤ λ1/2``, where
``c = C1·Σ_P θ_i s(x_i) − 2·C2·(1 + β0)·Σ_U s(x_i)`` and ``θ_i ∈ [0, 1]`` is the hinge's
subgradient.  An interaction coefficient ``A_jk`` lies in groups ``j`` and ``k``, so its entry of
``c`` can be shared between ``v_j`` and ``v_k``: for a given ``θ`` the smallest admissible λ1 is
``2·min over the sharing of max_j ‖v_j‖``, the dual norm of the overlapping group lasso.  That
minimum has no closed form; by minimax duality it equals the maximum over the simplex of the
concave function ``Σ_j π_j (c_jj² + c_bj²) + Σ_{j<k} c_jk² π_j π_k / (π_j + π_k)`` (each shared
entry split in proportion ``π_k : π_j``), which an exponentiated-gradient ascent solves to a
duality gap of 1e-9 in well under a second (:func:`_split_dual_norm`).

- ``C1·n_P < 4·C2·n_U``: ``θ = 1`` is the only subgradient and this gives λ1_max exactly.
- Otherwise ``θ`` may be any point of ``{θ ∈ [0, 1]^{n_P}: Σθ = 4·C2·n_U / C1}`` and λ1_max is
  the minimum over that set as well.  We find it by bisection with the solver: every solve's
  hinge duals give a ``θ`` and hence a certified upper bound, and a solve with a non-zero group
  that the certificate cannot exclude gives a lower bound; the bracket is closed to a relative
  width of 1e-2 (:meth:`_PathSolver.lambda1_max`).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np

from weakfs.pu._gkf_pual._admm import _ADMMProblem, _ADMMState
from weakfs.pu._gkf_pual._design import QuadraticDesign

# ----------------------------------------------------------------------------------------------
# the KKT certificate of the all-zero solution
# ----------------------------------------------------------------------------------------------
#: the last few :func:`_split_dual_norm` results, keyed on their input: ``c`` depends on a fold's
#: rows, C1 and C2 only (the all-zero solution's score is constant, so λ2 and σ drop out), so a
#: tuning grid asks for the same one for every (λ2, σ); reused only for a ``c`` equal element by
#: element, so results do not depend on the cache
SPLIT_DUAL_NORM_CACHE = 64
_dual_norm_cache: OrderedDict = OrderedDict()
_dual_norm_lock = threading.Lock()


def _split_dual_norm(
    c: np.ndarray, design: QuadraticDesign, *, gap_tol: float = 1e-9, max_iter: int = 20000
) -> tuple[float, np.ndarray]:
    """:func:`_split_dual_norm_uncached`, kept for the last ``SPLIT_DUAL_NORM_CACHE`` inputs."""
    c = np.ascontiguousarray(c, dtype=float)
    key = (design.m, c.shape, gap_tol, max_iter, c.tobytes())
    with _dual_norm_lock:
        hit = _dual_norm_cache.get(key)
        if hit is not None:
            _dual_norm_cache.move_to_end(key)
            return hit[0], hit[1].copy()
    tau, v = _split_dual_norm_uncached(c, design, gap_tol=gap_tol, max_iter=max_iter)
    with _dual_norm_lock:
        _dual_norm_cache[key] = (tau, v.copy())
        while len(_dual_norm_cache) > SPLIT_DUAL_NORM_CACHE:
            _dual_norm_cache.popitem(last=False)
    return tau, v


def _split_dual_norm_uncached(
    c: np.ndarray, design: QuadraticDesign, *, gap_tol: float = 1e-9, max_iter: int = 20000
) -> tuple[float, np.ndarray]:
    """``min max_j ‖v_j‖`` over the ways of writing ``c = Σ_j D_jᵀ v_j``, and the minimising
    ``v`` (laid out like the ADMM's ``t``: group after group).

    Minimax duality turns ``min_split max_j ‖v_j‖²`` into ``max_{π ∈ simplex} g(π)`` with ``g``
    concave; for a given ``π`` the best split gives group ``j`` the share ``π_k / (π_j + π_k)``
    of ``c_jk``, and ``g(π) = Σ_j π_j ‖v_j(π)‖²``.  Exponentiated-gradient ascent on ``π``
    (``∂g/∂π_j = ‖v_j(π)‖²``) until ``max_j ‖v_j‖² − g(π)`` (primal minus dual value) is below
    ``gap_tol`` of the primal value.
    """
    m = design.m
    C = c[design.pair] ** 2
    single = np.diag(C) + c[design.n_quad :] ** 2  # A_jj and b_j belong to group j only
    shared = C.copy()
    np.fill_diagonal(shared, 0.0)
    pi = np.full(m, 1.0 / m)
    best, best_pi, lower = np.inf, pi, 0.0
    for _ in range(max_iter):
        den = pi[:, None] + pi[None, :]
        share = np.divide(pi[None, :], den, out=np.full((m, m), 0.5), where=den > 0)
        sq = single + (shared * share**2).sum(axis=1)  # ‖v_j(π)‖²
        top = sq.max()
        lower = max(lower, float(pi @ sq))
        if top < best:
            best, best_pi = top, pi
        if best <= 0.0 or best - lower <= gap_tol * best:
            break
        pi = pi * np.exp((2.0 / top) * (sq - top))
        pi /= pi.sum()
    den = best_pi[:, None] + best_pi[None, :]
    share = np.divide(best_pi[None, :], den, out=np.full((m, m), 0.5), where=den > 0)
    v = np.empty(design.groups.shape)
    v[:, :m] = share * c[design.pair]
    v[np.arange(m), np.arange(m)] = c[design.pair[np.arange(m), np.arange(m)]]
    v[:, m] = c[design.n_quad :]
    return float(np.sqrt(best)), v.ravel()


def _project_capped_simplex(y: np.ndarray, total: float) -> np.ndarray:
    """Euclidean projection of ``y`` on ``{θ ∈ [0, 1]^n : Σθ = total}`` (bisection on the
    shift)."""
    lo, hi = float(y.min()) - 1.0, float(y.max())
    for _ in range(100):
        shift = 0.5 * (lo + hi)
        if np.clip(y - shift, 0.0, 1.0).sum() > total:
            lo = shift
        else:
            hi = shift
    return np.clip(y - 0.5 * (lo + hi), 0.0, 1.0)


@dataclass
class _Certificate:
    """The all-zero solution at ``lam`` and the ADMM state that certifies it."""

    lam: float
    state: _ADMMState


class _ZeroSolution:
    """The all-zero solution of one problem: its ``β0``, hinge subgradients and certificates."""

    def __init__(self, problem: _ADMMProblem):
        self.problem = problem
        n_pos, n_unl = problem.n_pos, problem.n - problem.n_pos
        C1, C2 = problem.C1, problem.C2
        # the hinge's subgradient is unique unless every labeled positive sits at its kink
        self.exact = C1 * n_pos < 4.0 * C2 * n_unl
        if self.exact:
            self.beta0 = C1 * n_pos / (2.0 * C2 * n_unl) - 1.0
            self.total = float(n_pos)
        else:
            self.beta0 = 1.0
            self.total = 4.0 * C2 * n_unl / C1  # Σθ, from stationarity in β0
        self.u_a = np.full(n_unl, 2.0 * C2 * (1.0 + self.beta0))

    def certificate(self, theta: np.ndarray | None = None) -> _Certificate:
        """The smallest λ1 for which the all-zero solution is optimal with hinge subgradients
        ``theta`` (the unique ones, or uniform, when None), and the certifying state."""
        P = self.problem
        if theta is None:
            theta = np.full(P.n_pos, self.total / P.n_pos)
        p = P.p
        u_h = P.C1 * theta
        c = P.Sp[:, :p].T @ u_h - P.Su[:, :p].T @ self.u_a
        tau, v = _split_dual_norm(c, P.design)
        z = np.zeros(p + 1)
        z[p] = self.beta0
        f = np.full(P.n, self.beta0)
        state = _ADMMState(
            z=z,
            h=1.0 - f[: P.n_pos],
            a=1.0 + f[P.n_pos :],
            t=np.zeros(v.shape[0]),
            b=f,
            u_h=u_h,
            u_a=self.u_a.copy(),
            v=v,
            q=np.zeros(P.n),
        )
        return _Certificate(2.0 * tau, state)

    def certificate_from(self, state: _ADMMState) -> _Certificate:
        """A certificate built from the hinge duals of a solve (only useful at the kink)."""
        if self.exact:
            return self.certificate()
        theta = _project_capped_simplex(state.u_h / self.problem.C1, self.total)
        return self.certificate(theta)
