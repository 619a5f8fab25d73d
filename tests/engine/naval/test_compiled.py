"""The compiled build of the naval engine (tools/compile_engine.py, mypyc; issue 23's speed) and
its plain sources are one engine: the recorded bytes of every rule case, generated turn and hard
situation (test_golden.py), and the same legal orders and odds for the desk, from both; and a
build is run only when it is the build of the sources as they are (engine/kernel/compiled.py,
tested for every package in tests/maps/test_compiled.py).

Where a C compiler is installed, `make test` has built it (the Makefile's `compiled`), and the
build must be there and in use; without a compiler the engine runs its sources."""

from __future__ import annotations

from pathlib import Path

import engine.naval as naval
from tests.compiled_builds import EXTENSION, needs_compiler, same_bytes

SAME_BYTES = "tests.engine.naval.same_bytes"
ROOT = Path(__file__).resolve().parents[3]
PACKAGE = ROOT / "engine" / "naval"


@needs_compiler
def test_the_build_is_there_and_in_use() -> None:
    assert naval.COMPILED, "no fresh build of engine/naval: run make compiled"
    import engine.naval.scenario as scenario  # files of any shape: left plain (compile_engine)
    import engine.naval.turn as turn

    assert Path(turn.__file__).suffix == EXTENSION
    assert scenario.__file__ == str(PACKAGE / "scenario.py")


@needs_compiler
def test_the_build_and_the_sources_give_the_recorded_bytes() -> None:
    compiled, plain = same_bytes(SAME_BYTES, pure=False), same_bytes(SAME_BYTES, pure=True)
    assert (compiled["compiled"], plain["compiled"]) == (True, False)
    assert compiled["results"] == plain["results"] > 500
    assert compiled["changed"] == plain["changed"] == []
    assert compiled["desk"] == plain["desk"]
