"""Battle reports, read-only: every round and every die."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.utils.html import format_html, format_html_join

from battles.models import Battle
from campaign.admin import ModeratorScoped


@admin.register(Battle)
class BattleAdmin(ModeratorScoped):
    campaign_path = "turn__campaign"

    list_display = ("turn", "province", "step", "winner", "outcome", "rounds")
    list_filter = ("turn__campaign", "outcome")
    fields = ("turn", "province", "step", "sides", "winner", "outcome", "round_table")
    list_select_related = ("turn",)
    readonly_fields = fields

    @admin.display(description="sides")
    def sides(self, battle: Battle) -> str:
        sides, helpers = battle.report["sides"], battle.report["supporters"]
        return " against ".join(
            f"{label}: {', '.join(sides[label])}"
            + (f" (supported by {', '.join(helpers[label])})" if helpers[label] else "")
            for label in ("A", "B")
        )

    @admin.display(description="rounds")
    def round_table(self, battle: Battle) -> str:
        rows = format_html_join(
            "",
            "<tr><td>{}</td><td>{} – {}</td><td>{} – {}</td><td>{}</td><td>{}</td></tr>",
            (
                (
                    r["round"],
                    r["dice"][0],
                    r["dice"][1],
                    r["strength"][0],
                    r["strength"][1],
                    ", ".join(f"{ship} −{hit}" for ship, hit in r["losses"].items()),
                    ", ".join(r["sunk"]),
                )
                for r in battle.report["rounds"]
            ),
        )
        return format_html(
            "<table><tr><th>Round</th><th>Dice</th><th>Strength</th><th>Losses</th>"
            "<th>Sunk</th></tr>{}</table>",
            rows,
        )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.method == "GET"  # read-only: viewable, never saved

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
