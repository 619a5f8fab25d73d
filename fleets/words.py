"""Words, not ids (issue 11): what a person reads on the desk and in the API's messages names
factions, provinces, ports and ship types as the campaign file names them. Ids stay where a
machine needs them (form values, slots, the API's documents); fleets and ships have no names
but their ids, so they keep them.

The engine's refusals are written with ids (scenario-format.md: they are a file's words too);
`refusal_in_words` puts the names in, id by id, and quotes an unknown word as the player typed
it ("there is no province called "atlantis"").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from engine.naval import Refusal
from engine.naval.written import ship_type_words
from fleets.names import campaign_names
from reports.build import Names
from reports.names import ID as ID_IN_MESSAGE

# The engine's ledger kinds (its events with an amount, X19), as the treasury's lines read.
LEDGER_WORDS = {
    "income": "Income",
    "bought_out": "Crews bought out",
    "hired": "Ships hired",
    "repaired": "Repairs",
    "upkeep_paid": "Upkeep paid",
}
# What each order does, for a summary ("Sail to Kattegat by way of Øresund").
ORDER_VERBS = {
    "hold": "Hold",
    "move": "Sail to",
    "enter_port": "Enter port at",
    "blockade": "Blockade",
    "support": "Support",
    "merge": "Join fleet",
    "split": "Split off",
    "hire": "Hire",
    "repair": "Repair",
    "disband": "Pay off",
    "buyout": "Buy out",
}
_UNKNOWN = re.compile(r"(there is no (?:province|port|fleet|ship type|faction) called) (\S*)$")


@dataclass(frozen=True, slots=True)
class Words:
    """The campaign's names: id → name for factions, provinces and ports; ship types read."""

    factions: dict[str, str]
    places: dict[str, str]  # provinces and ports
    ship_types: dict[str, str]

    @classmethod
    def of(cls, campaign_id: int, ship_types: Any = ()) -> Words:
        """From the rows (campaign_names: 3 queries); `ship_types` the world's ship type ids."""
        return cls.from_names(campaign_names(campaign_id), ship_types)

    @classmethod
    def from_names(cls, names: Names, ship_types: Any = ()) -> Words:
        return cls(
            factions=dict(names.factions),
            places={**names.provinces, **names.ports},
            ship_types={key: ship_type_words(key) for key in ship_types},
        )

    def name(self, key: object) -> str:
        text = str(key)
        return self.factions.get(text) or self.places.get(text) or self.ship_types.get(text) or text

    def faction(self, key: object) -> str:
        return self.factions.get(str(key), str(key))

    def place(self, key: object) -> str:
        return self.places.get(str(key), str(key))

    def ship_type(self, key: object) -> str:
        return self.ship_types.get(str(key)) or ship_type_words(str(key))

    def message(self, text: str) -> str:
        """An engine message with each id it names put in words."""
        unknown = _UNKNOWN.search(text)
        if unknown is not None:  # what the player typed, as typed (even nothing at all)
            return text[: unknown.start()] + f'{unknown.group(1)} "{unknown.group(2)}"'
        return ID_IN_MESSAGE.sub(lambda m: self._known(m.group(0)), text)

    def _known(self, token: str) -> str:
        return self.name(token)

    def refusal(self, refusal: Refusal) -> Refusal:
        return Refusal(refusal.order, refusal.code, self.message(refusal.message))

    def order(self, order: dict[str, Any] | None) -> str:
        """One order in words: "Sail to Kattegat by way of Øresund", "Hire 2 Galley at
        Gothenburg (into d2)", "Repair d2"."""
        if not order:
            return "No order: this fleet will hold."
        kind = order.get("type")
        verb = ORDER_VERBS.get(str(kind), str(kind))
        path = [self.place(p) for p in order.get("path") or []]
        if kind == "move" and path:
            via = f" by way of {', '.join(path[:-1])}" if len(path) > 1 else ""
            return f"{verb} {path[-1]}{via}"
        if kind in ("enter_port", "blockade"):
            via = f" by way of {', '.join(path)}" if path else ""
            return f"{verb} {self.place(order.get('port'))}{via}"
        if kind == "support":
            return f"{verb} {self.faction(order.get('faction'))} in a battle next door"
        if kind == "merge":
            return f"{verb} {order.get('into')}"
        if kind == "split":
            ships = ", ".join(str(s) for s in order.get("ships") or [])
            return f"{verb} {ships} as {order.get('new_fleet')}"
        if kind == "hire":
            into = f" (into {order['fleet']})" if order.get("fleet") else ""
            what = self.ship_type(order.get("ship_type"))
            return f"{verb} {order.get('count')} × {what} at {self.place(order.get('port'))}{into}"
        if kind in ("repair", "disband"):
            return f"{verb} {order.get('fleet')}"
        if kind == "buyout":
            return f"{verb} {order.get('adrift_fleet')} with {order.get('fleet')}"
        return verb
