"""`python manage.py campaign_import FILE`: a new campaign from a campaign file (YAML or JSON).

The last word of the last line printed is the new campaign's slug, for scripts."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from campaign.campaign_files import read_campaign_file
from campaign.importing import ImportRefused, campaign_import
from campaign.rulesets import campaign_file_importer
from campaign.scenario_files import described, read_scenario_document, read_text
from engine.naval import ScenarioError


class Command(BaseCommand):
    help = "Create a campaign from a campaign file (docs/campaign-format.md)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="campaign file (.yaml, .yml or .json)")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            document = read_scenario_document(options["file"])
            # A ruleset's own file (say seafarers-scenario/1) is read by its app, through the
            # registry; the naval campaign file by the platform, still.
            importer = campaign_file_importer(document)
            if importer is not None:
                campaign = importer(document, None)  # type: ignore[arg-type]
                self.stdout.write(f"Imported {campaign.name} ({campaign.ruleset}).")
                self.stdout.write(f"Campaign slug: {campaign.slug}")
                return
            source = read_campaign_file(document)
            campaign = campaign_import(source)
        except ScenarioError as error:
            for line in described(error.problems, read_text(options["file"])):
                self.stderr.write(f"  {line}")
            raise CommandError(
                f"{options['file']} is not a valid campaign file "
                f"({len(error.problems)} problem(s))",
                returncode=2,
            ) from error
        except (ImportRefused, ValueError) as error:
            raise CommandError(str(error), returncode=2) from error
        counts = (
            f"{campaign.provinces.count()} provinces, {campaign.ports.count()} ports, "
            f"{campaign.factions.count() - 1} factions, {campaign.fleets.count()} fleets"
        )
        self.stdout.write(f"Imported {campaign.name}: {counts}.")
        self.stdout.write(f"Campaign slug: {campaign.slug}")
