"""Compile the hot modules of both engines and of the naval map with mypyc: `make compiled`
(issue 12's speed for the seafaring engine, issue 23's for the naval one, issue 20's 200 ms for
the map).

Both stay plain, typed Python; mypyc, which ships with mypy (a development requirement
already), translates the same sources to C extensions, which run the same code faster (each
engine about twice, the map's first drawing of a large world about 1.8 times). The build is
optional and never stale:

- each package's extensions go into its `_compiled/` folder (ignored by git), with `SOURCES`,
  the digest of every source of the package it was built from (`engine/kernel/compiled.py`);
- the package's `__init__.py` puts that folder first on its path only when `SOURCES` is the
  digest of the sources as they are now, so a source edited after a build runs as written until
  the next build, and a machine without a C compiler runs the same sources;
- `ADMIRALTY_PURE_ENGINE=1` runs the plain sources even when a build is there (the bench's
  plain-Python figures, the tests' comparisons of the two: tests/engine/seafarers/
  test_compiled.py, tests/maps/test_compiled.py).

Which modules: in the naval engine, those a turn and a desk's choices run through (the world,
the orders and their checks, movement, encounters, battles, retreats, captures, blockades, the
economy, fog, the legal orders, the odds); the scenario reader, the report, written orders and
the pirates' suggestions run once per file, page or turn and stay plain. The scenario reader
was tried compiled (a 2,000-fleet world parsed in 81 ms instead of 169): mypyc checks every
argument against its annotation at run time, and the reader is handed files of any shape (a
list where the map should be: a TypeError instead of the file's problems, found by
tests/fuzz), so it stays plain Python, which reads whatever it is given. In the seafaring
engine, those a game's actions run through (the board, the state, the
checks and appliers, the lists, the routes, what the pieces reach, chance, rules, refusals;
the scenario reader, the report, the bot and the generator run once per file or per bot move
and stay plain). In the map, those a drawing's geometry, labels and marks run through (the
regions, the placer, the labels, the geometry, the marks, the drawing of each part, the
legend); the model, the layout, a campaign's own drawing and the SVG's assembly stay plain.

`python tools/compile_engine.py` (what `make compiled` runs) builds each package whose build is
missing or stale and exits 0 after that, and when there is no C compiler (it says so; the plain
sources run); 1 on a failed build (make goes on with the plain sources and says so too).
`--force` builds both again.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True, slots=True)
class Build:
    package: str  # its folder under ROOT, "/"-separated
    modules: tuple[str, ...]

    @property
    def folder(self) -> Path:
        return ROOT / self.package

    @property
    def group(self) -> str:
        # The shared library of the group is a module of the package too, so that it is found
        # on the package's path like the modules themselves (mypyc names it `<group>__mypyc`).
        return self.package.replace("/", ".") + "._compiled_group"


BUILDS = (
    Build(
        "engine/naval",
        (
            "battle",
            "blockade",
            "board",
            "capture",
            "economy",
            "encounter",
            "fleet_orders",
            "fog",
            "legal",
            "movement",
            "odds",
            "orders",
            "refusals",
            "retreat",
            "rules",
            "turn",
            "validation",
            "world",
        ),
    ),
    Build(
        "engine/seafarers",
        ("board", "state", "rules", "refusals", "chance", "routes", "reach", "game", "legal"),
    ),
    Build("maps", ("regions", "place", "labels", "geometry", "marks", "draw", "legend", "svg")),
)

SETUP = """
from setuptools import setup
from mypyc.build import mypycify

setup(
    name="admiralty-compiled",
    packages=[],
    ext_modules=mypycify(
        {paths!r}, group_name={group!r}, opt_level="3", target_dir={c!r}
    ),
)
"""


def _compiler() -> str | None:
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    return shutil.which(compiler)


def build(target: Build) -> bool:
    """Compile one package's modules into its `_compiled/`; False (and why, printed) if not."""
    from engine.kernel.compiled import FOLDER, compiled_digest

    with tempfile.TemporaryDirectory(prefix="admiralty-compile-") as work:
        out = Path(work) / "lib"
        paths = [f"{target.package}/{name}.py" for name in target.modules]
        script = Path(work) / "setup.py"
        c = str(Path(work) / "c")  # mypyc's generated C
        script.write_text(SETUP.format(paths=paths, group=target.group, c=c), encoding="utf-8")
        command = [sys.executable, str(script), "build_ext", "--build-lib", str(out)]
        command += ["--build-temp", str(Path(work) / "temp")]
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            print(done.stdout[-4000:], done.stderr[-4000:], sep="\n")
            print(f"compile_engine: the build of {target.package} failed: it runs as plain Python")
            return False
        built = sorted((out / target.package).glob("*.so"))
        if len(built) != len(target.modules) + 1:
            expected = len(target.modules) + 1
            print(f"compile_engine: expected {expected} extensions, got {len(built)}")
            return False
        into = target.folder / FOLDER
        if into.exists():
            shutil.rmtree(into)
        into.mkdir()
        for extension in built:
            shutil.copy2(extension, into / extension.name)
        (into / "SOURCES").write_text(compiled_digest(target.folder), encoding="utf-8")
    count = len(target.modules)
    print(f"compile_engine: {count} modules compiled into {target.package}/{FOLDER}")
    return True


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(ROOT))
    from engine.kernel.compiled import FOLDER, compiled_digest

    if _compiler() is None:
        print("compile_engine: no C compiler found: the engines and the map run as plain Python")
        return 0
    failed = False
    for target in BUILDS:
        stamp = target.folder / FOLDER / "SOURCES"
        fresh = stamp.exists() and stamp.read_text(encoding="utf-8") == compiled_digest(
            target.folder
        )
        if fresh and "--force" not in argv:
            print(f"compile_engine: {target.package}/{FOLDER} is the build of its sources")
            continue
        failed |= not build(target)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
