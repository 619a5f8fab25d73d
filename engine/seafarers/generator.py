"""A seeded random board (seafarers-format.md "Board"): a main island, islands across the sea,
a gold field, harbours on the main island's coast, the robber on the desert, the pirate at sea.

The same seed gives the same board (`random.Random(f"{seed}:board")`). `new_game` wraps a board
into a scenario document at the start of setup (B20), for playouts, the bot and the benches.
"""

from __future__ import annotations

import random
from typing import Any

from engine.seafarers.board import NEIGHBOUR

MAIN_TERRAINS = (
    ["hills"] * 3 + ["forest"] * 4 + ["pasture"] * 4 + ["fields"] * 4 + ["mountains"] * 3
)
NUMBERS = [2, 3, 3, 4, 4, 5, 5, 6, 6, 8, 8, 9, 9, 10, 10, 11, 11, 12]
ISLAND_TERRAINS = ["hills", "forest", "pasture", "fields", "mountains"]
# Invented names for the islands across the sea: the format gives an island only its `id`
# (seafarers-format.md "Board"), and the pages show that id to the players ("forest 6 on
# Skerrow"), so a generated island's id is a name, never a number (docs/rulings.md S-48). The
# main island keeps the id "main", which a moderator names in the setup islands (B20).
ISLAND_NAMES = (
    "Amberly",
    "Brinholm",
    "Corvenna",
    "Dunmarrow",
    "Eskeray",
    "Fallowen",
    "Gullsey",
    "Harrowick",
    "Isbrand",
    "Kelmoor",
    "Lanthorn",
    "Mirrowdeep",
    "Northey",
    "Oskaval",
    "Pellandry",
    "Quillon",
    "Rookhaven",
    "Skerrow",
    "Tarnsey",
    "Ulvaskar",
    "Vennock",
    "Wrackmoor",
    "Yarrowby",
    "Zelmarsh",
)


def _distance(q: int, r: int) -> int:
    return max(abs(q), abs(r), abs(q + r))


def _ring(radius: int) -> list[tuple[int, int]]:
    return [
        (q, r)
        for q in range(-radius, radius + 1)
        for r in range(-radius, radius + 1)
        if _distance(q, r) == radius
    ]


def generate_board(seed: int) -> dict[str, Any]:
    """A board document: 19 land hexes in the middle (one desert), the sea round them, three
    islands of two hexes on the rim (one with a gold field), each named from ISLAND_NAMES, nine
    harbours."""
    rng = random.Random(f"{seed}:board")
    main = sorted((q, r) for q in range(-2, 3) for r in range(-2, 3) if _distance(q, r) <= 2)
    terrains = list(MAIN_TERRAINS)
    rng.shuffle(terrains)
    desert = rng.randrange(len(main))
    terrains.insert(desert, "desert")
    numbers = list(NUMBERS)
    rng.shuffle(numbers)
    hexes: list[dict[str, Any]] = []
    for (q, r), terrain in zip(main, terrains, strict=True):
        cell: dict[str, Any] = {"q": q, "r": r, "terrain": terrain}
        if terrain != "desert":
            cell["number"] = numbers.pop()
        hexes.append(cell)
    rim = sorted(_ring(4))
    # three islands of two neighbouring rim hexes, a third of the rim apart
    start = rng.randrange(len(rim))
    ordered = sorted(rim, key=lambda h: _angle(h))
    start = rng.randrange(len(ordered))
    island_cells: list[list[tuple[int, int]]] = []
    for k in range(3):
        i = (start + k * len(ordered) // 3) % len(ordered)
        island_cells.append([ordered[i], ordered[(i + 1) % len(ordered)]])
    land_rim = {cell for island in island_cells for cell in island}
    gold_island = rng.randrange(3)
    # Drawn from a generator of their own, so that the board's other draws stay as they were.
    names = random.Random(f"{seed}:island names").sample(ISLAND_NAMES, len(island_cells))
    islands = [{"id": "main", "hexes": [f"{q},{r}" for q, r in main]}]
    for k, cells in enumerate(island_cells):
        for j, (q, r) in enumerate(cells):
            terrain = "gold" if (k == gold_island and j == 0) else rng.choice(ISLAND_TERRAINS)
            hexes.append({"q": q, "r": r, "terrain": terrain, "number": rng.choice(NUMBERS)})
        islands.append({"id": names[k], "hexes": [f"{q},{r}" for q, r in cells]})
    sea = sorted(_ring(3)) + [h for h in rim if h not in land_rim]
    for q, r in sea:
        hexes.append({"q": q, "r": r, "terrain": "sea"})
    # harbours on the main island's coast: the sides facing the sea (ring 3)
    coast = []
    for q, r in main:
        if _distance(q, r) != 2:
            continue
        for side, (dq, dr) in NEIGHBOUR.items():
            if _distance(q + dq, r + dr) == 3:
                coast.append(f"{q},{r},{side}")
    rng.shuffle(coast)
    kinds = ["generic"] * 4 + ["brick", "wood", "wool", "grain", "ore"]
    harbours = [{"edge": edge, "kind": kind} for edge, kind in zip(coast[::3], kinds, strict=False)]
    desert_hex = main[desert]
    pirate = rng.choice(sorted(_ring(3)))
    return {
        "hexes": hexes,
        "harbours": harbours,
        "islands": islands,
        "robber": f"{desert_hex[0]},{desert_hex[1]}",
        "pirate": f"{pirate[0]},{pirate[1]}",
    }


def _angle(cell: tuple[int, int]) -> float:
    import math

    q, r = cell
    x = q + r / 2
    y = r * math.sqrt(3) / 2
    return math.atan2(y, x)


def new_game(
    board: dict[str, Any], players: list[str], seed: int, rules: dict[str, Any] | None = None
) -> dict[str, Any]:
    """A scenario document at the first setup settlement (B20)."""
    document: dict[str, Any] = {
        "format": "seafarers-scenario/1",
        "seed": seed,
        "board": board,
        "players": [{"id": p} for p in players],
        "turn": {"number": 0, "player": players[0], "phase": "setup_settlement", "setup_round": 1},
    }
    if rules:
        document["rules"] = rules
    return document
