"""A plain ``pip install weakfs`` has no matplotlib: the library, the main command and the
errors must work without it (matplotlib is the ``plot`` extra)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

#: end-to-end runs of scripts and commands (left out of the oldest-pins run)
pytestmark = pytest.mark.slow

# Run in a fresh interpreter in which importing matplotlib fails, as when it is not installed.
BLOCK = "import sys; sys.modules['matplotlib'] = None; sys.modules['matplotlib.pyplot'] = None\n"


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", BLOCK + textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_library_imports_without_matplotlib():
    done = _run(
        """
        import weakfs, weakfs.pu, weakfs.semi_supervised, weakfs.unsupervised
        import weakfs.datasets, weakfs.metrics, weakfs.model_selection, weakfs.plotting
        import weakfs.experiments, weakfs.cli
        assert "matplotlib" not in {m for m in sys.modules if sys.modules[m] is not None}
        print("ok")
        """
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


def test_main_command_runs_without_matplotlib():
    done = _run(
        """
        from weakfs.cli import main
        raise SystemExit(main(["select", "--dataset", "spambase", "--positive", "1",
                               "--labeled-fraction", "0.1", "--method", "semi-jmi", "-k", "3",
                               "--no-progress"]))
        """
    )
    assert done.returncode == 0, done.stderr
    assert "selected 3" in done.stdout


def test_plot_without_matplotlib_names_the_extra():
    done = _run(
        """
        import numpy as np
        from weakfs.plotting import plot_feature_scores
        from weakfs.pu import SemiJMISelector
        rng = np.random.default_rng(0)
        X = rng.normal(size=(40, 4)); s = (X[:, 0] > 1).astype(int)
        sel = SemiJMISelector(n_features_to_select=2).fit(X, s)
        try:
            plot_feature_scores(sel)
        except ImportError as exc:
            print(exc)
        """
    )
    assert done.returncode == 0, done.stderr
    assert "pip install 'weakfs[plot]'" in done.stdout


@pytest.mark.parametrize("experiment", ["demo"])
def test_reproduce_without_matplotlib_fails_before_work(experiment, tmp_path):
    done = _run(
        f"""
        from weakfs.cli import main
        raise SystemExit(main(["reproduce", "{experiment}", "--out", r"{tmp_path}"]))
        """
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "weakfs[experiments]" in lines[0]
    assert not any(tmp_path.iterdir())  # nothing written
