"""Giving orders: every order goes through `order_submit`, which checks it with the engine
(the same validation and refusal codes as `adjudicate`) and that the faction may give it."""

from __future__ import annotations

import hashlib
import re
import secrets
import uuid
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from campaign import transitions
from campaign.models import Turn
from engine.naval import Refusal, World, parse_scenario, validate_order
from engine.naval.fog import seen_world
from engine.naval.orders import FLEET_ORDER_TYPES
from fleets.campaign_files import encodable
from fleets.forms import HireForm
from fleets.mapping import world_document
from fleets.models import Faction, FinalOrders, Fleet, Order
from fleets.spending import economy_check
from fleets.words import Words
from fleets.world_cache import world_changed

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
    *,
    turn: Turn,
    faction: Faction,
    order: dict[str, Any],
    world: World | None = None,
    fogged: bool = False,
    slot: str | None = None,
) -> Refusal | None:
    """Why the faction cannot give this order now, or None. `world`: the campaign's world as
    the engine reads it, when the caller has it already (else it is read: 9 queries).
    `fogged`: the order is checked against what the faction can see (a player's desk and key;
    fog of war, R-36), so a fleet it cannot see is refused as one that does not exist (R-45).
    `slot`: the slot it fills (an economy order replacing the one there is not counted twice).
    A refusal names the campaign's factions, places and ship types in words."""
    if turn.status != Turn.Status.OPEN:
        return Refusal(0, NOT_OPEN, f"Turn {turn.number} is {turn.status}: orders are closed.")
    refusal = _storable(order)
    if refusal is not None:
        return refusal
    if world is None:
        world = parse_scenario(world_document(turn.campaign)).world
    if fogged and turn.campaign.naval_settings.fog_of_war and not faction.is_pirates:
        world = seen_world(world, faction.key)
    refusal = (
        _commander(world, faction, order)
        or validate_order(world, order)
        or _join_refusal(world, order)
        or economy_check(turn=turn, faction=faction, order=order, world=world, slot=slot)
    )
    if refusal is None:
        return None
    return Words.of(turn.campaign_id, world.ship_types).refusal(refusal)


def split_scoped(order: dict[str, Any], faction: Faction) -> dict[str, Any]:
    """R-61: the fleet a player's split forms is named in its faction's namespace
    (`<faction>-<name>`; a name given with the prefix already is kept), so it can never take a
    name another faction's fleet has, seen or hidden (R-45 left that to resolution, which told
    that such a fleet existed). The engine and scenario files keep their own ids."""
    name = order.get("new_fleet")
    if order.get("type") != "split" or not isinstance(name, str) or not name:
        return order
    prefix = f"{faction.key}-"
    return order if name.startswith(prefix) else {**order, "new_fleet": prefix + name}


def _split_name_taken(
    turn: Turn, faction: Faction, order: dict[str, Any], slot: str
) -> Refusal | None:
    """R-61: two of the faction's splits this turn may not form fleets of one name (the engine
    would refuse the second at resolution); the faction's own orders, so nothing is told."""
    name = order.get("new_fleet")
    if order.get("type") != "split" or not isinstance(name, str):
        return None
    latest: dict[str, Any] = {}
    for other_slot, payload in (
        Order.objects.filter(turn=turn, faction=faction, slot__startswith="fleet:")
        .exclude(slot=slot)
        .order_by("id")
        .values_list("slot", "payload")
    ):
        latest[other_slot] = payload
    for payload in latest.values():  # a withdrawal's payload is None
        if isinstance(payload, dict) and payload.get("new_fleet") == name:
            return Refusal(
                0,
                "invalid_order",
                f"there is already a fleet called {name}: {payload.get('fleet')} splits it off"
                " this turn",
            )
    return None


@transaction.atomic
def order_submit(
    *,
    turn: Turn,
    faction: Faction,
    order: dict[str, Any],
    user: Any = None,
    slot: str | None = None,
    world: World | None = None,
    fogged: bool = False,
) -> Order | Refusal:
    """Record the order if it can be given; the latest order of a slot is the one that counts.
    `fogged`: a player's order (desk and API key), checked against what the faction can see,
    its split's new fleet named in the faction's own namespace (R-61: the row's payload)."""
    if fogged:
        order = split_scoped(order, faction)
    slot = slot or order_slot(order)
    refusal = order_check(
        turn=turn, faction=faction, order=order, world=world, fogged=fogged, slot=slot
    ) or (_split_name_taken(turn, faction, order, slot) if fogged else None)
    if refusal is None:
        refusal = _closed_meanwhile(turn)
    if refusal is not None:
        return refusal
    row = Order.objects.create(
        turn=turn,
        faction=faction,
        slot=slot,
        payload=order,
        submitted_by=_real(user),
    )
    row.final_unmarked = final_unmark(turn=turn, faction=faction, user=user)
    return row


@transaction.atomic
def order_withdraw(
    *, turn: Turn, faction: Faction, slot: str, user: Any = None
) -> Order | Refusal | None:
    """Withdraw the faction's order in a slot: a withdrawal row, or None when the slot holds no
    order of the faction's (nothing to write). A slot holding another faction's order answers
    exactly as an empty one, and that order still counts (R-41, R-45): a refusal would say
    that the slot is taken, and so that the fleet it names exists."""
    if turn.status != Turn.Status.OPEN:
        return Refusal(0, NOT_OPEN, f"Turn {turn.number} is {turn.status}: orders are closed.")
    closed = _closed_meanwhile(turn)  # the turn locked since this request read it
    if closed is not None:
        return closed
    if "\x00" in slot:  # no slot has one (and PostgreSQL cannot even compare it)
        return None
    latest = Order.objects.filter(turn=turn, slot=slot).order_by("-id").first()
    if latest is None or latest.withdrawn or latest.faction_id != faction.pk:
        return None
    row = Order.objects.create(
        turn=turn,
        faction=faction,
        slot=slot,
        payload=None,
        withdrawn=True,
        submitted_by=_real(user),
    )
    row.final_unmarked = final_unmark(turn=turn, faction=faction, user=user)
    return row


def final_unmark(*, turn: Turn, faction: Faction, user: Any = None) -> bool:
    """R-89: an order given, changed or withdrawn after the faction marked its orders final
    unmarks them, whoever gives it (the player's desk, map, key or written orders; the
    moderator's correction): the mark said "these orders", and they are no longer those. The
    row keeps when and by whom, for the faction's desk to say. Whether it was final (1 query).
    Called inside the order's transaction, which holds the turn's row (`_closed_meanwhile`)."""
    unmarked = FinalOrders.objects.filter(
        turn=turn, faction=faction, marked_at__isnull=False
    ).update(marked_at=None, marked_by=None, unmarked_at=timezone.now(), unmarked_by=_real(user))
    return unmarked > 0


# The moderator's orders on a faction's desk (issue 11, docs/rulings.md R-60): each says why.
REASON_CODE = "reason_required"


def _reason_refusal(reason: str, what: str) -> Refusal | None:
    if reason.strip():
        return None
    return Refusal(0, REASON_CODE, f"Say why you {what}: the reason goes to the audit log.")


def _counting(turn: Turn, slot: str) -> Order | None:
    """The order that counts in the slot now (None: empty, or withdrawn)."""
    latest = Order.objects.filter(turn=turn, slot=slot).order_by("-id").first()
    return None if latest is None or latest.withdrawn else latest


@transaction.atomic
def moderator_order_submit(
    *,
    turn: Turn,
    faction: Faction,
    order: dict[str, Any],
    user: Any,
    reason: str,
    slot: str | None = None,
    world: World | None = None,
    words: Words | None = None,
    where: str = "desk",
    written: str | None = None,
) -> Order | Refusal:
    """The moderator gives or changes a faction's order (R-38) from its desk: checked as the
    faction's own against the whole world (R-45), recorded as the faction's, and audited
    (`moderator_order`: the faction, the order and the one it replaced in words, the reason).
    Without a reason it is refused `reason_required`, nothing written (R-60). `where`: the
    desk's forms, or written orders (`written`: the line as the moderator wrote it)."""
    refusal = _reason_refusal(reason, "give this order")
    if refusal is not None:
        return refusal
    slot = slot or order_slot(order)
    before = _counting(turn, slot)
    result = order_submit(
        turn=turn, faction=faction, order=order, user=user, slot=slot, world=world, fogged=False
    )
    if isinstance(result, Refusal):
        return result
    words = words or Words.of(turn.campaign_id, world.ship_types if world else ())
    transitions.audit(
        turn,
        user=user,
        action="moderator_order",
        reason=reason.strip(),
        faction=faction.key,
        faction_name=faction.name,
        order=order,
        summary=words.order(order),
        replaces=words.order(before.payload) if before is not None else None,
        slot=slot,
        where=where,
        **({"written": written} if written is not None else {}),
    )
    return result


@transaction.atomic
def moderator_order_withdraw(
    *, turn: Turn, faction: Faction, slot: str, user: Any, reason: str, words: Words | None = None
) -> Order | Refusal | None:
    """The moderator withdraws a faction's order from its desk, audited
    (`moderator_withdraw`: the faction, the order withdrawn in words, the reason); refused
    `reason_required` without a reason, nothing written; an empty slot writes nothing (R-60)."""
    refusal = _reason_refusal(reason, "withdraw this order")
    if refusal is not None:
        return refusal
    before = _counting(turn, slot) if "\x00" not in slot else None
    result = order_withdraw(turn=turn, faction=faction, slot=slot, user=user)
    if isinstance(result, Order) and before is not None:
        words = words or Words.of(turn.campaign_id)
        transitions.audit(
            turn,
            user=user,
            action="moderator_withdraw",
            reason=reason.strip(),
            faction=faction.key,
            faction_name=faction.name,
            order=before.payload,
            summary=words.order(before.payload),
            slot=slot,
            where="desk",
        )
    return result


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


def _commander(world: World, faction: Faction, order: dict[str, Any]) -> Refusal | None:
    """A faction orders its own fleets and spends its own money (the scenario format has no
    submitter, so this is checked here). `world` is what the faction can see: a fleet it cannot
    see is left to the engine, which refuses it as unknown (R-45)."""
    named = order.get("faction") if order.get("type") in ("hire", "buyout") else None
    if named is not None and named != faction.key:  # (a support's `faction` is who it helps)
        return Refusal(0, "not_commander", f"You give orders for {faction.key}, not {named}.")
    fleet_key = order.get("fleet")
    if fleet_key is None or order.get("type") == "hire":
        return None
    fleet = world.fleets.get(str(fleet_key))
    if fleet is not None and fleet.owner != faction.key:
        return Refusal(0, "not_commander", f"{fleet.id} is not commanded by {faction.key}.")
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


# Numbers in an order within the desk's bounds (a hire of 10**30 ships was accepted, then
# refused at the lock): a hire's count as the hire form's, any other whole number storable.
HIRE_COUNT = HireForm.base_fields["count"]
LARGEST = 2**31 - 1


def order_out_of_bounds(order: dict[str, Any]) -> str | None:
    """Why a number in the order is out of bounds, or None."""
    count = order.get("count")
    low, high = HIRE_COUNT.min_value, HIRE_COUNT.max_value  # type: ignore[attr-defined]
    if isinstance(count, int) and not isinstance(count, bool) and not low <= count <= high:
        return f"A hire is of {low} to {high} ships, not {count}."
    stack: list[object] = [order]
    while stack:
        value = stack.pop()
        if isinstance(value, int | float) and not isinstance(value, bool) and abs(value) > LARGEST:
            return f"A number in an order is at most {LARGEST}."
        if isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return None


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
            0,
            "invalid_order",
            "A new fleet's id (with its faction's prefix) is 1 to 60 characters, without spaces"
            " or /.",
        )
    return None


def _real(user: Any) -> Any:
    return user if user is not None and getattr(user, "is_authenticated", False) else None


def membership_seal(membership: Any) -> str:
    """Who a membership makes the key's holder: its user, role and faction. A key is issued
    under this seal and works only while the membership still has it (issue 11: a key stayed
    valid when the membership passed to another user)."""
    return f"{membership.user_id}:{membership.role}:{membership.faction_id or '-'}"


def token_issue(*, membership: Any) -> str:
    """A new API key for the membership (any older one stops working); shown once."""
    from fleets.models import ApiToken

    key = secrets.token_urlsafe(32)
    ApiToken.objects.update_or_create(
        membership=membership,
        defaults={
            "digest": _digest(key),
            "last_used_at": None,
            "seal": membership_seal(membership),
        },
    )
    return key


def token_membership(key: str) -> Any:
    """The membership an API key belongs to, or None: also when the key's user is deactivated
    or the membership has changed hands (or faction) since the key was made."""
    from django.utils import timezone

    from fleets.models import ApiToken

    token = (
        ApiToken.objects.select_related(
            "membership__campaign", "membership__faction", "membership__user"
        )
        .filter(digest=_digest(key))
        .first()
    )
    if token is None or _token_dead(token) is not None:
        return None
    ApiToken.objects.filter(pk=token.pk).update(last_used_at=timezone.now())
    return token.membership


def _token_dead(token: Any) -> str | None:
    """Why the key no longer works, or None."""
    membership = token.membership
    if not membership.user.is_active:
        return "its user's account is deactivated"
    if membership.campaign.ruleset != "naval":  # the naval API's keys open naval campaigns only
        return "its campaign is not a naval campaign (R-71)"
    if token.seal != membership_seal(membership):
        return "this membership has changed since it was made (a new player or faction)"
    return None


def token_state(membership: Any) -> dict[str, Any] | None:
    """The member's key as the desk shows it: when made, when last used, whether it works and
    if not why; None when there is none (or for a superuser looking in, not a member)."""
    from fleets.models import ApiToken

    if membership.pk is None:
        return None
    token = (
        ApiToken.objects.select_related("membership__user").filter(membership=membership).first()
    )
    return api_token_state(token)


def api_token_state(token: Any) -> dict[str, Any] | None:
    """A key's state as the desk shows it (its membership's user and campaign loaded)."""
    if token is None:
        return None
    dead = _token_dead(token)
    return {
        "made": token.created_at,
        "last_used": token.last_used_at,
        "works": dead is None,
        "why": dead,
    }


def campaign_token_states(campaign: Any) -> list[dict[str, Any]]:
    """Every key of the campaign's memberships as the moderator's dashboard shows it: whose
    (user, faction or role), made when, last used, working or not and why (one query)."""
    from fleets.models import ApiToken

    tokens = (
        ApiToken.objects.filter(membership__campaign=campaign)
        .select_related("membership__user", "membership__faction")
        .order_by("membership__faction__name", "membership__user__username")
    )
    states = []
    for token in tokens:
        membership = token.membership
        dead = _token_dead(token)
        states.append(
            {
                "membership": membership.pk,
                "user": membership.user.get_username(),
                "seat": membership.faction.name if membership.faction else membership.role,
                "made": token.created_at,
                "last_used": token.last_used_at,
                "works": dead is None,
                "why": dead,
            }
        )
    return states


# What a revocation refused says (the dashboard shows it as a message; nothing changes).
NO_SUCH_KEY = "There is no API key of that membership in this campaign to revoke (no_such_key)."
REASON_REQUIRED = "Say why the key is revoked: the reason goes to the audit log (reason_required)."


@transaction.atomic
def token_revoke(*, campaign: Any, membership_id: str, user: Any, reason: str) -> str | None:
    """The moderator revokes a membership's key (issue 11): the row goes, so the key is refused
    (401) from the next request on; the audit log keeps whose it was, when it was made and last
    used, and why it was revoked. A refusal's words, or None. A membership of another campaign
    is answered as one without a key (no_such_key), so nothing about it is given away."""
    from campaign.models import AuditEntry
    from fleets.models import ApiToken

    reason = reason.strip()
    if not reason:
        return REASON_REQUIRED
    token = (
        ApiToken.objects.select_for_update(of=("self",))
        .select_related("membership__user", "membership__faction")
        .filter(membership__campaign=campaign, membership_id=_int_or_none(membership_id))
        .first()
    )
    if token is None:
        return NO_SUCH_KEY
    membership = token.membership
    AuditEntry.objects.create(
        campaign=campaign,
        user=_real(user),
        action="revoke api key",
        reason=reason,
        detail={
            "user": membership.user.get_username(),
            "seat": membership.faction.key if membership.faction else membership.role,
            "made": token.created_at.isoformat(),
            "last_used": token.last_used_at.isoformat() if token.last_used_at else None,
            "worked": _token_dead(token) is None,
        },
    )
    token.delete()
    return None


def _int_or_none(text: str) -> int | None:
    return int(text) if text.isascii() and text.isdigit() and len(text) < 12 else None


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


@transaction.atomic
def faction_set_upkeep_priority(
    *, faction: Faction, fleets: list[str], turn: Turn | None, user: Any = None, reason: str = ""
) -> Refusal | None:
    """U2: the fleets the faction pays first when money is short, in order (its own fleets).
    Only while the turn is open (`turn`: the campaign's current turn, read again here): set
    while it is locked, it would not be in the locked turn and publishing would overwrite it
    (R-46)."""
    if turn is not None:
        turn = Turn.objects.filter(pk=turn.pk).first() or turn
    if turn is None or turn.status != Turn.Status.OPEN:
        number, status = (turn.number, turn.status) if turn else (0, "not open")
        return Refusal(
            0,
            NOT_OPEN,
            f"Turn {number} is {status}: the upkeep priority is set while orders are open.",
        )
    own = set(Fleet.objects.filter(owner=faction).values_list("key", flat=True))
    strangers = [key for key in fleets if key not in own]
    if strangers:
        return Refusal(0, "not_commander", f"Not your fleets: {', '.join(strangers)}.")
    if len(set(fleets)) != len(fleets):
        return Refusal(0, "duplicate_order", "A fleet is named twice.")
    Faction.objects.filter(pk=faction.pk).update(upkeep_priority=fleets)
    final_unmark(turn=turn, faction=faction, user=user)  # U2 is one of its orders
    world_changed(faction.campaign_id)  # an update passes no signal (fleets/world_cache.py)
    from campaign.models import AuditEntry

    AuditEntry.objects.create(
        campaign_id=faction.campaign_id,
        user=_real(user),
        action="upkeep priority",
        reason=reason.strip(),  # the moderator's, on the faction's desk
        detail={"faction": faction.key, "faction_name": faction.name, "fleets": fleets},
    )
    return None
