"""The dashboard's audit log in words (issue 11: it showed action ids): "Locked turn 1",
"Rolled back turn 1 (published)", the moderator's desk order with its faction and the order
in words; the stable id kept in a title and a small code; the turn's status when written."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from campaign import lifecycle
from campaign.audit_log import audit_words
from campaign.models import AuditEntry
from campaign.resolution import turn_resolve

pytestmark = pytest.mark.django_db
SLUG = "skirmish-in-the-sound"


def log_of(page: str) -> list[str]:
    """The dashboard's log, one line per entry, tags removed."""
    block = page[page.index('<ul id="audit-log">') :]
    block = block[: block.index("</ul>")]
    return [
        re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", li)).strip() for li in block.split("<li>")[1:]
    ]


def test_the_log_reads_in_words_with_the_id_beside(client, people, open_skirmish) -> None:
    mod = people["mod"]
    client.force_login(mod)
    hold = {
        f"d1-{k}": v for k, v in {"type": "hold", "stance": "engage", "retreat": "never"}.items()
    }
    hold |= {"d1-prefer": "sink", "d1-if_cornered": "surrender", "reason": "by e-mail"}
    client.post(reverse("fleet_order", args=[SLUG, "d1"]), hold)
    turn = lifecycle.turn_lock(open_skirmish.current_turn, user=mod)
    turn_resolve(turn_id=turn.pk)  # the worker's part, here
    turn.refresh_from_db()
    lifecycle.turn_publish(turn, user=mod)
    turn.refresh_from_db()
    lifecycle.turn_rollback(turn, user=mod, reason="an appeal")
    page = client.get(reverse("admin:campaign_dashboard", args=[open_skirmish.pk]))
    text = page.content.decode()
    lines = log_of(text)
    words = [line.split(" by ")[0][len("12-01 10:00 ") :] for line in lines]
    assert words[:5] == [
        "Rolled back turn 1 (published) (the turn then open)",
        "Opened turn 2 (the turn then open)",
        "Published turn 1 (the turn then published)",
        "Resolved turn 1 (the turn then resolved)",
        "Locked turn 1 (the turn then locked)",
    ]
    assert "Gave danes an order: Hold (the turn then open)" in words
    assert lines[0].endswith("by mod: “an appeal” rollback")  # the id, in a small code
    assert '<strong title="rollback">Rolled back turn 1 (published)</strong>' in text
    assert '<strong title="moderator_order">Gave danes an order: Hold</strong>' in text


def test_every_entry_has_words_even_an_unknown_one(people, open_skirmish) -> None:
    turn = open_skirmish.current_turn
    made = [
        AuditEntry(
            campaign=open_skirmish,
            turn=turn,
            action="extend",
            detail={"new": "2026-12-02T18:00:00+00:00"},
        ),
        AuditEntry(campaign=open_skirmish, turn=turn, action="fail"),
        AuditEntry(
            campaign=open_skirmish,
            action="revoke api key",
            detail={"user": "danes", "seat": "danes"},
        ),
        AuditEntry(
            campaign=open_skirmish,
            action="upkeep priority",
            detail={"faction": "danes", "fleets": ["d1", "d2"]},
        ),
        AuditEntry(
            campaign=open_skirmish,
            turn=turn,
            action="moderator_withdraw",
            detail={"faction_name": "Swedes", "summary": "Hold"},
        ),
        AuditEntry(campaign=open_skirmish, action="edit membership"),
        # A seafaring action in a naval campaign: no game words it here (the seafaring ruleset
        # words it in its own campaigns: test_audit_words_every_action.py).
        AuditEntry(campaign=open_skirmish, action="act_for:build_road", detail={"player": "red"}),
        AuditEntry(campaign=open_skirmish, action="something_new"),
    ]
    assert [audit_words(e) for e in made] == [
        "Moved the deadline of turn 1 to 2026-12-02 18:00 UTC",
        "The worker failed to resolve turn 1",
        "Revoked the API key of danes, danes",
        "Set danes' upkeep priority: d1, d2",
        "Withdrew Swedes' order: Hold",
        "Edit membership",
        "Act for:build road",
        "Something new",
    ]
