"""The board as PNG: a real PNG of the SVG's size times the scale, with a picture in it."""

from __future__ import annotations

import struct
import zlib

import pytest

from seafarers.board_png import board_png
from seafarers.board_svg import board_svg
from tests.seafarers.board.helpers import crafted, parse

SIGNATURE = b"\x89PNG\r\n\x1a\n"


def chunks(png: bytes) -> list[tuple[bytes, bytes]]:
    out, at = [], len(SIGNATURE)
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        kind = png[at + 4 : at + 8]
        out.append((kind, png[at + 8 : at + 8 + length]))
        at += 12 + length
    return out


def test_the_png_decodes_at_the_svgs_size_and_is_not_blank() -> None:
    svg = board_svg(crafted(), viewer=None)
    root = parse(svg)
    png = board_png(svg, scale=2.0)
    assert png.startswith(SIGNATURE)
    found = chunks(png)
    assert found[0][0] == b"IHDR"
    assert found[-1][0] == b"IEND"
    width, height = struct.unpack(">II", found[0][1][:8])
    assert (width, height) == (2 * int(root.get("width", "")), 2 * int(root.get("height", "")))
    # The row through the hexes' centres (y = 0): the legend beside them may be blank there.
    board_row = round(-float((root.get("viewBox") or "").split()[1]) * 2.0)
    assert len(set(pixel_row(found, height, board_row))) > 20
    blank = board_png('<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"/>')
    assert len(set(pixel_row(chunks(blank), 150, 75))) < 5  # what the check above tells apart


def pixel_row(found: list[tuple[bytes, bytes]], height: int, at: int) -> bytes:
    """The bytes of the image's row `at`. Rows start with a filter byte, the rest are pixels:
    a blank image has one colour, the board sea, land, tokens and pieces — many byte values."""
    pixels = zlib.decompress(b"".join(data for kind, data in found if kind == b"IDAT"))
    row = len(pixels) // height
    return pixels[row * at + 1 : row * (at + 1)]


def test_a_bad_scale_is_refused() -> None:
    with pytest.raises(ValueError, match="scale"):
        board_png(board_svg(crafted(), viewer=None), scale=0)
