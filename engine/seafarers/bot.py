"""A simple player with a plan, for empty seats, playouts and load tests.

`bot_action(state, player, seed)` picks one of `legal_actions(state, player)`, so it can never
send a refused action. The plan: settle the best free nodes (the pips of the hexes round them,
gold a little more, B9 GD4), build routes toward the best node within reach — ships when it lies
on an island the bot has not settled (SH12) —, upgrade to cities, trade at its best rate (X11)
when that completes a build, hold its development cards unless a Knight frees its own hex or a
card completes a build, rob the leader (X17). Ties are broken by a generator seeded from `seed`
and the position, so the same seed and position give the same action.
"""

from __future__ import annotations

import random
from collections import deque
from typing import Any

from engine.seafarers.board import GOLD, RESOURCE_OF
from engine.seafarers.legal import legal_actions
from engine.seafarers.rules import COST_CITY, COST_SETTLEMENT, COST_SHIP, RESOURCES
from engine.seafarers.state import NONE, State

Action = dict[str, Any]
PIPS = {2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1}


def node_value(state: State, n: int) -> float:
    """What a building on `n` is worth: its hexes' pips, gold a little more, harbours a little."""
    board = state.board
    value = 0.0
    kinds: set[str] = set()
    for h in board.node_hexes[n]:
        hx = board.hexes[h]
        if hx.number is None or h == state.robber:
            continue
        pips = PIPS.get(hx.number, 0)
        if hx.terrain == GOLD:
            value += pips * 1.3
        elif hx.terrain in RESOURCE_OF:
            value += pips
            kinds.add(hx.terrain)
    return value + 0.5 * len(kinds)


def _free_nodes(state: State) -> list[int]:
    """Land nodes where a settlement could stand under the distance rule (B4)."""
    board = state.board
    owner = state.node_owner
    return [
        n
        for n in range(len(board.node_names))
        if board.is_land_node[n]
        and owner[n] == NONE
        and all(owner[m] == NONE for m in board.node_neighbours[n])
    ]


def _distances(state: State, p: int, target: int) -> dict[int, int]:
    """Steps from `target` to every node, over edges that are free or the player's own, not
    through another player's building."""
    board = state.board
    dist = {target: 0}
    queue = deque([target])
    while queue:
        n = queue.popleft()
        if state.node_owner[n] not in (NONE, p) and n != target:
            continue
        for e in board.node_edges[n]:
            if state.edge_owner[e] not in (NONE, p):
                continue
            a, b = board.edge_nodes[e]
            m = b if a == n else a
            if m not in dist:
                dist[m] = dist[n] + 1
                queue.append(m)
    return dist


def _network_nodes(state: State, p: int) -> set[int]:
    board = state.board
    nodes = {n for e in state.player_edges[p] for n in board.edge_nodes[e]}
    nodes.update(state.player_nodes[p])
    return nodes


def _target(state: State, p: int) -> tuple[int, dict[int, int]] | None:
    """The free node most worth reaching, by value over the distance from the network."""
    network = _network_nodes(state, p)
    best: tuple[float, int, dict[int, int]] | None = None
    home = set(state.home_islands[p])
    for n in _free_nodes(state):
        dist = _distances(state, p, n)
        reach = min((dist[m] for m in network if m in dist), default=None)
        if reach is None or reach == 0:
            continue
        value = node_value(state, n)
        island = state.board.node_island[n]
        if island is not None and island not in home:
            value += 2.0 + state.rules.svp_new_island  # new islands (X19)
        score = value / (1 + reach)
        if best is None or score > best[0]:
            best = (score, n, dist)
    return None if best is None else (best[1], best[2])


def _needs(state: State, p: int, cost: tuple[int, ...]) -> list[int]:
    return [max(0, c - h) for c, h in zip(cost, state.hands[p], strict=True)]


def _trade_for(state: State, p: int, cost: tuple[int, ...], actions: list[Action]) -> Action | None:
    """A unit maritime trade (X11) that brings the player closer to `cost` without spending
    what the cost needs."""
    missing = _needs(state, p, cost)
    if sum(missing) != 1:
        return None
    want = RESOURCES[missing.index(1)]
    best: tuple[int, Action] | None = None
    for action in actions:
        if action["type"] != "maritime_trade" or want not in action["get"]:
            continue
        ((give, count),) = action["give"].items()
        r = RESOURCES.index(give)
        if state.hands[p][r] - count < cost[r]:
            continue
        if best is None or count < best[0]:
            best = (count, action)
    return None if best is None else best[1]


def bot_action(state: State, player: str, seed: int) -> Action | None:
    """One action for `player`, or None when the game does not wait for them."""
    actions = legal_actions(state, player)
    if not actions:
        return None
    p = state.pindex[player]
    rng = random.Random(f"{seed}:{player}:{state.number}:{state.phase}:{sum(state.hands[p])}")
    by_type: dict[str, list[Action]] = {}
    for action in actions:
        by_type.setdefault(action["type"], []).append(action)
    board = state.board
    phase = state.phase

    def pick(options: list[Action]) -> Action:
        return options[rng.randrange(len(options))]

    def best_by(options: list[Action], score: Any) -> Action:
        top = max(score(a) for a in options)
        return pick([a for a in options if score(a) == top])

    if phase == "discard":  # give up what it holds most of
        return best_by(
            by_type["discard"],
            lambda a: (
                -max(
                    h - a["cards"].get(r, 0) for r, h in zip(RESOURCES, state.hands[p], strict=True)
                )
            ),
        )
    if phase == "gold":  # what it lacks most for a city or a settlement
        need = [
            a + b
            for a, b in zip(
                _needs(state, p, COST_CITY), _needs(state, p, COST_SETTLEMENT), strict=True
            )
        ]
        return best_by(
            by_type["pick_gold"],
            lambda a: sum(need[RESOURCES.index(r)] * c for r, c in a["take"].items()),
        )
    if phase == "setup_settlement":
        return best_by(
            by_type["build_settlement"], lambda a: node_value(state, board.node_of(a["node"]) or 0)
        )
    if phase in ("setup_route", "road_building"):
        return _route_choice(state, p, actions, best_by) or pick(actions)
    if phase == "robber":
        return best_by(actions, lambda a: _robbery_score(state, p, a))
    if phase == "roll":
        knights = by_type.get("play_knight")
        if (
            knights
            and state.robber is not None
            and any(state.node_owner[n] == p for n in board.hex_nodes[state.robber])
        ):
            return knights[0]
        return by_type["roll"][0]
    # the action phase
    for kind in ("build_city", "build_settlement"):
        if kind in by_type:
            return best_by(
                by_type[kind], lambda a: node_value(state, board.node_of(a["node"]) or 0)
            )
    for cost in (COST_CITY, COST_SETTLEMENT):
        trade = _trade_for(state, p, cost, actions)
        if trade is not None:
            return trade
    if "play_road_building" in by_type and _target(state, p) is not None:
        return by_type["play_road_building"][0]
    if ("build_road" in by_type or "build_ship" in by_type) and state.settlements[
        p
    ] < state.rules.settlements:
        choice = _route_choice(state, p, actions, best_by)
        if choice is not None:
            return choice
    if "buy_dev_card" in by_type:
        return by_type["buy_dev_card"][0]
    trade = _trade_for(state, p, COST_SHIP, actions)
    if trade is not None and state.ships[p] < state.rules.ships:
        return trade
    return by_type["end_turn"][0]


def _route_choice(state: State, p: int, actions: list[Action], best_by: Any) -> Action | None:
    """The road or ship that brings the network closest to its target node."""
    found = _target(state, p)
    routes = [a for a in actions if a["type"] in ("build_road", "build_ship")]
    if found is None or not routes:
        return None
    target, dist = found
    board = state.board
    island = board.node_island[target]
    overseas = island is not None and island not in state.home_islands[p]

    def score(action: Action) -> float:
        e = board.edge_of(action["edge"])
        assert e is not None
        near = min(dist.get(n, 99) for n in board.edge_nodes[e])
        ship = action["type"] == "build_ship"
        return -near + (0.5 if ship == overseas else 0.0)

    choice: Action = best_by(routes, score)
    e = board.edge_of(choice["edge"])
    assert e is not None
    if min(dist.get(n, 99) for n in board.edge_nodes[e]) >= 99:
        return None
    return choice


def _robbery_score(state: State, p: int, action: Action) -> float:
    """Hurt the leader: the pips the hex takes from others, the most from the leader."""
    board = state.board
    h = board.hex_of(action["hex"])
    assert h is not None
    leader = max((q for q in range(len(state.players)) if q != p), key=state.vp, default=p)
    score = 0.0
    if board.hex_is_land[h]:
        number = board.hexes[h].number
        pips = PIPS.get(number, 0) if number is not None else 0
        for n in board.hex_nodes[h]:
            q = state.node_owner[n]
            if q == NONE:
                continue
            weight = state.node_level[n] * pips
            score += -3 * weight if q == p else weight * (2 if q == leader else 1)
    victim = action.get("steal_from")
    if victim is not None:
        score += 3 if state.pindex[victim] == leader else 1
    return score
