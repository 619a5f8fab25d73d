"""The world a turn starts from: map, factions, relations, ship types, fleets (naval.md W1–W8).

Map, factions and ship types are frozen values. Fleets and ships are plain slotted objects because a
turn moves and damages them; `resolve_turn` works on its own copy (`World.copy_units`) and never
changes the world it is given.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum

from engine.naval.rules import Rules

PIRATES = "pirates"  # W3: the reserved faction, at war with everyone


class Relation(StrEnum):
    """W3."""

    WAR = "war"
    PEACE = "peace"
    ALLIANCE = "alliance"


@dataclass(frozen=True, slots=True)
class Province:
    """W1: a node of the map graph."""

    id: str
    kind: str  # "sea" | "land"

    @property
    def is_sea(self) -> bool:
        return self.kind == "sea"


@dataclass(frozen=True, slots=True)
class Port:
    """W2 / X1: a port in a land province, opening onto adjacent sea provinces (its waters)."""

    id: str
    province: str
    owner: str
    waters: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Map:
    """W1, W2: provinces, adjacency and ports."""

    provinces: dict[str, Province]
    neighbours: dict[str, tuple[str, ...]]  # sorted by id, for deterministic choices
    ports: dict[str, Port]
    # The sea provinces next to each province (retreats and evasions ask often): derived.
    _seas: dict[str, tuple[str, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        seas = {
            place: tuple(p for p in near if self.is_sea(p))
            for place, near in self.neighbours.items()
        }
        object.__setattr__(self, "_seas", seas)

    def is_sea(self, place: str) -> bool:
        province = self.provinces.get(place)
        return province is not None and province.is_sea

    def adjacent(self, a: str, b: str) -> bool:
        return b in self.neighbours.get(a, ())

    def sea_neighbours(self, place: str) -> tuple[str, ...]:
        return self._seas.get(place, ())


@dataclass(frozen=True, slots=True)
class ShipType:
    """W4."""

    id: str
    cost: int
    attack: int
    health: int


@dataclass(frozen=True, slots=True)
class Faction:
    """A faction's economy (U1, U2): treasury, income and the fleets it pays first."""

    id: str
    treasury: int = 0
    income: int = 0
    upkeep_priority: tuple[str, ...] = ()


class Relations:
    """W3: war, peace or alliance between each pair of factions (default peace).

    Immutable after construction; the pairs at war and in alliance are kept as sets of ordered
    pairs, both ways round, because encounters ask "hostile?" many times a step."""

    __slots__ = ("_allied", "_war", "pairs")

    def __init__(self, pairs: dict[tuple[str, str], Relation] | None = None) -> None:
        self.pairs: dict[tuple[str, str], Relation] = dict(pairs or {})  # (low id, high id)
        self._war = frozenset(
            p for (a, b), r in self.pairs.items() if r is Relation.WAR for p in ((a, b), (b, a))
        )
        self._allied = frozenset(
            p
            for (a, b), r in self.pairs.items()
            if r is Relation.ALLIANCE
            for p in ((a, b), (b, a))
        )

    def between(self, a: str, b: str) -> Relation:
        if a == b:
            return Relation.ALLIANCE
        if a == PIRATES or b == PIRATES:
            return Relation.WAR
        return self.pairs.get((a, b) if a < b else (b, a), Relation.PEACE)

    def hostile(self, a: str, b: str) -> bool:
        """W3: hostile means at war; pirates are at war with all but themselves."""
        return a != b and (a == PIRATES or b == PIRATES or (a, b) in self._war)

    def friendly(self, a: str, b: str) -> bool:
        """Own or allied (M3, P1, W7)."""
        return a == b or (a != PIRATES and b != PIRATES and (a, b) in self._allied)


class Ship:
    """W4: a ship of a type, with its current health and its owner (W7: owners keep their ships)."""

    __slots__ = ("health", "id", "owner", "type")

    def __init__(self, id: str, type: ShipType, health: int, owner: str) -> None:
        self.id = id
        self.type = type
        self.health = health
        self.owner = owner

    def copy(self) -> Ship:
        return Ship(self.id, self.type, self.health, self.owner)

    @property
    def attack2(self) -> int:
        """D2 in half points: a ship at half health or less fights with half its attack."""
        attack = self.type.attack
        return attack if 2 * self.health <= self.type.health else 2 * attack


class Fleet:
    """W5: an owner (its commander), a position (a sea province, or a port when docked), ships."""

    __slots__ = ("adrift", "at", "blockading", "docked", "id", "mp_penalty", "owner", "ships")

    def __init__(
        self,
        id: str,
        owner: str,
        at: str,
        ships: list[Ship],
        *,
        docked: bool = False,
        mp_penalty: int = 0,
        blockading: str | None = None,
        adrift: bool = False,
    ) -> None:
        self.id = id
        self.owner = owner
        self.at = at
        self.ships = ships
        self.docked = docked
        self.mp_penalty = mp_penalty
        self.blockading = blockading
        self.adrift = adrift

    def copy(self) -> Fleet:
        return Fleet(
            self.id,
            self.owner,
            self.at,
            [s.copy() for s in self.ships],
            docked=self.docked,
            mp_penalty=self.mp_penalty,
            blockading=self.blockading,
            adrift=self.adrift,
        )

    @property
    def attack2(self) -> int:
        return sum(s.attack2 for s in self.ships)


@dataclass(slots=True)
class World:
    """Everything a turn starts from except the orders and dice."""

    rules: Rules
    map: Map
    factions: dict[str, Faction]
    relations: Relations
    ship_types: dict[str, ShipType]
    fleets: dict[str, Fleet]  # in file order; new fleets are appended

    def copy_units(self) -> World:
        """A world whose fleets and ships can be changed without touching this one."""
        return World(
            self.rules,
            self.map,
            dict(self.factions),
            self.relations,
            self.ship_types,
            {fid: f.copy() for fid, f in self.fleets.items()},
        )

    def ships(self) -> Iterable[Ship]:
        for fleet in self.fleets.values():
            yield from fleet.ships

    def blockaders_of(self, port: str) -> list[str]:
        return [f.id for f in self.fleets.values() if f.blockading == port]
