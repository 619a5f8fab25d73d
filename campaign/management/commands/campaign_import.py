"""`python manage.py campaign_import FILE`: a new campaign from a campaign file (YAML or JSON).

The last word of the last line printed is the new campaign's slug, for scripts."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from campaign.rulesets import campaign_file_importer
from campaign.scenario_files import described, read_scenario_document, read_text
from engine.kernel.problems import ScenarioError


class Command(BaseCommand):
    help = "Create a campaign from a campaign file (docs/campaign-format.md)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="campaign file (.yaml, .yml or .json)")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            document = read_scenario_document(options["file"])
            # Each ruleset's app reads its own file (naval-campaign/1, seafarers-scenario/1),
            # through the registry.
            importer = campaign_file_importer(document)
            if importer is None:
                raise CommandError("No installed ruleset reads campaign files.", returncode=2)
            campaign = importer(document, None)  # type: ignore[arg-type]
        except ScenarioError as error:
            for line in described(error.problems, read_text(options["file"])):
                self.stderr.write(f"  {line}")
            raise CommandError(
                f"{options['file']} is not a valid campaign file "
                f"({len(error.problems)} problem(s))",
                returncode=2,
            ) from error
        except ValueError as error:
            raise CommandError(str(error), returncode=2) from error
        self.stdout.write(f"Imported {campaign.name} ({campaign.ruleset}).")
        self.stdout.write(f"Campaign slug: {campaign.slug}")
