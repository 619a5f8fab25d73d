"""Battles in a report: in full for a faction that fought (every round, rules D1–D10), or in one
line for the public bulletin."""

from __future__ import annotations

from reports.model import Battle, Round, Side
from reports.names import Names
from reports.turn import Crews, Event, Turn

SIDES = ("A", "B")


def battle_detail(event: Event, turn: Turn, crews: Crews, names: Names) -> Battle:
    """The battle round by round. Only the fleets that fought in it (sides and supporters) are
    named, so a faction's report names no enemy fleet it did not meet."""
    labels = {s: side_label(event, s, turn, names) for s in SIDES}
    sides = (_side(event, "A", turn, names), _side(event, "B", turn, names))
    where = ship_sides(event, crews)
    rounds = tuple(
        _round(n, raw, where, labels, turn.bonus_rate)
        for n, raw in enumerate(event.get("rounds", []), start=1)
    )
    notes = []
    if event.get("sunk"):
        notes.append(f"Sunk: {', '.join(event['sunk'])}.")
    if event.get("captured"):
        notes.append(f"Captured: {', '.join(event['captured'])}.")
    place = names.province(event["province"])
    return Battle(
        heading=f"Battle at {place} (step {event.get('step', 1)})",
        sides=sides,
        rounds=rounds,
        outcome=outcome(event, labels),
        notes=tuple(notes),
    )


def battle_summary(event: Event, turn: Turn, names: Names) -> str:
    """One line for everyone: where, which factions, the result, how many ships sunk and taken."""
    labels = {s: side_label(event, s, turn, names) for s in SIDES}
    helpers = {s: _factions(event["supporters"][s], turn, names) for s in SIDES}

    def side(s: str) -> str:
        return labels[s] + (f" (supported by {helpers[s]})" if helpers[s] else "")

    sunk, taken = len(event.get("sunk", [])), len(event.get("captured", []))
    return (
        f"Battle at {names.province(event['province'])}: {side('A')} against {side('B')}. "
        f"{outcome(event, labels)} Ships sunk: {sunk}; ships captured: {taken}."
    )


def side_label(event: Event, side: str, turn: Turn, names: Names) -> str:
    return _factions(event["sides"][side], turn, names) or f"side {side}"


def outcome(event: Event, labels: dict[str, str]) -> str:
    """D9: how the battle ended, in one sentence."""
    winner, kind = event.get("winner"), event.get("outcome")
    if winner not in SIDES:
        if kind == "parted":
            return "No winner: both sides withdrew and parted (D6)."
        return "No winner: neither side has a ship afloat."
    loser = "B" if winner == "A" else "A"
    how = {
        "destroyed": "fleet destroyed",
        "retreated": "retreated",
        "routed": "routed, every ship left captured",
        "max_rounds": f"broke off after {len(event.get('rounds', []))} rounds and retreated",
    }.get(str(kind), str(kind))
    return f"Winner: {labels[winner]}. {labels[loser]}: {how}."


def _factions(fleets: list[str], turn: Turn, names: Names) -> str:
    seen: list[str] = []
    for fleet in fleets:
        owner = turn.owner(fleet)
        if owner and owner not in seen:
            seen.append(owner)
    return " & ".join(names.faction(f) for f in seen)


def _side(event: Event, side: str, turn: Turn, names: Names) -> Side:
    detail = ", ".join(event["sides"][side])
    if event.get("attacking") == side:
        detail += " (attacking)"
    helpers = event["supporters"][side]
    if helpers:
        named = ", ".join(f"{f} ({names.faction(turn.owner(f))})" for f in helpers)
        detail += f"; supported by {named}"
    first = event["sides"][side][0] if event["sides"][side] else ""
    return Side(
        label=side_label(event, side, turn, names),
        detail=detail,
        colour=names.colour(turn.owner(first)) if first else None,
    )


def ship_sides(event: Event, crews: Crews) -> dict[str, int]:
    """Ship → 0 (side A) or 1 (side B): by the fleet it served in when the battle began (S2:
    supporters' ships share their side's losses)."""
    where: dict[str, int] = {}
    for index, side in enumerate(SIDES):
        for fleet in event["sides"][side] + event["supporters"][side]:
            for ship in crews.ships_in(fleet):
                where[ship] = index
    return where


def _round(
    number: int, raw: Event, where: dict[str, int], labels: dict[str, str], rate: float
) -> Round:
    a, b = raw["dice"]
    losses: tuple[list[tuple[str, int]], list[tuple[str, int]]] = ([], [])
    for ship, damage in raw.get("losses", {}).items():
        # A ship the crews do not place (it cannot happen with engine events) counts for B.
        losses[where.get(ship, 1)].append((ship, int(damage)))
    bonus = ""
    if a != b:  # D1: the higher roll gets the bonus; a tie gives none
        bonus = f"{labels['A'] if a > b else labels['B']} +{round(rate * 100)} %"
    retreat = ""
    if raw.get("retreat"):
        t = raw["retreat"]
        verdict = "got away" if t["success"] else "failed"
        retreat = (
            f"{labels[t['side']]} tried to retreat: {t['dice'][0]} against {t['dice'][1]}, "
            f"{verdict}"
        )
    return Round(
        number=int(raw.get("round", number)),
        dice=(int(a), int(b)),
        strength=(int(raw["strength"][0]), int(raw["strength"][1])),
        losses=(tuple(losses[0]), tuple(losses[1])),
        sunk=tuple(raw.get("sunk", [])),
        bonus=bonus,
        retreat=retreat,
    )
