"""API keys for the seafaring API (seafarers/api.py): one per seat, made by the seat's user on
the desk side (/g/<slug>/api-key/), shown once; only its hash is kept (as the naval keys,
fleets.models.ApiToken, but a table of this app's own: the two games' apps share nothing)."""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from django.utils import timezone

from seafarers.models import Seat, SeatKey

PREFIX = "sea_"  # tells a seafaring key from a naval one at a glance (and in a leaked log)


def seat_key_issue(*, seat: Seat) -> str:
    """A new key for the seat's player — its membership's user — (an older key of the seat
    stops working); shown once."""
    if seat.bot or seat.user_id is None:
        raise ValueError("a bot's seat has no API key")
    key = PREFIX + secrets.token_urlsafe(32)
    SeatKey.objects.update_or_create(
        seat=seat, defaults={"user_id": seat.user_id, "digest": _digest(key), "last_used_at": None}
    )
    return key


def seat_key_seat(key: str) -> Seat | None:
    """The seat a key opens, or None: an unknown key, or one made by a player who no longer
    holds the seat (seat_replace deletes the seat's key; and a key made for one user never
    opens the seat for another: its membership's user must be the key's)."""
    found: Any = (
        SeatKey.objects.select_related("seat__game__campaign", "seat__membership__user")
        .filter(digest=_digest(key))
        .first()
    )
    if found is None or found.seat.user_id != found.user_id:
        return None
    SeatKey.objects.filter(pk=found.pk).update(last_used_at=timezone.now())
    seat: Seat = found.seat
    return seat


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()
