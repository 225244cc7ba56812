import os
from pathlib import Path

import pytest

# The staged datasets live in ../shared/data beside the checkout (locally and in CI); an empty
# WEAKFS_DATA counts as unset, as the loaders read it.
_SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data"
if not os.environ.get("WEAKFS_DATA") and _SHARED.is_dir():
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


#: test modules that run commands or experiments end to end: marked ``slow`` as a whole (the
#: run on the oldest pins leaves them out for time; the library tests cover what they call)
END_TO_END_MODULES = (
    "test_cli.py",
    "test_cli_no_silent_answers.py",
    "test_cli_newcomer.py",
    "test_runner.py",
    "test_examples.py",
    "test_reports_regenerate.py",
    "test_benchmark_experiment.py",
    "test_fscpu_experiments.py",
    "test_sewil_experiment.py",
    "test_pu_extra_trees_experiment.py",
)


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.path.name in END_TO_END_MODULES or _later_parameter_set_of_sklearn_checks(item):
            item.add_marker(pytest.mark.slow)


def _later_parameter_set_of_sklearn_checks(item) -> bool:
    """scikit-learn's checks of an estimator's second and later parameter sets (its first, and
    weakfs's weak-label checks of every set, run everywhere): they reach other code paths of
    the same estimator, not other uses of the dependencies' API."""
    if item.path.name != "test_estimator_checks.py":
        return False
    if getattr(item, "originalname", None) != "test_sklearn_compatible":
        return False
    from weakfs.utils._testing import ESTIMATOR_TEST_PARAMS

    estimator = item.callspec.params["estimator"]
    first = type(estimator)(**ESTIMATOR_TEST_PARAMS[type(estimator)][0])
    return repr(estimator) != repr(first)


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
        if not marker.args:
            # a bare marker would skip nothing and fail where the data is missing
            raise pytest.UsageError(f"{item.nodeid}: needs_data takes the dataset names it reads")
        missing = _missing_datasets(marker.args)
        if missing:
            pytest.skip(
                f"dataset {', '.join(missing)} is not staged: copy it into $WEAKFS_DATA "
                "(the data folder beside the checkout is found by itself)"
            )


#: end-to-end command tests check what the prior's interval does to the output, not its
#: resolution: there it is bootstrapped 20 times instead of the default 100 (tests of
#: ``estimate_class_prior`` itself keep the default)
QUICK_PRIOR_INTERVAL_MODULES = (
    "test_cli.py",
    "test_cli_no_silent_answers.py",
    "test_cli_newcomer.py",
    "test_compare.py",
    "test_compare_board.py",
)
QUICK_PRIOR_BOOTSTRAP = 20


@pytest.fixture(autouse=True)
def quick_prior_interval(request, monkeypatch):
    if request.node.path.name not in QUICK_PRIOR_INTERVAL_MODULES:
        return
    from functools import partial

    from weakfs.pu import _prior_resolution

    monkeypatch.setattr(
        _prior_resolution,
        "_estimate_class_prior",
        partial(_prior_resolution._estimate_class_prior, n_bootstrap=QUICK_PRIOR_BOOTSTRAP),
    )
