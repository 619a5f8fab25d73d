"""The compiled build of the map's hot modules (tools/compile_engine.py, mypyc; issue 20's
200 ms) and their plain sources are one drawing: the same bytes for every map drawn, kept and
pickled, and a build is run only when it is the build of the sources as they are
(engine.kernel.compiled, as for the seafaring engine: tests/engine/seafarers/test_compiled.py).

Where a C compiler is installed, `make test` has built it (the Makefile's `compiled`), and the
build must be there and in use; without a compiler the map runs its sources."""

from __future__ import annotations

import copy
import pickle
import shutil
from pathlib import Path

import pytest

import maps
from engine.kernel.compiled import FOLDER, compiled_digest, compiled_folder
from maps.place import Box, Candidate, Placer
from tests.compiled_builds import EXTENSION, needs_compiler, same_bytes

SAME_BYTES = "tests.maps.same_bytes"
ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "maps"


@needs_compiler
def test_the_build_is_there_and_in_use() -> None:
    assert maps.COMPILED, "no fresh build of maps: run make compiled"
    import maps.model as model  # read once a drawing: left plain
    import maps.regions as regions

    assert Path(regions.__file__).suffix == EXTENSION
    assert model.__file__ == str(PACKAGE / "model.py")


@needs_compiler
def test_the_build_and_the_sources_draw_the_same_bytes() -> None:
    compiled, plain = same_bytes(SAME_BYTES, pure=False), same_bytes(SAME_BYTES, pure=True)
    assert (compiled["compiled"], plain["compiled"]) == (True, False)
    assert compiled["drawings"] == plain["drawings"] == 14
    assert compiled["digest"] == plain["digest"]


def test_the_maps_parts_are_pickled_and_copied_as_they_were() -> None:
    """What the cache pickles and the tests copy, in whichever build this process runs: a
    compiled class is a C type that a frozen dataclass's default unpickling cannot fill."""
    placer = Placer(Box(0.0, 0.0, 100.0, 100.0))
    placer.take(Box(10.0, 10.0, 30.0, 20.0), 2.0)
    dropped = placer.take(Box(0.0, 0.0, 50.0, 50.0))
    placer.drop(dropped)
    for again in (pickle.loads(pickle.dumps(placer)), copy.deepcopy(placer)):
        assert again.bounds == placer.bounds
        assert (
            again.covered(Box(0.0, 0.0, 20.0, 20.0))
            == placer.covered(Box(0.0, 0.0, 20.0, 20.0))
            == 200.0
        )


def test_a_build_of_other_sources_is_not_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ADMIRALTY_PURE_ENGINE", raising=False)
    package = tmp_path / "maps"
    shutil.copytree(PACKAGE, package, ignore=shutil.ignore_patterns(FOLDER, "__pycache__"))
    assert compiled_folder(package) is None  # no build at all
    (package / FOLDER).mkdir()
    (package / FOLDER / "SOURCES").write_text(compiled_digest(package), encoding="utf-8")
    assert compiled_folder(package) == str(package / FOLDER)
    with (package / "regions.py").open("a", encoding="utf-8") as source:
        source.write("\n# edited after the build\n")
    assert compiled_folder(package) is None  # the edited source runs as written
    monkeypatch.setenv("ADMIRALTY_PURE_ENGINE", "1")
    (package / FOLDER / "SOURCES").write_text(compiled_digest(package), encoding="utf-8")
    assert compiled_folder(package) is None  # the plain sources on request


def test_a_box_and_a_place_are_values_as_the_dataclasses_were() -> None:
    """Box and Candidate are plain classes for the compiled build's speed (maps/place.py):
    equal, hashed and shown by their fields as the frozen dataclasses they were, pickled and
    copied whole, and never equal to another kind of thing."""
    box = Box(1.0, 2.0, 3.5, 4.0)
    place = Candidate(box, 0.4, 1)
    assert box == Box(1.0, 2.0, 3.5, 4.0) != Box(1.0, 2.0, 3.5, 4.5)
    assert hash(box) == hash((1.0, 2.0, 3.5, 4.0))
    assert repr(box) == "Box(x0=1.0, y0=2.0, x1=3.5, y1=4.0)"
    assert place == Candidate(Box(1.0, 2.0, 3.5, 4.0), 0.4, 1) != Candidate(box, 0.4, 0)
    assert repr(place) == f"Candidate(box={box!r}, penalty=0.4, step=1)"
    assert len({box, Box(1.0, 2.0, 3.5, 4.0)}) == 1
    assert box != (1.0, 2.0, 3.5, 4.0)
    for value in (box, place):
        assert pickle.loads(pickle.dumps(value)) == value == copy.deepcopy(value)
