"""Battle reports, read-only: every round and every die."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from battles.models import Battle, BattleRound


class RoundInline(admin.TabularInline):
    model = BattleRound
    fields = ("number", "dice_a", "dice_b", "strength_a", "strength_b", "losses", "sunk", "retreat")
    readonly_fields = fields
    extra = 0
    can_delete = False


@admin.register(Battle)
class BattleAdmin(admin.ModelAdmin):
    list_display = ("turn", "province", "step", "sides", "winner", "outcome")
    list_filter = ("turn__campaign", "outcome")
    readonly_fields = (
        "turn",
        "seq",
        "province",
        "step",
        "sides",
        "supporters",
        "attacking",
        "winner",
        "outcome",
        "captured",
        "sunk",
    )
    inlines = [RoundInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
