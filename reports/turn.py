"""What a report needs to know about a turn beyond a single event: who commands each fleet, where
each ship serves at each moment of the turn, who owns each port, who is at war with whom."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

Doc = dict[str, Any]
Event = dict[str, Any]

PIRATES = "pirates"  # W3: the reserved faction at war with everyone


class Crews:
    """Each ship's fleet and owner, kept up to date event by event: battles need to know which
    side a ship fought on at that moment (splits, merges and captures earlier in the turn count)."""

    def __init__(self, fleets: list[Doc]) -> None:
        self.fleet: dict[str, str] = {}
        self.owner: dict[str, str] = {}
        for fleet in fleets:
            for ship in fleet["ships"]:
                self.fleet[ship["id"]] = fleet["id"]
                self.owner[ship["id"]] = ship.get("owner", fleet["owner"])

    def ships_in(self, fleet: str) -> list[str]:
        return [ship for ship, where in self.fleet.items() if where == fleet]

    def apply(self, event: Event) -> None:
        kind, ships = event["type"], event.get("ships", [])
        target = {
            "split": event.get("new_fleet"),
            "merged": event.get("into"),
            "captured": event.get("fleet"),
            "hired": event.get("fleet"),
            "bought_out": (event.get("fleets") or [event.get("fleet")])[0],
            "mutiny": event.get("fleet"),
            "disbanded": event.get("pirate_fleet"),
        }.get(kind)
        owner = {
            "captured": event.get("to_faction"),
            "hired": event.get("faction"),
            "bought_out": event.get("faction"),
            "mutiny": PIRATES,
            "disbanded": PIRATES,
        }.get(kind)
        for ship in ships:
            if target:
                self.fleet[ship] = target
            if owner:
                self.owner[ship] = owner


class Turn:
    """A locked turn's scenario and its result, read together."""

    def __init__(self, scenario: Doc, result: Doc) -> None:
        self.scenario = scenario
        self.result = result
        self.events: list[Event] = result.get("events", [])
        ports = scenario.get("map", {}).get("ports", [])
        self.port_owner: dict[str, str] = {p["id"]: p["owner"] for p in ports}
        self.fleet_owner = _fleet_owners(scenario, result)
        self._wars = {
            frozenset(r["between"])
            for r in scenario.get("relations", [])
            if r.get("state") == "war"
        }
        rules = scenario.get("rules", {})
        self.bonus_rate: float = rules.get("bonus_rate", 0.1)
        self.max_rounds: int = rules.get("max_rounds", 10)

    def owner(self, fleet: str | None) -> str:
        """The fleet's commanding faction ('' for a fleet nobody ever had)."""
        return self.fleet_owner.get(fleet or "", "")

    def is_port(self, key: str) -> bool:
        return key in self.port_owner

    def hostile(self, a: str, b: str) -> bool:
        """W3: at war, and pirates are at war with everyone."""
        if a == b:
            return False
        return PIRATES in (a, b) or frozenset((a, b)) in self._wars

    def treasury_start(self, faction: str) -> int:
        """X26: a treasury defaults to 0."""
        for item in self.scenario.get("factions", []):
            if item["id"] == faction:
                return int(item.get("treasury", 0))
        return 0

    def treasury_end(self, faction: str) -> int:
        for item in self.result.get("state", {}).get("factions", []):
            if item["id"] == faction:
                return int(item.get("treasury", 0))
        return 0

    def walk(self) -> Iterator[tuple[Event, Crews]]:
        """Each event with the crews as they stood just before it."""
        crews = Crews(self.scenario.get("fleets", []))
        for event in self.events:
            yield event, crews
            crews.apply(event)


def _fleet_owners(scenario: Doc, result: Doc) -> dict[str, str]:
    """A fleet keeps its commander for life, so one map serves the whole turn: the locked world's
    fleets, then the fleets the turn created (named by the events), then the result's."""
    owners = {f["id"]: f["owner"] for f in scenario.get("fleets", [])}
    for event in result.get("events", []):
        kind = event["type"]
        if kind == "split":
            owners.setdefault(event["new_fleet"], owners.get(event["fleet"], ""))
        elif kind in ("hired", "bought_out"):
            for fleet in event.get("fleets", [event.get("fleet")]):
                owners.setdefault(fleet, event["faction"])
        elif kind == "captured":
            for fleet in event.get("fleets", [event.get("fleet")]):
                owners.setdefault(fleet, event["to_faction"])
        elif kind == "mutiny":
            owners.setdefault(event["fleet"], PIRATES)
        elif kind == "disbanded":
            owners.setdefault(event["pirate_fleet"], PIRATES)
    for fleet in result.get("state", {}).get("fleets", []):
        owners.setdefault(fleet["id"], fleet["owner"])
    return owners
