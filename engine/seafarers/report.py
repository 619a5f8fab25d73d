"""The readable report of a result (seafarers-format.md "Result", `--format text`; G5)."""

from __future__ import annotations

from typing import Any


def _cards(cards: dict[str, int]) -> str:
    return ", ".join(f"{n} {r}" for r, n in cards.items()) or "nothing"


def _edge(edge: Any) -> str:
    return "–".join(edge) if isinstance(edge, list) else str(edge)


def _line(event: dict[str, Any], viewer: str | None = None) -> str:
    kind = event["type"]
    who = event.get("player", "")
    private = viewer is not None  # G5: stolen and bought cards only to the players concerned
    if kind == "rolled":
        a, b = event["dice"]
        return f"{who} rolls {a}+{b} = {event['total']}"
    if kind == "produced":
        return f"{who} receives {_cards(event['cards'])}"
    if kind == "setup_resources":
        return f"{who} takes {_cards(event['cards'])} for the second settlement"
    if kind == "gold_owed":
        return f"{who} picks {event['count']} card(s) for gold"
    if kind == "gold_picked":
        return f"{who} takes {_cards(event['cards'])} for gold"
    if kind == "discard_owed":
        return f"{who} must discard {event['count']} card(s)"
    if kind == "discarded":
        return f"{who} discards {_cards(event['cards'])}"
    if kind in ("robber_moved", "pirate_moved"):
        piece = "the robber" if kind == "robber_moved" else "the pirate"
        return f"{who} moves {piece} from {event['from']} to {event['to']}"
    if kind == "stolen":
        if private and viewer not in (event["by"], event["from"]):
            return f"{event['by']} steals a card from {event['from']}"
        return f"{event['by']} steals {event['card']} from {event['from']}"
    if kind == "built":
        place = _edge(event["edge"]) if "edge" in event else event["node"]
        free = " (free)" if event.get("free") else ""
        return f"{who} builds a {event['piece']} on {place}{free}"
    if kind == "ship_moved":
        return f"{who} moves a ship from {_edge(event['from'])} to {_edge(event['to'])}"
    if kind == "route_closed":
        return f"{who}'s route closes: " + ", ".join(_edge(e) for e in event["ships"])
    if kind == "dev_card_bought":
        if private and viewer != who:
            return f"{who} buys a development card"
        return f"{who} buys a development card ({event['card']})"
    if kind == "dev_card_played":
        return f"{who} plays {event['card'].replace('_', ' ')}"
    if kind == "road_building_ended":
        return f"{who}'s road building ends ({event['placed']} placed)"
    if kind == "traded":
        other = f" with {event['with']}" if event.get("with") else " with the bank"
        return f"{who} trades {_cards(event['give'])} for {_cards(event['get'])}{other}"
    if kind == "monopoly":
        taken = ", ".join(f"{n} from {p}" for p, n in event["taken"].items())
        return f"{who} names {event['resource']}: takes {taken}"
    if kind in ("longest_route", "largest_army"):
        title = "longest trade route" if kind == "longest_route" else "largest army"
        lengths = event.get("lengths", {})

        def shown(p: str | None) -> str:
            if p is None:
                return "nobody"
            return f"{p} ({lengths[p]})" if p in lengths else p

        return f"{title}: {shown(event['to'])} takes it from {shown(event['from'])}"
    if kind == "svp_awarded":
        return f"{who} gains {event['points']} special point(s) on {event['node']}"
    if kind == "turn_ended":
        return f"{who} ends turn {event['number']}"
    if kind == "turn_started":
        return f"turn {event['number']} begins"
    if kind == "won":
        return f"{who} wins with {event['vp']} points"
    return f"{who}: {kind}"


def text_report(result: dict[str, Any], viewer: str | None = None) -> str:
    """One line per event, grouped by turn; refusals with code and message; the standings.
    With a `viewer` (a player's id), what is private to others is shown as counts (G5)."""
    lines: list[str] = []
    refused = {r["action"]: r for r in result["refused"]}
    events_of: dict[int, list[dict[str, Any]]] = {}
    for event in result["events"]:
        events_of.setdefault(event["action"], []).append(event)
    turn = result["start"]["turn"]
    lines.append(f"Turn {turn['number']} — {turn['player']}, {turn['phase']}")
    for step in result["steps"]:
        index = step["action"]
        if index in refused:
            r = refused[index]
            lines.append(f"  action {index} refused: {r['code']} — {r['message']}")
            continue
        for event in events_of.get(index, []):
            if event["type"] == "turn_started":
                lines.append(f"Turn {event['number']} — {step['turn']['player']}")
                continue
            moderator = " (sent by the moderator)" if event.get("by_moderator") else ""
            lines.append(f"  {_line(event, viewer)}{moderator}")
    last = result["steps"][-1] if result["steps"] else result["start"]
    lines.append("Standings:")
    for player in result["state"]["players"]:
        pid = player["id"]
        hand = sum(player["hand"].values())
        lines.append(
            f"  {pid}: {last['vp'][pid]} points, longest route {last['routes'][pid]}, "
            f"{hand} card(s) in hand"
        )
    holders = last["holders"]
    lines.append(
        f"  longest trade route: {holders['longest_route'] or 'nobody'}; "
        f"largest army: {holders['largest_army'] or 'nobody'}"
    )
    return "\n".join(lines) + "\n"
