"""The written `final` line (docs/orders.md, docs/rulings.md R-89): a line of its own, in any
case, read as the faction's mark and not as an order; anything more on the line is no order
of the grammar."""

from __future__ import annotations

import pytest

from engine.naval.written import Lexicon, read_line, read_orders
from tests.engine.naval.worlds import fleet, sea_lane, world_of


def lexicon() -> Lexicon:
    world = world_of(sea_lane(fleet("final", "blue", "west"), fleet("b2", "blue", "west")))
    return Lexicon(world, provinces={}, ports={}, factions={"blue": "Blue", "red": "Red"})


@pytest.mark.parametrize("line", ["final", "FINAL", "  Final  ", "final."])
def test_final_alone_is_the_mark(line: str) -> None:
    read = read_line(line, 3, lexicon(), faction="blue")
    assert read is not None
    assert read.final is True
    assert (read.order, read.priority, read.refusal) == (None, None, None)
    assert read.number == 3


def test_a_fleet_called_final_still_takes_its_orders() -> None:
    read = read_line("final: hold", 1, lexicon(), faction="blue")
    assert read is not None
    assert read.final is False
    assert read.order is not None
    assert read.order["fleet"] == "final"
    assert read.order["type"] == "hold"


def test_more_on_the_line_is_refused_and_names_final() -> None:
    read = read_line("final answer", 1, lexicon(), faction="blue")
    assert read is not None
    assert read.refusal is not None
    assert read.refusal.code == "invalid_order"
    assert "(or are `final`)" in read.refusal.message


def test_final_is_read_where_it_stands() -> None:
    lines = read_orders("b2: hold\nfinal\n# done", lexicon(), faction="blue")
    assert [(line.number, line.final) for line in lines] == [(1, False), (2, True)]
