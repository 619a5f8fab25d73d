"""Writing battle rows: one per battle event of a resolved turn, for lists and queries."""

from __future__ import annotations

from typing import Any

from battles.models import Battle
from campaign.bulk import insert_rows


def battle_rows_write(turn: Any, events: list[dict[str, Any]]) -> None:
    """The turn's battles, numbered in event order, pointing at their event: one statement."""
    battles = [(index, e) for index, e in enumerate(events) if e["type"] == "battle"]
    insert_rows(
        Battle,
        ["turn", "seq", "province", "step", "winner", "outcome", "rounds", "event"],
        [
            (
                turn.pk,
                n,
                b["province"],
                b["step"],
                b["winner"] or "",
                b["outcome"],
                len(b["rounds"]),
                index,
            )
            for n, (index, b) in enumerate(battles)
        ],
    )


def battle_rows_delete(turn: Any) -> None:
    Battle.objects.filter(turn=turn).delete()
