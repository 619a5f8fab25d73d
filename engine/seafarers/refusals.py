"""Refusals: an action that is not carried out, with a stable code and a plain message (X25)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.kernel.refusals import Refused as KernelRefused

# seafarers-format.md "Result": every code a refusal may carry.
CODES = frozenset(
    [
        "invalid_action",
        "game_over",
        "not_your_turn",
        "wrong_phase",
        "nothing_pending",
        "unknown_node",
        "unknown_edge",
        "unknown_hex",
        "unknown_player",
        "not_land_edge",
        "not_sea_edge",
        "not_land_node",
        "edge_occupied",
        "node_occupied",
        "distance_rule",
        "not_connected",
        "wrong_island",
        "not_own_settlement",
        "pirate_blocks",
        "no_such_ship",
        "already_moved_ship",
        "ship_built_this_turn",
        "route_closed",
        "no_open_end",
        "same_edge",
        "no_pieces_left",
        "insufficient_resources",
        "deck_empty",
        "no_such_card",
        "card_bought_this_turn",
        "dev_card_already_played",
        "no_legal_placement",
        "not_land_hex",
        "not_sea_hex",
        "same_hex",
        "no_pirate",
        "invalid_victim",
        "victim_required",
        "wrong_count",
        "bank_empty",
        "bad_ratio",
        "same_resource",
        "bad_trade",
        "not_own_building",
    ]
)


@dataclass(frozen=True, slots=True)
class Refusal:
    action: int  # the action's index in the file
    code: str
    message: str

    def as_dict(self) -> dict[str, object]:
        return {"action": self.action, "code": self.code, "message": self.message}


class Refused(KernelRefused):
    """Raised while checking one action; nothing has changed yet."""

    CODES = CODES
