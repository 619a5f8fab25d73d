"""The minimal-work floor: plain Python doing only the arithmetic of one turn.

No rules engine, no events, no validation messages: rows in, one dict or set look-up per move step,
fleets grouped by destination, contested provinces found, a battle per contested province in which
every live ship does a few operations per round, losers retreat to the first free neighbour, upkeep
per ship, the surviving ship rows out. It is what any adjudicator of such a turn must at least do,
written as directly as Python allows, so the engine's time can be stated as a multiple of it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

# A ship while the floor works on it: [id, fleet, owner, attack, health, max health, cost].
ID, FLEET, OWNER, ATTACK, HEALTH, MAX, COST = range(7)


@dataclass(frozen=True, slots=True)
class FloorInput:
    """The turn as row tuples (as a database query would give them) plus the static map."""

    neighbours: dict[str, frozenset[str]]
    sea_neighbours: dict[str, tuple[str, ...]]  # sorted, for the retreat's first free choice
    war: frozenset[tuple[str, str]]  # both orders of each pair at war
    fleet_rows: list[tuple[str, str, str]]  # id, owner, at
    ship_rows: list[tuple[str, str, str, int]]  # id, fleet, type, health
    type_rows: dict[str, tuple[int, int, int]]  # type -> cost, attack, max health
    order_rows: list[tuple[str, tuple[str, ...]]]  # fleet, path


@dataclass(slots=True)
class FloorStats:
    battles: int = 0
    rounds: int = 0
    ship_rounds: int = 0
    sunk: int = 0
    retreats: int = 0


def floor_input(doc: dict[str, Any]) -> FloorInput:
    """The generated scenario as rows (outside the timing, like a parsed map and a query)."""
    links: dict[str, set[str]] = {p["id"]: set() for p in doc["map"]["provinces"]}
    for a, b in doc["map"]["adjacent"]:
        links[a].add(b)
        links[b].add(a)
    war = set()
    for rel in doc["relations"]:
        if rel["state"] == "war":
            a, b = rel["between"]
            war.update({(a, b), (b, a)})
    seas = {p["id"] for p in doc["map"]["provinces"] if p["kind"] == "sea"}
    return FloorInput(
        neighbours={p: frozenset(n) for p, n in links.items()},
        sea_neighbours={p: tuple(sorted(n & seas)) for p, n in links.items()},
        war=frozenset(war),
        fleet_rows=[(f["id"], f["owner"], f["at"]) for f in doc["fleets"]],
        ship_rows=[
            (s["id"], f["id"], s["type"], s["health"]) for f in doc["fleets"] for s in f["ships"]
        ],
        type_rows={t["id"]: (t["cost"], t["attack"], t["health"]) for t in doc["ship_types"]},
        order_rows=[(o["fleet"], tuple(o["path"])) for o in doc["orders"]],
    )


def floor_turn(
    data: FloorInput, rounds: int, seed: int
) -> tuple[FloorStats, list[tuple[Any, ...]]]:
    """One turn's minimal work; returns the workload and the surviving ship rows."""
    turn = _Turn(data, rounds, seed)
    turn.load()
    turn.move()
    turn.upkeep()
    return turn.stats, [
        (s[ID], s[HEALTH], turn.at[f]) for f, ss in turn.ships_of.items() for s in ss
    ]


class _Turn:
    def __init__(self, data: FloorInput, rounds: int, seed: int) -> None:
        self.data = data
        self.rounds = rounds
        self.rng = random.Random(seed)
        self.stats = FloorStats()
        self.owner_of: dict[str, str] = {}
        self.at: dict[str, str] = {}
        self.ships_of: dict[str, list[list[Any]]] = {}
        self.done: set[str] = set()  # fleets that fought: their movement is over

    def load(self) -> None:
        """The rows into dicts."""
        owner_of, at, ships_of, types = self.owner_of, self.at, self.ships_of, self.data.type_rows
        for fid, owner, place in self.data.fleet_rows:
            owner_of[fid] = owner
            at[fid] = place
            ships_of[fid] = []
        for sid, fid, tid, health in self.data.ship_rows:
            cost, attack, top = types[tid]
            ships_of[fid].append([sid, fid, owner_of[fid], attack, health, top, cost])

    def move(self) -> None:
        """Orders checked with one set look-up per step; then step by step: move, group by
        province, fight in the contested ones."""
        neighbours, at, owner_of, war = self.data.neighbours, self.at, self.owner_of, self.data.war
        plans: dict[str, tuple[str, ...]] = {}
        for fid, path in self.data.order_rows:
            if fid not in at:
                continue
            here = at[fid]
            for place in path:
                if place not in neighbours[here]:
                    break
                here = place
            else:
                plans[fid] = path
        for step in range(max((len(p) for p in plans.values()), default=0)):
            origin: dict[str, str] = {}
            for fid, path in plans.items():
                if fid not in self.done and step < len(path) and fid in at:
                    origin[fid] = at[fid]
                    at[fid] = path[step]
            present: dict[str, list[str]] = {}
            for fid, place in at.items():
                present.setdefault(place, []).append(fid)
            for place, fids in present.items():
                if len(fids) < 2:
                    continue
                owners = sorted({owner_of[f] for f in fids})
                for owner in owners:
                    enemies = {o for o in owners if (owner, o) in war}
                    if enemies:
                        side_b = [f for f in fids if owner_of[f] in enemies]
                        side_a = [f for f in fids if owner_of[f] not in enemies]
                        self.battle(side_a, side_b)
                        self.after_battle(side_a, side_b, place, origin, present)
                        break

    def battle(self, side_a: list[str], side_b: list[str]) -> None:
        """Rounds until a side is gone or the cap: strengths, the initiative bonus, equal shares."""
        stats, rng = self.stats, self.rng
        stats.battles += 1
        a = [s for f in side_a for s in self.ships_of[f]]
        b = [s for f in side_b for s in self.ships_of[f]]
        for _ in range(self.rounds):
            if not a or not b:
                break
            stats.rounds += 1
            stats.ship_rounds += len(a) + len(b)
            roll_a, roll_b = rng.randint(1, 6), rng.randint(1, 6)
            strength_a, strength_b = _strength(a), _strength(b)
            if roll_a > roll_b:
                strength_a += (strength_a + 5) // 10
            elif roll_b > roll_a:
                strength_b += (strength_b + 5) // 10
            a, b = _hit(a, strength_b), _hit(b, strength_a)

    def after_battle(
        self,
        side_a: list[str],
        side_b: list[str],
        place: str,
        origin: dict[str, str],
        present: dict[str, list[str]],
    ) -> None:
        """Sunk ships go, every fighter stops, the weaker side's fleets retreat: back where they
        came from, else to the first adjacent sea without enemies."""
        at, ships_of, owner_of, war, stats = (
            self.at,
            self.ships_of,
            self.owner_of,
            self.data.war,
            self.stats,
        )
        for fid in (*side_a, *side_b):
            self.done.add(fid)
            kept = [s for s in ships_of[fid] if s[HEALTH] > 0]
            stats.sunk += len(ships_of[fid]) - len(kept)
            if kept:
                ships_of[fid] = kept
            else:
                del ships_of[fid], at[fid]
        strength_a = sum(_strength(ships_of[f]) for f in side_a if f in at)
        strength_b = sum(_strength(ships_of[f]) for f in side_b if f in at)
        for fid in side_b if strength_a >= strength_b else side_a:
            if fid not in at:
                continue
            owner = owner_of[fid]
            to = origin.get(fid)
            if to is None:
                for option in self.data.sea_neighbours[place]:
                    if not any((owner, owner_of[f]) in war for f in present.get(option, ())):
                        to = option
                        break
            if to is not None:
                at[fid] = to
                stats.retreats += 1

    def upkeep(self) -> None:
        """10 % of each ship's cost, rounded half up, from its owner's treasury."""
        treasury = dict.fromkeys(sorted(set(self.owner_of.values())), 100_000)
        for ships in self.ships_of.values():
            for ship in ships:
                treasury[ship[OWNER]] -= (ship[COST] + 5) // 10


def _strength(ships: list[list[Any]]) -> int:
    """Attack summed in half points, halved at half health or less."""
    total: int = sum(s[ATTACK] if 2 * s[HEALTH] <= s[MAX] else 2 * s[ATTACK] for s in ships)
    return total // 2


def _hit(ships: list[list[Any]], damage: int) -> list[list[Any]]:
    """Equal shares of the damage; the ships still afloat."""
    share = damage // len(ships)
    afloat = []
    for ship in ships:
        ship[HEALTH] -= min(share, ship[HEALTH])
        if ship[HEALTH]:
            afloat.append(ship)
    return afloat
