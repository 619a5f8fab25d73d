"""The board a turn is played on: the world's fleets, where they are, and what each did this turn.

One `Board` lives for one `resolve_turn`. The rule modules (movement, encounter, battle, retreat,
capture, blockade, economy) read and change it; nothing else does.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from engine.kernel.dice import Dice
from engine.naval.orders import DEFAULT_STANDING, FleetOrder, Standing
from engine.naval.refusals import Refusal
from engine.naval.world import Fleet, Ship, World

Event = dict[str, Any]


def pick(options: list[str], preferred: tuple[str, ...]) -> str:
    """The first of the fleet's own list that is possible, else the lowest province id (R3, E2)."""
    for place in preferred:
        if place in options:
            return place
    return min(options)


@dataclass(slots=True)
class FleetTurn:
    """What one fleet is doing this turn (M5, X4): its plan, points spent and what happened."""

    order: FleetOrder | None
    points: int
    plan: list[tuple[str, str]] = field(default_factory=list)  # ("sea"|"enter"|"blockade", id)
    spent: int = 0
    origin: tuple[str, bool] | None = None  # (at, docked) before this step's move (R2)
    entered_step: int = 0  # the step in which it last entered its province (E3)
    done: bool = False  # its movement has ended (M5, M7, E2)
    moved: bool = False
    fought: bool = False
    evaded: bool = False
    retreated: bool = False
    joined_support: bool = False  # S3 / X10
    won: bool = False  # X18: a fleet that won a battle in the port's waters may blockade

    @property
    def standing(self) -> Standing:
        return self.order.standing if self.order is not None else DEFAULT_STANDING

    @property
    def points_left(self) -> int:
        return self.points - self.spent


class Board:
    """The mutable state of the turn being resolved."""

    def __init__(self, world: World, dice: Dice) -> None:
        self.world = world
        self.rules = world.rules
        self.map = world.map
        self.relations = world.relations
        self.fleets = world.fleets
        self.dice = dice
        self.events: list[Event] = []
        self.refusals: list[Refusal] = []
        self.turns: dict[str, FleetTurn] = {}
        # Where each fleet at sea is (docked fleets are not in it): province -> {fleet id: fleet}.
        self.at_sea: dict[str, dict[str, Fleet]] = {}
        for fleet in self.fleets.values():
            if not fleet.docked:
                self.at_sea.setdefault(fleet.at, {})[fleet.id] = fleet
        # X18: during movement a port's blockade stays as it was when the turn began.
        self.start_blockades: dict[str, list[str]] = {}
        self.start_positions = {f.id: f.at for f in self.fleets.values()}
        for fleet in self.fleets.values():
            if fleet.blockading is not None:
                self.start_blockades.setdefault(fleet.blockading, []).append(fleet.id)
        self._used_fleet_ids = set(self.fleets)
        self._fleet_naming = own_fleet_naming(world)
        self._used_ship_ids = {s.id for s in world.ships()}
        # S2: support orders not yet used, in fleet-id order: fleet id -> supported faction.
        self.pending_support: dict[str, str] = {}
        self.new_adrift: set[str] = set()  # X22: fleets that went adrift this turn
        # X29: pairs of sides (by their factions) that parted (D6): they do not fight each other
        # again this turn, wherever they meet.
        self.parted: set[frozenset[frozenset[str]]] = set()
        self._id_counters: dict[str, int] = {}
        # X35: the fleets the engine formed this turn (prizes, bought crews, mutineers, hires),
        # in the order formed: they pay upkeep after the fleets the turn began with.
        self.formed_order: dict[str, int] = {}
        self.battle_count: dict[tuple[int, str], int] = {}
        # Why a blockading fleet's blockade ends, when it ends during movement (B2).
        self.lift_reasons: dict[str, str] = {}

    # --- events -----------------------------------------------------------------------------

    def log(self, type_: str, **fields: Any) -> Event:
        event: Event = {"type": type_, **fields}
        self.events.append(event)
        return event

    # --- relations between fleets --------------------------------------------------------------

    def hostile(self, a: Fleet, b: Fleet) -> bool:
        return self.relations.hostile(a.owner, b.owner)

    def present(self, province: str) -> list[Fleet]:
        """Fleets taking part in encounters in a sea province: not docked, not adrift (X25)."""
        return [f for f in self.at_sea.get(province, {}).values() if not f.adrift]

    def hostile_present(self, fleet: Fleet, province: str) -> bool:
        hostile = self.relations.hostile
        return any(
            not other.adrift and hostile(fleet.owner, other.owner)
            for other in self.at_sea.get(province, {}).values()
        )

    # --- changing the board ---------------------------------------------------------------------

    def place(self, fleet: Fleet, at: str, *, docked: bool) -> None:
        if not fleet.docked:
            self.at_sea[fleet.at].pop(fleet.id, None)
        fleet.at = at
        fleet.docked = docked
        if not docked:
            self.at_sea.setdefault(at, {})[fleet.id] = fleet

    def add_fleet(self, fleet: Fleet, *, formed: bool = False) -> None:
        """A new fleet on the board: split off by an order, or `formed` by the engine (X35)."""
        if formed:
            self.formed_order[fleet.id] = len(self.formed_order)
        self.fleets[fleet.id] = fleet
        self._used_fleet_ids.add(fleet.id)
        if not fleet.docked:
            self.at_sea.setdefault(fleet.at, {})[fleet.id] = fleet
        self.turns.setdefault(fleet.id, FleetTurn(None, 0, done=True))

    def remove_fleet(self, fleet: Fleet) -> None:
        """A fleet with no ships left is gone (sunk, captured, merged, bought or mutinied)."""
        del self.fleets[fleet.id]
        if not fleet.docked:
            self.at_sea[fleet.at].pop(fleet.id, None)

    def drop_ships(self, fleet: Fleet, ships: Iterable[Ship]) -> None:
        gone = {id(s) for s in ships}
        fleet.ships = [s for s in fleet.ships if id(s) not in gone]
        if not fleet.ships:
            self.remove_fleet(fleet)

    def new_fleet_id(self, owner: str) -> str:
        """The faction's own naming when its fleets share one (`se-1`, `se-2` → `se-3`), else
        `<owner>-f<n>`; n the smallest not yet used (docs/rulings.md R-26)."""
        prefix, width = self._fleet_naming.get(owner, (f"{owner}-f", 1))
        return self._next_id(prefix, self._used_fleet_ids, width)

    def new_ship_id(self, owner: str) -> str:
        return self._next_id(f"{owner}-s", self._used_ship_ids)

    def reserve_fleet_id(self, fleet_id: str) -> None:
        self._used_fleet_ids.add(fleet_id)

    def join_or_form(
        self, owner: str, ships: list[Ship], into: Fleet | None, at: str, *, docked: bool
    ) -> list[str]:
        """D10, P3, U4: ships join `into` up to `fleet_limit` (when given); the rest form new
        fleets of `owner` at `at`. The ids of the fleets that received ships, in order."""
        fleets: list[str] = []
        if into is not None:
            room = max(0, self.rules.fleet_limit - len(into.ships))
            if ships[:room]:
                into.ships.extend(ships[:room])
                fleets.append(into.id)
            ships = ships[room:]
        fleets += [f.id for f in self.form_fleets(owner, at, ships, docked=docked)]
        return fleets

    def form_fleets(self, owner: str, at: str, ships: list[Ship], *, docked: bool) -> list[Fleet]:
        """New fleets of at most `fleet_limit` ships each (D10, P3, U2, U4)."""
        limit = self.rules.fleet_limit
        formed = []
        for start in range(0, len(ships), limit):
            fleet = Fleet(
                self.new_fleet_id(owner), owner, at, ships[start : start + limit], docked=docked
            )
            self.add_fleet(fleet, formed=True)
            formed.append(fleet)
        return formed

    def battle_stream(self, step: int, province: str) -> str:
        """The dice stream of the next battle in this province and step (independent streams)."""
        key = (step, province)
        n = self.battle_count[key] = self.battle_count.get(key, 0) + 1
        return f"battle:{step}:{province}:{n}"

    def _next_id(self, prefix: str, used: set[str], width: int = 1) -> str:
        n = self._id_counters.get(prefix, 1)
        while f"{prefix}{n:0{width}d}" in used:
            n += 1
        self._id_counters[prefix] = n + 1
        new_id = f"{prefix}{n:0{width}d}"
        used.add(new_id)
        return new_id


_NUMBERED = re.compile(r"(.*\D)(\d+)")  # a prefix ending in a non-digit, then a number


def own_fleet_naming(world: World) -> dict[str, tuple[str, int]]:
    """R-26: factions whose fleets, as the turn begins, are all named one prefix and a number
    (`se-1`, `se-2`; `fl07`, `fl12`) name new fleets the same way: faction -> (prefix, digits),
    the digits zero-padded as the faction pads them. Players read these names."""
    found: dict[str, set[tuple[str, int]]] = {}
    for fleet in world.fleets.values():
        match = _NUMBERED.fullmatch(fleet.id)
        if match is None:
            found.setdefault(fleet.owner, set()).add(("", 0))  # breaks the pattern
            continue
        prefix, number = match.groups()
        width = len(number) if number.startswith("0") and len(number) > 1 else 1
        found.setdefault(fleet.owner, set()).add((prefix, width))
    naming = {}
    for owner, forms in found.items():
        prefixes = {prefix for prefix, _ in forms}
        if len(prefixes) == 1 and "" not in prefixes:
            naming[owner] = (prefixes.pop(), max(width for _, width in forms))
    return naming
