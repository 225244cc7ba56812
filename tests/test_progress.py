"""Progress on long loops: a notice and a bar when a fit will take long, and no false ETA while
the first step compiles numba kernels."""

import time

import numba
import numpy as np
import pytest

from weakfs import _progress
from weakfs._progress import format_seconds, progress


def test_off_returns_the_iterable_itself():
    steps = [1, 2, 3]
    assert progress(steps, enabled=False) is steps
    assert progress(steps, enabled=0) is steps


def test_auto_is_silent_for_a_short_loop(capsys):
    assert list(progress(range(30), enabled="auto", desc="short")) == list(range(30))
    assert capsys.readouterr().err == ""


def test_auto_announces_a_long_loop_with_its_estimate_then_shows_a_bar(capsys, monkeypatch):
    monkeypatch.setattr(_progress, "LONG_RUN_SECONDS", 0.05)
    monkeypatch.setattr(_progress, "_ESTIMATE_AFTER_SECONDS", 0.02)
    out = []
    for i in progress(range(40), enabled="auto", desc="search"):
        time.sleep(0.005)
        out.append(i)
    assert out == list(range(40))
    err = capsys.readouterr().err
    assert "search: about" in err and "to go (40 steps" in err and "verbose=False" in err


def test_the_first_step_says_it_compiles_instead_of_an_eta(capsys):
    @numba.njit(cache=False)
    def fresh_kernel(x):  # never compiled before this test
        return x * 2 + 1

    for i in progress(range(3), enabled=True, desc="trees"):
        if i == 0:
            fresh_kernel(np.arange(3))
    err = capsys.readouterr().err
    assert "trees: compiling (first run only)" in err


def test_a_later_step_that_compiles_enters_no_estimate(capsys, monkeypatch):
    """A fresh FSCPU fit announced "about 72 min to go" for a 1 s search: its third step
    compiled a kernel the first had not reached, and that step's time entered the rate."""
    monkeypatch.setattr(_progress, "LONG_RUN_SECONDS", 5.0)
    monkeypatch.setattr(_progress, "_ESTIMATE_AFTER_SECONDS", 0.01)

    @numba.njit(cache=False)
    def late_kernel(x):  # never compiled before this test
        return x * 3 + 1

    for i in progress(range(200), enabled="auto", desc="ga"):
        if i == 2:
            late_kernel(np.arange(3.0))  # compiling takes far longer than 200 quick steps
    assert capsys.readouterr().err == ""


def test_a_loop_stopped_early_closes_its_bar(capsys):
    for i in progress(range(100), enabled=True, desc="ga"):
        if i == 3:
            break
    assert "ga" in capsys.readouterr().err


@pytest.mark.parametrize(("seconds", "text"), [(45, "45 s"), (720, "12 min"), (9000, "2.5 h")])
def test_format_seconds(seconds, text):
    assert format_seconds(seconds) == text


def test_fscpu_says_up_front_when_its_default_run_will_take_long(capsys, monkeypatch):
    """FSCPU's default (verbose="auto") ran silent for 19 minutes; now it gives its estimate."""
    from weakfs.pu import FSCPUSelector

    monkeypatch.setattr(_progress, "LONG_RUN_SECONDS", 0.0)
    monkeypatch.setattr(_progress, "_ESTIMATE_AFTER_SECONDS", 0.0)
    rng = np.random.RandomState(0)
    X = rng.rand(80, 5)
    s = np.zeros(80, int)
    s[:10] = 1
    FSCPUSelector(2, n_clusters=2, n_iter=15, clustering="kmeans", random_state=0).fit(X, s)
    assert "compact GA: about" in capsys.readouterr().err
