"""Orders as values (scenario-format.md "Orders"; naval.md W5, M, B1, S2, P, U4).

Fleet orders carry the standing battle keys (E2, D5, D6, R3, R4). Economy orders (hire, repair,
disband, buyout) are carried out in the economy phase (X19). `index` is the order's place in the
file, which refusals name.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction


@dataclass(frozen=True, slots=True)
class RetreatWhen:
    """D6 / X12: when a side asks to leave a battle."""

    below: Fraction | None = None  # strength below this share of the strength at the start
    after_round: int | None = None  # after this round and every later one

    @property
    def never(self) -> bool:
        return self.below is None and self.after_round is None


NEVER = RetreatWhen()


@dataclass(frozen=True, slots=True)
class Standing:
    """The standing battle keys every fleet order takes (defaults: the scenario format's)."""

    stance: str = "engage"  # E2: engage | evade
    retreat: RetreatWhen = NEVER  # D6
    prefer: str = "sink"  # D5: sink | capture
    retreat_to: tuple[str, ...] = ()  # R3, R4
    evade_to: tuple[str, ...] = ()  # E2
    if_cornered: str = "surrender"  # R4, R5: surrender | attack


DEFAULT_STANDING = Standing()


@dataclass(frozen=True, slots=True)
class FleetOrder:
    """hold, move, enter_port, blockade, support, split or merge: one per fleet (X23)."""

    index: int
    fleet: str
    type: str
    standing: Standing = DEFAULT_STANDING
    path: tuple[str, ...] = ()  # move, enter_port, blockade
    port: str | None = None  # enter_port, blockade
    faction: str | None = None  # support
    ships: tuple[str, ...] = ()  # split
    new_fleet: str | None = None  # split
    into: str | None = None  # merge


@dataclass(frozen=True, slots=True)
class Hire:
    """P1, P3."""

    index: int
    faction: str
    port: str
    ship_type: str
    count: int
    fleet: str | None = None


@dataclass(frozen=True, slots=True)
class Repair:
    """P2."""

    index: int
    fleet: str
    ships: tuple[str, ...] | None = None  # default: every damaged ship


@dataclass(frozen=True, slots=True)
class Disband:
    """U4."""

    index: int
    fleet: str
    ships: tuple[str, ...] | None = None  # default: the whole fleet


@dataclass(frozen=True, slots=True)
class Buyout:
    """U4, X22."""

    index: int
    faction: str
    fleet: str
    adrift_fleet: str
    offer: int | None = None  # per ship; default: the price


EconomyOrder = Hire | Repair | Disband | Buyout
Order = FleetOrder | EconomyOrder

FLEET_ORDER_TYPES = frozenset(
    {"hold", "move", "enter_port", "blockade", "support", "split", "merge"}
)
ECONOMY_ORDER_TYPES = frozenset({"hire", "repair", "disband", "buyout"})
STANDING_KEYS = frozenset({"stance", "retreat", "prefer", "retreat_to", "evade_to", "if_cornered"})

# The keys each order type takes (scenario-format.md); any other key makes the file invalid (X23).
ORDER_KEYS: dict[str, frozenset[str]] = {
    "hold": frozenset({"fleet"}) | STANDING_KEYS,
    "move": frozenset({"fleet", "path"}) | STANDING_KEYS,
    "enter_port": frozenset({"fleet", "port", "path"}) | STANDING_KEYS,
    "blockade": frozenset({"fleet", "port", "path"}) | STANDING_KEYS,
    "support": frozenset({"fleet", "faction"}) | STANDING_KEYS,
    "split": frozenset({"fleet", "ships", "new_fleet"}) | STANDING_KEYS,
    "merge": frozenset({"fleet", "into"}) | STANDING_KEYS,
    "hire": frozenset({"faction", "port", "ship_type", "count", "fleet"}),
    "repair": frozenset({"fleet", "ships"}),
    "disband": frozenset({"fleet", "ships"}),
    "buyout": frozenset({"faction", "fleet", "adrift_fleet", "offer"}),
}
ALL_ORDER_KEYS = frozenset({"type"}).union(*ORDER_KEYS.values())


@dataclass(frozen=True, slots=True)
class RawOrder:
    """An order as written, before it is checked (X23): its place, its type and its keys."""

    index: int
    data: dict[str, object] = field(default_factory=dict)

    @property
    def type(self) -> object:
        return self.data.get("type")
