"""A turn as a scenario document (scenario-format.md), for `campaign_export` and the admin."""

from __future__ import annotations

from typing import Any

from campaign.models import Turn
from campaign.rulesets import ruleset_of


def turn_scenario(turn: Turn) -> dict[str, Any]:
    """The scenario a locked or resolved turn was resolved from, or the world and orders as they
    stand for a turn still open."""
    if turn.scenario is not None:
        return dict(turn.scenario)
    return ruleset_of(turn.campaign).turn_document(turn, seed=turn.seed)
