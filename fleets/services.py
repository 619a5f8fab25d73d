"""Giving orders: every order goes through `order_submit`, which checks it with the engine
(the same validation and refusal codes as `adjudicate`) and that the faction may give it."""

from __future__ import annotations

import hashlib
import re
import secrets
import uuid
from typing import Any

from django.db import connection, transaction

from campaign.models import Turn
from engine.naval import Refusal, World, parse_scenario, validate_order
from engine.naval.orders import FLEET_ORDER_TYPES
from fleets.campaign_files import encodable
from fleets.mapping import world_document
from fleets.models import Faction, Fleet, Order

# An order given or withdrawn when the turn is not open (locked, resolved, published, or not
# yet open): one code on the desk and in the API (docs/rulings.md R-33).
NOT_OPEN = "turn_closed"


def order_slot(order: dict[str, Any]) -> str:
    """The slot an order fills (X23): one order per fleet; one repair or disband per fleet; one
    buy-out per faction and adrift fleet (X33: one buyer fleet may bid for several); hires each
    their own."""
    kind = order.get("type")
    if isinstance(kind, str) and kind in FLEET_ORDER_TYPES:
        return f"fleet:{order.get('fleet')}"
    if kind == "buyout":
        return f"buyout:{order.get('faction')}:{order.get('adrift_fleet')}"
    if kind in ("repair", "disband"):
        return f"{kind}:{order.get('fleet')}"
    return f"{kind}:{uuid.uuid4().hex[:12]}"


def order_check(
    *, turn: Turn, faction: Faction, order: dict[str, Any], world: World | None = None
) -> Refusal | None:
    """Why the faction cannot give this order now, or None. `world`: the campaign's world as
    the engine reads it, when the caller has it already (else it is read: 9 queries)."""
    if turn.status != Turn.Status.OPEN:
        return Refusal(0, NOT_OPEN, f"Turn {turn.number} is {turn.status}: orders are closed.")
    commander = _commander(turn, faction, order) or _storable(order)
    if commander is not None:
        return commander
    if world is None:
        world = parse_scenario(world_document(turn.campaign)).world
    return validate_order(world, order) or _join_refusal(world, order)


@transaction.atomic
def order_submit(
    *,
    turn: Turn,
    faction: Faction,
    order: dict[str, Any],
    user: Any = None,
    slot: str | None = None,
    world: World | None = None,
) -> Order | Refusal:
    """Record the order if it can be given; the latest order of a slot is the one that counts."""
    refusal = order_check(turn=turn, faction=faction, order=order, world=world)
    if refusal is None:
        refusal = _closed_meanwhile(turn)
    if refusal is not None:
        return refusal
    return Order.objects.create(
        turn=turn,
        faction=faction,
        slot=slot or order_slot(order),
        payload=order,
        submitted_by=_real(user),
    )


@transaction.atomic
def order_withdraw(
    *, turn: Turn, faction: Faction, slot: str, user: Any = None
) -> Order | Refusal | None:
    """Withdraw the faction's order in a slot: a withdrawal row, or None when the slot holds no
    order (nothing to write). Another faction's order is refused, not withdrawn: the order that
    counts is the latest of its slot, whoever wrote it (docs/rulings.md R-41)."""
    if turn.status != Turn.Status.OPEN:
        return Refusal(0, NOT_OPEN, f"Turn {turn.number} is {turn.status}: orders are closed.")
    closed = _closed_meanwhile(turn)  # the turn locked since this request read it
    if closed is not None:
        return closed
    if "\x00" in slot:  # no slot has one (and PostgreSQL cannot even compare it)
        return None
    latest = Order.objects.filter(turn=turn, slot=slot).order_by("-id").first()
    if latest is not None and latest.faction_id != faction.pk:
        return Refusal(0, "not_commander", f"The order in {slot} is not {faction.key}'s.")
    if latest is None or latest.withdrawn:
        return None
    return Order.objects.create(
        turn=turn,
        faction=faction,
        slot=slot,
        payload=None,
        withdrawn=True,
        submitted_by=_real(user),
    )


def _closed_meanwhile(turn: Turn) -> Refusal | None:
    """The turn's status read again inside the order's transaction, and held until it commits
    (a shared row lock on PostgreSQL; on SQLite the IMMEDIATE transaction already excludes
    other writers). The caller's `turn` was read when its request began: a lock that committed
    since then is seen here and the order refused, and a lock that starts now waits for this
    order before it reads the orders (`lifecycle.turn_lock` takes the row first). Without it,
    an order accepted while the turn locked could be missing from the locked turn."""
    share = " FOR SHARE" if connection.vendor == "postgresql" else ""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT status FROM {Turn._meta.db_table} WHERE id = %s{share}", [turn.pk])
        row = cursor.fetchone()
    status = row[0] if row else None
    if status == Turn.Status.OPEN:
        return None
    return Refusal(0, NOT_OPEN, f"Turn {turn.number} is {status}: orders are closed.")


def _commander(turn: Turn, faction: Faction, order: dict[str, Any]) -> Refusal | None:
    """A faction orders its own fleets and spends its own money (the scenario format has no
    submitter, so this is checked here)."""
    named = order.get("faction") if order.get("type") in ("hire", "buyout") else None
    if named is not None and named != faction.key:  # (a support's `faction` is who it helps)
        return Refusal(0, "not_commander", f"You give orders for {faction.key}, not {named}.")
    fleet_key = order.get("fleet")
    if fleet_key is None or order.get("type") == "hire":
        return None
    owner = (
        Fleet.objects.filter(campaign_id=turn.campaign_id, key=fleet_key)
        .values_list("owner__key", flat=True)
        .first()
    )
    if owner is not None and owner != faction.key:
        return Refusal(0, "not_commander", f"{fleet_key} is not commanded by {faction.key}.")
    return None


def _join_refusal(world: World, order: dict[str, Any]) -> Refusal | None:
    """W5, W7 (docs/rulings.md R-40): a fleet joins only its own faction's or an ally's fleet.
    The engine checks this at the merge step (the target may be split off this turn); when the
    target is a fleet that exists now, its owner cannot change before merges, so the player
    hears it when ordering."""
    if order.get("type") != "merge":
        return None
    fleet = world.fleets.get(str(order.get("fleet")))
    target = world.fleets.get(str(order.get("into")))
    if fleet is None or target is None or world.relations.friendly(fleet.owner, target.owner):
        return None
    return Refusal(0, "not_commander", f"{target.id} belongs to {target.owner}, not your ally.")


# A new fleet's id is a key in the database and a part of the desk's addresses.
NEW_FLEET = re.compile(r"[^\s/\x00]{1,60}")


def _storable(order: dict[str, Any]) -> Refusal | None:
    """What the engine accepts but the database or the pages could not keep: a NUL character
    (PostgreSQL refuses it in JSON), a lone surrogate, or a new fleet's id that is no key."""
    stack: list[object] = [order]
    while stack:
        value = stack.pop()
        if isinstance(value, str) and "\x00" in value:
            return Refusal(0, "invalid_order", "The order contains a NUL character.")
        if isinstance(value, str) and not encodable(value):
            return Refusal(0, "invalid_order", "The order is not valid Unicode text.")
        if isinstance(value, dict):
            stack.extend(value.keys())
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    new_fleet = order.get("new_fleet")
    if isinstance(new_fleet, str) and not NEW_FLEET.fullmatch(new_fleet):
        return Refusal(
            0, "invalid_order", "A new fleet's id is 1 to 60 characters, without spaces or /."
        )
    return None


def _real(user: Any) -> Any:
    return user if user is not None and getattr(user, "is_authenticated", False) else None


def token_issue(*, membership: Any) -> str:
    """A new API key for the membership (any older one stops working); shown once."""
    from fleets.models import ApiToken

    key = secrets.token_urlsafe(32)
    ApiToken.objects.update_or_create(
        membership=membership, defaults={"digest": _digest(key), "last_used_at": None}
    )
    return key


def token_membership(key: str) -> Any:
    """The membership an API key belongs to, or None."""
    from django.utils import timezone

    from fleets.models import ApiToken

    token = (
        ApiToken.objects.select_related("membership__campaign", "membership__faction")
        .filter(digest=_digest(key))
        .first()
    )
    if token is None:
        return None
    ApiToken.objects.filter(pk=token.pk).update(last_used_at=timezone.now())
    return token.membership


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


@transaction.atomic
def faction_set_upkeep_priority(
    *, faction: Faction, fleets: list[str], user: Any = None
) -> Refusal | None:
    """U2: the fleets the faction pays first when money is short, in order (its own fleets)."""
    own = set(Fleet.objects.filter(owner=faction).values_list("key", flat=True))
    strangers = [key for key in fleets if key not in own]
    if strangers:
        return Refusal(0, "not_commander", f"Not your fleets: {', '.join(strangers)}.")
    if len(set(fleets)) != len(fleets):
        return Refusal(0, "duplicate_order", "A fleet is named twice.")
    Faction.objects.filter(pk=faction.pk).update(upkeep_priority=fleets)
    from campaign.models import AuditEntry

    AuditEntry.objects.create(
        campaign_id=faction.campaign_id,
        user=_real(user),
        action="upkeep priority",
        detail={"faction": faction.key, "fleets": fleets},
    )
    return None
