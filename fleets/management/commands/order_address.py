"""`manage.py order_address <campaign-slug> <username>`: a naval player's order address
(made if they have none). The address is secret: whoever has it orders for the faction."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from campaign.models import Membership
from fleets.order_addresses import order_address_state


class Command(BaseCommand):
    help = "Print a naval player's private order address (made if there is none)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("campaign")
        parser.add_argument("username")

    def handle(self, *args: Any, **options: Any) -> None:
        membership = (
            Membership.objects.select_related("campaign", "user", "faction")
            .filter(
                campaign__slug=options["campaign"],
                user__username=options["username"],
                campaign__ruleset="naval",
                faction__isnull=False,
            )
            .first()
        )
        if membership is None:
            raise CommandError(
                f"{options['username']} commands no faction in a naval campaign "
                f"{options['campaign']!r} (no_such_player)."
            )
        state = order_address_state(membership)
        self.stdout.write(state.address)
        if not state.works:
            self.stderr.write(f"This address no longer works: {state.why}.")
