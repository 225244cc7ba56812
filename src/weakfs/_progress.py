"""Progress on the long loops of a fit: a bar when asked, and a word when a loop will take long.

``verbose`` of the long fits takes ``True`` (a tqdm bar from the start), ``False`` (silent) or
``"auto"`` (their default): silent, unless the loop's first steps say it will take more than
:data:`LONG_RUN_SECONDS`; then one line on stderr gives the estimate before the rest runs, and a
bar follows.  The first step never enters a rate: on a first run it compiles the numba kernels the
loop uses (they are cached on disk for later runs), and the bar says "compiling (first run only)"
instead of a false ETA while it does.  Nor does a later step that compiles a kernel (a branch the
first step did not reach): the estimate counts only the steps after the last compiling one.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Iterator
from contextlib import ExitStack

__all__ = ["LONG_RUN_SECONDS", "format_seconds", "progress"]

#: a loop estimated to take longer than this says so (``verbose="auto"``)
LONG_RUN_SECONDS = 60.0
#: the estimate is made once the steps after the first have taken this long (or ten steps)
_ESTIMATE_AFTER_SECONDS = 2.0
_COMPILING = "compiling (first run only)"


def format_seconds(seconds: float) -> str:
    """``"45 s"``, ``"12 min"``, ``"2.5 h"``."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


class _CompileNotice:
    """Says "compiling (first run only)" on a bar (if any) as soon as numba starts compiling a
    kernel, and counts the compilations (numba's compile events; the kernels are cached on disk,
    so later runs load them)."""

    def __init__(self, bar=None):
        self.bar = bar
        self.compiled = False
        self.compilations = 0

    def __enter__(self):
        try:
            from numba.core import event
        except ImportError:  # pragma: no cover - numba is a dependency
            return self
        notice = self

        class Listener(event.Listener):
            def on_start(self, ev):
                if not notice.compiled and notice.bar is not None:
                    notice.bar.bar_format = "{desc}: " + _COMPILING + " {elapsed}"
                    notice.bar.refresh()
                notice.compiled = True
                notice.compilations += 1

            def on_end(self, ev):
                pass

        self._context = event.install_listener("numba:compile", Listener())
        self._context.__enter__()
        return self

    def __exit__(self, *exc):
        if hasattr(self, "_context"):
            self._context.__exit__(*exc)
        return False


def progress(
    iterable: Iterable,
    *,
    enabled: bool | int | str,
    total: int | None = None,
    desc: str = "",
) -> Iterable:
    """``iterable`` with progress shown as ``enabled`` says (True, False or ``"auto"``).

    Parameters
    ----------
    iterable : iterable
        The steps of the loop.
    enabled : bool, int or "auto"
        A bar from the start (true), nothing (false), or a notice and a bar when the loop is
        estimated to take more than :data:`LONG_RUN_SECONDS` (``"auto"``).
    total : int, optional
        Number of steps (default: ``len(iterable)`` when it has one); ``"auto"`` needs it.
    desc : str
        What the loop is, shown before the bar and in the notice.
    """
    if enabled is False or (enabled == 0 and not isinstance(enabled, str)):
        return iterable
    if total is None and hasattr(iterable, "__len__"):
        total = len(iterable)
    return _steps(iter(iterable), enabled, total, desc)


def _bar(total, desc, initial=0):
    from tqdm.auto import tqdm

    return tqdm(total=total, desc=desc, initial=initial, leave=False, file=sys.stderr)


def _step_time(seconds: float) -> str:
    return format_seconds(seconds) if seconds >= 1 else f"{seconds:.2g} s"


def _steps(steps: Iterator, enabled, total, desc) -> Iterator:
    announce = enabled == "auto"
    bar = None
    if not announce:  # the first step's bar shows the time, or that it compiles: no rate
        bar = _bar(total, desc)
        bar.bar_format = "{desc}: {elapsed}"
        bar.refresh()
    compiles, listening = _CompileNotice(), ExitStack()  # numba's events while estimating
    try:
        try:
            first = next(steps)
        except StopIteration:
            return
        with _CompileNotice(bar):
            yield first  # the caller's loop body runs the first step now
        if bar is not None:  # the real bar, whose rate leaves the first step out
            bar.close()
            bar = _bar(total, desc, initial=1)
        done, started, timed_from = 1, time.perf_counter(), 1
        decided = not announce or total is None
        if not decided:
            listening.enter_context(compiles)
        for step in steps:
            seen = compiles.compilations
            yield step
            done += 1
            if bar is not None:
                bar.update(1)
                continue
            if decided:
                continue
            if compiles.compilations != seen:  # this step compiled a kernel: its time is no rate
                started, timed_from = time.perf_counter(), done
                continue
            elapsed = time.perf_counter() - started
            if elapsed < _ESTIMATE_AFTER_SECONDS and done - timed_from < 10:
                continue
            decided = True
            listening.close()
            each = elapsed / (done - timed_from)
            left = each * (total - done)
            if left > LONG_RUN_SECONDS:
                print(
                    f"{desc}: about {format_seconds(left)} to go ({total} steps, "
                    f"{_step_time(each)} each); verbose=False silences this, verbose=True "
                    "shows the bar from the start",
                    file=sys.stderr,
                )
                bar = _bar(total, desc, initial=done)
    finally:  # also when the loop stops early (a search that converged)
        listening.close()
        if bar is not None:
            bar.close()
