"""A membership's changes as the audit log keeps them (R-49), for every place that gives,
changes or ends one: the admin's membership pages (naval seats: the faction) and a ruleset's own
pages (seafaring: the new-game page and "Replace a player", seafarers/services.py)."""

from __future__ import annotations

from typing import Any

from campaign.models import AuditEntry, Membership

# What a membership's audit entry shows of it: who, where, as what (names, not ids).
MEMBERSHIP_SHOWN = ("user", "campaign", "role", "faction")


def membership_shown(membership: Membership | None) -> dict[str, str]:
    if membership is None:
        return dict.fromkeys(MEMBERSHIP_SHOWN, "")
    faction = membership.faction
    return {
        "user": membership.user.get_username(),
        "campaign": membership.campaign.slug,
        "role": str(membership.role),
        "faction": f"{faction.name} ({faction.key})" if faction else "",  # type: ignore[attr-defined]
    }


def membership_audit(
    *,
    campaign: Any,
    user: Any,
    action: str,
    reason: str,
    old: dict[str, str],
    new: dict[str, str],
    subject: Membership,
    **detail: Any,
) -> AuditEntry:
    """One entry: `add membership`, `edit membership` or `delete membership`, with the values
    that differ (old and new, as a person reads them) and the reason; `detail`: what else the
    entry says (a seafaring seat's colour)."""
    return AuditEntry.objects.create(
        campaign=campaign,
        user=user,
        action=action,
        reason=reason,
        detail={
            "object": str(subject),
            "changes": {k: [old[k], new[k]] for k in MEMBERSHIP_SHOWN if old[k] != new[k]},
            **detail,
        },
    )
