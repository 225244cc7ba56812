"""No import cycle between weakfs's modules.

Every ``import weakfs...`` and ``from weakfs... import ...`` in ``src/weakfs`` (at module level or
inside a function, where cycles like to hide) is an edge from the importing module to the module
it names (``from package import module`` names the module); the strongly connected components of
that graph must all be single modules.  A package's parent being imported first is Python's
doing, not an edge; nor is an import under ``if TYPE_CHECKING:``, which never runs.
"""

from __future__ import annotations

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[1] / "src"


def _modules() -> dict[str, pathlib.Path]:
    found = {}
    for path in (ROOT / "weakfs").rglob("*.py"):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def import_graph(type_only_edges: bool = False) -> dict[str, set[str]]:
    modules = _modules()
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        tree = ast.parse(path.read_text())
        type_only = {
            id(n)
            for block in ast.walk(tree)
            if isinstance(block, ast.If) and "TYPE_CHECKING" in ast.unparse(block.test)
            for stmt in block.body
            for n in ast.walk(stmt)
        }
        for node in ast.walk(tree):
            if id(node) in type_only and not type_only_edges:
                continue
            targets = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:  # relative import
                    anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*anchor, base] if base else anchor)
                subs = [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in modules]
                targets = subs or [base]
            for target in targets:
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if target and target.startswith("weakfs") and target != name:
                    graph[name].add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_cycle():
    assert cycles(import_graph()) == []


def test_no_cycle_closed_by_type_checking_imports():
    """A circle that only ``if TYPE_CHECKING:`` imports close is still a circle for a reader."""
    assert cycles(import_graph(type_only_edges=True)) == []


def test_a_cycle_is_found():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def _package(module: str) -> str:
    """The package a module belongs to for privacy: weakfs's first-level subpackage
    (``weakfs.pu._prior`` -> ``weakfs.pu``), or ``weakfs`` for the ground floor."""
    parts = module.split(".")
    return ".".join(parts[:2]) if len(parts) > 1 and not parts[1].startswith("_") else "weakfs"


def private_imports() -> list[str]:
    """Imports of a private module or name of another package (``from weakfs.pu._prior import
    x`` in ``weakfs.cli``); the ground floor (``weakfs._labels`` ...) is everyone's."""
    found = []
    for name, path in _modules().items():
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.ImportFrom) and (node.module or "").startswith("weakfs")):
                continue
            target = _package(node.module)
            if target in ("weakfs", _package(name)):
                continue
            private = any(part.startswith("_") for part in node.module.split(".")[2:])
            private |= any(alias.name.startswith("_") for alias in node.names)
            if private:
                found.append(f"{name}: from {node.module} import ...")
    return found


def test_no_package_imports_another_packages_private_names():
    assert private_imports() == []


def test_the_library_never_imports_the_experiments():
    """The experiments build on the library, never the other way round (the command line,
    which runs them, aside)."""
    graph = import_graph(type_only_edges=True)
    arrows = [
        f"{source} -> {target}"
        for source, targets in graph.items()
        for target in targets
        if target.startswith("weakfs.experiments")
        and not source.startswith(("weakfs.experiments", "weakfs.cli"))
    ]
    assert arrows == []
