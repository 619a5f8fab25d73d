"""The unchecked path for listed actions (issue 12 perf, engine/seafarers/game.py `apply_listed`):
whole seeded games played twice in lockstep, one state through `apply_listed`, its twin through
the checked `apply_action`; after every action both give the same events, the same position
(`state_to_dict`) and the same derived values, and the next lists are the same. An action not
in the state's last list (sent, copied, stale, or refused) still goes through the checks."""

from __future__ import annotations

import itertools
import random
from pathlib import Path
from typing import Any

import pytest
import yaml

from engine.seafarers import apply_action, legal_actions, parse_scenario, state_to_dict
from engine.seafarers.chance import kernel_roll, seeded_roll
from engine.seafarers.game import apply_listed
from engine.seafarers.legal import combinations
from engine.seafarers.refusals import Refused
from engine.seafarers.rules import RESOURCES
from engine.seafarers.state import State
from tests.engine.seafarers.playouts import start, who_acts

BUNDLED = Path(__file__).resolve().parents[3] / "examples" / "four-islands.seafarers.yaml"
SKIP = frozenset({"board", "rules", "listed"})
# The state's slots: `__slots__` in the sources, attributes of the compiled class in the build.
SLOTS = sorted(
    name
    for name, value in vars(State).items()
    if type(value).__name__ in ("member_descriptor", "getset_descriptor") and name[0] != "_"
)


def everything(state: State) -> dict[str, Any]:
    """Every slot of the state but the shared board and rules and the last list."""
    out: dict[str, Any] = {}
    for name in SLOTS:
        if name not in SKIP:
            value = getattr(state, name)
            out[name] = sorted(value) if isinstance(value, set) else value
    return out


def lockstep(state: State, rng: random.Random, limit: int = 1000) -> int:
    twin = state.copy()
    count = 0
    while state.phase != "over" and count < limit:
        who = who_acts(state)
        actions = legal_actions(state, who)
        assert actions == legal_actions(twin, who)
        action = rng.choice(actions)
        fast = apply_listed(state, action)
        checked = apply_action(twin, dict(action))
        assert fast == checked, (count, action)
        assert everything(state) == everything(twin), (count, action)
        count += 1
        if count % 50 == 0:
            assert state_to_dict(state) == state_to_dict(twin)
    assert state_to_dict(state) == state_to_dict(twin)
    return count


@pytest.mark.parametrize("seed", range(6))
def test_listed_path_matches_checked_path_on_the_bundled_board(seed: int) -> None:
    document = yaml.safe_load(BUNDLED.read_text(encoding="utf-8"))
    document["seed"] = seed
    state = parse_scenario(document).state
    assert lockstep(state, random.Random(f"{seed}:fast")) > 100


@pytest.mark.parametrize("seed", range(6))
def test_listed_path_matches_checked_path_on_generated_boards(seed: int) -> None:
    _, state = start(seed, players=3 + seed % 2)
    assert lockstep(state, random.Random(f"{seed}:fast")) > 100


def _mid_game(seed: int) -> State:
    _, state = start(seed)
    rng = random.Random(seed)
    while state.phase != "action" or state.number < 20:
        apply_listed(state, rng.choice(legal_actions(state, who_acts(state))))
    return state


def test_an_unlisted_action_is_checked() -> None:
    state = _mid_game(1)
    actions = legal_actions(state, who_acts(state))
    end = next(a for a in actions if a["type"] == "end_turn")
    # A copy of a listed action is not the listed dict: checked, and applied when legal.
    events = apply_listed(state, dict(end))
    assert events[0]["type"] == "turn_ended"
    # The list made before that action is stale: its end_turn is now refused by the checks.
    with pytest.raises(Refused) as refused:
        apply_listed(state, end)
    assert refused.value.code == "not_your_turn"


def test_a_listed_dict_changed_after_listing_is_checked_when_the_list_is_gone() -> None:
    state = _mid_game(2)
    legal_actions(state, who_acts(state))
    other = state.copy()  # a copy carries no list: everything on it is checked
    assert other.listed is None
    with pytest.raises(Refused) as refused:
        apply_listed(other, {"type": "build_city", "player": who_acts(other), "node": "nowhere"})
    assert refused.value.code in ("unknown_node", "insufficient_resources", "no_pieces_left")


def test_a_sent_action_is_checked_in_the_formats_order() -> None:
    state = _mid_game(3)
    legal_actions(state, who_acts(state))
    with pytest.raises(Refused) as refused:
        apply_listed(state, {"type": "end_turn", "player": who_acts(state), "extra": 1})
    assert refused.value.code == "invalid_action"
    with pytest.raises(Refused) as refused:
        apply_listed(state, {"type": "end_turn", "player": "nobody"})
    assert refused.value.code == "unknown_player"
    for nonsense in ("roll", {}, {"player": who_acts(state)}, None):
        with pytest.raises(Refused) as refused:
            apply_listed(state, nonsense)  # type: ignore[arg-type]
        assert refused.value.code == "invalid_action"


def test_the_seeded_roll_is_the_kernels_stream() -> None:
    """S-1: the k-th roll is the kernel's SeededDice stream `roll k`, first die then second."""
    for seed in (0, 1, 7, 12345, 2**40):
        for k in range(300):
            assert seeded_roll(seed, k) == kernel_roll(seed, k)


def test_a_reloaded_state_carries_no_list_and_replays_the_same() -> None:
    """The last list is derived: not in the document, so a state read back from it (undo,
    replay) has none, its actions are checked, and the game goes on as the original does."""
    state = _mid_game(4)
    actions = legal_actions(state, who_acts(state))
    document = state_to_dict(state)
    assert "listed" not in document
    loaded = parse_scenario(document).state
    assert loaded.listed is None
    action = next(a for a in actions if a["type"] == "end_turn")
    assert apply_listed(loaded, action) == apply_listed(state, action)
    assert state_to_dict(loaded) == state_to_dict(state)
    assert legal_actions(loaded, who_acts(loaded)) == legal_actions(state, who_acts(state))


def _every_way(total: int, limits: list[int]) -> list[dict[str, int]]:
    """Every choice of `total` cards within `limits`, by brute force: each resource's count
    from the most down to 0, the first resource's first (zeros dropped)."""
    ranges = [range(limit, -1, -1) for limit in limits]
    return [
        {RESOURCES[r]: c for r, c in enumerate(counts) if c}
        for counts in itertools.product(*ranges)
        if sum(counts) == total
    ]


def test_combinations_are_every_way_in_the_lists_order() -> None:
    """`legal.combinations` (discards, gold picks, Year of Plenty) skips the counts that
    leave too many cards for the resources after: the same dicts, keys and order as every
    choice counted out."""
    rng = random.Random("combinations")
    for _ in range(300):
        limits = [rng.randrange(0, 6) for _ in range(5)]
        total = rng.randrange(0, sum(limits) + 3)
        made = combinations(total, limits)
        assert made == _every_way(total, limits)
        assert [list(cards) for cards in made] == [list(c) for c in _every_way(total, limits)]
