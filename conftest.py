"""Run the package's docstring examples (``--doctest-modules`` over ``src/weakfs``) only when weakfs
is imported from this checkout's sources, as with ``pip install -e .``.

A regular install puts another copy of every module in site-packages; pytest would then refuse to
collect ``src/weakfs`` ("import file mismatch"), so those examples are left out and the header
says so.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

_SRC = Path(__file__).resolve().parent / "src"


def _imported_from_this_checkout() -> bool:
    spec = importlib.util.find_spec("weakfs")
    return bool(spec and spec.origin and Path(spec.origin).resolve().is_relative_to(_SRC))


_SKIP_SOURCES = not _imported_from_this_checkout()


def pytest_ignore_collect(collection_path, config):
    if _SKIP_SOURCES and collection_path.resolve().is_relative_to(_SRC):
        return True
    return None


def pytest_report_header(config):
    if _SKIP_SOURCES:
        return (
            "weakfs is not installed from this checkout (pip install -e .): the docstring "
            "examples of src/weakfs are not collected"
        )
    return None
