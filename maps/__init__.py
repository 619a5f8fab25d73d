"""The campaign map as SVG (issue 4): plain Python, no Django models.

`map_svg(world_doc, layout, viewer=..., fog=..., orders=..., events=...)` draws it; a `Layout`
holds positions, names and colours (`layout_from_rows` builds one from database rows).
"""

from maps.layout import Layout, layout_from_rows
from maps.svg import map_svg

__all__ = ["Layout", "layout_from_rows", "map_svg"]
