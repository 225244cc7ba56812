"""The shape of the paper experiments: one package each, cells apart from reports.

Each experiment lives in ``weakfs/experiments/<name>/``: ``_cells.py`` (with the modules it
builds on) computes, ``_report*.py`` and ``_paper.py`` only read finished cells and write text and
figures.  So a change to a report never needs a version bump, and a change to the cell code is
always checked for one: this test keeps a fingerprint of every experiment's cell code and fails
when it changes.  Then decide: if the change alters any cell's result, raise the experiment's
``VERSION`` in ``_cells.py`` (older cells are then marked superseded, never mixed in); either way
record the new fingerprint with ``python tests/test_experiment_layout.py --update``.
"""

from __future__ import annotations

import ast
import hashlib
import json
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
EXPERIMENTS = ROOT / "src/weakfs/experiments"
FINGERPRINTS = pathlib.Path(__file__).with_name("experiment_cell_fingerprints.json")
PACKAGES = sorted(p.parent.name for p in EXPERIMENTS.glob("*/__init__.py"))
#: what a report module may import from weakfs besides its own package's report-side modules
REPORT_MAY_IMPORT = (
    "weakfs.experiments._report",
    "weakfs.experiments._registry",
    "weakfs.plotting",
    "weakfs.metrics",  # summaries over finished cells (the stability of their selections)
)


def _is_report(path: pathlib.Path) -> bool:
    return path.stem.startswith("_report") or path.stem.endswith("_report") or path.stem == "_paper"


def _cell_code(package: str) -> list[pathlib.Path]:
    """The modules of an experiment that compute cells: everything but reports and ``__init__``."""
    return [
        p
        for p in sorted((EXPERIMENTS / package).glob("*.py"))
        if p.name != "__init__.py" and not _is_report(p)
    ]


def _without_docstrings(tree: ast.AST) -> ast.AST:
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (
            isinstance(body, list)
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            node.body = body[1:] or [ast.Pass()]
    return tree


def fingerprint(package: str) -> str:
    """A hash of the cell code's syntax: comments, docstrings and layout do not count."""
    digest = hashlib.sha256()
    for path in _cell_code(package):
        code = ast.unparse(_without_docstrings(ast.parse(path.read_text())))
        digest.update(path.name.encode() + b"\0" + code.encode() + b"\0")
    return digest.hexdigest()[:16]


def _weakfs_imports(path: pathlib.Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("weakfs"):
            found.append(node.module)
        elif isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.startswith("weakfs")]
    return found


@pytest.mark.parametrize("package", PACKAGES)
def test_every_experiment_has_cells_and_a_report(package):
    names = {p.name for p in (EXPERIMENTS / package).glob("*.py")}
    assert {"__init__.py", "_cells.py"} <= names
    assert any(_is_report(EXPERIMENTS / package / n) for n in names)


@pytest.mark.parametrize(
    "path",
    [p for p in sorted(EXPERIMENTS.glob("*/*.py")) if _is_report(p)],
    ids=lambda p: f"{p.parent.name}/{p.name}",
)
def test_reports_never_import_computation(path):
    """A report reads the report side of an experiment (its own, or another's: the scoreboard
    reads every paper's numbers), never cell code."""
    report_side = {"_protocol", "_paper"}
    for module in _weakfs_imports(path):
        package, _, stem = module.removeprefix("weakfs.experiments.").partition(".")
        if module.startswith("weakfs.experiments.") and package in PACKAGES:
            assert stem in report_side or _is_report(pathlib.Path(stem + ".py")), module
        else:
            assert module.startswith(REPORT_MAY_IMPORT), module


@pytest.mark.parametrize("package", PACKAGES)
def test_cell_code_changes_are_checked_for_a_version_bump(package):
    recorded = json.loads(FINGERPRINTS.read_text())
    assert fingerprint(package) == recorded.get(package), (
        f"the cell code of experiments/{package}/ changed: if the change alters any cell's "
        "result, raise its VERSION in _cells.py; then record the new fingerprint with "
        "`python tests/test_experiment_layout.py --update`"
    )


def test_fingerprint_ignores_comments_and_docstrings_but_not_code(tmp_path, monkeypatch):
    package = tmp_path / "toy"
    package.mkdir()
    (package / "__init__.py").write_text("")
    cells = package / "_cells.py"
    cells.write_text('"""doc"""\nVERSION = 1\n\n\ndef run_cell(cell):\n    return {"x": 1}\n')
    monkeypatch.setattr(sys.modules[__name__], "EXPERIMENTS", tmp_path)
    before = fingerprint("toy")
    cells.write_text('"""other doc"""\nVERSION = 1  # a comment\n\ndef run_cell(cell):\n'
                     '    """doc"""\n    return {"x": 1}\n')  # fmt: skip
    assert fingerprint("toy") == before
    cells.write_text('"""doc"""\nVERSION = 1\n\n\ndef run_cell(cell):\n    return {"x": 2}\n')
    assert fingerprint("toy") != before
    (package / "_report.py").write_text("TEXT = 'a report changes nothing'\n")
    assert fingerprint("toy") != before  # still the code change, the report does not count
    cells.write_text('"""doc"""\nVERSION = 1\n\n\ndef run_cell(cell):\n    return {"x": 1}\n')
    assert fingerprint("toy") == before


if __name__ == "__main__" and sys.argv[1:] == ["--update"]:
    FINGERPRINTS.write_text(json.dumps({p: fingerprint(p) for p in PACKAGES}, indent=1) + "\n")
    print(f"recorded {FINGERPRINTS.name}: {', '.join(PACKAGES)}")
