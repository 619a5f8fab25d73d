"""A damaged scenario file is a list of problems (ScenarioError) or a result, never a crash."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.seafarers import ScenarioError, adjudicate

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "seafarers-skirmish.scenario.json"
DOCUMENT = json.loads(EXAMPLE.read_text(encoding="utf-8"))

junk = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 30)
    | st.text(max_size=6)
    | st.sampled_from(
        ["0,0,S", "0,0,SE", "1,0", "red", "blue", "wood", "gold", "sea", "action", "knight"]
    ),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out.extend(paths(v, (*prefix, k)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.extend(paths(v, (*prefix, i)))
    return out


PATHS = paths(DOCUMENT)[1:]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(PATHS), junk), min_size=1, max_size=3))
def test_a_damaged_file_never_crashes_the_reader(
    changes: list[tuple[tuple[Any, ...], Any]],
) -> None:
    document = copy.deepcopy(DOCUMENT)
    for path, value in changes:
        target: Any = document
        try:
            for step in path[:-1]:
                target = target[step]
            target[path[-1]] = value
        except (KeyError, IndexError, TypeError):
            continue
    problems = []
    try:
        adjudicate(document)
    except ScenarioError as error:
        problems = error.problems
        assert problems, "a ScenarioError lists its problems"


ACTION_TYPES = [
    "roll",
    "discard",
    "move_robber",
    "move_pirate",
    "pick_gold",
    "build_road",
    "build_ship",
    "move_ship",
    "build_settlement",
    "build_city",
    "buy_dev_card",
    "play_knight",
    "play_road_building",
    "end_road_building",
    "play_year_of_plenty",
    "play_monopoly",
    "maritime_trade",
    "domestic_trade",
    "end_turn",
    "award_svp",
]
KEYS = [
    "dice",
    "cards",
    "hex",
    "steal_from",
    "take",
    "edge",
    "from",
    "to",
    "node",
    "resource",
    "give",
    "get",
    "with",
    "points",
    "by_moderator",
]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(ACTION_TYPES),
            st.sampled_from(["red", "blue", "nobody", 3]),
            st.dictionaries(st.sampled_from(KEYS), junk, max_size=3),
        ),
        max_size=6,
    )
)
def test_junk_actions_are_refused_or_applied_never_a_crash(actions: list[Any]) -> None:
    document = copy.deepcopy(DOCUMENT)
    document["actions"] = [{"type": t, "player": p, **rest} for t, p, rest in actions]
    try:
        result = adjudicate(document)
    except ScenarioError:
        return  # an unknown key for its type
    assert len(result["steps"]) == len(actions)
