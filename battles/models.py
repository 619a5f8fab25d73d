"""Battle reports of resolved turns, kept for display: every round and every die."""

from __future__ import annotations

from django.db import models

from campaign.models import Turn


class Battle(models.Model):
    turn = models.ForeignKey(Turn, on_delete=models.CASCADE, related_name="battles")
    seq = models.PositiveIntegerField()  # order within the turn
    province = models.CharField(max_length=60)
    step = models.PositiveIntegerField()
    sides = models.JSONField()  # {"A": [fleet keys], "B": [...]}
    supporters = models.JSONField(default=dict)
    attacking = models.CharField(max_length=1, blank=True)
    winner = models.CharField(max_length=1, blank=True)
    outcome = models.CharField(max_length=12)
    captured = models.JSONField(default=list)
    sunk = models.JSONField(default=list)

    class Meta:
        ordering = ["turn", "seq"]


class BattleRound(models.Model):
    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField()
    dice_a = models.PositiveSmallIntegerField()
    dice_b = models.PositiveSmallIntegerField()
    strength_a = models.PositiveIntegerField()
    strength_b = models.PositiveIntegerField()
    losses = models.JSONField(default=dict)
    sunk = models.JSONField(default=list)
    retreat = models.JSONField(null=True, blank=True)  # {side, dice, success}

    class Meta:
        ordering = ["battle", "number"]
