"""The naval world in the admin: factions, relations, ports, ship types, fleets and their ships,
editable by the moderator with the reason recorded; the orders as given, read-only."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from campaign.admin import AuditedAdmin, ModeratorScoped, ScopedInline
from campaign.models import AuditEntry
from fleets.models import Faction, Fleet, Order, Port, Relation, Ship, ShipType


@admin.register(Faction)
class FactionAdmin(AuditedAdmin):
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
class RelationAdmin(AuditedAdmin):
    list_display = ("campaign", "low", "high", "state")
    list_filter = ("campaign", "state")
    fields = ("campaign", "low", "high", "state", "reason")


@admin.register(Port)
class PortAdmin(AuditedAdmin):
    list_display = ("name", "key", "campaign", "owner", "province")
    list_filter = ("campaign",)
    fields = ("campaign", "key", "name", "province", "owner", "waters", "reason")


@admin.register(ShipType)
class ShipTypeAdmin(AuditedAdmin):
    list_display = ("key", "campaign", "cost", "attack", "health")
    list_filter = ("campaign",)
    fields = ("campaign", "key", "cost", "attack", "health", "reason")


class ShipInline(ScopedInline):
    model = Ship
    fields = ("key", "type", "owner", "health", "position")
    extra = 0


@admin.register(Fleet)
class FleetAdmin(AuditedAdmin):
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
