"""The seeded board generator names its islands (issue 20 §4: a player read "forest 6 on isle2"):
each island across the sea has an invented name as its id (seafarers-format.md "Board" gives an
island an `id` and nothing else; docs/rulings.md S-48), drawn from the seed on a generator of its
own, so that every other part of a board is what it was before the names."""

from __future__ import annotations

import hashlib
import json
import re

import pytest

from engine.seafarers import parse_scenario
from engine.seafarers.generator import ISLAND_NAMES, generate_board, new_game

# The boards of seeds 0-49 with their islands' ids left out, as the generator made them when
# the islands were "isle1" to "isle3" (commit 9af0631): the names changed nothing else.
BOARDS_WITHOUT_IDS = "711f78aef21967dcf67f4ea5c4c52379b07a7c39a755b6086160e0b66d50968a"


@pytest.mark.parametrize("seed", range(40))
def test_every_island_across_the_sea_has_a_name_of_its_own(seed: int) -> None:
    ids = [island["id"] for island in generate_board(seed)["islands"]]
    assert ids[0] == "main"
    assert len(ids) == 4
    assert all(i in ISLAND_NAMES for i in ids[1:])
    assert len(set(ids)) == len(ids)
    assert not [i for i in ids if re.fullmatch(r"isle\d*", i)]
    parse_scenario(new_game(generate_board(seed), ["red", "blue"], seed))  # a valid file


def test_the_same_seed_gives_the_same_names_and_seeds_differ() -> None:
    def names(seed: int) -> list[str]:
        return [island["id"] for island in generate_board(seed)["islands"]]

    assert names(7) == names(7)
    assert len({tuple(names(seed)) for seed in range(20)}) > 10


def test_the_names_change_nothing_else_on_the_board() -> None:
    boards = []
    for seed in range(50):
        board = generate_board(seed)
        board["islands"] = [island["hexes"] for island in board["islands"]]
        boards.append(board)
    text = json.dumps(boards, sort_keys=True)
    assert hashlib.sha256(text.encode()).hexdigest() == BOARDS_WITHOUT_IDS
