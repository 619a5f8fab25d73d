"""The audit log as a moderator reads it (issue 11: the dashboard showed action ids): each entry
in words ("Locked turn 3", "Rolled back turn 2 (published)", "Gave Danes an order: Sail to
Kattegat"), its stable id kept beside for a title or a small code, and the turn's status when it
was written.

The words come from the entry alone (its action, turn and detail), so the platform words every
game's entries without asking the game; an action it does not know reads as its id in words.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from campaign.models import AuditEntry

# A turn's transitions (campaign/transitions.py), as "<verb> turn N".
TURN_VERBS = {
    "open": "Opened",
    "lock": "Locked",
    "reopen": "Reopened",
    "resolve": "Resolved",
    "retry": "Retried",
    "publish": "Published",
    "rollback": "Rolled back",
}
# Entries whose words need nothing but the turn ("{turn}": "turn N", or "the turn").
PLAIN = {
    "fail": "The worker failed to resolve {turn}",
    "requeue": "Sent {turn} to the worker again",
    "deadline_passed": "The deadline of {turn} passed",
    "import": "Imported the campaign",
    "webhook refused": "The bulletin's webhook was refused",
    "game_create": "Created the game",
    "game_start": "Started the game",
    "game_pause": "Paused the game",
    "game_resume": "Resumed the game",
    "game_settings": "Set up the game",
}


@dataclass(frozen=True, slots=True)
class Line:
    """One entry of the log as the dashboard lists it."""

    entry: AuditEntry
    words: str

    @property
    def action(self) -> str:
        return self.entry.action


def audit_lines(entries: Any) -> list[Line]:
    return [Line(entry, audit_words(entry)) for entry in entries]


def audit_words(entry: AuditEntry) -> str:
    """What the entry says, in the words a moderator reads."""
    action = entry.action
    detail: dict[str, Any] = entry.detail if isinstance(entry.detail, dict) else {}
    turn = f"turn {entry.turn.number}" if entry.turn_id and entry.turn else "the turn"
    if action in TURN_VERBS:
        was = detail.get("from")
        after = f" ({was})" if action == "rollback" and was else ""
        return f"{TURN_VERBS[action]} {turn}{after}"
    if action in PLAIN:
        return PLAIN[action].format(turn=turn)
    if action == "extend":
        new = str(detail.get("new") or "")[:16].replace("T", " ")
        return (
            f"Moved the deadline of {turn} to {new} UTC" if new else f"Moved the deadline of {turn}"
        )
    faction = str(detail.get("faction_name") or detail.get("faction") or "")
    if action == "moderator_order":
        summary = detail.get("summary")
        what = f": {summary}" if summary else ""
        replaced = detail.get("replaces")
        instead = f" (instead of: {replaced})" if replaced else ""
        return f"Gave {faction or 'a faction'} an order{what}{instead}"
    if action == "moderator_withdraw":
        summary = detail.get("summary")
        return f"Withdrew {_whose(faction)} order" + (f": {summary}" if summary else "")
    if action == "pirate_orders":
        return f"Gave the pirates {detail.get('given', 0)} suggested order(s)"
    if action == "upkeep priority":
        fleets = ", ".join(str(f) for f in detail.get("fleets") or []) or "none"
        return f"Set {_whose(faction)} upkeep priority: {fleets}"
    if action == "revoke api key":
        seat = detail.get("seat")
        whose = f"{detail.get('user', 'a member')}" + (f", {seat}" if seat else "")
        return f"Revoked the API key of {whose}"
    if action == "reminder_hours":
        return f"Reminders after {detail.get('new', '?')} h (were after {detail.get('old', '?')} h)"
    if action == "game_undo":
        undone = detail.get("undone")
        kind = undone.get("type") if isinstance(undone, dict) else None
        what = f" ({str(kind).replace('_', ' ')})" if kind else ""
        return f"Undid the last action{what}"
    if action == "seat_replace":
        new = detail.get("new") or "the bot"
        return f"Gave {detail.get('player', 'a')}'s seat to {new}"
    if action.startswith("act_for:"):
        kind = action.split(":", 1)[1].replace("_", " ")
        return f"Acted for {detail.get('player', 'a player')}: {kind}"
    return action.replace("_", " ").capitalize()


def _whose(faction: str) -> str:
    if not faction:
        return "a faction's"
    return f"{faction}'" if faction.endswith("s") else f"{faction}'s"
