"""Property tests of the battle resolver (hypothesis): D3 spread, health, round cap, replay."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.kernel.dice import SeededDice
from engine.naval.battle import BattleSide, fight, spread
from engine.naval.orders import RetreatWhen, Standing
from engine.naval.rules import Rules
from engine.naval.world import Fleet, Ship, ShipType

TYPES = [
    ShipType("sloop", 50, 1, 4),
    ShipType("frigate", 100, 3, 10),
    ShipType("liner", 300, 8, 20),
]


@st.composite
def ships(draw, prefix: str, max_size: int = 20) -> list[Ship]:
    count = draw(st.integers(1, max_size))
    out = []
    for n in range(count):
        kind = draw(st.sampled_from(TYPES))
        out.append(Ship(f"{prefix}{n:02}", kind, draw(st.integers(1, kind.health)), prefix))
    return out


standings = st.builds(
    Standing,
    prefer=st.sampled_from(["sink", "capture"]),
    retreat=st.one_of(
        st.just(RetreatWhen()),
        st.builds(RetreatWhen, after_round=st.integers(1, 12)),
        st.builds(RetreatWhen, below=st.sampled_from([Fraction(1, 4), Fraction(1, 2)])),
    ),
)


@given(points=st.integers(0, 400), crew=ships("s"), capture=st.booleans())
def test_spread_is_as_even_as_d3_says(points: int, crew: list[Ship], capture: bool) -> None:
    keep = 1 if capture else 0
    damage = spread(points, crew, capture)
    room = {s: s.health - keep for s in crew}
    assert all(0 <= hit <= max(room[s], 0) for s, hit in damage.items())  # never below 0 (or 1)
    assert sum(damage.values()) == min(points, sum(max(r, 0) for r in room.values()))
    # Ships that could still take more all took the same share, give or take one point (D3),
    # and no full ship took more than that share + 1.
    open_ = [damage.get(s, 0) for s in crew if damage.get(s, 0) < room[s]]
    if open_:
        low = min(open_)
        assert max(open_) <= low + 1
        assert all(damage.get(s, 0) <= low + 1 for s in crew)


@given(points=st.integers(1, 19), crew=ships("s"))
def test_spare_points_go_to_the_healthiest_ships(points: int, crew: list[Ship]) -> None:
    # D3: when D < n, one point each to the D ships with the highest health (ties: lowest id).
    if points >= len(crew):
        return
    damage = spread(points, crew, False)
    chosen = sorted(crew, key=lambda s: (-s.health, s.id))[:points]
    assert damage == dict.fromkeys(chosen, 1)


@settings(max_examples=150)
@given(
    a=ships("a"),
    b=ships("b"),
    sa=standings,
    sb=standings,
    seed=st.integers(0, 10**6),
    max_rounds=st.integers(1, 12),
)
def test_every_battle_ends_within_the_round_cap(a, b, sa, sb, seed, max_rounds) -> None:
    rules = Rules(max_rounds=max_rounds)
    side_a = BattleSide("A", [Fleet("fa", "a", "x", a)], [], sa, True)
    side_b = BattleSide("B", [Fleet("fb", "b", "x", b)], [], sb, False)
    before = [s.health for s in a + b]
    result = fight(side_a, side_b, rules, SeededDice(seed), "test")
    assert 1 <= len(result.rounds) <= max_rounds
    assert all(s.health >= 0 for s in a + b)
    assert all(s.health <= h for s, h in zip(a + b, before, strict=True))
    assert result.outcome in {"destroyed", "retreated", "routed", "parted", "max_rounds"}
    assert {s.id for s in result.sunk} == {s.id for s in a + b if s.health == 0}
    if result.outcome in ("retreated", "max_rounds", "routed"):
        loser = side_a if result.loser == "A" else side_b
        assert result.winner != result.loser
        assert all(s.health == 1 for s in result.captured)
        assert {s.id for s in result.captured} <= {s.id for s in loser.combatants()}
    if result.outcome == "max_rounds":
        assert len(result.rounds) == max_rounds
        assert result.loser == "A"
    for number, record in enumerate(result.rounds, start=1):
        assert record["round"] == number
        assert all(1 <= d <= 6 for d in record["dice"])


@settings(max_examples=50)
@given(a=ships("a"), b=ships("b"), seed=st.integers(0, 10**6))
def test_the_same_seed_fights_the_same_battle(a, b, seed) -> None:
    def once():
        copy_a = [s.copy() for s in a]
        copy_b = [s.copy() for s in b]
        side_a = BattleSide("A", [Fleet("fa", "a", "x", copy_a)], [], Standing(), True)
        side_b = BattleSide("B", [Fleet("fb", "b", "x", copy_b)], [], Standing(), False)
        return fight(side_a, side_b, Rules(), SeededDice(seed), "t").rounds

    assert once() == once()
