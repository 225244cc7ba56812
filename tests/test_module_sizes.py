"""Size rules of the source: files and functions a reader can hold in mind.

No source file over ``MAX_SOURCE_LINES`` lines (an experiment's over ``MAX_EXPERIMENT_LINES``),
no function body over ``MAX_BODY_LINES`` lines, its docstring not counted.  A numba kernel that
is one loop nest (splitting it would cost a call per node or pass its state through many
arguments) may be longer when its docstring says so with the words ``one loop nest``.
"""

from __future__ import annotations

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1] / "src" / "weakfs"
MAX_SOURCE_LINES = 600
MAX_EXPERIMENT_LINES = 400
MAX_BODY_LINES = 100
#: the docstring words that let a numba kernel's single loop nest be longer
KERNEL_EXCUSE = "one loop nest"

SOURCES = sorted(ROOT.rglob("*.py"))


def _limit(path: pathlib.Path) -> int:
    experiment = "experiments" in path.relative_to(ROOT).parts
    return MAX_EXPERIMENT_LINES if experiment else MAX_SOURCE_LINES


def body_lines(function: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """Lines from the first statement after the docstring to the function's end."""
    body = function.body
    if (
        len(body) > 1
        and isinstance(body[0], ast.Expr)
        and isinstance(body[0].value, ast.Constant)
        and isinstance(body[0].value.value, str)
    ):
        body = body[1:]
    return function.end_lineno - body[0].lineno + 1


def _is_excused_kernel(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    compiled = any("jit" in ast.unparse(d) for d in function.decorator_list)
    return compiled and KERNEL_EXCUSE in (ast.get_docstring(function) or "").lower()


def long_functions(path: pathlib.Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        lines = body_lines(node)
        if lines > MAX_BODY_LINES and not _is_excused_kernel(node):
            found.append(f"{path.relative_to(ROOT)}:{node.name} ({lines} lines)")
    return found


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_source_file_is_short(path):
    lines = len(path.read_text().splitlines())
    limit = _limit(path)
    assert lines <= limit, f"{path.relative_to(ROOT)} has {lines} lines (at most {limit})"


def test_no_function_body_over_the_limit():
    found = [entry for path in SOURCES for entry in long_functions(path)]
    assert found == [], f"function bodies over {MAX_BODY_LINES} lines: {found}"


def test_body_lines_leave_out_the_docstring():
    tree = ast.parse('def f():\n    """Doc.\n\n    More.\n    """\n    x = 1\n    return x\n')
    assert body_lines(tree.body[0]) == 2


def test_a_kernel_is_excused_only_with_the_words_and_a_jit_decorator():
    plain = ast.parse('def f():\n    """one loop nest"""\n    pass\n').body[0]
    kernel = ast.parse('@njit\ndef f():\n    """one loop nest"""\n    pass\n').body[0]
    silent = ast.parse('@njit\ndef f():\n    """a kernel"""\n    pass\n').body[0]
    assert [_is_excused_kernel(f) for f in (plain, kernel, silent)] == [False, True, False]
