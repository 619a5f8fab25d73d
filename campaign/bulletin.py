"""The public bulletin of a resolved turn: what everyone would learn (battles, blockades, pirates),
written from the stored events only. Issue 4 adds the private reports and the forum exports."""

from __future__ import annotations

from typing import Any


def public_bulletin(campaign_name: str, number: int, events: list[dict[str, Any]]) -> str:
    lines = [f"**{campaign_name} — turn {number}**"]
    for event in events:
        kind = event["type"]
        if kind == "battle":
            a, b = ", ".join(event["sides"]["A"]), ", ".join(event["sides"]["B"])
            verdict = {"A": f"{a} won", "B": f"{b} won", None: "no winner"}[event["winner"]]
            lines.append(
                f"Battle at {event['province']}: {a} against {b}, {len(event['rounds'])} "
                f"round(s); {verdict} ({event['outcome']}); {len(event['sunk'])} ship(s) sunk, "
                f"{len(event['captured'])} captured."
            )
        elif kind == "blockade_set":
            lines.append(f"{event['fleet']} blockades {event['port']}.")
        elif kind == "blockade_lifted":
            lines.append(f"The blockade of {event['port']} is lifted.")
        elif kind == "mutiny":
            lines.append(f"Unpaid crews mutiny at {event['province']}: pirates {event['fleet']}.")
        elif kind == "disbanded":
            lines.append(
                f"Crews are paid off at {event['province']}: adrift {event['pirate_fleet']}."
            )
    if len(lines) == 1:
        lines.append("A quiet turn at sea.")
    return "\n".join(lines)
