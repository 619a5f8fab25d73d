"""The seafaring engine's boundaries (issue 12): standard library and engine.kernel only; no
Django, no naval engine, no clock, no I/O."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[3] / "engine" / "seafarers"
FORBIDDEN_CALLS = {"open", "print", "input"}
FORBIDDEN_MODULES = {"time", "datetime", "os", "pathlib", "io", "socket", "subprocess", "django"}
# compiled.py reads the package's own sources once at import, to tell whether its compiled
# build is theirs (tools/compile_engine.py), and the switch that turns it off: no game's I/O.
ALLOWED = {"compiled.py": {"pathlib"}}  # the reading itself: engine.kernel.compiled


def imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


def test_only_the_standard_library_and_the_kernel() -> None:
    for path in sorted(ENGINE.glob("*.py")):
        for module in imports(path):
            top = module.split(".")[0]
            if top == "engine":
                assert module.startswith(("engine.kernel", "engine.seafarers")), (path.name, module)
                continue
            assert top in sys.stdlib_module_names, (path.name, module)
            assert top not in FORBIDDEN_MODULES - ALLOWED.get(path.name, set()), (path.name, module)


def test_no_io_calls() -> None:
    for path in sorted(ENGINE.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in FORBIDDEN_CALLS, (path.name, node.func.id)
