"""The seafaring game's audit actions in words, for the moderator's log (campaign/audit_log.py
asks the campaign's ruleset: `SeafarersRuleset.audit_words`): the game's lifecycle on its
dashboard (created, set up, started, paused, resumed), an undone action (G3), a seat passed on,
the reminder's time, the game's language, and an action the moderator took for a seat
("act_for:<its type>")."""

from __future__ import annotations

from collections.abc import Mapping

from campaign.models import language_choices
from campaign.rulesets import Audited, AuditWording

# Entries whose words are the same whatever they keep.
PLAIN = {
    "game_create": "Created the game",
    "game_start": "Started the game",
    "game_pause": "Paused the game",
    "game_resume": "Resumed the game",
    "game_settings": "Set up the game",
}


def _plain(said: Audited) -> str:
    return PLAIN[said.action]


def _reminder_hours(said: Audited) -> str:
    new, old = said.detail.get("new", "?"), said.detail.get("old", "?")
    return f"Reminders after {new} h (were after {old} h)"


def _campaign_language(said: Audited) -> str:
    names = dict(language_choices())
    new, old = said.detail.get("new", "?"), said.detail.get("old", "?")
    return f"The game's language: {names.get(new, new)} (was {names.get(old, old)})"


def _game_undo(said: Audited) -> str:
    undone = said.detail.get("undone")
    kind = undone.get("type") if isinstance(undone, dict) else None
    what = f" ({str(kind).replace('_', ' ')})" if kind else ""
    return f"Undid the last action{what}"


def _seat_replace(said: Audited) -> str:
    new = said.detail.get("new") or "the bot"
    return f"Gave {said.detail.get('player', 'a')}'s seat to {new}"


def _act_for(said: Audited) -> str:
    kind = said.action.split(":", 1)[1].replace("_", " ")
    return f"Acted for {said.detail.get('player', 'a player')}: {kind}"


AUDIT_WORDS: Mapping[str, AuditWording] = {
    **dict.fromkeys(PLAIN, _plain),
    "reminder_hours": _reminder_hours,
    "campaign_language": _campaign_language,
    "game_undo": _game_undo,
    "seat_replace": _seat_replace,
    "act_for:": _act_for,  # a family: "act_for:build_road", "act_for:end_turn" …
}
