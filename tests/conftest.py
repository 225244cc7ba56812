import os
from pathlib import Path

# The staged datasets live in ../shared/data beside the checkout (locally and in CI).
_SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data"
if "WEAKFS_DATA" not in os.environ and _SHARED.is_dir():
    os.environ["WEAKFS_DATA"] = str(_SHARED)

os.environ.setdefault("MPLBACKEND", "Agg")
# pytest-xdist runs one worker per core: OpenMP pools inside each worker (HistGradientBoosting,
# LightGBM) would oversubscribe the machine and spin, so each worker uses one thread.
os.environ.setdefault("OMP_NUM_THREADS", "1")


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "needs_data(*names): the test reads these staged datasets; it is skipped, naming them, "
        "when they are not found (bundled data or $WEAKFS_DATA)",
    )


def _missing_datasets(names) -> list[str]:
    from weakfs.datasets import DatasetNotFoundError, find

    missing = []
    for name in names:
        try:
            find(name)
        except DatasetNotFoundError:
            missing.append(name)
    return missing


def pytest_runtest_setup(item):
    for marker in item.iter_markers("needs_data"):
        missing = _missing_datasets(marker.args)
        if missing:
            import pytest

            pytest.skip(
                f"dataset {', '.join(missing)} is not staged: copy it into $WEAKFS_DATA "
                "(the data folder beside the checkout is found by itself)"
            )
