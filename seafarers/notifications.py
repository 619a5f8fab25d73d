"""Telling the players (issue 13): "your turn", "you owe a discard / a gold pick", "the game is
won", by e-mail to the seats' users and to the campaign's webhook, sent by the Celery worker.

`news` is pure: what changed between who the game waited for before a change and the position
after it, so a player acting several times in one turn is told once, when the turn comes to
them (G1)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from celery import shared_task
from django.core.mail import send_mail

from campaign.webhooks import webhook_post
from engine.seafarers import State
from seafarers.models import Game
from seafarers.positions import waiting_for


@dataclass(frozen=True)
class News:
    players: list[str]  # whom the e-mail is for (their seats' users; bots get none)
    subject: str
    text: str


def news(before: list[str], state: State, *, game_name: str) -> list[News]:
    if state.phase == "over":
        if before == []:
            return []  # told already
        winner = state.players[state.winner] if state.winner is not None else "nobody"
        return [
            News(
                list(state.players),
                f"{game_name}: {winner} won",
                f"{winner} has won {game_name} (X20).",
            )
        ]
    waiting = waiting_for(state)
    fresh = [p for p in waiting if p not in before]
    if not fresh:
        return []
    if state.phase == "discard":
        return [
            News(
                fresh,
                f"{game_name}: you owe a discard",
                "A 7 was rolled: discard half your cards, rounded down (B11).",
            )
        ]
    if state.phase == "gold":
        return [
            News(
                fresh,
                f"{game_name}: you owe a gold pick",
                "Your gold field produced: pick your resources (GD4).",
            )
        ]
    return [News(fresh, f"{game_name}: your turn", f"It is {fresh[0]}'s turn in {game_name}.")]


def news_send(
    game_id: int,
    items: list[dict[str, Any]],
    *,
    sent: int = 0,
    on_sent: Callable[[int], None] | None = None,
) -> None:
    """E-mail each item to its players' users; every item to the webhook, if there is one (its
    `public` line when it has one).
    `sent`: how many were sent before (a task delivered again goes on from there); `on_sent` is
    told the count after each item (seafarers/outbox.py records it)."""
    game = Game.objects.select_related("campaign").get(pk=game_id)
    emails = dict(
        game.seats.filter(membership__isnull=False).values_list("player", "membership__user__email")
    )
    for count, item in enumerate(items[sent:], start=sent + 1):
        addresses = [emails[p] for p in item["players"] if emails.get(p)]
        if addresses:
            send_mail(
                subject=item["subject"],
                message=item["text"],
                from_email=None,
                recipient_list=addresses,
            )
        if game.campaign.webhook_url:
            # An item may say less to the channel than to its players (`public`: an offer's
            # terms stay between the two seats, seafarers/offers.py).
            line = item.get("public") or f"**{item['subject']}** {item['text']}"
            webhook_post(game.campaign.webhook_url, line)
        if on_sent is not None:
            on_sent(count)


@shared_task(name="seafarers.tasks.news_send_task", acks_late=True, max_retries=3)
def news_send_task(game_id: int, items: list[dict[str, Any]]) -> None:
    news_send(game_id, items)


def as_task_args(items: list[News]) -> list[dict[str, Any]]:
    return [asdict(item) for item in items]
