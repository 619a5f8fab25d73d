""" "My orders are final" and early resolution (issue 21 §3, docs/rulings.md R-89–R-92).

A faction's player marks its orders final for the open turn (the desk's button, the API's
`POST …/final`, a written `final` line): a `FinalOrders` row. Any order given, changed or
withdrawn afterwards unmarks it (`services.final_unmark`, inside every order's own
transaction). When the campaign's naval settings say `resolve_early` and every faction with a
player is final, the turn is locked by the moderator's own `turn_lock`, audited with why; the
worker resolves it as any locked turn, and publishing stays the moderator's.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from campaign import lifecycle
from campaign.models import Membership, Turn
from engine.naval import Refusal
from fleets.models import Faction, FinalOrders, NavalSettings
from fleets.services import NOT_OPEN

# The lock's reason in the audit log.
EARLY_REASON = "every faction marked its orders final"


@dataclass(frozen=True, slots=True)
class Marked:
    """A mark given: the faction's orders are final; `locked`: that made every faction with a
    player final, and the turn locked itself (R-90)."""

    marked_at: datetime
    locked: bool = False

    @property
    def words(self) -> str:
        said = "your orders are final"
        if self.locked:
            said += f": every faction's are, so the turn is locked ({EARLY_REASON})"
        return said


@dataclass(frozen=True, slots=True)
class FinalState:
    """What the faction's desk says of its mark this turn: final (since when), or unmarked by a
    change of its orders (when, by whom: `by_moderator`), or never marked."""

    final: bool = False
    marked_at: datetime | None = None
    unmarked_at: datetime | None = None
    by_moderator: bool = False


def orders_final_mark(*, turn: Turn, faction: Faction, user: Any = None) -> Marked | Refusal:
    """The faction's orders marked final for the open turn (R-89); refused `turn_closed` when it
    is not open, nothing written. A second mark keeps the first's time. Then, if the campaign
    resolves early and every faction with a player is final, the turn is locked (R-90)."""
    with transaction.atomic():
        # The turn's row held for the whole mark, as the moderator's Lock holds it: two last
        # marks given together are taken one after the other, so the second sees the first
        # and locks; an order given meanwhile waits, and then finds the turn locked.
        status = (
            Turn.objects.select_for_update()
            .filter(pk=turn.pk)
            .values_list("status", flat=True)
            .first()
        )
        if status != Turn.Status.OPEN:
            return Refusal(
                0,
                NOT_OPEN,
                f"Turn {turn.number} is {status or 'gone'}: orders are closed, so they cannot "
                "be marked final.",
            )
        row, _ = FinalOrders.objects.get_or_create(turn=turn, faction=faction)
        if row.marked_at is None:
            row.marked_at = timezone.now()
            row.marked_by = user if getattr(user, "is_authenticated", False) else None
            row.save(update_fields=["marked_at", "marked_by"])
        locked = _resolve_early(turn)
    return Marked(row.marked_at, locked=locked)


def final_factions(turn: Turn) -> set[int]:
    """The ids of the factions whose orders are final this turn (1 query)."""
    return set(
        FinalOrders.objects.filter(turn=turn, marked_at__isnull=False).values_list(
            "faction_id", flat=True
        )
    )


def final_state(turn: Turn | None, faction: Faction | None) -> FinalState:
    """The faction's mark as its desk and the API say it (1 query; none without a turn)."""
    if turn is None or faction is None:
        return FinalState()
    row = (
        FinalOrders.objects.filter(turn=turn, faction=faction).select_related("unmarked_by").first()
    )
    if row is None:
        return FinalState()
    if row.marked_at is not None:
        return FinalState(final=True, marked_at=row.marked_at)
    moderator = (
        row.unmarked_by_id is not None
        and Membership.objects.filter(
            campaign_id=turn.campaign_id,
            user_id=row.unmarked_by_id,
            role=Membership.Role.MODERATOR,
        ).exists()
    )
    return FinalState(unmarked_at=row.unmarked_at, by_moderator=moderator)


def playing_factions(turn: Turn) -> set[int]:
    """The factions a player plays (R-91: one nobody plays, the pirates among them, is not
    waited for)."""
    return set(
        Membership.objects.filter(
            campaign_id=turn.campaign_id, role=Membership.Role.PLAYER, faction__isnull=False
        ).values_list("faction_id", flat=True)
    )


def _resolve_early(turn: Turn) -> bool:
    """R-90: the turn locked, through the moderator's `turn_lock` with the reason, when its
    campaign resolves early and every faction with a player is final. Whether it did."""
    early = (
        NavalSettings.objects.filter(campaign_id=turn.campaign_id)
        .values_list("resolve_early", flat=True)
        .first()
    )
    if not early:
        return False
    playing = playing_factions(turn)
    if not playing or not playing <= final_factions(turn):
        return False
    current = Turn.objects.filter(pk=turn.pk).defer("scenario", "result").get()
    lifecycle.turn_lock(current, user=None, reason=EARLY_REASON)
    return True
