"""A turn as a scenario document (scenario-format.md), for `campaign_export` and the admin."""

from __future__ import annotations

from typing import Any

from campaign.mapping import orders_document, world_document
from campaign.models import Turn


def turn_scenario(turn: Turn) -> dict[str, Any]:
    """The scenario a locked or resolved turn was resolved from, or the world and orders as they
    stand for a turn still open."""
    if turn.scenario is not None:
        return dict(turn.scenario)
    document = world_document(turn.campaign)
    if turn.seed is not None:
        document["seed"] = turn.seed
    document["orders"] = orders_document(turn)
    return document
