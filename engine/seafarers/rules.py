"""The scenario's `rules` block (seafarers-format.md "Input"), defaults as the rulebook's."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

RESOURCES = ("brick", "wood", "wool", "grain", "ore")  # never gold (GD3)
CARDS = ("knight", "victory_point", "road_building", "year_of_plenty", "monopoly")
DECK = {"knight": 14, "victory_point": 5, "road_building": 2, "year_of_plenty": 2, "monopoly": 2}
PIECE_KINDS = ("roads", "ships", "settlements", "cities")

# B3, SH1: costs as counts in RESOURCES order (brick, wood, wool, grain, ore).
COST_ROAD: Final = (1, 1, 0, 0, 0)
COST_SHIP: Final = (0, 1, 1, 0, 0)  # SH1: the sail and the hull
COST_SETTLEMENT: Final = (1, 1, 1, 1, 0)
COST_CITY: Final = (0, 0, 0, 2, 3)
COST_DEV: Final = (0, 0, 1, 1, 1)


@dataclass(frozen=True, slots=True)
class Rules:
    victory_points: int = 10  # PV5
    discard_limit: int = 7  # B11
    longest_route_min: int = 5  # LR4
    largest_army_min: int = 3  # B17
    bank: int = 19  # B10
    svp_new_island: int = 0  # X19
    setup_islands: tuple[str, ...] | None = None  # B20
    roads: int = 15  # B2
    ships: int = 15
    settlements: int = 5
    cities: int = 4

    def as_dict(self) -> dict[str, object]:
        return {
            "victory_points": self.victory_points,
            "discard_limit": self.discard_limit,
            "longest_route_min": self.longest_route_min,
            "largest_army_min": self.largest_army_min,
            "bank": self.bank,
            "svp_new_island": self.svp_new_island,
            "setup_islands": None if self.setup_islands is None else list(self.setup_islands),
            "pieces": {
                "roads": self.roads,
                "ships": self.ships,
                "settlements": self.settlements,
                "cities": self.cities,
            },
        }


RULE_KEYS = frozenset(
    {
        "victory_points",
        "discard_limit",
        "longest_route_min",
        "largest_army_min",
        "bank",
        "svp_new_island",
        "setup_islands",
        "pieces",
    }
)
