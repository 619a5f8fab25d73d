"""Battle reports of resolved turns, kept for display and queries: every round and every die.

The columns say where and how a battle ended, for lists and queries; the battle itself — sides,
supporters, each round's dice, strengths and losses, retreat rolls, prizes — is the engine's
battle event, kept once, in the turn's result (`event` is its place in the events)."""

from __future__ import annotations

from typing import Any

from django.db import models

from campaign.models import Turn


class Battle(models.Model):
    turn = models.ForeignKey(Turn, on_delete=models.CASCADE, related_name="battles")
    seq = models.PositiveIntegerField()  # order within the turn
    province = models.CharField(max_length=60)
    step = models.PositiveIntegerField()
    winner = models.CharField(max_length=1, blank=True)  # "A", "B" or "" (none)
    outcome = models.CharField(max_length=12)  # destroyed, retreated, routed, parted, max_rounds
    rounds = models.PositiveIntegerField()
    event = models.PositiveIntegerField()  # index of the battle event in turn.result["events"]

    class Meta:
        ordering = ["turn", "seq"]
        indexes = [models.Index(fields=["turn", "province"])]

    @property
    def report(self) -> dict[str, Any]:
        """The engine's battle event (tests/scenarios/naval/README.md, "Event shapes")."""
        return dict((self.turn.result or {})["events"][self.event])

    def __str__(self) -> str:
        return f"Battle at {self.province} (turn {self.turn.number}, step {self.step})"
