"""The seafaring ruleset as the platform sees it (campaign/rulesets.py): SEQUENTIAL — one seat
acts at a time, each action checked and applied when it is sent (seafarers.md G1), so there is
no locked turn to resolve: the turn methods of the interface say so, and `input_apply` and
`campaign_document` are what the sequential cadence adds.

Registered by SeafarersConfig.ready(); the platform reaches it only through `ruleset_of`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from campaign.models import Campaign
from campaign.rulesets import Cadence, Document, Pages, SequentialRuleset
from engine.seafarers import Refusal, State, adjudicate, check, legal_actions
from engine.seafarers.refusals import Refused
from seafarers.models import Game
from seafarers.positions import replay, waiting_for
from seafarers.scenario_files import game_document, import_scenario_file
from seafarers.services import action_submit

__all__ = ["SEAFARERS", "SeafarersRuleset", "import_scenario_file"]


def _position(game: Game) -> State:
    return replay(
        game.first_position, game.actions.order_by("index").values_list("action", flat=True)
    )


def _game_of(turn: Any) -> Game:
    """A sequential game has no turns: the platform's turn methods get its campaign (or a turn
    of it, should there be one)."""
    campaign_id = turn.pk if isinstance(turn, Campaign) else turn.campaign_id
    return Game.objects.get(campaign_id=campaign_id)


class NoTurns(RuntimeError):
    """A sequential game has no locked turn; the platform asked for one by mistake."""


class SeafarersRuleset:
    key = "seafarers"
    name = "Seafarers (seafarers.md)"
    cadence = Cadence.SEQUENTIAL
    pages = Pages(desk="seafarers_desk", map="seafarers_board", reports="seafarers_log")

    def turn_document(self, turn: Any, *, seed: int | None = None) -> Document:
        """The whole game (first position and log): what `advance` would replay."""
        return game_document(_game_of(turn))

    def state_apply(self, campaign: Any, state: Document) -> None:
        # The position is never written from outside: it is the log's replay (G3).
        raise NoTurns("a seafaring game's state changes only by its actions")

    def input_check(self, *, turn: Any, seat: Any, entry: Mapping[str, Any]) -> Refusal | None:
        """The engine's check (X25) against the game's current position; `seat` is a Seat."""
        state = _position(seat.game)
        try:
            check(state, dict(entry))
        except Refused as refusal:
            return Refusal(seat.game.log_length, refusal.code, refusal.message)
        return None

    def legal_inputs(self, *, turn: Any, seat: Any) -> Any:
        state = _position(seat.game)
        return legal_actions(state, seat.player)

    def seats_waiting(self, turn: Any) -> list[Any]:
        game = _game_of(turn)
        waiting = waiting_for(_position(game))
        return list(game.seats.filter(player__in=waiting))

    def advance(self, document: Document) -> Document:
        """The game's file replayed (pure): its result, the current position in `state`."""
        return adjudicate(document)

    def result_rows_write(self, turn: Any, result: Document) -> None:
        raise NoTurns("a seafaring game's rows are written action by action")

    def result_rows_delete(self, turn: Any) -> None:
        raise NoTurns("a seafaring game is undone action by action (G3)")

    def moderator_context(self, turn: Any) -> dict[str, Any]:
        return {}

    def moderator_views(self) -> Sequence[tuple[str, Callable[..., Any], str]]:
        return ()  # the moderator's pages come with the action desk (a later session)

    # The sequential cadence.
    def input_apply(
        self, *, campaign: Any, user: Any, entry: Mapping[str, Any], expected_index: int
    ) -> Document:
        """G1: the action applied now (GameRefused: nothing changed); its log row's index and
        events."""
        game = Game.objects.get(campaign=campaign)
        row = action_submit(game=game, user=user, action=dict(entry), expected_index=expected_index)
        return {"index": row.index, "events": row.events}

    def campaign_document(self, campaign: Any) -> Document:
        return game_document(Game.objects.get(campaign=campaign))


SEAFARERS: SequentialRuleset = SeafarersRuleset()
