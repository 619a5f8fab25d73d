"""New fleets' ids (docs/rulings.md R-26): the faction's own naming when its fleets share a
prefix and a number, else `<owner>-f<n>`; n the smallest unused. Players read these names."""

from __future__ import annotations

import pytest

from engine.kernel.dice import dice_for
from engine.naval import parse_scenario
from engine.naval.board import Board


def _board(fleet_ids: list[tuple[str, str]]) -> Board:
    doc = {
        "format": "naval-scenario/1",
        "map": {"provinces": [{"id": "k", "kind": "sea"}]},
        "factions": [{"id": "sweden"}, {"id": "denmark"}],
        "ship_types": [{"id": "sloop", "cost": 0, "attack": 1, "health": 1}],
        "fleets": [
            {"id": fid, "owner": owner, "at": "k", "ships": [{"id": f"{fid}/1", "type": "sloop"}]}
            for fid, owner in fleet_ids
        ],
    }
    world = parse_scenario(doc).world.copy_units()
    return Board(world, dice_for(0, ()))


@pytest.mark.parametrize(
    ("fleets", "owner", "new"),
    [
        ([("se-1", "sweden"), ("se-2", "sweden")], "sweden", ["se-3", "se-4"]),
        ([("se-2", "sweden")], "sweden", ["se-1", "se-3"]),  # the smallest unused
        ([("fl07", "sweden"), ("fl12", "sweden")], "sweden", ["fl01", "fl02"]),  # padded
        ([("se-1", "sweden"), ("flagship", "sweden")], "sweden", ["sweden-f1", "sweden-f2"]),
        ([("se-1", "sweden"), ("sw2", "sweden")], "sweden", ["sweden-f1", "sweden-f2"]),
        ([("se-1", "sweden")], "denmark", ["denmark-f1", "denmark-f2"]),  # no fleets of its own
        ([("d1", "sweden"), ("d2", "denmark")], "denmark", ["d3", "d4"]),  # ids used by anyone
    ],
)
def test_new_fleet_ids(fleets: list[tuple[str, str]], owner: str, new: list[str]) -> None:
    board = _board(fleets)
    assert [board.new_fleet_id(owner), board.new_fleet_id(owner)] == new
