"""A turn as a scenario document (scenario-format.md), for `campaign_export` and the admin; a
sequential game's file as its text, for `campaign_export` and the game's own export."""

from __future__ import annotations

import json
from typing import Any

from campaign.models import Turn
from campaign.rulesets import ruleset_of


def turn_scenario(turn: Turn) -> dict[str, Any]:
    """The scenario a locked or resolved turn was resolved from, or the world and orders as they
    stand for a turn still open."""
    if turn.scenario is not None:
        return dict(turn.scenario)
    return ruleset_of(turn.campaign).turn_document(turn, seed=turn.seed)


def game_file_text(document: dict[str, Any]) -> str:
    """A sequential game's file (its first position and every action) as text: the one form the
    dashboard's export and `campaign_export` both write, byte for byte."""
    return json.dumps(document, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
