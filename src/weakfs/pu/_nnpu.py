"""uPU and nnPU, baselines of GKF-PUAL: a small ReLU MLP trained with Adam on the unbiased
(uPU) or non-negative (nnPU, β = 0, γ = 1) PU risk with the sigmoid loss, in numpy.

References: M. C. du Plessis, G. Niu, M. Sugiyama, "Convex Formulation for Learning from Positive
and Unlabeled Data", ICML 2015 (the unbiased PU risk); R. Kiryo, G. Niu, M. C. du Plessis,
M. Sugiyama, "Positive-Unlabeled Learning with Non-Negative Risk Estimator", NeurIPS 2017 (the
non-negative risk and its training procedure, their Algorithm 1).
"""

from __future__ import annotations

import numbers
from itertools import pairwise
from typing import ClassVar

import numpy as np
from sklearn.base import _fit_context
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval

from weakfs._labels import check_pu_target
from weakfs._threads import limit_threads
from weakfs._validation import validate_X_y
from weakfs.pu._base import _fit_predict_example, _StandardizedPUClassifier

__all__ = ["NNPUClassifier", "UPUClassifier"]


def _sigmoid(z):
    return 0.5 * (1.0 + np.tanh(0.5 * z))


class _PURiskMLP(_StandardizedPUClassifier):
    _non_negative = True

    _parameter_constraints: ClassVar[dict] = {
        "prior": [Interval(numbers.Real, 0, 1, closed="neither")],
        "hidden_layer_sizes": [tuple, list],
        "learning_rate": [Interval(numbers.Real, 0, None, closed="neither")],
        "weight_decay": [Interval(numbers.Real, 0, None, closed="left")],
        "batch_size": [Interval(numbers.Integral, 1, None, closed="left")],
        "max_epochs": [Interval(numbers.Integral, 1, None, closed="left")],
        "beta": [Interval(numbers.Real, 0, None, closed="left")],
        "gamma": [Interval(numbers.Real, 0, None, closed="left")],
        "standardize": ["boolean"],
        "random_state": ["random_state"],
    }

    def __init__(
        self,
        prior: float = 0.5,
        *,
        hidden_layer_sizes=(100, 100),
        learning_rate: float = 1e-3,
        weight_decay: float = 5e-3,
        batch_size: int = 64,
        max_epochs: int = 100,
        beta: float = 0.0,
        gamma: float = 1.0,
        standardize: bool = True,
        random_state=None,
    ):
        self.prior = prior
        self.hidden_layer_sizes = hidden_layer_sizes
        self.learning_rate = learning_rate
        self.weight_decay = weight_decay
        self.batch_size = batch_size
        self.max_epochs = max_epochs
        self.beta = beta
        self.gamma = gamma
        self.standardize = standardize
        self.random_state = random_state

    def _forward(self, X, params):
        acts = [X]
        h = X
        n_layers = len(params) // 2
        for i in range(n_layers):
            h = h @ params[2 * i] + params[2 * i + 1]
            if i < n_layers - 1:
                h = np.maximum(h, 0.0)
            acts.append(h)
        return acts

    def _backward(self, acts, params, grad_out):
        grads = [None] * len(params)
        g = grad_out[:, None]
        n_layers = len(params) // 2
        for i in reversed(range(n_layers)):
            grads[2 * i] = acts[i].T @ g + self.weight_decay * params[2 * i]
            grads[2 * i + 1] = g.sum(axis=0)
            if i > 0:
                g = (g @ params[2 * i].T) * (acts[i] > 0)
        return grads

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Fit on PU data (``y``: 1 labeled positive; 0, -1 or False unlabeled)."""
        X, y = validate_X_y(self, X, y, ensure_min_samples=2)
        s = check_pu_target(self, y)
        sizes = list(self.hidden_layer_sizes)
        if not all(isinstance(h, (int, np.integer)) and h >= 1 for h in sizes):
            raise ValueError(
                f"hidden_layer_sizes must hold positive ints (units per layer); got {sizes!r}"
            )
        Xs = self._fit_scaling(np.asarray(X, dtype=float))
        sizes = [Xs.shape[1], *[int(h) for h in self.hidden_layer_sizes], 1]
        # minibatch products (batch × width) take microseconds: threads from their size, so that
        # thousands of them do not wait for threads a busy machine has descheduled
        widest = max(sizes)
        with limit_threads((int(self.batch_size), widest), (widest, widest)):
            self._train(Xs, s, sizes)
        return self

    def _train(self, Xs: np.ndarray, s: np.ndarray, sizes: list[int]) -> None:
        """Adam on the PU risk over minibatches; sets ``params_``, ``n_iter_``, ``loss_curve_``."""
        rng = check_random_state(self.random_state)
        params = []
        for a, b in pairwise(sizes):
            params.append(rng.normal(scale=np.sqrt(2.0 / a), size=(a, b)))
            params.append(np.zeros(b))
        m1 = [np.zeros_like(p) for p in params]
        m2 = [np.zeros_like(p) for p in params]
        b1, b2, eps = 0.9, 0.999, 1e-8
        pi = self.prior
        n = Xs.shape[0]
        step = 0
        self.loss_curve_ = []
        for _ in range(self.max_epochs):
            perm = rng.permutation(n)
            for start in range(0, n, self.batch_size):
                idx = perm[start : start + self.batch_size]
                sb = s[idx] == 1
                n_p, n_u = int(sb.sum()), int((~sb).sum())
                if n_p == 0 or n_u == 0:
                    continue
                acts = self._forward(Xs[idx], params)
                f = acts[-1].ravel()
                # sigmoid loss ℓ(z) = σ(−z); dℓ(z)/dz = −σ(z)σ(−z)
                lp_pos = _sigmoid(-f)  # ℓ(f) on positives
                lp_neg = _sigmoid(f)  # ℓ(−f)
                dl = lp_pos * lp_neg
                r_pos = pi * lp_pos[sb].mean()
                r_neg = lp_neg[~sb].mean() - pi * lp_neg[sb].mean()
                grad = np.zeros_like(f)
                sign = 1.0
                if self._non_negative and r_neg < -self.beta:
                    # Kiryo et al. Algorithm 1: step on −γ·R⁻ only
                    sign = -self.gamma
                    grad[~sb] = sign * dl[~sb] / n_u
                    grad[sb] = sign * (-pi) * dl[sb] / n_p
                else:
                    grad[sb] = pi * (-dl[sb]) / n_p - pi * dl[sb] / n_p
                    grad[~sb] = dl[~sb] / n_u
                grads = self._backward(acts, params, grad)
                step += 1
                for k, gk in enumerate(grads):
                    m1[k] = b1 * m1[k] + (1 - b1) * gk
                    m2[k] = b2 * m2[k] + (1 - b2) * gk * gk
                    mh = m1[k] / (1 - b1**step)
                    vh = m2[k] / (1 - b2**step)
                    params[k] = params[k] - self.learning_rate * mh / (np.sqrt(vh) + eps)
                self.loss_curve_.append(float(r_pos + r_neg))
        self.params_ = params
        self.n_iter_ = step
        self.classes_ = np.array([0, 1])

    def decision_function(self, X) -> np.ndarray:
        """Network output ``g(x)``; positive means predicted positive."""
        return self._forward(self._scaled(X), self.params_)[-1].ravel()

    def predict_proba(self, X) -> np.ndarray:
        """``σ(g(x))`` as the positive-class score (the sigmoid loss's link)."""
        p = _sigmoid(self.decision_function(X))
        return np.column_stack([1.0 - p, p])


def _mlp_doc(summary: str, name: str) -> str:
    """Docstring of one risk: its summary, the shared parameters and an example."""
    return (
        summary
        + """
    Parameters
    ----------
    prior : float in (0, 1), default=0.5
        Class prior ``π`` of the unlabeled data (must be given; the paper's experiments use the
        true share).
    hidden_layer_sizes : tuple of int, default=(100, 100)
        ReLU hidden layers (Kiryo et al. use a 6-layer 300-unit MLP with batch norm on MNIST; a
        smaller network suits the paper's few-hundred-row tables).
    learning_rate : float, default=1e-3
        Adam step size.
    weight_decay : float, default=5e-3
        L2 penalty on the weights (Kiryo et al.'s default 0.005).
    batch_size : int, default=64
        Rows per Adam step (a mini-batch without a positive or an unlabeled row is skipped).
    max_epochs : int, default=100
        Passes over the training rows.
    beta, gamma : float, default=0, 1
        nnPU's ``β`` and ``γ`` (Kiryo et al. Algorithm 1); unused by uPU.
    standardize : bool, default=True
        Scale every column to zero mean and unit variance (fit on the training rows) first.
    random_state : int, RandomState instance or None, default=None
        Seeds the initialisation and the mini-batches.

    Attributes
    ----------
    params_ : list of ndarray
        Weights and biases.
    loss_curve_ : list of float
        PU risk of each mini-batch.
    classes_ : ndarray
        ``[0, 1]``.
"""
        + _fit_predict_example(name, 100, 0, 0.5, "prior=0.5, max_epochs=5, random_state=0")
    )


class NNPUClassifier(_PURiskMLP):
    __doc__ = _mlp_doc(
        """Non-negative PU learning (nnPU, Kiryo et al. 2017) with a small MLP and the sigmoid loss.
""",
        "NNPUClassifier",
    )
    _non_negative = True


class UPUClassifier(_PURiskMLP):
    __doc__ = _mlp_doc(
        """Unbiased PU learning (uPU, du Plessis et al. 2015) with a small MLP and the sigmoid loss.
""",
        "UPUClassifier",
    )
    _non_negative = False
