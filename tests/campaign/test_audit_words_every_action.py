"""Every audit action the log words, for a campaign of each game: the platform's own (a turn's
transitions, the worker, the deadline, the import, the webhook, the memberships) in both, and
each game's in its own campaigns. The words were taken from the log before each game's entries
moved into its ruleset (`Ruleset.audit_words`), so they hold them byte for byte."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.audit_log import PLATFORM_WORDS, audit_lines, audit_words
from campaign.models import AuditEntry, Campaign, Turn
from campaign.rulesets import ruleset_all, ruleset_get

pytestmark = pytest.mark.django_db

# (action, detail, on the campaign's turn 3 or on no turn, the words)
Case = tuple[str, Any, bool, str]

PLATFORM: list[Case] = [
    ("open", {}, True, "Opened turn 3"),
    ("lock", {}, True, "Locked turn 3"),
    ("lock", {}, False, "Locked the turn"),
    ("reopen", {}, True, "Reopened turn 3"),
    ("resolve", {}, True, "Resolved turn 3"),
    ("retry", {}, True, "Retried turn 3"),
    ("publish", {}, True, "Published turn 3"),
    ("rollback", {"from": "published"}, True, "Rolled back turn 3 (published)"),
    ("rollback", {}, True, "Rolled back turn 3"),
    ("open", {"from": "draft"}, True, "Opened turn 3"),  # only a rollback says from what
    ("fail", {}, True, "The worker failed to resolve turn 3"),
    ("fail", {}, False, "The worker failed to resolve the turn"),
    ("requeue", {}, True, "Sent turn 3 to the worker again"),
    ("deadline_passed", {}, True, "The deadline of turn 3 passed"),
    ("import", {"slug": "x"}, False, "Imported the campaign"),
    ("webhook refused", {"code": "webhook_private"}, True, "The bulletin's webhook was refused"),
    (
        "extend",
        {"old": None, "new": "2026-12-02T18:00:00+00:00"},
        True,
        "Moved the deadline of turn 3 to 2026-12-02 18:00 UTC",
    ),
    ("extend", {}, True, "Moved the deadline of turn 3"),
    (
        "extend",
        {"new": "2026-12-02T18:00:00+00:00"},
        False,
        "Moved the deadline of the turn to 2026-12-02 18:00 UTC",
    ),
    ("add membership", {}, False, "Add membership"),
    ("edit membership", {}, False, "Edit membership"),
    ("delete membership", {}, False, "Delete membership"),
    ("edit campaign", {}, False, "Edit campaign"),
    ("lock", [], True, "Locked turn 3"),  # a detail that is no object reads as none
]

NAVAL: list[Case] = [
    (
        "moderator_order",
        {"faction": "danes", "faction_name": "Danes", "summary": "Hold", "replaces": "Sail"},
        True,
        "Gave Danes an order: Hold (instead of: Sail)",
    ),
    ("moderator_order", {"faction": "danes", "summary": "Hold"}, True, "Gave danes an order: Hold"),
    ("moderator_order", {}, True, "Gave a faction an order"),
    (
        "moderator_withdraw",
        {"faction_name": "Swedes", "summary": "Hold"},
        True,
        "Withdrew Swedes' order: Hold",
    ),
    ("moderator_withdraw", {"faction_name": "Danish Crown"}, True, "Withdrew Danish Crown's order"),
    ("moderator_withdraw", {}, True, "Withdrew a faction's order"),
    ("pirate_orders", {"given": 3}, True, "Gave the pirates 3 suggested order(s)"),
    ("pirate_orders", {}, True, "Gave the pirates 0 suggested order(s)"),
    (
        "upkeep priority",
        {"faction": "danes", "faction_name": "Danes", "fleets": ["d1", "d2"]},
        False,
        "Set Danes' upkeep priority: d1, d2",
    ),
    (
        "upkeep priority",
        {"faction": "swedes", "fleets": []},
        False,
        "Set swedes' upkeep priority: none",
    ),
    (
        "revoke api key",
        {"user": "ann", "seat": "danes"},
        False,
        "Revoked the API key of ann, danes",
    ),
    ("revoke api key", {"user": "mod", "seat": ""}, False, "Revoked the API key of mod"),
    ("revoke api key", {}, False, "Revoked the API key of a member"),
    # Written by the naval app, worded by the log's fallback: the id in words.
    ("edit ships", {}, False, "Edit ships"),
    ("world edit port", {}, False, "World edit port"),
    ("replace public map link", {}, True, "Replace public map link"),
    ("create campaign", {}, False, "Create campaign"),
]

SEAFARING: list[Case] = [
    ("game_create", {"source": "board"}, False, "Created the game"),
    ("game_start", {}, False, "Started the game"),
    ("game_pause", {}, False, "Paused the game"),
    ("game_resume", {}, False, "Resumed the game"),
    ("game_settings", {"seats": ["ann", "bot"]}, False, "Set up the game"),
    ("reminder_hours", {"old": 24, "new": 6}, False, "Reminders after 6 h (were after 24 h)"),
    ("reminder_hours", {}, False, "Reminders after ? h (were after ? h)"),
    (
        "campaign_language",
        {"old": "en", "new": "sv"},
        False,
        "The game's language: Svenska (was English)",
    ),
    ("campaign_language", {"new": "xx"}, False, "The game's language: xx (was ?)"),
    ("game_undo", {"undone": {"type": "build_road"}}, False, "Undid the last action (build road)"),
    ("game_undo", {"undone": {"player": "red"}}, False, "Undid the last action"),
    ("game_undo", {"undone": "roll"}, False, "Undid the last action"),
    ("game_undo", {}, False, "Undid the last action"),
    ("seat_replace", {"player": "red", "new": "dee"}, False, "Gave red's seat to dee"),
    ("seat_replace", {"player": "blue", "new": None}, False, "Gave blue's seat to the bot"),
    ("seat_replace", {}, False, "Gave a's seat to the bot"),
    ("act_for:build_road", {"player": "red"}, False, "Acted for red: build road"),
    ("act_for:end_turn", {}, False, "Acted for a player: end turn"),
    ("act_for", {}, False, "Act for"),  # no type after the colon: not the family, the fallback
]

GAMES = {"naval": NAVAL, "seafarers": SEAFARING}


def campaign_of(ruleset: str) -> tuple[Campaign, Turn]:
    campaign = Campaign.objects.create(name=ruleset, slug=f"a-{ruleset}", ruleset=ruleset)
    return campaign, Turn.objects.create(campaign=campaign, number=3)


def entry(campaign: Campaign, turn: Turn, case: Case) -> AuditEntry:
    action, detail, on_turn, _ = case
    return AuditEntry(
        campaign=campaign, turn=turn if on_turn else None, action=action, detail=detail
    )


@pytest.mark.parametrize("ruleset", sorted(GAMES))
def test_every_action_reads_as_it_did(ruleset: str) -> None:
    campaign, turn = campaign_of(ruleset)
    cases = PLATFORM + GAMES[ruleset]
    made = [entry(campaign, turn, case) for case in cases]
    assert [audit_words(e) for e in made] == [case[3] for case in cases]
    # The dashboards' list says the same, the entry beside its words.
    lines = audit_lines(campaign, made)
    assert [(line.entry, line.words, line.action) for line in lines] == [
        (e, case[3], case[0]) for e, case in zip(made, cases, strict=True)
    ]


def test_every_worded_action_is_in_these_cases() -> None:
    """A game's action given words without a case here fails: the cases are the whole table."""
    named = {case[0] for case in PLATFORM}
    assert set(PLATFORM_WORDS) <= named
    for ruleset in ruleset_all():
        own = {case[0] for case in GAMES[ruleset.key]}
        for key in ruleset.audit_words:
            # A family ("act_for:") is named by its actions.
            assert key in own or any(a.startswith(key) for a in own if key.endswith(":")), key


def test_no_game_words_an_action_of_the_platform() -> None:
    """The platform's words come first: a game's entry of the same name would never be read."""
    for ruleset in ruleset_all():
        assert not set(ruleset.audit_words) & set(PLATFORM_WORDS), ruleset.key


@pytest.mark.parametrize("ruleset", sorted(GAMES))
def test_an_unknown_action_reads_as_its_id_in_words(ruleset: str) -> None:
    campaign, turn = campaign_of(ruleset)
    unknown: list[Case] = [
        ("something_new", {}, False, "Something new"),
        ("something_new", {"faction": "danes", "player": "red"}, True, "Something new"),
        ("Mixed Case_name", {}, False, "Mixed case name"),
        ("new_family:of_kind", {}, False, "New family:of kind"),
        ("", {}, False, ""),
    ]
    assert [audit_words(entry(campaign, turn, case)) for case in unknown] == [
        case[3] for case in unknown
    ]


def test_a_game_words_only_its_own_campaigns_entries() -> None:
    """Each game's words are its ruleset's: another game's action in a campaign reads as the
    fallback (no such entry is written, but the log must still say something)."""
    naval, naval_turn = campaign_of("naval")
    seafaring, seafaring_turn = campaign_of("seafarers")
    # Each of these is worded in its own game's campaigns (above): here it is the wrong game.
    assert {"act_for:", "game_undo", "reminder_hours"} <= set(ruleset_get("seafarers").audit_words)
    assert {"pirate_orders", "revoke api key"} <= set(ruleset_get("naval").audit_words)
    pairs = [
        (naval, naval_turn, ("act_for:build_road", {"player": "red"}, False, "Act for:build road")),
        (naval, naval_turn, ("game_undo", {}, False, "Game undo")),
        (naval, naval_turn, ("reminder_hours", {"new": 6}, False, "Reminder hours")),
        (seafaring, seafaring_turn, ("pirate_orders", {"given": 2}, True, "Pirate orders")),
        (seafaring, seafaring_turn, ("revoke api key", {"user": "a"}, False, "Revoke api key")),
    ]
    assert [audit_words(entry(c, t, case)) for c, t, case in pairs] == [p[2][3] for p in pairs]
