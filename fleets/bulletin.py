"""The naval turn's public bulletin: the thing to post (issue 11, the forum export). The platform
posts it to a campaign's webhook on publish, with the turn's public map attached as PNG
(campaign/notifications.py, through the registry: `bulletin_register` and
`bulletin_picture_register` in FleetsConfig.ready()); the export page gives it as Markdown and
BBCode with the public map's link as an image (fleets/report_views.py)."""

from __future__ import annotations

from typing import Any

from fleets.names import campaign_names
from fleets.public_maps import turn_public_png
from reports.bbcode import to_bbcode
from reports.build import public_bulletin
from reports.markdown import to_markdown
from reports.model import Report


def bulletin_report(turn: Any) -> Report:
    """The published turn's bulletin (reports/, the page's own), under a title naming the
    campaign and the turn."""
    assert turn.result is not None
    assert turn.scenario is not None
    return public_bulletin(
        turn.scenario,
        turn.result,
        campaign_names(turn.campaign_id),
        title=f"{turn.campaign.name} — turn {turn.number}",
    )


def turn_bulletin(turn: Any) -> str:
    """The bulletin as Markdown, for the webhook (its map goes as an attached file)."""
    return to_markdown(bulletin_report(turn))


def bulletin_texts(turn: Any, png_url: str | None) -> dict[str, str]:
    """The bulletin for a forum post: "md" (Markdown: Discord, Reddit, Discourse) and "bbcode"
    (phpBB and the like), the public map's PNG shown at the top."""
    report = bulletin_report(turn)
    return {"md": to_markdown(report, map_url=png_url), "bbcode": to_bbcode(report, png_url)}


def turn_bulletin_picture(turn: Any) -> tuple[str, bytes, str] | None:
    """The public map attached to the webhook's post: file name, PNG, alt text."""
    png = turn_public_png(turn)
    if png is None:
        return None
    return (
        f"turn-{turn.number}-map.png",
        png,
        f"Map of {turn.campaign.name} after turn {turn.number}, its battles marked",
    )
