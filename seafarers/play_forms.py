"""What a seat's desk posts, read into one engine action (seafarers-format.md "Actions").

The desk's controls post a `type` and its choices; a control on the board (or its plain-form
twin, a list of the same places) posts the whole action as JSON, exactly as `legal_actions`
gave it. Here the post is only *read*: the acting player is always the seat's own (a posted
`player` is never trusted), keys the action type does not have are dropped (`by_moderator`
among them: G4 is the server's to set), and whether the action is legal is the engine's to say
(X25), so that a refusal carries the engine's code. Input that cannot be read at all is refused
`invalid_action` here, in plain words: the desk never answers garbage with a 500.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from engine.seafarers.rules import RESOURCES
from seafarers.services import GameRefused

Action = dict[str, Any]

# Actions named by a place on the board (board_targets.PLACE_KEY), with the keys each has.
PLACE_KEYS = {
    "build_road": ("edge",),
    "build_ship": ("edge",),
    "move_ship": ("from", "to"),
    "build_settlement": ("node",),
    "build_city": ("node",),
    "move_robber": ("hex", "steal_from"),
    "move_pirate": ("hex", "steal_from"),
}
# Actions with no choice to make: a button each.
PLAIN = frozenset(
    {
        "roll",
        "end_turn",
        "buy_dev_card",
        "play_knight",
        "play_road_building",
        "end_road_building",
    }
)
COUNTED = {"discard": "cards", "pick_gold": "take"}  # a count per resource, from five fields
CHOICE = frozenset({"play_year_of_plenty", "play_monopoly", "maritime_trade"})
MOST = 99  # no hand or bank holds more of a resource (B10: 19 each by default)

# Where a refusal is shown: beside the control that sent the action (the form's `control`).
CONTROLS = frozenset({"board", "dice", "trade", "cards", "discard", "gold", "turn"})


def _refuse(message: str) -> GameRefused:
    return GameRefused("invalid_action", message)


def control_of(data: Mapping[str, Any]) -> str:
    """The control the post came from (anything else: the board's, the first on the page)."""
    control = data.get("control")
    return control if isinstance(control, str) and control in CONTROLS else "board"


def expected_index(data: Mapping[str, Any]) -> int:
    """The log's length the page was drawn at (G1: a stale page is refused `game_moved_on`)."""
    raw = data.get("expected")
    if not isinstance(raw, str) or not raw.isascii() or not raw.isdigit() or len(raw) > 9:
        raise _refuse("the page did not say which position it was sent from: reload it")
    return int(raw)


def read_action(data: Mapping[str, Any], *, player: str, rates: Sequence[int]) -> Action:
    """The action a post asks for, as `player` (the seat's); `rates` are the player's maritime
    rates in RESOURCES order (X11), so that a trade form asks only how many cards to get."""
    kind = data.get("type")
    if kind == "place":
        return _placed(data.get("action"), player)
    if not isinstance(kind, str) or not (kind in PLAIN or kind in COUNTED or kind in CHOICE):
        raise _refuse("that is not an action of this game")
    if kind in PLAIN:
        return {"type": kind, "player": player}
    if kind in COUNTED:
        counts = {r: _count(data.get(r), r) for r in RESOURCES}
        return {
            "type": kind,
            "player": player,
            COUNTED[kind]: {r: c for r, c in counts.items() if c},
        }
    if kind == "play_monopoly":
        return {"type": kind, "player": player, "resource": _resource(data.get("resource"))}
    if kind == "play_year_of_plenty":
        take: dict[str, int] = {}
        for key in ("first", "second"):
            resource = _resource(data.get(key))
            take[resource] = take.get(resource, 0) + 1
        return {"type": kind, "player": player, "take": take}
    give, get = _resource(data.get("give")), _resource(data.get("get"))
    wanted = _count(data.get("count") or "1", "cards to get")
    if wanted < 1:
        raise _refuse("ask the bank for one card at least")
    rate = rates[RESOURCES.index(give)]
    return {"type": kind, "player": player, "give": {give: rate * wanted}, "get": {get: wanted}}


def _placed(raw: Any, player: str) -> Action:
    """An action chosen on the board (a target's `data-action`) or in its list."""
    try:
        sent = json.loads(raw) if isinstance(raw, str) and len(raw) < 2000 else None
    except ValueError:
        sent = None
    if not isinstance(sent, dict):
        sent = {}
    kind = sent.get("type")
    if not isinstance(kind, str) or kind not in PLACE_KEYS:
        raise _refuse("choose a place on the board, or one from the list")
    action: Action = {"type": kind, "player": player}
    for key in PLACE_KEYS[kind]:
        value = sent.get(key)
        if value is None:
            continue
        if not (isinstance(value, str) or _pair_of_names(value)):
            raise _refuse(f"{key} must name a place of the board")
        action[key] = value
    return action


def _pair_of_names(value: Any) -> bool:
    """An edge written as its two nodes (seafarers-format.md "Board")."""
    return isinstance(value, list) and len(value) == 2 and all(isinstance(v, str) for v in value)


def _count(raw: Any, what: str) -> int:
    if raw in (None, ""):
        return 0
    if not isinstance(raw, str) or not raw.isascii() or not raw.strip().isdigit():
        raise _refuse(f"{what}: write a whole number of cards, 0 or more")
    value = int(raw.strip())
    if value > MOST:
        raise _refuse(f"{what}: no one holds {value} cards of a kind")
    return value


def _resource(raw: Any) -> str:
    if raw not in RESOURCES:
        raise _refuse("choose one of brick, wood, wool, grain, ore (never gold: GD3)")
    return str(raw)
