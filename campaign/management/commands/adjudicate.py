"""`python manage.py adjudicate SCENARIO [--format json|text]` (scenario-format.md).

Needs no database, server or broker: it runs the rules engine on one scenario file and prints the
result. A file that is not a valid scenario exits with status 2 and lists every problem.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, ClassVar

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from campaign.scenario_files import described, read_scenario_document, read_text
from engine import seafarers
from engine.naval import ScenarioError, adjudicate
from engine.naval.report import text_report
from engine.seafarers.report import text_report as seafarers_text_report

EXAMPLE = Path(settings.BASE_DIR) / "examples" / "baltic-skirmish.scenario.json"
# The rulesets told apart by the file's `format` (seafarers-format.md); naval is the default.
EXAMPLES = {
    "naval": EXAMPLE,
    "seafarers": Path(settings.BASE_DIR) / "examples" / "seafarers-skirmish.scenario.json",
}


class Command(BaseCommand):
    help = "Resolve one turn written as a scenario file and print the result."
    requires_system_checks: ClassVar[list[str]] = []  # no database needed

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("scenario", nargs="?", help="scenario file (.json, .yaml); - for stdin")
        parser.add_argument("--format", choices=("json", "text"), default="json")
        parser.add_argument(
            "--example", action="store_true", help="print a sample scenario to start from, and stop"
        )
        parser.add_argument(
            "--ruleset",
            choices=tuple(EXAMPLES),
            default="naval",
            help="the ruleset whose sample --example prints",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["example"]:
            self.stdout.write(EXAMPLES[options["ruleset"]].read_text(encoding="utf-8"), ending="")
            return
        source = options["scenario"]
        if not source:
            raise CommandError("name a scenario file, or use --example for a sample", returncode=2)
        text = sys.stdin.read() if source == "-" else read_text(source)
        name = "stdin.json" if source == "-" else source
        try:
            if text is not None:
                document = read_scenario_document(name, text)
            else:  # unreadable: the reader says why
                document = read_scenario_document(source)
            is_seafaring = (
                isinstance(document, dict) and document.get("format") == seafarers.scenario.FORMAT
            )
            result = seafarers.adjudicate(document) if is_seafaring else adjudicate(document)
        except ScenarioError as error:
            for line in described(error.problems, text):
                self.stderr.write(f"  {line}")
            count = len(error.problems)
            raise CommandError(
                f"{source} is not a valid scenario ({count} problem{'s' * (count != 1)})",
                returncode=2,
            ) from error
        if options["format"] == "text":
            report = seafarers_text_report if is_seafaring else text_report
            self.stdout.write(report(result), ending="")
        else:
            self.stdout.write(json.dumps(result, indent=2, ensure_ascii=False))
