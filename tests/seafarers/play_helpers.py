"""Games for the desk's tests: a position past setup with the hands, cards and dice a test
needs, so that what the desk shows is known (seafarers.md G2: scripted dice come first)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from engine.seafarers import state_to_dict
from seafarers.models import Game
from seafarers.services import game_create, game_start
from tests.seafarers.helpers import play_until, position


def desk_url(game: Game) -> str:
    return reverse("seafarers_desk", args=[game.campaign.slug])


def act_url(game: Game) -> str:
    return reverse("seafarers_act", args=[game.campaign.slug])


def game_at_roll(
    people: dict[str, Any],
    *,
    slug: str = "isles-roll",
    hands: dict[str, dict[str, int]] | None = None,
    dev_cards: dict[str, list[Any]] | None = None,
    dice: list[list[int]] | None = None,
    settlements: dict[str, list[str]] | None = None,
) -> Game:
    """Small Isles after a setup the bot placed (a fixed seed), red to roll: a new game
    created from that position with the given hands, cards, extra settlements and scripted
    dice."""
    setup = game_create(
        name="Setup",
        slug=f"{slug}-setup",
        moderator=people["mod"],
        board="small-isles",
        seats=["ann", "bob", "cid"],
    )
    setup = game_start(game=setup, user=people["mod"])
    setup.first_position = {**setup.first_position, "seed": 11}
    setup.state = state_to_dict(position(setup))
    setup.save()
    play_until(setup, lambda s: not s.in_setup())
    document = state_to_dict(position(setup))
    for player in document["players"]:
        player["hand"] = (hands or {}).get(player["id"], {})
        player["dev_cards"] = (dev_cards or {}).get(player["id"], [])
        player["settlements"] += (settlements or {}).get(player["id"], [])
    document.pop("bank", None)  # the bank less the hands given (seafarers-format.md)
    document.pop("dev_deck", None)
    document["dice"] = dice or []
    game = game_create(
        name="Small Isles",
        slug=slug,
        moderator=people["mod"],
        document=document,
        seats=["ann", "bob", "cid"],
    )
    return game_start(game=game, user=people["mod"])


def form(game: Game, kind: str, control: str = "board", **fields: Any) -> dict[str, Any]:
    """A post as the desk's forms make it, at the game's current index."""
    game.refresh_from_db()
    return {"expected": str(game.log_length), "control": control, "type": kind, **fields}
