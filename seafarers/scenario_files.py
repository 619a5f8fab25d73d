"""A seafaring game as a seafarers-scenario/1 file and back (seafarers-format.md): the first
position and every action of the log, so `adjudicate` on the file reproduces the game exactly,
and importing it gives the same game (issue 13)."""

from __future__ import annotations

from typing import Any

from django.db.models import Max

from campaign.models import Campaign
from seafarers.models import Game
from seafarers.services import game_create

Document = dict[str, Any]


def game_document(game: Game) -> Document:
    """The first position (its seed included) and the log's actions, in order."""
    actions = list(game.actions.order_by("index").values_list("action", flat=True))
    return {**game.first_position, "actions": actions}


def import_scenario_file(document: Document, user: Any) -> Campaign:
    """campaign_import's reader of seafarers-scenario/1 (registered with the platform): a new
    game whose log is the file's actions. Its seats go to the bot until the moderator gives
    them to players (seat_replace); a game with a log is imported paused, so no bot moves
    before then. Bad files: ScenarioError, every problem with its path."""
    players = document.get("players") if isinstance(document, dict) else None
    seats: list[str | None] = [None] * (len(players) if isinstance(players, list) else 0)
    number = (Game.objects.aggregate(n=Max("pk"))["n"] or 0) + 1
    slug = f"seafarers-{number}"
    while Campaign.objects.filter(slug=slug).exists():
        number += 1
        slug = f"seafarers-{number}"
    game = game_create(
        name=f"Seafarers game {number}",
        slug=slug,
        moderator=user,
        seats=seats,
        document=document,
        paused=True,
    )
    return game.campaign
