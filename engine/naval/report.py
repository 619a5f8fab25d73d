"""A plain-text turn report written only from a result's events and state (T1 step 5)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

Event = dict[str, Any]
# What an id is written as: its name (the moderator's review, fleets/review.py), or itself.
Name = Callable[[str], str]
# The events' fields that hold a faction's, a province's or a port's id; the others hold fleets,
# ships, numbers or words, which have no names (fleets and ships are their ids).
NAMED = frozenset({"from", "to", "province", "port", "faction", "to_faction", "from_faction"})
NAMED_IN = {"buyout_outbid": frozenset({"winner"})}  # the winning faction; a battle's is a side


def _same(key: str) -> str:
    return key


def text_report(result: dict[str, Any], name: Name = _same) -> str:
    """The whole turn as a moderator reads it: moves, battles round by round, retreats,
    captures, blockades, the economy and the treasuries (T1 step 5). `name` writes each
    faction's, province's and port's id (by default, the id itself); the refusals' messages
    are written as they are in the result."""
    lines: list[str] = []
    for event in result["events"]:
        writer = WRITERS.get(event["type"])
        named = _named(event, name)
        lines.extend(writer(named) if writer else [f"{event['type']}: {_fields(named)}"])
    if result["refused"]:
        lines.append("")
        lines.append("Refused orders:")
        for refusal in result["refused"]:
            lines.append(f"  order {refusal['order']} ({refusal['code']}): {refusal['message']}")
    lines.append("")
    lines.append("Treasuries:")
    for faction in result["state"]["factions"]:
        lines.append(f"  {name(faction['id'])}: {faction['treasury']}")
    return "\n".join(_UNPRINTABLE.sub(_escaped, line) for line in lines) + "\n"


# Ids and messages come from the file: control codes (a terminal's escapes), line breaks,
# bidirectional controls and lone surrogates are printed escaped, never raw.
_UNPRINTABLE = re.compile(
    r"[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
)


def _escaped(found: re.Match[str]) -> str:
    code = ord(found.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _named(event: Event, name: Name) -> Event:
    """The event with the ids of its named fields written by `name`."""
    fields = NAMED | NAMED_IN.get(str(event.get("type")), frozenset())
    return {k: name(v) if k in fields and isinstance(v, str) else v for k, v in event.items()}


def _fields(event: Event) -> str:
    return ", ".join(f"{k}={v}" for k, v in event.items() if k != "type")


def _moved(e: Event) -> list[str]:
    into = " (into port)" if e.get("docked") else ""
    return [f"Step {e['step']}: {e['fleet']} sails {e['from']} → {e['to']}{into}"]


def _battle(e: Event) -> list[str]:
    sides, supporters = e["sides"], e["supporters"]

    def side(label: str) -> str:
        text = ", ".join(sides[label])
        if supporters[label]:
            text += " supported by " + ", ".join(supporters[label])
        return text

    attacker = {"A": " (attacking)", "B": "", None: ""}
    lines = [
        f"Battle at {e['province']} (step {e['step']}): A = {side('A')}"
        f"{attacker[e['attacking']]} against B = {side('B')}"
        f"{' (attacking)' if e['attacking'] == 'B' else ''}"
    ]
    for r in e["rounds"]:
        losses = ", ".join(f"{ship} −{hit}" for ship, hit in r["losses"].items()) or "none"
        lines.append(
            f"  Round {r['round']}: dice {r['dice'][0]}–{r['dice'][1]}, strength "
            f"{r['strength'][0]}–{r['strength'][1]}; losses: {losses}"
        )
        if r["sunk"]:
            lines.append(f"    sunk: {', '.join(r['sunk'])}")
        if "retreat" in r:
            t = r["retreat"]
            verdict = "gets away" if t["success"] else "fails; the battle goes on"
            lines.append(
                f"    side {t['side']} tries to retreat: {t['dice'][0]} against "
                f"{t['dice'][1]}, {verdict}"
            )
    winner = f"side {e['winner']} wins" if e["winner"] else "no winner"
    lines.append(f"  Result: {winner} ({e['outcome']})")
    return lines


def _buyout_tie(e: Event) -> list[str]:
    """U4: tied bids roll a die each, in faction-id order, rerolled until one is highest; the
    event's dice are one list per roll."""
    rolls = ", then ".join("–".join(str(d) for d in roll) for roll in e["dice"])
    return [f"Tied bids for {e['adrift_fleet']}: dice {rolls}"]


def _shown(value: object) -> object:
    """A list as the report shows it: its items joined by commas (nested lists too)."""
    if isinstance(value, list):
        return ", ".join(str(_shown(v)) for v in value)
    return value


def _simple(template: str) -> Callable[[Event], list[str]]:
    def write(e: Event) -> list[str]:
        return [template.format(**{k: _shown(v) for k, v in e.items()})]

    return write


WRITERS: dict[str, Callable[[Event], list[str]]] = {
    "moved": _moved,
    "battle": _battle,
    "split": _simple("{fleet} splits off {new_fleet} ({ships})"),
    "merged": _simple("{fleet} joins {into}"),
    "stopped": _simple("Step {step}: {fleet} stops at {province}: enemies there"),
    "swap_blocked": _simple("{fleets} hold {province} against {against} (they would pass)"),
    "evaded": _simple("Step {step}: {fleet} evades from {from} to {to}"),
    "supported": _simple("{fleet} supports {faction} in the battle at {province}"),
    "retreated": _simple("{fleet} retreats from {from} to {to}"),
    "surrendered": _simple("{fleet} surrenders at {province} to {to_faction} ({ships})"),
    "captured": _simple(
        "{to_faction} captures {ships} from {from_faction} ({reason}), joining {fleets}"
    ),
    "blockade_set": _simple("{fleet} blockades {port}"),
    "blockade_lifted": _simple("The blockade of {port} by {fleet} is lifted ({reason})"),
    "income": _simple("{faction}: income +{amount}"),
    "hired": _simple("{faction} hires {ships} ({ship_type}) at {port} for {amount}"),
    "repaired": _simple("{faction} repairs {ships} of {fleet} at {port} for {amount}"),
    "disbanded": _simple("{faction} disbands {ships} of {fleet}: adrift as {pirate_fleet}"),
    "upkeep_paid": _simple("{faction}: upkeep {amount} for {ships}"),
    "mutiny": _simple(
        "Unpaid crews of {from_fleet} ({ships}) mutiny: pirate fleet {fleet} at {province}"
    ),
    "bought_out": _simple("{faction} buys out {adrift_fleet} ({ships}) with {fleet} for {amount}"),
    "buyout_outbid": _simple("{faction}'s bid for {adrift_fleet} is outbid by {winner}"),
    "buyout_tie": _buyout_tie,
}
