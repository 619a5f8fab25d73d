"""The seafaring load bench's check (bench/seafarers_load.py, issue 14) on a real game: it passes
when the log is what the clients were told, and fails for a lost action, an action nobody was
told of, one told at another index, and a log that no longer replays to the stored state."""

from __future__ import annotations

import random
from copy import deepcopy
from typing import Any

import pytest
from django.contrib.auth.models import User

from bench.seafarers_load import Config, Player, Run, check
from engine.seafarers import legal_actions
from seafarers.models import Action, Game
from seafarers.positions import waiting_for
from seafarers.services import action_submit, game_create, game_start
from tests.seafarers.helpers import position

pytestmark = pytest.mark.django_db
PLAYERS_CHECK = 1  # the index of "the players' rows are exactly … accepted" in run.checks
REPLAY_CHECK = 3  # "each log replays from the first position to the stored state"


def _played(actions: int = 12) -> tuple[Game, list[Player]]:
    """Four Islands, four human seats, `actions` random legal actions sent as the bench's
    clients send them (X25: each with the log length it read), each client's record kept."""
    moderator = User.objects.create(username="mod")
    users = {n: User.objects.create(username=n) for n in ("ann", "bob", "cid", "dee")}
    game = game_create(
        name="Load", slug="load", moderator=moderator, board="four-islands", seats=list(users)
    )
    game = game_start(game=game, user=moderator)
    seats = {s.player: s for s in game.seats.select_related("membership__user")}
    players = {
        p: Player(game=0, slug="load", seat=p, key="", session="", rng=random.Random(p))
        for p in seats
    }
    for _ in range(actions):
        game.refresh_from_db()
        state = position(game)
        me = players[waiting_for(state)[0]]
        choices = [a for a in legal_actions(state, me.seat) if a["type"] != "domestic_trade"]
        action = me.rng.choice(choices)
        row = action_submit(
            game=game, user=seats[me.seat].user, action=action, expected_index=game.log_length
        )
        me.accepted.append((row.index, action))
    return game, list(players.values())


def _checks(game: Game, players: list[Player]) -> list[tuple[str, bool, str]]:
    run = Run(Config(games=1, length=12, workers=1, bots=False, port=0))
    check([game], players, run)
    return run.checks


def test_the_check_passes_when_the_log_is_what_the_clients_were_told() -> None:
    game, players = _played()
    checks = _checks(game, players)
    assert all(passed for _, passed, _ in checks), checks


@pytest.mark.parametrize("fault", ["lost", "untold", "moved", "rewritten"])
def test_the_check_fails_when_the_log_and_the_clients_differ(fault: str) -> None:
    game, players = _played()
    told: Any = deepcopy(players)
    with_records = next(p for p in told if len(p.accepted) >= 2)
    if fault == "lost":  # answered as accepted, no row: the row deleted (the log cut short)
        last = max(i for p in told for i, _ in p.accepted)
        Action.objects.filter(game=game, index=last).delete()
        Game.objects.filter(pk=game.pk).update(log_length=last)
    elif fault == "untold":  # a row nobody was told of (an action applied twice looks so)
        with_records.accepted.pop()
    elif fault == "moved":  # told at another index than stored
        index, action = with_records.accepted[0]
        with_records.accepted[0] = (index + 100, action)
    else:  # a row's action changed: no longer what was sent, and no longer the stored state
        row = Action.objects.filter(game=game, sender="player").order_by("index").last()
        assert row is not None
        row.action = {**row.action, "player": "nobody"}
        row.save()
    checks = _checks(Game.objects.get(pk=game.pk), told)
    assert not checks[PLAYERS_CHECK][1], checks
    if fault == "rewritten":
        assert not checks[REPLAY_CHECK][1], checks
