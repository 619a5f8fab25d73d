"""The naval turn's public bulletin as the platform posts it to a campaign's webhook on publish
(campaign/notifications.py, through the registry: `bulletin_register` in FleetsConfig.ready())."""

from __future__ import annotations

from typing import Any

from fleets.names import campaign_names
from reports.build import public_bulletin
from reports.markdown import to_markdown


def turn_bulletin(turn: Any) -> str:
    """The published turn's bulletin (reports/, the page's own), as Markdown under a title
    naming the campaign and the turn."""
    assert turn.result is not None
    assert turn.scenario is not None
    bulletin = public_bulletin(
        turn.scenario,
        turn.result,
        campaign_names(turn.campaign_id),
        title=f"{turn.campaign.name} — turn {turn.number}",
    )
    return to_markdown(bulletin)
