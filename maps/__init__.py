"""The campaign map as SVG (issue 4): plain Python, no Django models.

`map_svg(world_doc, layout, viewer=..., fog=..., orders=..., events=...)` draws it; a `Layout`
holds positions, names and colours (`layout_from_rows` builds one from database rows).
"""

# ruff: noqa: E402 (the package's path is set before its modules are imported)

from pathlib import Path

from engine.kernel.compiled import compiled_folder

# The compiled build of the drawing's hot modules (tools/compile_engine.py: the regions, the
# placer, the labels, the marks), when it is that of these sources; every other module, and
# every module without a fresh build, are the sources below. The same bytes either way
# (tests/maps/test_compiled.py); the build is what brings a first drawing of a large world
# near issue 20's 200 ms (docs/benchmarks.md, "The area map").
_COMPILED = compiled_folder(Path(__file__).resolve().parent)
if _COMPILED is not None:
    __path__.insert(0, _COMPILED)
COMPILED = _COMPILED is not None

from maps.layout import Layout, layout_from_rows
from maps.svg import map_svg

__all__ = ["COMPILED", "Layout", "layout_from_rows", "map_svg"]
