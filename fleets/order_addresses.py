"""A naval player's private order address (issue 21 §2, docs/rulings.md R-93):
`orders+<token>@<ORDER_MAIL_DOMAIN>`, one per membership.

The token is secret, as an API key is, and the database keeps only its hash (`digest`, found by
it) — but unlike a key it is shown again, on the desk and in every turn e-mail. So it is not
stored random: it is an HMAC of SECRET_KEY over the row's random salt and the membership's seal
(R-47). A copy of the tables alone does not give an address away; a new salt (the player's
*Replace*) makes a new one, and the old one then finds nothing. A membership that passed to
another user or faction, or a deactivated user, makes the address dead: its mail is answered
so (to the user it was made for), never read.
"""

from __future__ import annotations

import base64
import hashlib
import re
import secrets
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils.crypto import salted_hmac

from fleets.models import OrderAddress
from fleets.services import membership_seal

LOCAL = "orders"
# The token: 16 bytes of the HMAC in lower-case base32 (26 letters and digits), since mail
# servers may fold an address's case.
TOKEN = re.compile(r"[a-z2-7]{26}")
_ADDRESS = re.compile(r"orders\+([a-z2-7]{26})@(.+)", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class AddressState:
    """The player's address as the desk shows it."""

    address: str
    works: bool
    why: str | None
    made: Any
    last_used: Any


def _token(salt: str, seal: str) -> str:
    mac = salted_hmac("fleets.order_addresses", f"{salt}:{seal}", algorithm="sha256").digest()
    return base64.b32encode(mac[:16]).decode().rstrip("=").lower()


def token_digest(token: str) -> str:
    return hashlib.sha256(token.lower().encode()).hexdigest()


def address_of(token: str) -> str:
    return f"{LOCAL}+{token}@{settings.ORDER_MAIL_DOMAIN}"


def token_in(recipient: str) -> str | None:
    """The token of an order address on this site's domain, or None (not an order address)."""
    match = _ADDRESS.fullmatch(recipient.strip().strip("<>"))
    if match is None or match.group(2).lower() != settings.ORDER_MAIL_DOMAIN.lower():
        return None
    return match.group(1).lower()


def _made(membership: Any) -> tuple[OrderAddress, str]:
    salt = secrets.token_hex(16)
    seal = membership_seal(membership)
    token = _token(salt, seal)
    row, _ = OrderAddress.objects.update_or_create(
        membership=membership,
        defaults={"salt": salt, "seal": seal, "digest": token_digest(token), "last_used_at": None},
    )
    return row, token


def order_address_replace(*, membership: Any) -> str:
    """A new address for the membership (the player's button, the command): the old one
    finds nothing from now on."""
    with transaction.atomic():
        return address_of(_made(membership)[1])


def order_address_state(membership: Any) -> AddressState:
    """The membership's address, made if it has none (a turn e-mail, the command, the
    desk's button), and whether it works. A dead one is shown as it was, with why: its
    holder replaces it (R-93)."""
    row = OrderAddress.objects.filter(membership=membership).first()
    if row is None:
        try:
            with transaction.atomic():
                row, _ = _made(membership)
        except IntegrityError:  # two at once: the other one made it
            row = OrderAddress.objects.get(membership=membership)
    return address_state(row, membership)


def address_state(row: OrderAddress, membership: Any) -> AddressState:
    """What the desk shows of an address the membership has (no query when its user and
    campaign are loaded)."""
    dead = address_dead(row, membership)
    return AddressState(
        address_of(_token(row.salt, row.seal)),
        dead is None,
        dead,
        row.created_at,
        row.last_used_at,
    )


def address_find(token: str) -> OrderAddress | None:
    """The row whose token this is (with its membership, user, campaign and faction), or None."""
    if not TOKEN.fullmatch(token):
        return None
    return (
        OrderAddress.objects.select_related(
            "membership__user", "membership__campaign", "membership__faction"
        )
        .filter(digest=token_digest(token))
        .first()
    )


def address_dead(row: OrderAddress, membership: Any) -> str | None:
    """Why the address no longer works, or None (R-47's reasons, as an API key's)."""
    if not membership.user.is_active:
        return "its user's account is deactivated"
    if membership.campaign.ruleset != "naval" or membership.faction_id is None:
        return "its membership commands no naval faction"
    if row.seal != membership_seal(membership):
        return "this membership has changed since it was made (a new player or faction)"
    return None


def mail_footer(membership: Any) -> str:
    """What every turn e-mail to a naval player says of their order address (R-93)."""
    if membership.faction_id is None:
        return ""
    state = order_address_state(membership)
    if not state.works:
        return f"Your order address no longer works ({state.why}): make a new one on your desk."
    return (
        f"Send your orders by e-mail to {state.address} (written orders, one a line, as in "
        "your desk's Written orders box; keep this address to yourself: anyone who has it can "
        "order for you)."
    )
