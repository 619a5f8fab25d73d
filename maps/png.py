"""An SVG drawing as PNG, for a forum or Discord, which show no SVG (issue 11, the forum export).

CairoSVG (pinned in requirements.txt, already the seafaring board's: seafarers/board_png.py)
draws through Debian's libcairo2; nothing is fetched at run time. The SVG is ours (maps/svg.py:
names only as escaped text, no links to files or URLs) and is read with `unsafe=False`, so no
entity or external resource is ever fetched even if one slipped in. Pure: no Django."""

from __future__ import annotations

import cairosvg

# The map's SVG is 1000 units wide; forums show images about 1000-1500 pixels wide.
SCALE = 1.5
PAPER = "#ffffff"  # under the map's own background, where its bounds leave a margin


def svg_png(svg: str, *, scale: float = SCALE, background: str = PAPER) -> bytes:
    """The SVG drawn as PNG bytes, `scale` pixels per SVG unit."""
    if not scale > 0:
        raise ValueError("scale must be positive")
    png = cairosvg.svg2png(
        bytestring=svg.encode("utf-8"), scale=scale, unsafe=False, background_color=background
    )
    if not isinstance(png, bytes) or not png.startswith(b"\x89PNG\r\n\x1a\n"):
        raise TypeError("cairosvg returned no PNG")
    return png
