"""The whole table clicking at once (issue 14, G1): many threads, each with its own database
connection and real commits, send actions to one game — every seat, two tabs each, and double
submissions with the same expected index. Exactly one action is applied per index, in one order;
none the server accepted is lost, none is stored twice; the log replays to the stored state.
On SQLite (IMMEDIATE transactions take turns) and on PostgreSQL (the game's row FOR UPDATE).
test_concurrency.py has the two-click case; this is the crowd."""

from __future__ import annotations

import threading
from collections import Counter
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from engine.seafarers import adjudicate, bot_action
from seafarers.models import Game
from seafarers.positions import replay, waiting_for
from seafarers.scenario_files import game_document
from seafarers.services import GameRefused, action_submit, game_create, game_start
from tests.concurrent import at_once

pytestmark = pytest.mark.django_db(transaction=True)
PLAYERS = ("ann", "bob", "cid", "dee")


@pytest.fixture
def table(people) -> Game:
    """Four Islands, four human seats (ann red, bob blue, cid white, dee orange), started."""
    game = game_create(
        name="Four", slug="four", moderator=people["mod"], board="four-islands", seats=PLAYERS
    )
    return game_start(game=game, user=people["mod"])


def assert_log_is_the_game(game: Game, accepted: list[tuple[int, dict[str, Any]]]) -> None:
    """The log is exactly what the server accepted: each index once, in order, no gap; and the
    stored state is the engine's replay of it."""
    game.refresh_from_db()
    log = list(game.actions.order_by("index").values_list("index", "action"))
    assert sorted(accepted, key=lambda a: a[0]) == log  # none lost, none twice
    assert [i for i, _ in log] == list(range(game.log_length))
    assert adjudicate(game_document(game))["state"] == game.state


def test_every_seat_clicking_at_once_each_index_once(table) -> None:
    """Round after round, every seat sends at the same moment with the same expected index —
    the seat the game waits for from three tabs (three different legal actions), the others
    an action out of turn: one is applied, every other is refused with a plain code."""
    users = {s.player: s.user for s in table.seats.select_related("membership__user")}
    accepted: list[tuple[int, dict[str, Any]]] = []
    codes: Counter[str] = Counter()
    for _ in range(40):
        table.refresh_from_db()
        index = table.log_length
        state = replay(table.first_position, table.actions.values_list("action", flat=True))
        calls = []
        for player in users:
            mine = player in waiting_for(state)
            for tab in range(3 if mine else 1):
                action = bot_action(state, player, index * 10 + tab) if mine else None
                action = action or {"type": "end_turn", "player": player}
                calls.append(
                    lambda u=users[player], a=action, i=index: action_submit(
                        game=table, user=u, action=a, expected_index=i
                    )
                )
        outcomes = at_once(*calls)
        applied = [o for o in outcomes if not isinstance(o, Exception)]
        refused = [o for o in outcomes if isinstance(o, GameRefused)]
        assert len(applied) == 1, outcomes
        assert len(applied) + len(refused) == len(outcomes), outcomes  # no other error
        assert all(r.message for r in refused)
        codes.update(r.code for r in refused)
        accepted.append((applied[0].index, applied[0].action))
        assert applied[0].index == index
    assert_log_is_the_game(table, accepted)
    assert codes["game_moved_on"] > 0  # the losers of a race saw the game move on…
    assert set(codes) <= {"game_moved_on", "not_your_turn", "wrong_phase"}, codes  # …or out of turn


def test_double_submissions_of_the_same_action_apply_once(table, people) -> None:
    """Eight tabs send the very same action with the same expected index: one applied, seven
    told the game moved on."""
    state = replay(table.first_position, [])
    action = bot_action(state, "red", 1)
    outcomes = at_once(
        *[lambda: action_submit(game=table, user=people["ann"], action=action, expected_index=0)]
        * 8
    )
    refused = [o for o in outcomes if isinstance(o, GameRefused)]
    assert [r.code for r in refused] == ["game_moved_on"] * 7, outcomes
    table.refresh_from_db()
    assert table.log_length == 1
    assert list(table.actions.values_list("index", "action")) == [(0, action)]


def test_the_table_playing_flat_out_loses_nothing(table) -> None:
    """Eight senders (each seat in two tabs) play as fast as they can: each reads the game,
    sends a legal action for its seat when the game waits for it, and on `game_moved_on`
    reads again. Every action the server accepted is in the log once, in the order of its
    index, and the log replays to the stored state."""
    target = 80
    accepted: list[tuple[int, dict[str, Any]]] = []
    lock = threading.Lock()
    users = {s.player: s.user_id for s in table.seats.all()}
    User = get_user_model()

    def play(player: str, tab: int) -> int:
        user = User.objects.get(pk=users[player])
        sent = 0
        while True:
            game = Game.objects.get(pk=table.pk)
            if game.log_length >= target:
                return sent
            state = replay(game.first_position, game.actions.values_list("action", flat=True))
            if player not in waiting_for(state):
                continue
            action = bot_action(state, player, game.log_length * 2 + tab)
            if action is None:
                continue
            try:
                row = action_submit(
                    game=game, user=user, action=action, expected_index=game.log_length
                )
            except GameRefused as refusal:
                if refusal.code not in ("game_moved_on", "database_unavailable"):
                    raise  # anything else fails the test
                continue
            with lock:
                accepted.append((row.index, row.action))
            sent += 1

    outcomes = at_once(*[lambda p=p, t=t: play(p, t) for p in users for t in (0, 1)])
    assert all(isinstance(o, int) for o in outcomes), outcomes
    assert sum(outcomes) == len(accepted) >= target
    assert_log_is_the_game(table, accepted)
