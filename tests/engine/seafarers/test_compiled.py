"""The compiled build of the seafaring engine (tools/compile_engine.py, mypyc; issue 12's speed)
and its plain sources are one engine: the same bytes for every case and every game, and a
build is run only when it is the build of the sources as they are.

Where a C compiler is installed, `make test` has built it (the Makefile's `compiled`), and the
build must be there and in use: a broken build fails here rather than running as plain Python
unnoticed. Without a compiler there is nothing to compare, and the engine runs its sources.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import engine.seafarers as seafarers
from engine.seafarers.compiled import FOLDER, compiled_digest, compiled_folder
from tests.compiled_builds import EXTENSION, needs_compiler, same_bytes

SAME_BYTES = "tests.engine.seafarers.same_bytes"
ROOT = Path(__file__).resolve().parents[3]
PACKAGE = ROOT / "engine" / "seafarers"


@needs_compiler
def test_the_build_is_there_and_in_use() -> None:
    assert seafarers.COMPILED, "no fresh build of engine/seafarers: run make compiled"
    import engine.seafarers.game as game

    assert Path(game.__file__).suffix == EXTENSION
    import engine.seafarers.scenario as scenario  # read once a file: left plain

    assert scenario.__file__ == str(PACKAGE / "scenario.py")


@needs_compiler
def test_the_build_and_the_sources_give_the_same_bytes() -> None:
    compiled, plain = same_bytes(SAME_BYTES, pure=False), same_bytes(SAME_BYTES, pure=True)
    assert (compiled["compiled"], plain["compiled"]) == (True, False)
    assert compiled["cases"] == plain["cases"] > 100
    assert compiled["digest"] == plain["digest"]


def _package_copy(tmp_path: Path) -> Path:
    copy = tmp_path / "seafarers"
    copy.mkdir()
    for source in PACKAGE.glob("*.py"):
        shutil.copy2(source, copy / source.name)
    return copy


def test_a_build_of_other_sources_is_not_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ADMIRALTY_PURE_ENGINE", raising=False)
    package = _package_copy(tmp_path)
    assert compiled_folder(package) is None  # no build at all
    (package / FOLDER).mkdir()
    (package / FOLDER / "SOURCES").write_text(compiled_digest(package), encoding="utf-8")
    assert compiled_folder(package) == str(package / FOLDER)
    with (package / "game.py").open("a", encoding="utf-8") as source:
        source.write("\n# edited after the build\n")
    assert compiled_folder(package) is None  # the edited source runs as written
    (package / FOLDER / "SOURCES").write_text(compiled_digest(package), encoding="utf-8")
    monkeypatch.setenv("ADMIRALTY_PURE_ENGINE", "1")
    assert compiled_folder(package) is None  # the plain sources on request
