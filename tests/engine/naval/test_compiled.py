"""The compiled build of the naval engine (tools/compile_engine.py, mypyc; issue 23's speed) and
its plain sources are one engine: the recorded bytes of every rule case, generated turn and hard
situation (test_golden.py), and the same legal orders and odds for the desk, from both; and a
build is run only when it is the build of the sources as they are (engine/kernel/compiled.py,
tested for every package in tests/maps/test_compiled.py).

Where a C compiler is installed, `make test` has built it (the Makefile's `compiled`), and the
build must be there and in use; without a compiler the engine runs its sources."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

import engine.naval as naval

ROOT = Path(__file__).resolve().parents[3]
PACKAGE = ROOT / "engine" / "naval"
COMPILER = shutil.which((sysconfig.get_config_var("CC") or "cc").split()[0])

needs_compiler = pytest.mark.skipif(
    COMPILER is None, reason="no C compiler: the engine runs as plain Python"
)


def _same_bytes(pure: bool) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k != "ADMIRALTY_PURE_ENGINE"}
    if pure:
        env["ADMIRALTY_PURE_ENGINE"] = "1"
    done = subprocess.run(
        [sys.executable, "-m", "tests.engine.naval.same_bytes"],
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


@needs_compiler
def test_the_build_is_there_and_in_use() -> None:
    assert naval.COMPILED, "no fresh build of engine/naval: run make compiled"
    import engine.naval.scenario as scenario  # read once a file: left plain
    import engine.naval.turn as turn

    assert Path(turn.__file__).suffix == Path(sysconfig.get_config_var("EXT_SUFFIX")).suffix
    assert scenario.__file__ == str(PACKAGE / "scenario.py")


@needs_compiler
def test_the_build_and_the_sources_give_the_recorded_bytes() -> None:
    compiled, plain = _same_bytes(pure=False), _same_bytes(pure=True)
    assert (compiled["compiled"], plain["compiled"]) == (True, False)
    assert compiled["results"] == plain["results"] > 500
    assert compiled["changed"] == plain["changed"] == []
    assert compiled["desk"] == plain["desk"]
