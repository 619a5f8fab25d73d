"""What the tests of a compiled build share (tools/compile_engine.py: the naval engine, the
seafaring engine, the map): whether there is a C compiler to build with, and a module's digest
of what its package gives, printed by a fresh process running the build or the plain sources."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
COMPILER = shutil.which((sysconfig.get_config_var("CC") or "cc").split()[0])
EXTENSION = Path(sysconfig.get_config_var("EXT_SUFFIX")).suffix

needs_compiler = pytest.mark.skipif(
    COMPILER is None, reason="no C compiler: the package runs as plain Python"
)


def same_bytes(module: str, *, pure: bool) -> dict[str, object]:
    """`python -m module`'s JSON answer, in a process running the compiled build (or, `pure`,
    the plain sources: ADMIRALTY_PURE_ENGINE=1)."""
    env = {k: v for k, v in os.environ.items() if k != "ADMIRALTY_PURE_ENGINE"}
    if pure:
        env["ADMIRALTY_PURE_ENGINE"] = "1"
    done = subprocess.run(
        [sys.executable, "-m", module],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    answer: dict[str, object] = json.loads(done.stdout)
    return answer
