"""The naval game's audit actions in words, for the moderator's log (campaign/audit_log.py asks
the campaign's ruleset: `NavalRuleset.audit_words`): the moderator's orders and withdrawals at
the desk, the pirates' suggested orders, a faction's upkeep priority (R-60), a revoked API key.
The naval app's other entries ("edit ships", "world edit port" …) read well as their ids."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from campaign.rulesets import Audited, AuditWording


def _faction(detail: Mapping[str, Any]) -> str:
    """The faction's name as written with the entry, else its key (entries of before the name
    was kept), else ""."""
    return str(detail.get("faction_name") or detail.get("faction") or "")


def _whose(faction: str) -> str:
    if not faction:
        return "a faction's"
    return f"{faction}'" if faction.endswith("s") else f"{faction}'s"


def _moderator_order(said: Audited) -> str:
    summary = said.detail.get("summary")
    what = f": {summary}" if summary else ""
    replaced = said.detail.get("replaces")
    instead = f" (instead of: {replaced})" if replaced else ""
    return f"Gave {_faction(said.detail) or 'a faction'} an order{what}{instead}"


def _moderator_withdraw(said: Audited) -> str:
    summary = said.detail.get("summary")
    return f"Withdrew {_whose(_faction(said.detail))} order" + (f": {summary}" if summary else "")


def _pirate_orders(said: Audited) -> str:
    return f"Gave the pirates {said.detail.get('given', 0)} suggested order(s)"


def _upkeep_priority(said: Audited) -> str:
    fleets = ", ".join(str(f) for f in said.detail.get("fleets") or []) or "none"
    return f"Set {_whose(_faction(said.detail))} upkeep priority: {fleets}"


def _revoke_api_key(said: Audited) -> str:
    seat = said.detail.get("seat")
    whose = f"{said.detail.get('user', 'a member')}" + (f", {seat}" if seat else "")
    return f"Revoked the API key of {whose}"


AUDIT_WORDS: Mapping[str, AuditWording] = {
    "moderator_order": _moderator_order,
    "moderator_withdraw": _moderator_withdraw,
    "pirate_orders": _pirate_orders,
    "upkeep priority": _upkeep_priority,
    "revoke api key": _revoke_api_key,
}
