"""Thread limits for small dense linear algebra inside fits.

BLAS (OpenBLAS, MKL) and OpenMP (scikit-learn's neighbour search) start one thread per core for
every call.  On the small matrices of most weak-label fits (a few hundred rows, a few hundred
coefficients) a call lasts microseconds, shorter than the threads take to meet; when another
process holds a core, every call waits for a descheduled thread.  Measured on 2 cores beside
other work: a 560 × 32 GKF-PUAL fit takes 0.2 s on one thread and 2–5 s with the default two
(``benchmarks/bench_threads.py``).  So the fits whose hot loops do dense algebra on small
matrices run under :func:`limit_threads`, with a thread count chosen from the problem's size
(:func:`threads_for`): one thread until an operand holds ``ENTRIES_PER_THREAD`` entries, one
more per further ``ENTRIES_PER_THREAD``.

A limit only lowers the current thread count of a library, never raises it: a caller's
``threadpoolctl.threadpool_limits(1)``, ``OMP_NUM_THREADS`` or a joblib worker's limit stay in
force.  Results do not depend on it (BLAS gives each output element to one thread).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from math import prod

from threadpoolctl import ThreadpoolController

__all__ = ["ENTRIES_PER_THREAD", "limit_threads", "threads_for"]

#: dense entries per BLAS/OpenMP thread (2**20 float64 = 8 MB): below it one thread is faster
#: than several, as a call's work is shorter than the threads' start and meeting
ENTRIES_PER_THREAD = 1 << 20

_controller: ThreadpoolController | None = None


def threads_for(*shapes: tuple[int, ...]) -> int:
    """Threads worth using for dense algebra on operands of these shapes.

    Parameters
    ----------
    *shapes : tuple of int
        Shapes of the dense operands of the hot loop (e.g. ``(n, p)`` and ``(p, p)``).

    Returns
    -------
    int
        ``max(1, largest operand's entries // ENTRIES_PER_THREAD)``.

    Examples
    --------
    >>> threads_for((560, 561), (561, 561))
    1
    >>> threads_for((5000, 5000))
    23
    """
    if not shapes:
        raise ValueError("threads_for needs at least one operand shape")
    entries = max(prod(int(d) for d in shape) for shape in shapes)
    return max(1, entries // ENTRIES_PER_THREAD)


def _threadpools() -> ThreadpoolController:
    """The BLAS and OpenMP libraries of this process, found once (a scan costs ~0.3 ms)."""
    global _controller
    if _controller is None:
        # load scipy's BLAS and scikit-learn's OpenMP runtime before the one scan
        import scipy.linalg  # noqa: F401
        import sklearn.utils._openmp_helpers  # noqa: F401

        _controller = ThreadpoolController()
    return _controller


@contextmanager
def limit_threads(*shapes: tuple[int, ...]) -> Iterator[int]:
    """Run the block with at most :func:`threads_for` ``(*shapes)`` BLAS and OpenMP threads.

    Parameters
    ----------
    *shapes : tuple of int
        Shapes of the dense operands of the block's hot loop.

    Yields
    ------
    int
        The thread limit chosen (libraries already below it keep their count).

    Examples
    --------
    >>> import numpy as np
    >>> with limit_threads((300, 40)) as n_threads:
    ...     _ = np.ones((300, 40)).T @ np.ones(300)
    >>> n_threads
    1
    """
    n_threads = threads_for(*shapes)
    pools = _threadpools()
    above = [lib.filepath for lib in pools.lib_controllers if lib.num_threads > n_threads]
    # only lower: a library already at or below the limit (the caller's choice) is left alone
    limiter = pools.select(filepath=above).limit(limits=n_threads) if above else nullcontext()
    with limiter:
        yield n_threads
