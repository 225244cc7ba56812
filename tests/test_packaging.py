"""What a built wheel holds, and the one version number."""

import importlib.util
import re
import subprocess
import sys
import zipfile
from importlib.metadata import version
from pathlib import Path

import pytest

import weakfs

ROOT = Path(__file__).resolve().parents[1]


def test_the_version_is_written_once():
    pyproject = (ROOT / "pyproject.toml").read_text()
    project = pyproject.split("\n[project]\n", 1)[1].split("\n[", 1)[0]
    assert not re.search(r"^version\s*=", project, flags=re.M)
    assert re.search(r'^dynamic = \["version"\]', project, flags=re.M)
    assert 'version = { attr = "weakfs.__version__" }' in pyproject
    assert weakfs.__version__ == "0.2.0"
    citation = (ROOT / "CITATION.cff").read_text()
    assert f"\nversion: {weakfs.__version__}\n" in citation


def _builds_offline() -> bool:
    """Whether this environment's setuptools builds a wheel without a build environment:
    setuptools 70.1 has bdist_wheel itself, older ones need the wheel package."""
    setuptools = tuple(int(p) for p in re.findall(r"\d+", version("setuptools"))[:2])
    return setuptools >= (70, 1) or (
        setuptools >= (68, 0) and importlib.util.find_spec("wheel") is not None
    )


@pytest.mark.slow
def test_the_wheel_holds_py_typed_and_the_bundled_datasets(tmp_path):
    # offline from this checkout when the installed setuptools can build it, else in pip's
    # isolated build environment (pyproject.toml's build requirements from the index)
    isolation = ["--no-build-isolation", "--no-index"] if _builds_offline() else []
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-w", str(tmp_path),
         *isolation],
        capture_output=True,
        text=True,
        timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    (wheel,) = tmp_path.glob("weakfs-*.whl")
    assert wheel.name.startswith(f"weakfs-{weakfs.__version__}-")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "weakfs/py.typed" in names
    bundled = {p.name for p in (ROOT / "src/weakfs/datasets/data").glob("*.csv.gz")}
    assert bundled
    assert {f"weakfs/datasets/data/{name}" for name in bundled} <= names
    assert "weakfs/compare/size_guide.json" in names  # what compare's named sizes read
