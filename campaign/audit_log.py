"""The audit log as a moderator reads it (issue 11: the dashboard showed action ids): each entry
in words ("Locked turn 3", "Rolled back turn 2 (published)", "Gave Danes an order: Sail to
Kattegat"), its stable id kept beside for a title or a small code, and the turn's status when it
was written.

The words come from the entry alone (its action, turn and detail). The platform words its own
actions (PLATFORM_WORDS); a game's are its ruleset's (`Ruleset.audit_words`), asked of the
campaign's ruleset, so that this module knows no game's actions; an action nobody words reads as
its id in words.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from campaign.models import AuditEntry
from campaign.rulesets import Audited, AuditWording, Ruleset, ruleset_of

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
# Entries whose words need nothing but the turn ("{turn}": "turn N", or "the turn"). The import
# is written by a game's file reader, but it is the platform's page and command that import.
PLAIN = {
    "fail": "The worker failed to resolve {turn}",
    "requeue": "Sent {turn} to the worker again",
    "deadline_passed": "The deadline of {turn} passed",
    "import": "Imported the campaign",
    "webhook refused": "The bulletin's webhook was refused",
}


def _transition(said: Audited) -> str:
    was = said.detail.get("from")
    after = f" ({was})" if said.action == "rollback" and was else ""
    return f"{TURN_VERBS[said.action]} {said.turn}{after}"


def _plain(said: Audited) -> str:
    return PLAIN[said.action].format(turn=said.turn)


def _extend(said: Audited) -> str:
    new = str(said.detail.get("new") or "")[:16].replace("T", " ")
    if not new:
        return f"Moved the deadline of {said.turn}"
    return f"Moved the deadline of {said.turn} to {new} UTC"


# The platform's own actions, worded before the game's (a game cannot reword a transition). The
# memberships' and the admin's edits ("edit membership", "edit campaign") read well as their ids.
PLATFORM_WORDS: dict[str, AuditWording] = {
    **dict.fromkeys(TURN_VERBS, _transition),
    **dict.fromkeys(PLAIN, _plain),
    "extend": _extend,
}


@dataclass(frozen=True, slots=True)
class Line:
    """One entry of the log as the dashboard lists it."""

    entry: AuditEntry
    words: str

    @property
    def action(self) -> str:
        return self.entry.action


def audit_lines(campaign: Any, entries: Any) -> list[Line]:
    """The campaign's entries in words: its ruleset asked once, not once an entry."""
    ruleset = ruleset_of(campaign)
    return [Line(entry, audit_words(entry, ruleset=ruleset)) for entry in entries]


def audit_words(entry: AuditEntry, *, ruleset: Ruleset | None = None) -> str:
    """What the entry says, in the words a moderator reads (`ruleset`: the campaign's, when the
    caller has it; else the entry's campaign is read)."""
    action = entry.action
    detail: Mapping[str, Any] = entry.detail if isinstance(entry.detail, dict) else {}
    turn = f"turn {entry.turn.number}" if entry.turn_id and entry.turn else "the turn"
    wording = PLATFORM_WORDS.get(action) or _game_wording(
        action, (ruleset or ruleset_of(entry.campaign)).audit_words
    )
    if wording is None:
        return action.replace("_", " ").capitalize()
    return wording(Audited(action=action, detail=detail, turn=turn))


def _game_wording(action: str, words: Mapping[str, AuditWording]) -> AuditWording | None:
    """The game's wording of the action: by its id, else by its family (the id up to its first
    ":", the colon included)."""
    if action in words:
        return words[action]
    family, colon, _ = action.partition(":")
    return words.get(family + colon) if colon else None
