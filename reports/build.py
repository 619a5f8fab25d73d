"""Build a turn's reports from stored data only: the turn's `scenario` document (the world as it
stood when the turn locked, with its orders), its `result` document (`state`, `events`,
`refused`) and the campaign's display names. Nothing here reads the database or reruns the
engine."""

from __future__ import annotations

from typing import Any

from reports.bulletin import bulletin
from reports.faction import FactionWriter
from reports.model import Report
from reports.names import Names
from reports.turn import Turn

__all__ = ["Names", "faction_report", "public_bulletin"]


def faction_report(
    scenario: dict[str, Any],
    result: dict[str, Any],
    faction: str,
    names: Names,
    *,
    title: str | None = None,
) -> Report:
    """One faction's private report: its moves, its battles round by round (D1–D10), captures
    and surrenders (D7, D8, R5), blockades (B1–B3), its economy (P, U), its refused orders (T1)
    and its treasury, whose lines add up from the start to the end of the turn."""
    writer = FactionWriter(Turn(scenario, result), faction, names)
    for event, crews in writer.turn.walk():
        writer.take(event, crews)
    return writer.report(title or f"{names.faction(faction)} — turn report")


def public_bulletin(
    scenario: dict[str, Any], result: dict[str, Any], names: Names, *, title: str | None = None
) -> Report:
    """What everyone learns: battles (no dice), blockades, pirates seen, ports changing hands."""
    return bulletin(Turn(scenario, result), names, title or "Public bulletin")
