"""`python manage.py demo`: the bundled Baltic campaign with a moderator and a player account for
each faction, its first turn open; prints the address and the accounts. Safe to run again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser

from campaign import lifecycle
from campaign.models import Campaign, Membership
from campaign.scenario_files import read_scenario_document
from fleets.campaign_files import read_campaign_file
from fleets.importing import campaign_import

BALTIC = Path(settings.BASE_DIR) / "examples" / "baltic.campaign.yaml"
PASSWORD = "admiralty"  # demo accounts only, on the embedded default


class Command(BaseCommand):
    help = "Set up the demo campaign and accounts (for `make run`)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--address", default="http://127.0.0.1:8000/")

    def handle(self, *args: Any, **options: Any) -> None:
        source = read_campaign_file(read_scenario_document(BALTIC))
        campaign = Campaign.objects.filter(slug=source.slug).first()
        if campaign is None:
            campaign = campaign_import(source)
            lifecycle.turn_open(campaign.current_turn, user=None)
        users = get_user_model().objects
        moderator, _ = users.get_or_create(
            username="moderator", defaults={"email": "moderator@example.org"}
        )
        moderator.is_staff = moderator.is_superuser = True
        moderator.set_password(PASSWORD)
        moderator.save()
        Membership.objects.get_or_create(
            user=moderator, campaign=campaign, defaults={"role": Membership.Role.MODERATOR}
        )
        players = []
        for faction in campaign.factions.exclude(key="pirates"):
            player, _ = users.get_or_create(
                username=faction.key, defaults={"email": f"{faction.key}@example.org"}
            )
            player.set_password(PASSWORD)
            player.save()
            Membership.objects.get_or_create(
                user=player,
                campaign=campaign,
                defaults={"role": Membership.Role.PLAYER, "faction": faction},
            )
            players.append(f"{faction.key} ({faction.name})")
        address = options["address"].rstrip("/")
        self.stdout.write(f"\nAdmiralty is at {address}/admin/")
        self.stdout.write(
            f"Campaign: {campaign.name} — dashboard: "
            f"{address}/admin/campaign/campaign/{campaign.pk}/dashboard/"
        )
        self.stdout.write(f"Moderator: moderator / {PASSWORD}")
        self.stdout.write(f"Players (password {PASSWORD}): {', '.join(players)}\n")
