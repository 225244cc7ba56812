"""Every script in examples/ runs end to end on small data (``--quick``) and prints its result."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

#: end-to-end runs of scripts and commands (left out of the oldest-pins run)
pytestmark = pytest.mark.slow

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"

# script -> (staged dataset it needs, text its output must contain)
CASES = {
    "pu_tabular.py": ("spambase", "PU-corrected CV AUC"),
    "tune_pu_pipeline.py": ("spambase", "test AUC of the refitted pipeline"),
    "ufvs_sparse_text.py": ("BASEHOCK", "5-fold accuracy of the hidden label"),
    "semi_supervised_images.py": ("COIL20", "accuracy on the unlabeled images"),
    "pu_tabular_cli.sh": (None, "wrote the 10 selected features"),
    "compare_selectors.py": (None, "best from the weak labels"),
    "class_prior.py": ("spambase", "estimated prior"),
}


def test_every_example_is_tested():
    scripts = {p.name for p in EXAMPLES.iterdir() if p.suffix in (".py", ".sh")}
    assert scripts == set(CASES)


@pytest.mark.parametrize(
    "script",
    [
        pytest.param(s, marks=pytest.mark.needs_data(CASES[s][0]) if CASES[s][0] else ())
        for s in sorted(CASES)
    ],
)
def test_example_runs(script, tmp_path):
    expected = CASES[script][1]
    if script.endswith(".sh"):
        # the shell example calls `python` and `weakfs` from this environment
        args = ["bash", str(EXAMPLES / script), "--quick", str(tmp_path)]
    else:
        args = [sys.executable, str(EXAMPLES / script), "--quick"]
    if script.endswith(".py"):  # every Python example draws a figure (the gallery shows it)
        args += ["--plot", str(tmp_path / "plot.png")]
    bin_dir = str(Path(sys.executable).parent)
    env = {
        **os.environ,
        "MPLBACKEND": "Agg",
        "OMP_NUM_THREADS": "1",
        "PATH": bin_dir + os.pathsep + os.environ.get("PATH", ""),
    }
    done = subprocess.run(args, capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert expected in done.stdout
    if "--plot" in args:
        assert (tmp_path / "plot.png").stat().st_size > 0
    if script == "pu_tabular_cli.sh":
        chosen = json.loads((tmp_path / "top10.json").read_text())
        assert len(chosen["selected"]) == 10
        assert "estimated by estimate_class_prior" in chosen["class_prior"]["how"]
        assert "left out column 'message id'" in done.stderr
