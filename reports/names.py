"""Display names for a report: what the campaign calls its factions, provinces and ports."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

# Colours end up in HTML attributes and BBCode tags: only plain hex colours get through.
_COLOUR = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})")


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

    def colour(self, key: str) -> str | None:
        """The faction's colour if it is a hex colour (#rgb or #rrggbb), else None."""
        value = self.colours.get(key, "")
        return value if _COLOUR.fullmatch(value) else None
