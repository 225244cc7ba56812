"""GKF-PUAL's kernel-free quadratic design (the monomials of degree at most two, their Gram
matrix) and the dense Gaussian manifold Laplacian."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = [
    "QuadraticDesign",
    "_kernel_free_gram",
    "_quadratic_features",
    "dense_gaussian_laplacian",
    "quadratic_design",
]


@dataclass(frozen=True)
class QuadraticDesign:
    """Index bookkeeping of ``α* = (upper triangle of A row by row, b)`` for ``m`` features.

    ``pair[j, k]`` is the position of ``A_jk`` (= ``A_kj``) in ``α*``; ``groups[j]`` lists the
    ``m + 1`` positions of group ``j`` (``A_j1 … A_jm, b_j``), i.e. the rows of the paper's ``D*``.
    """

    m: int
    n_quad: int  # m (m + 1) / 2
    n_coef: int  # n_quad + m
    rows: np.ndarray  # j of each quadratic coefficient (j <= k)
    cols: np.ndarray  # k of each quadratic coefficient
    pair: np.ndarray  # (m, m)
    groups: np.ndarray  # (m, m + 1)
    group_counts: np.ndarray  # diag(D*ᵀD*): 2 for off-diagonal A entries, 1 otherwise


def quadratic_design(m: int) -> QuadraticDesign:
    """Index bookkeeping for ``m`` features (see :class:`QuadraticDesign`)."""
    rows, cols = np.triu_indices(m)
    n_quad = rows.shape[0]
    pair = np.empty((m, m), dtype=np.int64)
    pair[rows, cols] = np.arange(n_quad)
    pair[cols, rows] = np.arange(n_quad)
    groups = np.concatenate([pair, (n_quad + np.arange(m))[:, None]], axis=1)
    counts = np.bincount(groups.ravel(), minlength=n_quad + m).astype(float)
    return QuadraticDesign(m, n_quad, n_quad + m, rows, cols, pair, groups, counts)


def _quadratic_features(X: np.ndarray, design: QuadraticDesign) -> np.ndarray:
    """Rows ``s(x)`` with ``f(x) = s(x)ᵀα* + β0``: ½x_j² on the diagonal, x_j x_k off it, then x."""
    quad = X[:, design.rows] * X[:, design.cols]
    quad[:, design.rows == design.cols] *= 0.5
    return np.concatenate([quad, X], axis=1)


def _kernel_free_gram(X: np.ndarray, design: QuadraticDesign) -> np.ndarray:
    """``G`` with ``α*ᵀGα* = Σ_i ‖A x_i + b‖²`` (paper eq. 8), built from ``XᵀX`` in O(m³)."""
    m, nq = design.m, design.n_quad
    n = X.shape[0]
    C = X.T @ X
    s = X.sum(axis=0)
    G = np.zeros((design.n_coef, design.n_coef))
    # Σ_i (A_j· x_i)² = A_j· C A_j·ᵀ  for every row j of A
    P = design.pair
    r = np.broadcast_to(P[:, :, None], (m, m, m)).ravel()
    c = np.broadcast_to(P[:, None, :], (m, m, m)).ravel()
    np.add.at(G, (r, c), np.broadcast_to(C[None, :, :], (m, m, m)).ravel())
    # cross terms 2 b_j A_j· s and n b_j²
    bj = np.broadcast_to((nq + np.arange(m))[:, None], (m, m)).ravel()
    np.add.at(G, (P.ravel(), bj), np.broadcast_to(s[None, :], (m, m)).ravel())
    np.add.at(G, (bj, P.ravel()), np.broadcast_to(s[None, :], (m, m)).ravel())
    G[nq + np.arange(m), nq + np.arange(m)] += n
    return G


def dense_gaussian_laplacian(X: np.ndarray, sigma: float = 1.0) -> np.ndarray:
    """Laplacian ``D − W`` of the Gaussian graph over all pairs of rows (the authors' R code).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    sigma : float, default=1.0
        Width: ``W_ij = exp(−‖x_i − x_j‖² / (2σ²))`` for ``i ≠ j``, ``W_ii = 0`` (the R code's
        ``exp(−‖x_i − x_j‖² / 2 / θ_K)`` with ``θ_K = σ² = 1``).

    Returns
    -------
    R : ndarray of shape (n_samples, n_samples)
        Dense, symmetric, rows summing to zero.
    """
    sq = np.einsum("ij,ij->i", X, X)
    d2 = np.maximum(sq[:, None] + sq[None, :] - 2.0 * (X @ X.T), 0.0)
    with np.errstate(under="ignore"):
        W = np.exp(-d2 / (2.0 * float(sigma) ** 2))
    np.fill_diagonal(W, 0.0)
    return np.diag(W.sum(axis=1)) - W
