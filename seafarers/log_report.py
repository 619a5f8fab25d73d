"""A game's log as a turn report for a forum or Discord (seafarers.md G5; issue 13).

`log_report` writes the events of the log turn by turn — roll and production, discards, the
robber or the pirate and the steal, trades, builds, relocations, cards played, the card holders
with the route lengths, points and the win — in plain words, naming places with the board's
island names where it has them. Private details (G5) reach only the players concerned: which
card was stolen only the thief and the victim, which card was bought only its buyer, a hand only
its owner; everyone else reads counts. Pure: engine state and events in, a string out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.seafarers import State, parse_scenario, state_to_dict
from seafarers.board_places import Places
from seafarers.board_report_formats import Format, Section, write

Event = Mapping[str, Any]
RESOURCES = ("brick", "wood", "wool", "grain", "ore")
CARD_NAMES = {
    "knight": "a Knight",
    "victory_point": "a Victory Point",
    "road_building": "Road Building",
    "year_of_plenty": "Year of Plenty",
    "monopoly": "Monopoly",
}


def cards(counts: Mapping[str, int]) -> str:
    shown = [f"{counts[r]} {r}" for r in RESOURCES if counts.get(r)]
    shown += [f"{n} {r}" for r, n in sorted(counts.items()) if r not in RESOURCES and n]
    return ", ".join(shown) or "nothing"


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def event_line(event: Event, names: Places, viewer: str | None, *, moderator: bool) -> str | None:
    """One event in plain words for `viewer` (None: the public), or None for a turn's start
    (it becomes the section's heading)."""
    kind = event["type"]
    who = str(event.get("player", ""))
    sees_all = moderator
    if kind == "rolled":
        a, b = event["dice"]
        return f"{who} rolls {a} + {b} = {event['total']}"
    if kind == "produced":
        return f"{who} receives {cards(event['cards'])}"
    if kind == "setup_resources":
        return f"{who} takes {cards(event['cards'])} for the second settlement"
    if kind == "gold_owed":
        return f"{who} may pick {_count(event['count'], 'card', 'cards')} for gold"
    if kind == "gold_picked":
        return f"{who} picks {cards(event['cards'])} for gold"
    if kind == "discard_owed":
        return f"{who} must discard {_count(event['count'], 'card', 'cards')}"
    if kind == "discarded":
        return f"{who} discards {cards(event['cards'])}"
    if kind in ("robber_moved", "pirate_moved"):
        piece = "robber" if kind == "robber_moved" else "pirate"
        start, end = _hex(event["from"], names), _hex(event["to"], names)
        return f"{who} moves the {piece} from {start} to {end}"
    if kind == "stolen":
        by, victim = str(event["by"]), str(event["from"])
        if sees_all or viewer in (by, victim):  # G5: the card only to thief and victim
            return f"{by} steals {_count(1, str(event['card']), '')} from {victim}"
        return f"{by} steals a card from {victim}"
    if kind == "built":
        free = " for free" if event.get("free") else ""
        piece = event["piece"]
        if "edge" in event:
            return f"{who} builds a {piece} on {names.edge(event['edge'])}{free}"
        return f"{who} builds a {piece} at {names.node(event['node'])}{free}"
    if kind == "ship_moved":
        return f"{who} moves a ship from {names.edge(event['from'])} to {names.edge(event['to'])}"
    if kind == "route_closed":
        ships = event["ships"]
        where = "; ".join(names.edge(e) for e in ships)
        return f"{who}'s shipping route is closed ({_count(len(ships), 'ship', 'ships')}: {where})"
    if kind == "dev_card_bought":
        if sees_all or viewer == who:  # G5: the card only to its buyer
            return f"{who} buys a development card: {CARD_NAMES.get(event['card'], event['card'])}"
        return f"{who} buys a development card"
    if kind == "dev_card_played":
        return f"{who} plays {CARD_NAMES.get(event['card'], event['card'])}"
    if kind == "road_building_ended":
        return f"{who}'s Road Building ends: {_count(event['placed'], 'piece', 'pieces')} placed"
    if kind == "traded":
        if event["kind"] == "domestic":
            return (
                f"{who} trades {cards(event['give'])} to {event['with']} for {cards(event['get'])}"
            )
        return f"{who} trades {cards(event['give'])} with the bank for {cards(event['get'])}"
    if kind == "monopoly":
        taken = ", ".join(f"{n} from {p}" for p, n in sorted(event["taken"].items()))
        return f"{who} claims every {event['resource']}: {taken or 'nobody else holds any'}"
    if kind in ("longest_route", "largest_army"):
        return _holder(kind, event)
    if kind == "svp_awarded":
        points = _count(event["points"], "special point", "special points")
        if event.get("island") is None:
            return f"{who} is awarded {points} by the moderator ({names.node(event['node'])})"
        return f"{who} gains {points} for settling {event['island']} ({names.node(event['node'])})"
    if kind == "turn_ended":
        return f"{who} ends the turn"
    if kind == "turn_started":
        return None
    if kind == "won":
        return f"{who} wins the game with {event['vp']} points"
    return f"{who}: {kind}"


def _hex(hid: str | None, names: Places) -> str:
    if hid is None:
        return "off the board"
    words = names.hex(hid)
    return words if words.startswith("the ") else f"the {words}"  # not "the the sea east of …"


def _holder(kind: str, event: Event) -> str:
    title = "Longest trade route" if kind == "longest_route" else "Largest army"
    lengths: Mapping[str, int] = event.get("lengths") or {}

    def shown(p: str | None) -> str:
        if p is None:
            return "nobody"
        return f"{p} ({lengths[p]})" if p in lengths else p

    line = f"{title}: {shown(event['to'])} takes the card from {shown(event['from'])}"
    if event["to"] is None:
        line = f"{title}: {shown(event['from'])} loses the card; nobody holds it"
    if lengths:
        line += "; routes: " + ", ".join(f"{p} {n}" for p, n in sorted(lengths.items()))
    return line


def _start(first: State | Mapping[str, Any]) -> State:
    """A position, from a State or a scenario document (its actions, if any, left out)."""
    if isinstance(first, State):
        return first
    doc = {k: v for k, v in first.items() if k != "actions"}
    return parse_scenario(doc).state


def turns(
    start_number: int, events: Sequence[Event], names: Places, viewer: str | None, moderator: bool
) -> list[Section]:
    """The events cut at every turn's start; a heading names the turn and who plays it (the
    player of its first event: `turn_started` carries the player who ended the last one)."""
    groups: list[tuple[int, list[Event]]] = [(start_number, [])]
    for event in events:
        if event["type"] == "turn_started":
            groups.append((int(event["number"]), []))
        else:
            groups[-1][1].append(event)
    sections = []
    for number, group in groups:
        if not group:
            continue
        lines = []
        for event in group:
            line = event_line(event, names, viewer, moderator=moderator)
            if line is None:
                continue
            if event.get("by_moderator"):
                line += " (sent by the moderator)"
            lines.append(line)
        heading = "Setup" if number == 0 else f"Turn {number} — {group[0].get('player', '')}"
        sections.append(Section(heading, tuple(lines)))
    return sections


def standings(end: State, viewer: str | None, moderator: bool) -> Section:
    """Points as the table shows them, hand and card counts, route lengths (X4); the viewer's
    own hand and cards, and hidden Victory Point cards only in their owner's points (G5)."""
    doc = state_to_dict(end)
    lines = []
    for p, player in enumerate(doc["players"]):
        pid = player["id"]
        held = [c if isinstance(c, str) else c["card"] for c in player["dev_cards"]]
        hidden = sum(1 for c in held if c == "victory_point")
        own = moderator or pid == viewer
        points = end.vp(p) if own else end.vp(p) - hidden
        hand = sum(player["hand"].values())
        line = (
            f"{pid}: {_count(points, 'point', 'points')}, {_count(hand, 'card', 'cards')} in hand, "
            f"{_count(len(held), 'development card', 'development cards')}, "
            f"longest route {end.routes[p]}"
        )
        if own:
            line += f" — hand: {cards(player['hand'])}"
            if held:
                line += "; cards: " + ", ".join(CARD_NAMES.get(c, c) for c in sorted(held))
        lines.append(line)
    holders = doc["holders"]
    lines.append(
        f"Longest trade route: {holders['longest_route'] or 'nobody'}; "
        f"largest army: {holders['largest_army'] or 'nobody'}"
    )
    return Section("Standings", tuple(lines))


def log_report(
    first: State | Mapping[str, Any],
    events: Sequence[Event],
    *,
    viewer: str | None,
    fmt: Format = "markdown",
    end: State | Mapping[str, Any] | None = None,
    moderator: bool = False,
    title: str = "Seafaring game report",
) -> str:
    """The events (an `adjudicate` result's `events`, or a game's log) as a report.

    `first` is the position the events start from (a State, or a seafarers-scenario/1 document;
    its board gives the place names, its turn number the first heading). `viewer` is the player
    reading: they see their own private details; None is the public (a forum post), which sees
    counts only. `moderator=True` shows every private detail. `end`, the position after the
    events (a State, or the result's `state` document), adds the standings. `fmt`: markdown,
    bbcode or text, every name escaped."""
    start = _start(first)
    names = Places(start)
    sections = turns(start.number, events, names, viewer, moderator)
    if end is not None:
        sections.append(standings(_start(end), viewer, moderator))
    return write(title, sections, fmt)
