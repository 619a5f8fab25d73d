"""Display names for a report: what the campaign calls its factions, provinces and ports."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

# Colours end up in HTML attributes and BBCode tags: only plain hex colours get through.
_COLOUR = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})")
# An id in an engine message (campaign files' ids, R-26), ending in a letter or digit so that a
# sentence's full stop is not taken for part of it.
ID = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.\-]*[A-Za-z0-9_]|[A-Za-z0-9]")


@dataclass(frozen=True, slots=True)
class Names:
    """Keys to display names; a key without a name is shown as itself."""

    factions: Mapping[str, str] = field(default_factory=dict)
    provinces: Mapping[str, str] = field(default_factory=dict)
    ports: Mapping[str, str] = field(default_factory=dict)
    colours: Mapping[str, str] = field(default_factory=dict)

    def faction(self, key: str) -> str:
        return self.factions.get(key, key)

    def province(self, key: str) -> str:
        return self.provinces.get(key, key)

    def port(self, key: str) -> str:
        return self.ports.get(key, key)

    def place(self, key: str) -> str:
        """A port's or a province's name (a port first: an order's last step may be either)."""
        return self.ports.get(key) or self.provinces.get(key, key)

    def in_words(self, text: str) -> str:
        """An engine message (written with ids, scenario-format.md) with each port, province and
        faction it names put in words; other words, fleets' ids among them, stay."""
        return ID.sub(lambda m: self._name(m.group(0)), text)

    def _name(self, token: str) -> str:
        return self.ports.get(token) or self.provinces.get(token) or self.factions.get(token, token)

    def colour(self, key: str) -> str | None:
        """The faction's colour if it is a hex colour (#rgb or #rrggbb), else None."""
        value = self.colours.get(key, "")
        return value if _COLOUR.fullmatch(value) else None
