"""Positions of a game from its first position and its log (seafarers.md G1–G3), and what a
seat may see of one (G5). No rows are read here: the callers pass documents.

The engine's chance counters (how many rolls and steals came before: X22) are not part of a
state document, so a position is always rebuilt by replaying the log from the first position;
a document read back would roll the same dice again. Replaying is cheap (a whole game of 500
actions in well under 0.1 s: docs/benchmarks.md), and it is what makes undo exact (G3).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.seafarers import State, apply_action, parse_scenario

Document = dict[str, Any]


def replay(first_position: Document, actions: Iterable[Document]) -> State:
    """G1, G3: the state after the log's actions, each applied as it was (they were all
    checked when they were sent, so a refusal here means the log was tampered with)."""
    state = parse_scenario(first_position).state.copy()
    for action in actions:
        apply_action(state, dict(action))
    return state


def waiting_for(state: State) -> list[str]:
    """The players the game waits for (G1): those who owe a discard after a 7 (B11) or a gold
    pick (GD4), in seat order, else the current player; nobody when it is over."""
    if state.phase == "over":
        return []
    if state.phase in ("discard", "gold"):
        owed = state.discard if state.phase == "discard" else state.gold_picks
        return [pid for q, pid in enumerate(state.players) if owed[q]]
    return [state.players[state.player]]


def status_of(state: State) -> str:
    """The game's status as its position says (models.Game.Status, paused aside)."""
    if state.phase == "over":
        return "over"
    return "setup" if state.in_setup() else "playing"


def seat_view(state_document: Document, player: str | None) -> Document:
    """G5: the position as `player` may see it (None: a spectator) — the other players' hands
    and development cards as counts, the deck as its size, and no seed (with the seed and the
    log anyone could work out the dice to come: G2)."""
    view = {key: value for key, value in state_document.items() if key != "seed"}
    view["dev_deck"] = len(state_document.get("dev_deck", []))
    view["players"] = [
        dict(p) if p["id"] == player else _counted(p) for p in state_document["players"]
    ]
    return view


def _counted(player: Document) -> Document:
    counted = {k: v for k, v in player.items() if k not in ("hand", "dev_cards")}
    counted["hand_count"] = sum(player["hand"].values())
    counted["dev_card_count"] = len(player["dev_cards"])
    return counted
