"""The board as PNG, for a post on a forum or Discord where SVG is not shown.

CairoSVG (pinned in requirements.txt) draws through Debian's libcairo2, which the image already
holds; nothing is downloaded at run time. The SVG is ours (`board_svg`: names only as escaped
text, no links to files or URLs) and is read with `unsafe=False`, so no entity or external
resource is ever fetched."""

from __future__ import annotations

import cairosvg

# Forum images are shown at about 1000-1500 pixels wide; the board's SVG units are smaller.
SCALE = 1.5
BACKGROUND = "#fbf8f0"


def board_png(svg: str, *, scale: float = SCALE) -> bytes:
    """The SVG drawn as PNG bytes, `scale` pixels per SVG unit, on the board's paper colour."""
    if scale <= 0:
        raise ValueError("scale must be positive")
    png = cairosvg.svg2png(
        bytestring=svg.encode("utf-8"), scale=scale, unsafe=False, background_color=BACKGROUND
    )
    if not isinstance(png, bytes):
        raise TypeError("cairosvg returned no PNG bytes")
    return png
