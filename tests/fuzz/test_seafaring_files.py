"""Mutated seafaring scenario files through the import (issue 14, "Bad input"): the platform's
reader and `campaign_import` take a hand-broken seafarers-scenario/1 file whole or not at all —
a game whose log replays to its state, or every problem with its path and nothing stored, never
a traceback. The same files through `adjudicate` are tests/engine/seafarers' (the reader)."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.core.management import CommandError, call_command
from django.db import transaction
from hypothesis import given
from hypothesis import strategies as st

from campaign.models import Campaign
from engine.kernel.problems import ScenarioError
from engine.seafarers import state_to_dict
from seafarers.models import Action, Game
from seafarers.positions import replay
from seafarers.scenario_files import import_scenario_file
from tests.fuzz.mutations import mutated
from tests.fuzz.profile import FUZZ

pytestmark = pytest.mark.django_db
# Each example asserts on whichever way the import went (either is allowed), inside `except`.
# ruff: noqa: PT017
ROOT = Path(__file__).resolve().parents[2]
# A file with a log (40 actions of setup and the first turns): the import replays every one.
GOOD = json.loads((ROOT / "examples" / "small-isles-opening.seafarers.json").read_text())


def test_an_action_that_is_not_an_object_is_a_problem_at_its_place() -> None:
    """Found by the test below: a null among a file's actions was a TypeError (a traceback from
    `campaign_import`, a 500 from the new-game page)."""
    broken = {**GOOD, "actions": [*GOOD["actions"][:3], None, *GOOD["actions"][4:]]}
    with pytest.raises(ScenarioError) as raised:
        import_scenario_file(broken, None)
    assert [str(p) for p in raised.value.problems] == [
        "actions[3]: an action is an object with a type"
    ]
    nothing_stored()


def nothing_stored() -> None:
    assert not Campaign.objects.exists()
    assert not Game.objects.exists()
    assert not Action.objects.exists()


def test_the_good_file_imports_with_its_log() -> None:
    campaign = import_scenario_file(GOOD, None)
    game = campaign.seafaring_game
    assert game.log_length == len(GOOD["actions"])
    assert game.state == state_to_dict(replay(game.first_position, GOOD["actions"]))


@FUZZ
@given(mutated(GOOD))
def test_a_mutated_file_imports_whole_or_not_at_all(doc: dict[str, Any]) -> None:
    with transaction.atomic():
        try:
            campaign = import_scenario_file(doc, None)
        except ScenarioError as error:
            assert error.problems
            assert all(p.path and p.message for p in error.problems), error.problems
            nothing_stored()
        except ValueError as error:  # GameRefused: a plain refusal, with its words
            assert str(error)
            nothing_stored()
        else:
            game = campaign.seafaring_game
            actions = list(game.actions.order_by("index").values_list("action", flat=True))
            assert game.log_length == len(actions)
            assert game.state == state_to_dict(replay(game.first_position, actions))
        transaction.set_rollback(True)


@FUZZ
@given(mutated(GOOD, max_changes=2), st.sampled_from(["json", "yaml"]))
def test_a_mutated_file_through_the_command(tmp_path_factory, doc: Any, kind: str) -> None:
    path = tmp_path_factory.mktemp("fuzz") / f"game.{kind}"
    path.write_text(json.dumps(doc) if kind == "json" else yaml.safe_dump(doc))
    with transaction.atomic():
        try:
            call_command("campaign_import", str(path), stdout=StringIO(), stderr=StringIO())
        except CommandError as error:
            assert error.returncode == 2
            assert "Traceback" not in str(error)
            nothing_stored()
        transaction.set_rollback(True)
