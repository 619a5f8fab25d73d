"""The private report of one faction: what its fleets did and met, its money, its refused orders.

Fog of war, kept simple: a fleet of another faction is named only if it fought in (or supported)
a battle with this faction's fleets; anywhere else it is "an enemy fleet" (or "a foreign fleet")."""

from __future__ import annotations

from collections.abc import Callable

from reports.battles import battle_detail
from reports.model import Battle, Ledger, Report, Section
from reports.names import Names
from reports.orders import refused_orders
from reports.turn import Crews, Event, Turn

# Why a blockade ended (B2, X18), as the engine's `reason` says it.
LIFT_REASONS = {
    "moved": "the fleet sailed away",
    "evaded": "the fleet evaded",
    "retreated": "the fleet retreated",
    "sunk": "the fleet was sunk",
    "captured": "the fleet was captured",
    "surrendered": "the fleet surrendered",
    "merged": "the fleet merged into another",
    "crews gone": "the crews left",
    "not_hostile": "the war is over",
}


def lift_reason(event: Event) -> str:
    reason = str(event.get("reason", ""))
    return LIFT_REASONS.get(reason, reason.replace("_", " "))


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


class FactionWriter:
    """Goes through the turn's events once, keeping those that concern the faction, and turns
    them into the report's sections."""

    def __init__(self, turn: Turn, faction: str, names: Names) -> None:
        self.turn, self.faction, self.names = turn, faction, names
        self.moves: list[str] = []
        self.battles: list[Battle] = []
        self.captures: list[str] = []
        self.blockades: list[str] = []
        self.economy: list[str] = []
        self.money: list[tuple[str, int]] = []
        self.met = self._met()
        self._dispatch = self._writers()

    # --- who is who ----------------------------------------------------------------------------

    def ours(self, fleet: str | None) -> bool:
        return self.turn.owner(fleet) == self.faction

    def _involved(self, event: Event, crews: Crews) -> bool:
        """W7: a joint fleet carrying this faction's ships involves it too."""
        fleets = [f for s in ("A", "B") for f in event["sides"][s] + event["supporters"][s]]
        return any(
            self.ours(f) or any(crews.owner.get(s) == self.faction for s in crews.ships_in(f))
            for f in fleets
        )

    def _met(self) -> set[str]:
        met: set[str] = set()
        for event, crews in self.turn.walk():
            if event["type"] == "battle" and self._involved(event, crews):
                for s in ("A", "B"):
                    met.update(event["sides"][s] + event["supporters"][s])
        return met

    def fleet(self, fleet: str) -> str:
        owner = self.turn.owner(fleet)
        if owner == self.faction:
            return fleet
        if fleet in self.met:
            return f"{fleet} ({self.names.faction(owner)})"
        return "an enemy fleet" if self.turn.hostile(self.faction, owner) else "a foreign fleet"

    def _named(self, fleet: str) -> str:
        owner = self.turn.owner(fleet)
        return fleet if owner == self.faction else f"{fleet} ({self.names.faction(owner)})"

    def place(self, key: str) -> str:
        return self.names.port(key) if self.turn.is_port(key) else self.names.province(key)

    # --- events --------------------------------------------------------------------------------

    def take(self, event: Event, crews: Crews) -> None:
        writer = self._dispatch.get(event["type"])
        if writer is not None:
            writer(event, crews)
        if event.get("faction") == self.faction and "amount" in event:
            self.money.append((self._money_label(event), int(event["amount"])))

    def _writers(self) -> dict[str, Callable[[Event, Crews], None]]:
        return {
            "moved": self._moved,
            "stopped": self._stopped,
            "evaded": self._evaded,
            "retreated": self._retreated,
            "split": self._split,
            "merged": self._merged,
            "swap_blocked": self._swap,
            "supported": self._supported,
            "battle": self._battle,
            "surrendered": self._surrendered,
            "captured": self._captured,
            "blockade_set": self._blockade_set,
            "blockade_lifted": self._blockade_lifted,
            "hired": self._hired,
            "repaired": self._repaired,
            "upkeep_paid": self._upkeep,
            "mutiny": self._mutiny,
            "disbanded": self._disbanded,
            "bought_out": self._bought_out,
            "buyout_outbid": self._outbid,
        }

    def _moved(self, e: Event, _: Crews) -> None:
        if self.ours(e["fleet"]):
            into = "enters port" if e.get("docked") else "sails to"
            self.moves.append(
                f"Step {e['step']}: {e['fleet']} leaves {self.place(e['from'])} and "
                f"{into} {self.place(e['to'])}."
            )

    def _stopped(self, e: Event, _: Crews) -> None:
        if self.ours(e["fleet"]):
            self.moves.append(
                f"Step {e['step']}: {e['fleet']} stops at {self.place(e['province'])}: "
                "enemy ships there (M7)."
            )

    def _evaded(self, e: Event, _: Crews) -> None:
        if self.ours(e["fleet"]):
            self.moves.append(
                f"Step {e['step']}: {e['fleet']} evades the enemy, from "
                f"{self.place(e['from'])} to {self.place(e['to'])}."
            )

    def _retreated(self, e: Event, _: Crews) -> None:
        if not self.ours(e["fleet"]):
            return
        if e.get("cornered"):
            how = "is cornered and attacks into"
        elif e.get("docked"):
            how = "retreats into port at"
        else:
            how = "retreats to"
        self.moves.append(
            f"{e['fleet']} {how} {self.place(e['to'])} after the battle at {self.place(e['from'])}."
        )

    def _split(self, e: Event, _: Crews) -> None:
        if self.ours(e["fleet"]):
            self.moves.append(
                f"{e['fleet']} splits off {e['new_fleet']} ({', '.join(e['ships'])})."
            )

    def _merged(self, e: Event, _: Crews) -> None:
        if self.ours(e["fleet"]) or self.ours(e["into"]):
            # W7: an ally's fleet joining ours (or ours joining theirs) is seen by both.
            self.moves.append(f"{self._named(e['fleet'])} joins {self._named(e['into'])}.")

    def _swap(self, e: Event, _: Crews) -> None:
        mine = [f for f in e["fleets"] + e.get("against", []) if self.ours(f)]
        if mine:
            others = [f for f in e["fleets"] + e.get("against", []) if not self.ours(f)]
            named = ", ".join(self.fleet(f) for f in others) or "an enemy fleet"
            self.moves.append(
                f"{', '.join(mine)} would have passed {named} sailing the other way; "
                f"they meet at {self.place(e['province'])} instead (M6)."
            )

    def _supported(self, e: Event, _: Crews) -> None:
        if self.ours(e["fleet"]):
            self.moves.append(
                f"{e['fleet']} supports {self.names.faction(e['faction'])} in the battle at "
                f"{self.place(e['province'])} (S2)."
            )

    def _battle(self, e: Event, crews: Crews) -> None:
        if self._involved(e, crews):
            self.battles.append(battle_detail(e, self.turn, crews, self.names))

    def _surrendered(self, e: Event, _: Crews) -> None:
        if self.ours(e["fleet"]) or e["to_faction"] == self.faction:
            self.captures.append(
                f"{self.fleet(e['fleet'])} surrenders to {self.names.faction(e['to_faction'])} "
                f"at {self.place(e['province'])} (R5): {', '.join(e['ships'])}."
            )

    def _captured(self, e: Event, _: Crews) -> None:
        losers = e.get("from_factions") or [e.get("from_faction", "")]
        if self.faction not in losers and e["to_faction"] != self.faction:
            return
        fleets = e.get("fleets") or [e["fleet"]]
        self.captures.append(
            f"Captured by {self.names.faction(e['to_faction'])} from "
            f"{' & '.join(self.names.faction(f) for f in losers)} at "
            f"{self.place(e.get('province', ''))}: {', '.join(e['ships'])}; they join "
            f"{', '.join(self.fleet(f) for f in fleets)}."
        )

    def _blockade_set(self, e: Event, _: Crews) -> None:
        port = self.names.port(e["port"])
        if self.ours(e["fleet"]):
            self.blockades.append(f"{e['fleet']} blockades {port} (B1).")
        elif self.turn.port_owner.get(e["port"]) == self.faction:
            self.blockades.append(f"{port} is blockaded by {self.fleet(e['fleet'])} (B3).")

    def _blockade_lifted(self, e: Event, _: Crews) -> None:
        port = self.names.port(e["port"])
        if self.ours(e["fleet"]):
            self.blockades.append(f"{e['fleet']}'s blockade of {port} ends: {lift_reason(e)}.")
        elif self.turn.port_owner.get(e["port"]) == self.faction:
            self.blockades.append(
                f"The blockade of {port} by {self.fleet(e['fleet'])} is lifted: {lift_reason(e)}."
            )

    def _hired(self, e: Event, _: Crews) -> None:
        if e["faction"] == self.faction:
            self.economy.append(
                f"Hired {len(e['ships'])} × {e['ship_type']} at {self.names.port(e['port'])} "
                f"for {-e['amount']}: {', '.join(e['ships'])}, docked in "
                f"{', '.join(e.get('fleets') or [e.get('fleet', '?')])} (P3)."
            )

    def _repaired(self, e: Event, _: Crews) -> None:
        if e["faction"] == self.faction:
            self.economy.append(
                f"Repaired {', '.join(e['ships'])} of {e['fleet']} at "
                f"{self.names.port(e['port'])} for {-e['amount']} (P2)."
            )

    def _upkeep(self, e: Event, _: Crews) -> None:
        if e["faction"] == self.faction:
            self.economy.append(
                f"Upkeep paid for {plural(len(e['ships']), 'ship')}: {-e['amount']} (U1)."
            )

    def _mutiny(self, e: Event, _: Crews) -> None:
        if e["faction"] == self.faction or self.ours(e["from_fleet"]):
            whose = "" if e["faction"] == self.faction else f" ({self.names.faction(e['faction'])})"
            self.economy.append(
                f"Unpaid crews{whose} of {', '.join(e['ships'])} mutiny and leave "
                f"{e['from_fleet']}: pirate fleet {e['fleet']}, adrift at "
                f"{self.place(e['province'])} (U2)."
            )

    def _disbanded(self, e: Event, _: Crews) -> None:
        if e["faction"] == self.faction:
            self.economy.append(
                f"Disbanded {', '.join(e['ships'])} of {e['fleet']}: adrift as pirate fleet "
                f"{e['pirate_fleet']} at {self.place(e.get('province', ''))} (U4)."
            )

    def _bought_out(self, e: Event, _: Crews) -> None:
        if e["faction"] == self.faction:
            self.economy.append(
                f"Bought out {e['adrift_fleet']} ({', '.join(e['ships'])}) with {e['fleet']} "
                f"for {-e['amount']}; the ships join "
                f"{', '.join(e.get('fleets') or [e['fleet']])} (U4)."
            )

    def _outbid(self, e: Event, _: Crews) -> None:
        if e["faction"] == self.faction:
            self.economy.append(
                f"The bid for {e['adrift_fleet']} was outbid by "
                f"{self.names.faction(e['winner'])} (U4)."
            )

    # --- money and orders ------------------------------------------------------------------------

    def _money_label(self, e: Event) -> str:
        kind = str(e["type"])
        if kind == "income":
            return "Income"
        if kind == "hired":
            return f"Hire: {len(e['ships'])} × {e['ship_type']} at {self.names.port(e['port'])}"
        if kind == "repaired":
            return f"Repairs: {e['fleet']} at {self.names.port(e['port'])}"
        if kind == "upkeep_paid":
            return f"Upkeep: {plural(len(e['ships']), 'ship')}"
        if kind == "bought_out":
            return f"Buy-out: {e['adrift_fleet']}"
        return kind.replace("_", " ").capitalize()

    def ledger(self) -> Ledger:
        start = self.turn.treasury_start(self.faction)
        end = self.turn.treasury_end(self.faction)
        entries = list(self.money)
        unexplained = end - start - sum(amount for _, amount in entries)
        if unexplained:  # a moderator may always override a result by hand (naval.md preamble)
            entries.append(("Other changes by the moderator", unexplained))
        return Ledger(start=start, entries=tuple(entries), end=end)

    def report(self, title: str) -> Report:
        sections = [
            Section("Moves", tuple(self.moves)),
            Section("Battles", battles=tuple(self.battles)),
            Section("Captures and surrenders", tuple(self.captures)),
            Section("Blockades", tuple(self.blockades)),
            Section("Economy", tuple(self.economy)),
            Section("Refused orders", tuple(refused_orders(self.turn, self.faction, self.names))),
        ]
        kept = [s for s in sections if s.lines or s.battles]
        kept.append(Section("Treasury", ledger=self.ledger()))
        return Report(title=title, sections=tuple(kept))
