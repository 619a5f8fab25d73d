"""`python manage.py seafarers_demo` (run by `make run` after `demo`): a seafaring game on the
bundled Four Islands board — three seats for demo players, the fourth the engine's bot —
started, its moderator the demo's `moderator`; prints its pages and the players with their
password. Safe to run again, as every `make run` does: the game is made once and then kept as it
stands; an account's password is set only when the account is made (set again it would log its
user out: Django ties a session to the password's hash).

A command of the seafaring app, not of the platform's `demo`: the platform never imports a
game's app (pyproject.toml's import contracts)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser
from django.urls import reverse

from campaign.models import Campaign
from seafarers.services import game_create, game_start

PASSWORD = "admiralty"  # demo accounts only, as the platform's demo
SLUG = "four-islands-demo"
SAILORS = ("sailor1", "sailor2", "sailor3")


class Command(BaseCommand):
    help = "Set up the demo seafaring game (for `make run`)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--address", default="http://127.0.0.1:8000/")

    def handle(self, *args: Any, **options: Any) -> None:
        users = get_user_model().objects
        moderator, created = users.get_or_create(
            username="moderator", defaults={"email": "moderator@example.org"}
        )
        if created:  # run alone, without the naval demo (which makes it staff)
            moderator.set_password(PASSWORD)
            moderator.save()
        for name in SAILORS:
            user, created = users.get_or_create(
                username=name, defaults={"email": f"{name}@example.org"}
            )
            if created:
                user.set_password(PASSWORD)
                user.save()
        campaign = Campaign.objects.filter(slug=SLUG).first()
        kept = campaign is not None
        if campaign is None:
            game = game_create(
                name="Four Islands (demo)",
                slug=SLUG,
                moderator=moderator,
                board="four-islands",
                seats=[*SAILORS, None],
            )
            game_start(game=game, user=moderator)
            campaign = game.campaign
        seats = campaign.seafaring_game.seats.select_related("membership__user")
        players = [f"{s.player}: {'bot' if s.bot else s.user.username}" for s in seats]
        address = options["address"].rstrip("/")
        self.stdout.write(
            f"Seafaring game: {campaign.name} — {address}/g/{campaign.slug}/"
            + (" (kept from the last run, as it stands)" if kept else "")
        )
        self.stdout.write(
            f"  its log: {address}{reverse('seafarers_log', args=[campaign.slug])}, "
            f"the table: {address}{reverse('seafarers_table', args=[campaign.slug])}"
        )
        password = f"{PASSWORD}, unless changed since" if kept else PASSWORD
        self.stdout.write(f"  moderated by moderator / {password}")
        self.stdout.write(f"  players (password {password}): {', '.join(players)}\n")
