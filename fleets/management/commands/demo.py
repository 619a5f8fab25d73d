"""`python manage.py demo`: the bundled Baltic campaign with a moderator and a player account for
each faction, its first turn open; prints the address and the accounts.

Safe to run again, and run again by every `make run`: what is there is kept — the campaign as it
stands, the accounts with the passwords their users may have changed, everyone's sessions (a
password set again would log them out: Django ties a session to the password's hash). Only
what is missing is made, and the banner says which it was (issue 20 §4)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser
from django.db import connection

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
        kept = campaign is not None
        if campaign is None:
            campaign = campaign_import(source)
            lifecycle.turn_open(campaign.current_turn, user=None)
        users = get_user_model().objects
        moderator, created = users.get_or_create(
            username="moderator", defaults={"email": "moderator@example.org"}
        )
        if created or not (moderator.is_staff and moderator.is_superuser):
            moderator.is_staff = moderator.is_superuser = True
            if created:
                moderator.set_password(PASSWORD)
            moderator.save()
        Membership.objects.get_or_create(
            user=moderator, campaign=campaign, defaults={"role": Membership.Role.MODERATOR}
        )
        players = []
        for faction in campaign.factions.exclude(key="pirates"):
            player, created = users.get_or_create(
                username=faction.key, defaults={"email": f"{faction.key}@example.org"}
            )
            if created:
                player.set_password(PASSWORD)
                player.save()
            Membership.objects.get_or_create(
                user=player,
                campaign=campaign,
                defaults={"role": Membership.Role.PLAYER, "faction": faction},
            )
            players.append(f"{faction.key} ({faction.name})")
        address = options["address"].rstrip("/")
        self.stdout.write("")
        self.stdout.write(data_line(kept=kept))
        self.stdout.write(f"Admiralty is at {address}/admin/")
        self.stdout.write(
            f"Campaign: {campaign.name} — dashboard: "
            f"{address}/admin/campaign/campaign/{campaign.pk}/dashboard/"
        )
        password = f"{PASSWORD}, unless changed since" if kept else PASSWORD
        self.stdout.write(f"Moderator: moderator / {password}")
        self.stdout.write(f"Players (password {password}): {', '.join(players)}\n")


def data_line(*, kept: bool) -> str:
    """The banner's first line: a new database, or the last run's kept, and how to start afresh."""
    name = connection.settings_dict["NAME"]
    if connection.vendor == "sqlite":
        where, afresh = f"in {Path(name).name}", f"delete {Path(name).name}*"
    else:
        where, afresh = f"in the database {name}", f"drop the database {name}"
    if not kept:
        return f"A new demo, {where}."
    return (
        f"The data of the last run was kept, {where}: the games as they stand, the accounts\n"
        f"and their passwords, everyone still logged in. To start afresh: stop the site,\n"
        f"{afresh} and run `make run` again."
    )
