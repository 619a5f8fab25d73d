"""The board's places in words (issue 13: the desk's list read "a city at -1,-1,S on home"):
a land hex by terrain and number, a sea hex by the land hex beside it, a corner or a side as one
of a hex, with the island and the harbour there; every place its own words, on the bundled
boards and on generated ones (docs/rulings.md S-39)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from engine.seafarers import generate_board, legal_actions, new_game, parse_scenario
from seafarers.board_places import Places
from seafarers.board_targets import targets_of
from seafarers.boards import BUNDLED, bundled_document

COORDINATES = re.compile(r"-?\d+,-?\d+")


def small_isles():
    return parse_scenario(bundled_document("small-isles")).state.copy()


def every_place(state) -> tuple[list[str], list[str], list[str]]:
    places, board = Places(state), state.board
    hexes = [places.hex(h.id) for h in board.hexes]
    nodes = [places.node(n) for n in board.node_names]
    edges = [places.edge((board.node_names[a], board.node_names[b])) for a, b in board.edge_nodes]
    return hexes, nodes, edges


def test_corners_sides_and_hexes_read_as_the_board_shows_them() -> None:
    places = Places(small_isles())
    assert places.hex("0,-1") == "forest 6 on home"
    assert places.hex("-1,-1") == "the sea west of forest 6 on home"
    assert places.node("0,-1,N") == "the north corner of forest 6 on home"
    assert places.edge(("0,-1,N", "1,-2,S")) == "the north-east side of forest 6 on home"
    harboured = [p for p in every_place(small_isles())[1] if "wool" in p]
    assert harboured == [
        "the north corner of pasture 4 on home, at a 2:1 wool harbour",
        "the north-east corner of pasture 4 on home, at a 2:1 wool harbour",
    ]
    assert "the west side of forest 6 on home, at a 3:1 harbour" in every_place(small_isles())[2]


def test_the_desks_list_has_no_coordinates_on_land() -> None:
    """Before: "build a settlement at -1,0,N on home"."""
    state = small_isles()
    player = state.players[state.player]
    labels = [t.label for t in targets_of(legal_actions(state, player), player, Places(state))]
    assert "build a settlement at the north-west corner of fields 9 on home" in labels
    assert not [label for label in labels if COORDINATES.search(label)]


@pytest.mark.parametrize("board", sorted(BUNDLED))
def test_every_place_of_a_bundled_board_has_words_of_its_own(board) -> None:
    hexes, nodes, edges = every_place(parse_scenario(bundled_document(board)).state.copy())
    for words in (hexes, nodes, edges):
        assert len(set(words)) == len(words)


@pytest.mark.parametrize("seed", range(12))
def test_every_place_of_a_generated_board_has_words_of_its_own(seed) -> None:
    state = parse_scenario(new_game(generate_board(seed), ["red", "blue"], 0)).state.copy()
    hexes, nodes, edges = every_place(state)
    for words in (hexes, nodes, edges):
        assert len(set(words)) == len(words)


def test_two_hexes_with_the_same_words_keep_their_coordinates() -> None:
    document = bundled_document("small-isles")
    board = document["board"]
    forest = next(h for h in board["hexes"] if h["terrain"] == "forest" and h.get("number") == 8)
    forest["number"] = 6  # now two "forest 6" on home
    places = Places(parse_scenario(document).state.copy())
    assert places.hex("0,-1") == "forest 6 (0,-1) on home"
    assert (
        places.hex(f"{forest['q']},{forest['r']}")
        == f"forest 6 ({forest['q']},{forest['r']}) on home"
    )


@pytest.mark.django_db
def test_the_desk_lists_places_in_words(client, game, people) -> None:
    client.force_login(people["ann"])  # red, to settle first
    page = client.get(reverse("seafarers_desk", args=["isles"])).content.decode()
    options = re.findall(r"<option value=\"[^\"]*\">([^<]*)</option>", page)
    settle = [o for o in options if o.startswith("build a settlement")]
    assert settle
    assert not [o for o in settle if COORDINATES.search(o)]


@pytest.mark.parametrize("seed", range(12))
def test_open_water_is_named_by_its_nearest_land_not_by_coordinates(seed) -> None:
    """Issue 20 §4: "the sea two hexes west of forest 9", never "the open sea at -2,5"."""
    state = parse_scenario(new_game(generate_board(seed), ["red", "blue"], 0)).state.copy()
    places = Places(state)
    sea = [h for h in state.board.hexes if h.terrain == "sea"]
    words = [places.hex(h.id) for h in sea]
    assert not [w for w in words if "open sea" in w]
    far = [w for w in words if " hexes " in w]
    assert far  # a generated board's rim has sea no land touches
    assert all(
        w.startswith("the sea two hexes ") or w.startswith("the sea three hexes ") for w in far
    )


def test_the_log_says_the_sea_once() -> None:
    """A pirate moved to a sea hex: "to the sea east of …", not "to the the sea east of …"."""
    from seafarers.log_report import _hex

    places = Places(parse_scenario(bundled_document("small-isles")).state.copy())
    sea = next(h for h in places.hex_words if places.hex_terrain[h] == "sea")
    forest = next(h for h in places.hex_words if places.hex_terrain[h] == "forest")
    assert _hex(sea, places).startswith("the sea ")
    assert not _hex(sea, places).startswith("the the")
    assert _hex(forest, places) == f"the {places.hex(forest)}"


@pytest.mark.django_db
def test_a_generated_games_desk_names_its_islands(client) -> None:
    """Issue 20 §4: the desk read "forest 6 on isle2"; its islands are names now (S-48)."""
    from django.contrib.auth import get_user_model

    from seafarers.services import game_create, game_start

    make = get_user_model().objects.create_user
    mod, ann = make("mod", password="x"), make("ann", password="x")
    game = game_create(name="G", slug="gen", moderator=mod, generator_seed=7, seats=["ann", None])
    game_start(game=game, user=mod)
    names = [i["id"] for i in game.first_position["board"]["islands"][1:]]
    client.force_login(ann)  # red, to settle first, anywhere (setup_islands: null)
    page = client.get(reverse("seafarers_desk", args=["gen"])).content.decode()
    options = re.findall(r"<option value=\"[^\"]*\">([^<]*)</option>", page)
    for name in names:
        assert [o for o in options if o.endswith(f" on {name}")], name
    assert not re.search(r"\bisle\d", page)
