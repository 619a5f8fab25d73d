"""The boards a seafaring game can be created from: the bundled ones in examples/, and the
engine's seeded generator (seafarers-format.md "Board")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
BUNDLED = {
    "four-islands": EXAMPLES / "four-islands.seafarers.yaml",
    "small-isles": EXAMPLES / "small-isles.seafarers.yaml",
}
# Seat colours in seat order, as the bundled boards name their players.
COLOURS = ("red", "blue", "white", "orange", "green", "brown")


def bundled_document(key: str) -> dict[str, Any] | None:
    """A bundled scenario document by its key, or None."""
    path = BUNDLED.get(key)
    if path is None:
        return None
    document: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    return document
