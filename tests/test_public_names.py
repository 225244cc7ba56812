"""Experiments use only the library's public names (plus the experiments' own registry/runner).

Benchmarks may time private kernels against their peers, so they are not held to this.
"""

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
SOURCES = sorted((ROOT / "src/weakfs/experiments").rglob("*.py"))


def _private_imports(path: pathlib.Path) -> list[str]:
    """``module.name`` of every import that reaches a private weakfs module or name."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("weakfs"):
            module = node.module
            # an experiment's own package (the registry, the runner) is not the library
            if module.startswith("weakfs.experiments"):
                continue
            names = [a.name for a in node.names]
            if any(part.startswith("_") for part in module.split(".")) or any(
                n.startswith("_") for n in names
            ):
                found.append(f"{module}: {', '.join(names)}")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("weakfs") and any(
                    p.startswith("_") for p in alias.name.split(".")
                ):
                    found.append(alias.name)
    return found


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_uses_public_names_only(path):
    assert _private_imports(path) == []


def test_detects_private_imports(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text(
        "from weakfs.pu._fscpu import FSCPUSelector\nfrom weakfs.search import _base\n"
        "import weakfs.semi_supervised._sewil\nfrom weakfs.pu import FSCPUSelector\n"
    )
    assert len(_private_imports(bad)) == 3
