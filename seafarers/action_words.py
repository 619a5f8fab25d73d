"""An engine action in the players' words, for the moderator's pages (issue 20 §4: *Act for a
player*, *The last actions* and *Award special points* read "move a ship: from -1,3,S – -1,4,N").

A place is named as the desk names it (`board_targets.place_label`, over `board_places.Places`:
"build a road at the south side of hills 4 on home"), cards as the log's report counts them
(`log_report.cards`: "2 brick, 1 wool"); no coordinates, except where two places have the same
words (docs/rulings.md S-39). Pure: an action and the board's places in, a string out.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from seafarers.board_places import Places
from seafarers.board_targets import place_label
from seafarers.log_report import cards

VERBS = {
    "roll": "roll the dice",
    "end_turn": "end the turn",
    "buy_dev_card": "buy a development card",
    "play_knight": "play a Knight",
    "play_road_building": "play Road Building",
    "end_road_building": "end Road Building",
}


def action_words(action: Mapping[str, Any], places: Places) -> str:
    """What the action does, for the moderator who sends it for a player or reads it in the
    log ("take 1 ore for gold", "trade 4 wool with the bank for 1 brick")."""
    kind = str(action.get("type"))
    try:
        placed = place_label(action, places)
        if placed is not None:
            return placed
        return _other(kind, action, places)
    except (KeyError, TypeError, ValueError, AttributeError):  # an action the engine never lists
        return VERBS.get(kind, kind.replace("_", " "))


def _other(kind: str, action: Mapping[str, Any], places: Places) -> str:
    if kind == "discard":  # B11
        return f"discard {cards(action['cards'])}"
    if kind == "pick_gold":  # GD4
        return f"take {cards(action['take'])} for gold"
    if kind == "maritime_trade":  # X11
        return f"trade {cards(action['give'])} with the bank for {cards(action['get'])}"
    if kind == "domestic_trade":  # B18
        return f"trade {cards(action['give'])} to {action['with']} for {cards(action['get'])}"
    if kind == "play_year_of_plenty":
        return f"play Year of Plenty: take {cards(action['take'])}"
    if kind == "play_monopoly":
        return f"play Monopoly: take every {action['resource']}"
    if kind == "award_svp":  # X19, G4
        points = int(action["points"])
        counted = f"{points} special point{'' if points == 1 else 's'}"
        return f"award {counted} under the building at {places.node(str(action['node']))}"
    return VERBS.get(kind, kind.replace("_", " "))


__all__ = ["action_words"]
