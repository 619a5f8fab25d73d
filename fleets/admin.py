"""The naval world in the admin: the campaign's naval settings (rules, fog of war), factions,
relations, ports, ship types, fleets and their ships, editable by the moderator with the reason
recorded — but not while the campaign's turn waits to be published (locked, resolved, failed:
docs/rulings.md R-50, R-65); the orders as given, read-only."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.contrib.admin.actions import delete_selected
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponseRedirect
from django.urls import reverse

from campaign.admin import AuditedAdmin, ModeratorScoped, ReasonForm, ScopedInline
from campaign.models import DOCUMENTS, AuditEntry, Campaign, Turn
from fleets.models import Faction, Fleet, NavalSettings, Order, Port, Relation, Ship, ShipType

# A turn in these states has its result computed (or to be computed) from the world as it stood
# at the lock; publishing writes that result over the rows, so an edit made now would be lost
# . Open, draft and published turns leave the world to the moderator.
FROZEN = frozenset({Turn.Status.LOCKED, Turn.Status.RESOLVED, Turn.Status.FAILED})
WHAT_TO_DO = {
    Turn.Status.LOCKED: "Reopen the turn on the dashboard first (its orders stay)",
    Turn.Status.RESOLVED: "Roll back its draft result on the dashboard first",
    Turn.Status.FAILED: "Reopen the turn on the dashboard first",
}


def world_frozen(campaign_ids: set[int]) -> str | None:
    """Why the world of these campaigns cannot be edited now, or None (R-50)."""
    for campaign_id in sorted(campaign_ids):
        turn = (
            Turn.objects.filter(campaign_id=campaign_id, archived=False)
            .order_by("-number")
            .defer(*DOCUMENTS)
            .first()
        )
        if turn is not None and turn.status in FROZEN:
            return (
                f"Turn {turn.number} is {turn.status}: its result is computed from the world "
                "as it stood at the lock, and publishing it would overwrite this edit "
                f"(world_frozen). {WHAT_TO_DO[Turn.Status(turn.status)]}, or make the edit "
                "after the turn is published."
            )
    return None


def _campaign_ids(objs: Any) -> set[int]:
    return {int(obj.campaign_id) for obj in objs}


class WorldForm(ReasonForm):
    """An edit of the world: refused as a whole, saving nothing, while the turn waits to be
    published — the campaign the row is in, and the one it would move to."""

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        ids = set()
        if self.instance.pk is not None:
            ids.add(int(self.instance.campaign_id))
        if isinstance(cleaned.get("campaign"), Campaign):
            ids.add(int(cleaned["campaign"].pk))
        why = world_frozen(ids)
        if why:
            raise ValidationError(why, code="world_frozen")
        return cleaned


def delete_unless_frozen(modeladmin: Any, request: HttpRequest, queryset: Any) -> Any:
    """The list's delete action, refused with a message while a turn waits to be published."""
    why = world_frozen(_campaign_ids(queryset))
    if why:
        modeladmin.message_user(request, why, messages.ERROR)
        return None
    return delete_selected(modeladmin, request, queryset)


delete_unless_frozen.short_description = delete_selected.short_description  # type: ignore[attr-defined]
delete_unless_frozen.allowed_permissions = ("delete",)  # type: ignore[attr-defined]


class WorldAdmin(AuditedAdmin):
    """The naval world's tables: audited edits, none while the turn waits to be published."""

    form = WorldForm

    def get_actions(self, request: HttpRequest) -> Any:
        actions = super().get_actions(request)
        if "delete_selected" in actions:
            actions["delete_selected"] = (
                delete_unless_frozen,
                "delete_selected",
                actions["delete_selected"][2],
            )
        return actions

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> Any:
        """Said before the moderator types anything: the page shows why a save will be refused."""
        if request.method == "GET":
            row = self.get_object(request, object_id)
            why = world_frozen(_campaign_ids([row])) if row is not None else None
            if why:
                self.message_user(request, why, messages.WARNING)
        return super().change_view(request, object_id, form_url, extra_context)

    def delete_view(
        self, request: HttpRequest, object_id: str, extra_context: dict[str, Any] | None = None
    ) -> Any:
        row = self.get_object(request, object_id)  # None for a bad or foreign id: Django's answer
        why = world_frozen(_campaign_ids([row])) if row is not None else None
        if why:
            self.message_user(request, why, messages.ERROR)
            change = f"admin:{self.opts.app_label}_{self.opts.model_name}_change"
            return HttpResponseRedirect(reverse(change, args=[row.pk]))
        return super().delete_view(request, object_id, extra_context)


@admin.register(NavalSettings)
class NavalSettingsAdmin(WorldAdmin):
    """A naval campaign's rules and fog of war: one row per campaign, made by its import (the
    campaign's own settings, the platform's, are its change page). Frozen as the world is:
    the locked turn's world holds the rules it is resolved by, and the fog decides what each
    faction is shown of that turn's result (R-65)."""

    list_display = ("campaign", "fog_of_war", "resolve_early")
    fields = ("campaign", "fog_of_war", "resolve_early", "rules", "reason")
    readonly_fields = ("campaign",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # the import makes it, with the campaign

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # a naval campaign without its settings could not be played


@admin.register(Faction)
class FactionAdmin(WorldAdmin):
    list_display = ("name", "key", "campaign", "treasury", "income")
    list_filter = ("campaign",)
    fields = (
        "campaign",
        "key",
        "name",
        "colour",
        "treasury",
        "income",
        "upkeep_priority",
        "reason",
    )


@admin.register(Relation)
class RelationAdmin(WorldAdmin):
    list_display = ("campaign", "low", "high", "state")
    list_filter = ("campaign", "state")
    fields = ("campaign", "low", "high", "state", "reason")


@admin.register(Port)
class PortAdmin(WorldAdmin):
    list_display = ("name", "key", "campaign", "owner", "province")
    list_filter = ("campaign",)
    fields = ("campaign", "key", "name", "province", "owner", "waters", "reason")


@admin.register(ShipType)
class ShipTypeAdmin(WorldAdmin):
    list_display = ("key", "campaign", "cost", "attack", "health")
    list_filter = ("campaign",)
    fields = ("campaign", "key", "cost", "attack", "health", "reason")


class ShipInline(ScopedInline):
    model = Ship
    fields = ("key", "type", "owner", "health", "position")
    extra = 0


@admin.register(Fleet)
class FleetAdmin(WorldAdmin):
    list_display = (
        "key",
        "campaign",
        "owner",
        "province",
        "port",
        "blockading",
        "adrift",
        "ship_count",
    )
    list_filter = ("campaign", "owner", "adrift")
    search_fields = ("key",)
    fields = (
        "campaign",
        "key",
        "owner",
        "province",
        "port",
        "mp_penalty",
        "blockading",
        "adrift",
        "reason",
    )
    inlines = [ShipInline]

    @admin.display(description="ships")
    def ship_count(self, fleet: Fleet) -> int:
        return fleet.ships.count()

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        super().save_formset(request, form, formset, change)
        changed = (
            [str(obj) for obj in formset.changed_objects]
            + [str(o) for o in formset.new_objects]
            + [str(o) for o in formset.deleted_objects]
        )
        if changed:
            AuditEntry.objects.create(
                campaign=form.instance.campaign,
                user=request.user,
                action="edit ships",
                reason=form.cleaned_data["reason"],
                detail={"fleet": form.instance.key, "ships": changed},
            )


@admin.register(Order)
class OrderAdmin(ModeratorScoped):
    """Every order as submitted, with who and when (read-only: orders change by new rows)."""

    campaign_path = "turn__campaign"

    list_display = (
        "turn",
        "faction",
        "slot",
        "payload",
        "withdrawn",
        "submitted_by",
        "submitted_at",
    )
    list_filter = ("turn__campaign", "faction", "withdrawn")
    readonly_fields = (
        "turn",
        "faction",
        "slot",
        "payload",
        "withdrawn",
        "submitted_by",
        "submitted_at",
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # the orders as given are the record (and the audit of appeals)
