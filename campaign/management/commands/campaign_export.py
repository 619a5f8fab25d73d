"""`python manage.py campaign_export CAMPAIGN [--turn N] [-o FILE]`: a turn as a scenario file.

For a locked or resolved turn: the scenario it was resolved from (world, orders, seed), so
`adjudicate` on the file reproduces the stored result exactly. For an open or draft turn: the
world as it stands and the orders given so far."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, cast

from django.core.management.base import BaseCommand, CommandError, CommandParser

from campaign.exporting import turn_scenario
from campaign.models import Campaign, Turn
from campaign.rulesets import Cadence, SequentialRuleset, ruleset_of


class Command(BaseCommand):
    help = "Write a turn of a campaign as a scenario file (to stdout by default)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("campaign", help="the campaign's slug")
        parser.add_argument("--turn", type=int, help="turn number (default: the current turn)")
        parser.add_argument("-o", "--output", help="file to write (default: stdout)")

    def handle(self, *args: Any, **options: Any) -> None:
        campaign = Campaign.objects.filter(slug=options["campaign"]).first()
        if campaign is None:
            raise CommandError(f"There is no campaign {options['campaign']!r}.", returncode=2)
        ruleset = ruleset_of(campaign)
        if ruleset.cadence is Cadence.SEQUENTIAL:
            # A sequential game is its log: the first position and every action, whole.
            document = cast(SequentialRuleset, ruleset).campaign_document(campaign)
            self._write(json.dumps(document, indent=2, ensure_ascii=False) + "\n", options)
            return
        turns = Turn.objects.filter(campaign=campaign, archived=False)
        turn = (
            turns.filter(number=options["turn"]).first()
            if options["turn"]
            else turns.order_by("-number").first()
        )
        if turn is None:
            raise CommandError(f"{campaign.slug} has no turn {options['turn']}.", returncode=2)
        text = json.dumps(turn_scenario(turn), indent=2, ensure_ascii=False) + "\n"
        self._write(text, options, f"turn {turn.number} of {campaign.slug}")

    def _write(self, text: str, options: dict[str, Any], what: str = "the game") -> None:
        if options["output"]:
            Path(options["output"]).write_text(text, encoding="utf-8")
            self.stdout.write(f"Wrote {what} to {options['output']}")
        else:
            self.stdout.write(text, ending="")
