"""The naval engine's modules import each other one way only (no cycle, no import hidden in a
function to dodge one): retreat decides and returns, the battle code fights (encounter.py)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

NAVAL = Path(__file__).resolve().parents[3] / "engine" / "naval"
MODULES = sorted(NAVAL.glob("*.py"))


def _imports(path: Path) -> tuple[set[str], list[str]]:
    """The engine.naval modules a file imports at the top, and any import inside a function."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top = {
        node.module.rsplit(".", 1)[-1]
        for node in tree.body
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("engine.naval.")
    }
    hidden = [
        ast.unparse(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        for inner in ast.walk(node)
        if isinstance(inner, ast.Import | ast.ImportFrom)
        and (getattr(inner, "module", "") or "").startswith("engine.")
    ]
    return top, hidden


@pytest.mark.parametrize("path", MODULES, ids=[p.stem for p in MODULES])
def test_no_import_inside_a_function(path: Path) -> None:
    _, hidden = _imports(path)
    assert not hidden, f"{path.name} imports inside a function: {hidden}"


def test_no_import_cycle() -> None:
    graph = {p.stem: _imports(p)[0] & {m.stem for m in MODULES} for p in MODULES}

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        for nxt in graph.get(start, set()):
            if nxt == goal or (nxt not in seen and reaches(nxt, goal, seen | {nxt})):
                return True
        return False

    cycles = [m for m in graph if reaches(m, m, {m})]
    assert not cycles, f"modules in an import cycle: {cycles}"
