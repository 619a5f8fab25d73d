"""The public bulletin: what every faction would learn from a turn. Battles (without the dice),
blockades, pirates seen, ports changing hands; never money, orders or movements."""

from __future__ import annotations

from reports.battles import battle_summary
from reports.faction import lift_reason, plural
from reports.model import Report, Section
from reports.names import Names
from reports.turn import Event, Turn


def bulletin(turn: Turn, names: Names, title: str) -> Report:
    battles: list[str] = []
    blockades: list[str] = []
    pirates: list[str] = []
    for event in turn.events:
        kind = event["type"]
        if kind == "battle":
            battles.append(battle_summary(event, turn, names))
        elif kind == "surrendered":
            battles.append(
                f"A fleet of {_owner(event['fleet'], turn, names)} "
                f"({plural(len(event['ships']), 'ship')}) surrenders to "
                f"{names.faction(event['to_faction'])} at {names.province(event['province'])}."
            )
        elif kind in ("blockade_set", "blockade_lifted"):
            blockades.append(_blockade(event, turn, names))
        elif kind == "mutiny":
            pirates.append(
                f"Unpaid crews of {names.faction(event['faction'])} mutiny at "
                f"{names.province(event['province'])}: "
                f"{plural(len(event['ships']), 'ship')} turn pirate (U2)."
            )
        elif kind == "disbanded":
            pirates.append(
                f"{names.faction(event['faction'])} pay off "
                f"{plural(len(event['ships']), 'ship')} at "
                f"{names.province(event.get('province', ''))}; the crews drift as pirates (U4)."
            )
    sections = [
        Section("Battles", tuple(battles)),
        Section("Blockades", tuple(blockades)),
        Section("Pirates", tuple(pirates)),
        Section("Ports", tuple(_ports_changed(turn, names))),
    ]
    kept = tuple(s for s in sections if s.lines)
    if not kept:
        kept = (Section("At sea", ("A quiet turn: nothing to report.",)),)
    return Report(title=title, sections=kept)


def _owner(fleet: str, turn: Turn, names: Names) -> str:
    return names.faction(turn.owner(fleet) or "?")


def _blockade(event: Event, turn: Turn, names: Names) -> str:
    port = names.port(event["port"])
    holder = turn.port_owner.get(event["port"])
    if holder:
        port += f" ({names.faction(holder)})"
    by = _owner(event["fleet"], turn, names)
    if event["type"] == "blockade_set":
        return f"{port} is blockaded by {by}."
    return f"The blockade of {port} by {by} is lifted: {lift_reason(event)}."


def _ports_changed(turn: Turn, names: Names) -> list[str]:
    """No rule moves a port to another owner, but a moderator's edit may: report it if so."""
    after = {p["id"]: p.get("owner") for p in turn.result.get("state", {}).get("ports", [])}
    lines = []
    for port, before in sorted(turn.port_owner.items()):
        now = after.get(port) or before
        if now != before:
            lines.append(
                f"{names.port(port)} passes from {names.faction(before)} to {names.faction(now)}."
            )
    return lines
