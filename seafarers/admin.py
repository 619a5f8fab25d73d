"""The seafaring games in the admin: read-mostly lists of games, seats and actions, each game
linked to its dashboard (seafarers/views/moderate.py), where everything that changes a game is
done through its audited services. A row is never edited here: the game is its log (G1), and
its state is the log's replay (G3). "Add" is the new-game page.

A moderator (a staff user) sees the games of the campaigns they moderate, a superuser all. The
scoping is written here rather than taken from campaign.admin, whose imports reach the naval
reports (through the platform's notifications), which this app may not import.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponseRedirect
from django.urls import reverse
from django.utils.html import format_html

from campaign.models import Campaign, Membership
from seafarers.models import Action, Game, Seat


class ReadOnly(admin.ModelAdmin):  # type: ignore[type-arg]
    """The rows of the games the user moderates, viewed, never changed nor deleted here (the
    services change a game, audited). Moderating a campaign is the permission: no model
    permissions are needed."""

    campaign_path = "campaign"  # how the model reaches its campaign

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        rows = super().get_queryset(request)
        if getattr(request.user, "is_superuser", False):
            return rows
        moderated = Campaign.objects.filter(
            memberships__user=request.user, memberships__role=Membership.Role.MODERATOR
        )
        return rows.filter(**{f"{self.campaign_path}__in": moderated})

    def has_module_permission(self, request: HttpRequest) -> bool:
        return bool(getattr(request.user, "is_staff", False))

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if not getattr(request.user, "is_staff", False):
            return False
        return obj is None or self.get_queryset(request).filter(pk=obj.pk).exists()

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(ReadOnly):
    list_display = ("campaign", "status", "log_length", "created_at", "dashboard")
    list_filter = ("status",)
    list_select_related = ("campaign",)
    fields = ("campaign", "status", "log_length", "created_at", "dashboard")
    readonly_fields = fields

    @admin.display(description="")
    def dashboard(self, game: Game) -> str:
        url = reverse("seafarers_moderate", args=[game.campaign.slug])
        return format_html('<a href="{}">Dashboard</a>', url)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return bool(getattr(request.user, "is_staff", False))  # the new-game page

    def add_view(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseRedirect:
        return HttpResponseRedirect(reverse("seafarers_game_new"))


@admin.register(Seat)
class SeatAdmin(ReadOnly):
    campaign_path = "game__campaign"
    list_display = ("game", "order", "player", "user", "bot")
    list_select_related = ("game__campaign", "membership__user")
    readonly_fields = ("game", "order", "player", "membership", "bot")


@admin.register(Action)
class ActionAdmin(ReadOnly):
    campaign_path = "game__campaign"
    list_display = ("game", "index", "kind", "sender", "user", "created_at")
    list_filter = ("sender",)
    list_select_related = ("game__campaign", "user")
    readonly_fields = ("game", "index", "action", "sender", "user", "events", "created_at")

    @admin.display(description="action")
    def kind(self, row: Action) -> str:
        return str(row.action.get("type"))
