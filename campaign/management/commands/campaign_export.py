"""`python manage.py campaign_export CAMPAIGN [--turn N | --campaign-file {json,yaml}] [-o FILE]`.

By default a turn as a scenario file. For a locked or resolved turn: the scenario it was resolved
from (world, orders, seed), so `adjudicate` on the file reproduces the stored result exactly. For
an open or draft turn: the world as it stands and the orders given so far. A sequential game
(seafaring) is written whole: its first position and every action.

`--campaign-file` writes the campaign file instead (docs/campaign-format.md), as the world stands
now: the same bytes as the browser's export (the world editor's *Export*), which `campaign_import`
reads back to the same world. Only a game whose ruleset registered a campaign-file writer has one.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, cast

from django.core.management.base import BaseCommand, CommandError, CommandParser

from campaign.exporting import game_file_text, turn_scenario
from campaign.models import Campaign, Turn
from campaign.rulesets import (
    CAMPAIGN_FILE_ENCODINGS,
    Cadence,
    SequentialRuleset,
    UnknownRuleset,
    campaign_file_writer_of,
    ruleset_of,
)


class Command(BaseCommand):
    help = (
        "Write a turn of a campaign as a scenario file, or with --campaign-file the campaign "
        "file the browser exports (to stdout by default)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("campaign", help="the campaign's slug")
        parser.add_argument("--turn", type=int, help="turn number (default: the current turn)")
        parser.add_argument(
            "--campaign-file",
            choices=CAMPAIGN_FILE_ENCODINGS,
            metavar="{json,yaml}",
            help="write the campaign file (docs/campaign-format.md) in this encoding, as the "
            "world stands now, instead of a turn",
        )
        parser.add_argument("-o", "--output", help="file to write (default: stdout)")

    def handle(self, *args: Any, **options: Any) -> None:
        campaign = Campaign.objects.filter(slug=options["campaign"]).first()
        if campaign is None:
            raise CommandError(f"There is no campaign {options['campaign']!r}.", returncode=2)
        try:
            ruleset = ruleset_of(campaign)
        except UnknownRuleset as error:
            raise CommandError(str(error), returncode=2) from error
        if options["campaign_file"]:
            self._campaign_file(campaign, ruleset.name, options)
            return
        if ruleset.cadence is Cadence.SEQUENTIAL:
            # A sequential game is its log: the first position and every action, whole.
            document = cast(SequentialRuleset, ruleset).campaign_document(campaign)
            self._write(game_file_text(document), options)
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

    def _campaign_file(self, campaign: Campaign, game: str, options: dict[str, Any]) -> None:
        # A campaign file is the world as it stands, never a past turn's: refused rather than
        # silently ignored, so no one takes the file for turn N's world.
        if options["turn"] is not None:
            raise CommandError(
                "--turn does not go with --campaign-file: a campaign file is the world as it "
                "stands now.",
                returncode=2,
            )
        writer = campaign_file_writer_of(campaign)
        if writer is None:
            raise CommandError(
                f"{campaign.slug} is a game of {game}, which has no campaign file; without "
                "--campaign-file, campaign_export writes it as a scenario file.",
                returncode=2,
            )
        text = writer(campaign, options["campaign_file"])
        self._write(text, options, f"the campaign file of {campaign.slug}")

    def _write(self, text: str, options: dict[str, Any], what: str = "the game") -> None:
        # Bytes, not text: the file is UTF-8 whatever the locale's encoding is (the browser's
        # export is), so a name like "Denmark–Norway" neither changes the bytes nor fails.
        data = text.encode("utf-8")
        if options["output"]:
            try:
                Path(options["output"]).write_bytes(data)
            except OSError as error:
                raise CommandError(
                    f"Cannot write {options['output']}: {error.strerror or error}.", returncode=2
                ) from error
            self.stdout.write(f"Wrote {what} to {options['output']}")
            return
        raw = getattr(self.stdout, "buffer", None)  # a real stdout's bytes under its text
        if raw is None:  # a text stream (call_command's StringIO): it holds text, not bytes
            self.stdout.write(text, ending="")
            return
        self.stdout.flush()
        raw.write(data)
        raw.flush()
