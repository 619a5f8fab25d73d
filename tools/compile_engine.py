"""Compile the seafaring engine's hot modules with mypyc: `make compiled` (issue 12's speed).

The engine stays plain, typed Python (standard library only); mypyc, which ships with mypy (a
development requirement already), translates the same sources to C extensions, which run the
same code about twice as fast. The build is optional and never stale:

- it writes the extensions into `engine/seafarers/_compiled/` (ignored by git), with `SOURCES`,
  the digest of every source of the package it was built from (`engine/seafarers/compiled.py`);
- `engine/seafarers/__init__.py` puts that folder first on the package's path only when
  `SOURCES` is the digest of the sources as they are now, so a source edited after a build runs
  as written until the next build, and a machine without a C compiler runs the same sources;
- `ADMIRALTY_PURE_ENGINE=1` runs the plain sources even when a build is there (the bench's
  plain-Python figures, tests/engine/seafarers/test_compiled.py's comparison of the two).

Which modules: those a game's actions run through (the board, the state, the checks and
appliers, the lists, the routes, what the pieces reach, chance, rules, refusals). The scenario
reader, the report, the bot and the generator stay plain: they run once per file or per bot
move, and the compiled modules are called from them like any other.

`python tools/compile_engine.py` (what `make compiled` runs) exits 0 after a build and when there
is no C compiler (it says so; the plain sources run), 1 on a failed build (make goes on with the
plain sources and says so too).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "engine" / "seafarers"
TARGET = PACKAGE / "_compiled"
MODULES = (
    "board",
    "state",
    "rules",
    "refusals",
    "chance",
    "routes",
    "reach",
    "game",
    "legal",
)
# The shared library of the group is a module of the package too, so that it is found on the
# package's path like the modules themselves (mypyc names it `<group>__mypyc`).
GROUP = "engine.seafarers._compiled_group"

SETUP = """
from setuptools import setup
from mypyc.build import mypycify

setup(
    name="admiralty-seafarers-compiled",
    packages=[],
    ext_modules=mypycify(
        {paths!r}, group_name={group!r}, opt_level="3", target_dir={c!r}
    ),
)
"""


def _compiler() -> str | None:
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    return shutil.which(compiler)


def main() -> int:
    sys.path.insert(0, str(ROOT))
    from engine.seafarers.compiled import compiled_digest

    if _compiler() is None:
        print("compile_engine: no C compiler found: the engine runs as plain Python")
        return 0
    with tempfile.TemporaryDirectory(prefix="admiralty-compile-") as work:
        out = Path(work) / "lib"
        paths = [f"engine/seafarers/{name}.py" for name in MODULES]
        script = Path(work) / "setup.py"
        c = str(Path(work) / "c")  # mypyc's generated C
        script.write_text(SETUP.format(paths=paths, group=GROUP, c=c), encoding="utf-8")
        build = [sys.executable, str(script), "build_ext", "--build-lib", str(out)]
        build += ["--build-temp", str(Path(work) / "temp")]
        done = subprocess.run(build, cwd=ROOT, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            print(done.stdout[-4000:], done.stderr[-4000:], sep="\n")
            print("compile_engine: the build failed: the engine runs as plain Python")
            return 1
        built = sorted((out / "engine" / "seafarers").glob("*.so"))
        if len(built) != len(MODULES) + 1:
            print(f"compile_engine: expected {len(MODULES) + 1} extensions, got {len(built)}")
            return 1
        if TARGET.exists():
            shutil.rmtree(TARGET)
        TARGET.mkdir()
        for extension in built:
            shutil.copy2(extension, TARGET / extension.name)
        (TARGET / "SOURCES").write_text(compiled_digest(PACKAGE), encoding="utf-8")
    print(f"compile_engine: {len(MODULES)} modules compiled into {TARGET.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
