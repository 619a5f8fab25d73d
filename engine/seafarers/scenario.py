"""seafarers-scenario/1 documents in, seafarers-result/1 documents out (seafarers-format.md).

`parse_scenario` walks the whole document with the kernel's `Checker`, so every problem is
reported with its path; only a file without problems becomes a `Scenario`. `adjudicate` applies
its actions in order with the same engine that runs the games and returns the result document.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from engine.kernel.problems import Checker, ScenarioError, join
from engine.seafarers import reach
from engine.seafarers.board import (
    EDGE_KINDS,
    LAND,
    SEA,
    TERRAINS,
    Board,
    Harbour,
    Hex,
    Island,
    graph_board,
    hex_board,
    is_edge_shape,
)
from engine.seafarers.chance import shuffled_deck
from engine.seafarers.game import COMMON_KEYS, SHAPES, apply_action, movable
from engine.seafarers.refusals import Refusal, Refused
from engine.seafarers.routes import close_lines, holder_after, longest_route
from engine.seafarers.rules import CARDS, DECK, PIECE_KINDS, RESOURCES, RULE_KEYS, Rules
from engine.seafarers.state import CITY, NONE, ROAD, SETTLEMENT, SHIP, State

FORMAT = "seafarers-scenario/1"
RESULT_FORMAT = "seafarers-result/1"
TOP_KEYS = frozenset(
    {
        "format",
        "seed",
        "dice",
        "draws",
        "rules",
        "board",
        "players",
        "bank",
        "dev_deck",
        "holders",
        "turn",
        "actions",
    }
)
PLAYER_KEYS = frozenset(
    {
        "id",
        "hand",
        "dev_cards",
        "knights_played",
        "roads",
        "ships",
        "settlements",
        "cities",
        "svp",
        "home_islands",
        "gold_picks",
        "discard",
    }
)
TURN_KEYS = frozenset(
    {
        "number",
        "player",
        "phase",
        "dev_card_played",
        "ship_moved",
        "free_pieces",
        "resume",
        "setup_round",
        "setup_node",
        "winner",
    }
)
PHASES = (
    "setup_settlement",
    "setup_route",
    "roll",
    "discard",
    "robber",
    "gold",
    "action",
    "road_building",
    "over",
)
RESUMES = ("action", "roll", "setup_route")


@dataclass(frozen=True, slots=True)
class Scenario:
    state: State
    actions: tuple[Any, ...]
    seed: int | None


def _list(c: Checker, path: str, value: object) -> list[Any]:
    """A list; null where a list is shown is a problem (format "Input")."""
    if value is None:
        c.add(path, "must be a list, not null")
        return []
    return c.items(path, value)


def _present(c: Checker, path: str, value: object, kind: type) -> bool:
    if value is None:
        c.add(path, "must not be null")
        return False
    if not isinstance(value, kind):
        c.add(path, f"must be {'a list' if kind is list else 'an object'}")
        return False
    return True


def _read_board(c: Checker, raw: dict[str, Any]) -> Board | None:
    c.keys("board", raw, frozenset({"hexes", "edges", "harbours", "islands", "robber", "pirate"}))
    hexes_raw = raw.get("hexes", [])
    if not _present(c, "board.hexes", hexes_raw, list):
        hexes_raw = []
    is_graph = "edges" in raw
    hexes: list[Hex] = []
    seen: set[str] = set()
    ok = True
    for i, h in enumerate(hexes_raw):
        path = f"board.hexes[{i}]"
        h = c.mapping(path, h)
        if h is None:
            ok = False
            continue
        allowed = (
            {"id", "terrain", "number", "nodes"} if is_graph else {"q", "r", "terrain", "number"}
        )
        c.keys(path, h, frozenset(allowed))
        terrain = h.get("terrain")
        if terrain not in TERRAINS:
            c.add(join(path, "terrain"), f"must be one of {', '.join(TERRAINS)}")
            ok = False
            continue
        number = h.get("number")
        if number is not None:
            if (
                not isinstance(number, int)
                or isinstance(number, bool)
                or not 2 <= number <= 12
                or number == 7
            ):
                c.add(join(path, "number"), "must be 2–12 but not 7")
                number = None
            elif terrain in ("sea", "desert"):
                c.add(join(path, "number"), f"a {terrain} hex has no number")
                number = None
        if is_graph:
            hid = c.text(join(path, "id"), h.get("id"))
            nodes = _list(c, join(path, "nodes"), h.get("nodes", []))
            if not all(isinstance(n, str) for n in nodes):
                c.add(join(path, "nodes"), "must be a list of node names")
                nodes = []
            if hid is None:
                ok = False
                continue
            c.unique(join(path, "id"), hid, seen, "hex")
            hexes.append(Hex(hid, terrain, number, nodes=tuple(nodes)))
        else:
            q, r = h.get("q"), h.get("r")
            qi = c.integer(join(path, "q"), q)
            ri = c.integer(join(path, "r"), r)
            if qi is None or ri is None:
                ok = False
                continue
            hid = f"{qi},{ri}"
            c.unique(path, hid, seen, "hex")
            hexes.append(Hex(hid, terrain, number, q=qi, r=ri))
    if is_graph:
        edges: list[tuple[str, str, str]] = []
        pairs: set[frozenset[str]] = set()
        edges_raw = raw.get("edges")
        if not _present(c, "board.edges", edges_raw, list):
            return None
        assert isinstance(edges_raw, list)
        for i, e in enumerate(edges_raw):
            path = f"board.edges[{i}]"
            if (
                not isinstance(e, list)
                or len(e) != 3
                or not all(isinstance(x, str) and x for x in e)
                or e[2] not in EDGE_KINDS
                or e[0] == e[1]
            ):
                c.add(
                    path, "must be [node, node, kind], kind land, coast or sea, two different nodes"
                )
                ok = False
                continue
            pair = frozenset(e[:2])
            if pair in pairs:
                c.add(path, f"edge {e[0]}–{e[1]} is listed twice")
                continue
            pairs.add(pair)
            edges.append((e[0], e[1], e[2]))
        if not ok:
            return None
        board = graph_board(edges, hexes)
    else:
        if not ok:
            return None
        if not hexes:
            c.add("board.hexes", "a hex board needs hexes")
            return None
        board = hex_board(hexes)
    # harbours
    harbours: list[Harbour] = []
    for i, h in enumerate(_list(c, "board.harbours", raw.get("harbours", []))):
        path = f"board.harbours[{i}]"
        h = c.mapping(path, h)
        if h is None:
            continue
        c.keys(path, h, frozenset({"edge", "kind"}))
        e = board.edge_of(h.get("edge"))
        if e is None:
            c.add(join(path, "edge"), f"{h.get('edge')!r} is no edge of this board")
            continue
        if board.edge_kind[e] != "coast":
            c.add(join(path, "edge"), "a harbour lies on a coast edge")
        kind = h.get("kind")
        if kind != "generic" and kind not in RESOURCES:
            c.add(join(path, "kind"), "must be generic or a resource")
            continue
        harbours.append(Harbour(e, kind))
    board.harbours = tuple(harbours)
    at_node: list[list[str]] = [[] for _ in board.node_names]
    for harbour in harbours:
        for end in board.edge_nodes[harbour.edge]:
            at_node[end].append(harbour.kind)
    board.node_harbours = tuple(tuple(kinds) for kinds in at_node)
    # islands
    islands: list[Island] = []
    node_island: list[str | None] = [None] * len(board.node_names)
    island_ids: set[str] = set()
    for i, isl in enumerate(_list(c, "board.islands", raw.get("islands", []))):
        path = f"board.islands[{i}]"
        isl = c.mapping(path, isl)
        if isl is None:
            continue
        key = "nodes" if is_graph else "hexes"
        c.keys(path, isl, frozenset({"id", key}))
        iid = c.text(join(path, "id"), isl.get("id"))
        if iid is None:
            continue
        c.unique(join(path, "id"), iid, island_ids, "island")
        members = _list(c, join(path, key), isl.get(key, []))
        island_nodes: list[int] = []
        names: list[str] = []  # canonical: node names, or hex ids
        for j, m in enumerate(members):
            if is_graph:
                n = board.node_of(m)
                if n is None:
                    c.add(f"{path}.nodes[{j}]", f"{m!r} is no node of this board")
                else:
                    island_nodes.append(n)
                    names.append(board.node_names[n])
            else:
                hx = board.hex_of(m)
                if hx is None:
                    c.add(f"{path}.hexes[{j}]", f"{m!r} is no hex of this board")
                else:
                    island_nodes.extend(board.hex_nodes[hx])
                    names.append(board.hexes[hx].id)
        for n in island_nodes:
            if node_island[n] is not None and node_island[n] != iid:
                c.add(join(path, key), f"node {board.node_names[n]} lies on two islands")
            node_island[n] = iid
        islands.append(
            Island(
                iid,
                None if is_graph else tuple(names),
                tuple(names) if is_graph else None,
            )
        )
    board.islands = tuple(islands)
    board.node_island = tuple(node_island)
    for key in ("robber", "pirate"):
        value = raw.get(key)
        if value is None:
            continue
        h = board.hex_of(value)
        if h is None:
            c.add(f"board.{key}", f"{value!r} is no hex of this board")
        elif (key == "robber") != board.hex_is_land[h]:
            c.add(
                f"board.{key}", f"the {key} stands on a {'land' if key == 'robber' else 'sea'} hex"
            )
        elif key == "robber":
            board.robber_start = h
        else:
            board.pirate_start = h
    return board


def _read_rules(c: Checker, raw: object, island_ids: set[str]) -> Rules:
    data = c.mapping("rules", raw)
    if data is None:
        return Rules()
    c.keys("rules", data, RULE_KEYS)
    values: dict[str, Any] = {}
    for key in (
        "victory_points",
        "discard_limit",
        "longest_route_min",
        "largest_army_min",
        "bank",
        "svp_new_island",
    ):
        if key in data:
            low = 0 if key in ("svp_new_island", "discard_limit", "bank") else 1
            v = c.integer(f"rules.{key}", data[key], low=low)
            if v is not None:
                values[key] = v
    if "setup_islands" in data and data["setup_islands"] is not None:
        ids = data["setup_islands"]
        if not isinstance(ids, list) or not all(isinstance(x, str) for x in ids):
            c.add("rules.setup_islands", "must be a list of island ids, or null")
        else:
            for j, x in enumerate(ids):
                if x not in island_ids:
                    c.add(f"rules.setup_islands[{j}]", f"{x!r} names no island")
            values["setup_islands"] = tuple(ids)
    if "pieces" in data:
        pieces = c.mapping("rules.pieces", data["pieces"])
        if pieces is not None:
            c.keys("rules.pieces", pieces, frozenset(PIECE_KINDS))
            for key in PIECE_KINDS:
                if key in pieces:
                    v = c.integer(f"rules.pieces.{key}", pieces[key], low=0)
                    if v is not None:
                        values[key] = v
    return Rules(**values)


def _counts(c: Checker, path: str, raw: object) -> list[int] | None:
    data = c.mapping(path, raw)
    if data is None:
        return None
    counts = [0] * 5
    for key, value in data.items():
        if key not in RESOURCES:
            c.add(
                join(path, key) if isinstance(key, str) else path,
                f"{key!r} is not a resource (GD3: no gold cards)",
            )
            continue
        v = c.integer(join(path, key), value, low=0)
        if v is not None:
            counts[RESOURCES.index(key)] = v
    return counts


def parse_scenario(document: object) -> Scenario:
    """A scenario document as the engine's state; every problem with its path (ScenarioError)."""
    c = Checker()
    doc = c.mapping("", document)
    if doc is None:
        raise ScenarioError(c.problems)
    c.keys("", doc, TOP_KEYS)
    if doc.get("format") != FORMAT:
        c.add("format", f"must be {FORMAT!r}")
    for key in ("board", "players", "turn"):
        if key not in doc:
            c.add(key, "is required")
    seed = doc.get("seed")
    if seed is not None:
        seed = c.integer("seed", seed)
    dice: list[tuple[int, int]] = []
    if "dice" in doc and _present(c, "dice", doc["dice"], list):
        for i, pair in enumerate(doc["dice"]):
            if (
                isinstance(pair, list)
                and len(pair) == 2
                and all(
                    isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in pair
                )
            ):
                dice.append((pair[0], pair[1]))
            else:
                c.add(f"dice[{i}]", "must be a pair of numbers 1–6")
    draws: list[int] = []
    if "draws" in doc and _present(c, "draws", doc["draws"], list):
        for i, d in enumerate(doc["draws"]):
            v = c.integer(f"draws[{i}]", d, low=0)
            if v is not None:
                draws.append(v)
    board_raw = doc.get("board")
    board = None
    if "board" in doc:
        raw = c.mapping("board", board_raw)
        if raw is not None:
            board = _read_board(c, raw)
    island_ids = {i.id for i in board.islands} if board else set()
    rules = _read_rules(c, doc.get("rules", {}), island_ids) if "rules" in doc else Rules()
    players_raw = doc.get("players", [])
    if not _present(c, "players", players_raw, list):
        players_raw = []
    ids: list[str] = []
    seen: set[str] = set()
    for i, pl in enumerate(players_raw):
        pid = pl.get("id") if isinstance(pl, dict) else None
        pid = c.text(f"players[{i}].id", pid)
        if pid is not None:
            c.unique(f"players[{i}].id", pid, seen, "player")
            ids.append(pid)
        else:
            ids.append(f"#{i}")
    if not players_raw and "players" in doc:
        c.add("players", "a game needs at least one player")
    if board is None or (c.problems and not ids):
        raise ScenarioError(c.problems or [])
    state = State(board, rules, ids)
    state.seed = seed
    state.dice_script = tuple(dice)
    state.draws_script = tuple(draws)
    home_given: list[bool] = []
    for i, pl in enumerate(players_raw):
        home_given.append(_read_player(c, state, i, pl))
    # bank
    for hand in state.hands:
        for r in range(5):
            state.bank[r] -= hand[r]
    if "bank" in doc:
        given = _counts(c, "bank", doc["bank"]) if _present(c, "bank", doc["bank"], dict) else None
        if given is not None:
            for r, name in enumerate(RESOURCES):
                if name in doc["bank"]:
                    state.bank[r] = given[r]
    for r, name in enumerate(RESOURCES):
        if state.bank[r] < 0:
            c.add("bank", f"the players hold more {name} than the bank's {rules.bank}")
    # deck
    if "dev_deck" in doc:
        if _present(c, "dev_deck", doc["dev_deck"], list):
            for j, card in enumerate(doc["dev_deck"]):
                if card not in CARDS:
                    c.add(f"dev_deck[{j}]", f"must be one of {', '.join(CARDS)}")
                else:
                    state.deck.append(card)
    else:
        left = dict(DECK)
        for q in range(len(ids)):
            for card, _ in state.dev_cards[q]:
                left[card] -= 1
            left["knight"] -= state.knights[q]
        cards = [card for card in CARDS for _ in range(max(0, left[card]))]
        state.deck = shuffled_deck(seed or 0, cards)
    _read_turn(c, state, doc.get("turn"))
    # derived: where the pieces reach, home islands, closed lines, routes, holders
    reach.rebuild(state)
    for q in range(len(ids)):
        if not home_given[q]:
            for n, owner in enumerate(state.node_owner):
                island = board.node_island[n]
                if owner == q and island is not None and island not in state.home_islands[q]:
                    state.home_islands[q].append(island)
        state.ship_closed.update(close_lines(state, q))
        state.routes[q] = longest_route(state, q, adj=state.split[q])
    _read_holders(c, state, doc.get("holders", ...))
    actions = doc.get("actions", [])
    if not _present(c, "actions", actions, list):
        actions = []
    for i, action in enumerate(actions):
        path = f"actions[{i}]"
        if not isinstance(action, dict):
            c.add(path, "must be an object")
            continue
        kind = action.get("type")
        if isinstance(kind, str) and kind in SHAPES:
            required, optional = SHAPES[kind]
            c.keys(path, action, frozenset(COMMON_KEYS + required + optional))
    if c.problems:
        raise ScenarioError(c.problems)
    return Scenario(state, tuple(copy.deepcopy(actions)), seed)


def _read_player(c: Checker, state: State, q: int, raw: object) -> bool:
    path = f"players[{q}]"
    pl = c.mapping(path, raw)
    if pl is None:
        return False
    c.keys(path, pl, PLAYER_KEYS)
    board = state.board
    rules = state.rules
    for key in ("roads", "ships", "settlements", "cities", "dev_cards", "svp", "home_islands"):
        if key in pl and pl[key] is None:
            c.add(join(path, key), "must not be null")
    if "hand" in pl:
        if pl["hand"] is None:
            c.add(join(path, "hand"), "must not be null")
        else:
            counts = _counts(c, join(path, "hand"), pl["hand"])
            if counts is not None:
                state.hands[q] = counts
    for i, card in enumerate(c.items(join(path, "dev_cards"), pl.get("dev_cards"))):
        cpath = f"{path}.dev_cards[{i}]"
        if isinstance(card, dict):
            c.keys(cpath, card, frozenset({"card", "new"}))
            name = card.get("card")
            new = c.flag(join(cpath, "new"), card.get("new", False))
        else:
            name, new = card, False
        if name not in CARDS:
            c.add(cpath, f"must be one of {', '.join(CARDS)}")
            continue
        state.dev_cards[q].append((name, new))
    for key, target in (
        ("knights_played", state.knights),
        ("gold_picks", state.gold_picks),
        ("discard", state.discard),
    ):
        if key in pl:
            v = c.integer(join(path, key), pl[key], low=0)
            if v is not None:
                target[q] = v
    for key, piece in (("roads", ROAD), ("ships", SHIP)):
        for i, item in enumerate(c.items(join(path, key), pl.get(key))):
            ipath = f"{path}.{key}[{i}]"
            new = closed = False
            value = item
            if piece == SHIP and isinstance(item, dict):
                c.keys(ipath, item, frozenset({"edge", "new", "closed"}))
                value = item.get("edge")
                new = c.flag(join(ipath, "new"), item.get("new", False))
                closed = c.flag(join(ipath, "closed"), item.get("closed", False))
                ipath = join(ipath, "edge")
            e = board.edge_of(value) if is_edge_shape(value) else None
            if e is None:
                c.add(ipath, f"{value!r} is no edge of this board")
                continue
            kind = board.edge_kind[e]
            if piece == ROAD and kind == SEA:
                c.add(ipath, f"a road on the sea edge {board.edge_label(e)} (X1)")
                continue
            if piece == SHIP and kind == LAND:
                c.add(ipath, f"a ship on the land edge {board.edge_label(e)} (X1)")
                continue
            if state.edge_piece[e]:
                c.add(ipath, f"edge {board.edge_label(e)} already holds a route piece (X1)")
                continue
            state.edge_owner[e] = q
            state.edge_piece[e] = piece
            state.player_edges[q].append(e)
            if piece == ROAD:
                state.roads[q] += 1
            else:
                state.ships[q] += 1
                if new:
                    state.ship_new.add(e)
                if closed:
                    state.ship_closed.add(e)
    for key, level in (("settlements", SETTLEMENT), ("cities", CITY)):
        for i, item in enumerate(c.items(join(path, key), pl.get(key))):
            ipath = f"{path}.{key}[{i}]"
            n = board.node_of(item)
            if n is None:
                c.add(ipath, f"{item!r} is no node of this board")
                continue
            if not board.is_land_node[n]:
                c.add(ipath, f"{board.node_names[n]} is not on land")
                continue
            if state.node_owner[n] != NONE:
                c.add(ipath, f"node {board.node_names[n]} already holds a building")
                continue
            state.node_owner[n] = q
            state.player_nodes[q].append(n)
            state.node_level[n] = level
            if level == SETTLEMENT:
                state.settlements[q] += 1
            else:
                state.cities[q] += 1
    for key in PIECE_KINDS:
        count = getattr(state, key)[q]
        if count > getattr(rules, key):
            c.add(
                join(path, key),
                f"{count} {key}, more than the {getattr(rules, key)} a player has (B2)",
            )
    island_ids = {i.id for i in board.islands}
    for i, token in enumerate(c.items(join(path, "svp"), pl.get("svp"))):
        tpath = f"{path}.svp[{i}]"
        token = c.mapping(tpath, token)
        if token is None:
            continue
        c.keys(tpath, token, frozenset({"node", "points", "island"}))
        n = board.node_of(token.get("node"))
        if n is None:
            c.add(join(tpath, "node"), f"{token.get('node')!r} is no node of this board")
            continue
        points = c.integer(join(tpath, "points"), token.get("points"), low=1)
        island = token.get("island")
        if island is not None and (not isinstance(island, str) or island not in island_ids):
            c.add(join(tpath, "island"), f"{island!r} names no island")
            continue
        if points is not None:
            state.svp[q].append((n, points, island))
    if "home_islands" in pl:
        for i, iid in enumerate(c.items(join(path, "home_islands"), pl["home_islands"])):
            if not isinstance(iid, str) or iid not in island_ids:
                c.add(f"{path}.home_islands[{i}]", f"{iid!r} names no island")
            elif iid not in state.home_islands[q]:
                state.home_islands[q].append(iid)
        return True
    return False


def _read_turn(c: Checker, state: State, raw: object) -> None:
    turn = c.mapping("turn", raw)
    if turn is None:
        return
    c.keys("turn", turn, TURN_KEYS)
    player = turn.get("player")
    if not isinstance(player, str) or player not in state.pindex:
        c.add("turn.player", f"{player!r} is not a player in this game")
    else:
        state.player = state.pindex[player]
    phase = turn.get("phase")
    if phase not in PHASES:
        c.add("turn.phase", f"must be one of {', '.join(PHASES)}")
        phase = "action"
    state.phase = phase
    setup = phase in ("setup_settlement", "setup_route") or (
        phase == "gold" and turn.get("resume") == "setup_route"
    )
    number = turn.get("number", 0 if setup else 1)
    v = c.integer("turn.number", number, low=0)
    state.number = v if v is not None else 0
    for key in ("dev_card_played", "ship_moved"):
        if key in turn:
            setattr(state, key, c.flag(f"turn.{key}", turn[key]))
    if "free_pieces" in turn:
        v = c.integer("turn.free_pieces", turn["free_pieces"], low=0)
        state.free_pieces = min(v or 0, 2)
        if v is not None and v > 2:
            c.add("turn.free_pieces", "must be 0, 1 or 2")
    resume = turn.get("resume")
    if resume is not None and resume not in RESUMES:
        c.add("turn.resume", f"must be one of {', '.join(RESUMES)}, or null")
    state.resume = resume
    rnd = turn.get("setup_round")
    if rnd is not None and rnd not in (1, 2):
        c.add("turn.setup_round", "must be 1, 2 or null")
    state.setup_round = rnd
    if setup and rnd is None:
        c.add("turn.setup_round", "setup needs its round, 1 or 2")
    node = turn.get("setup_node")
    if node is not None:
        n = state.board.node_of(node)
        if n is None:
            c.add("turn.setup_node", f"{node!r} is no node of this board")
        else:
            state.setup_node = n
    if phase == "setup_route" and state.setup_node is None:
        c.add("turn.setup_node", "setup_route needs the settlement just placed")
    winner = turn.get("winner")
    if winner is not None:
        if not isinstance(winner, str) or winner not in state.pindex:
            c.add("turn.winner", f"{winner!r} is not a player in this game")
        else:
            state.winner = state.pindex[winner]


def _read_holders(c: Checker, state: State, raw: object) -> None:
    """X10, B17: the holders must agree with the position."""
    holders = {} if raw is ... else c.mapping("holders", raw)
    if holders is None:
        return
    c.keys("holders", holders, frozenset({"longest_route", "largest_army"}))
    for key in ("longest_route", "largest_army"):
        value = holders.get(key)
        if value is not None and (not isinstance(value, str) or value not in state.pindex):
            c.add(f"holders.{key}", f"{value!r} is not a player in this game")
            return
    route = holders.get("longest_route")
    state.longest = NONE if route is None else state.pindex[route]
    lengths = ", ".join(f"{p} {n}" for p, n in zip(state.players, state.routes, strict=True))
    if holder_after(state, state.longest) != state.longest:
        c.add("holders.longest_route", f"disagrees with the route lengths ({lengths}) (X10)")
    army = holders.get("largest_army")
    state.army = NONE if army is None else state.pindex[army]
    top = max(state.knights) if state.knights else 0
    if state.army == NONE:
        if top >= state.rules.largest_army_min and state.knights.count(top) == 1:
            c.add(
                "holders.largest_army",
                "the one player with the most Knights played must hold it (B17)",
            )
    elif (
        state.knights[state.army] < state.rules.largest_army_min or state.knights[state.army] < top
    ):
        c.add(
            "holders.largest_army", "its holder must have the most Knights played, and enough (B17)"
        )


# -- out ----------------------------------------------------------------------------------
def state_to_dict(state: State) -> dict[str, Any]:
    """The position as a scenario document without actions (format "Result": `state`)."""
    board = state.board
    names = board.node_names
    doc: dict[str, Any] = {"format": FORMAT, "seed": state.seed, "rules": state.rules.as_dict()}
    if board.is_hex:
        hexes = [
            {
                "q": h.q,
                "r": h.r,
                "terrain": h.terrain,
                **({"number": h.number} if h.number is not None else {}),
            }
            for h in board.hexes
        ]
        board_doc: dict[str, Any] = {"hexes": hexes}
    else:
        graph_hexes: list[dict[str, Any]] = [
            {
                "id": h.id,
                "terrain": h.terrain,
                **({"number": h.number} if h.number is not None else {}),
                "nodes": list(h.nodes or ()),
            }
            for h in board.hexes
        ]
        board_doc = {
            "hexes": graph_hexes,
            "edges": [list(e) for e in board.graph_edges_as_written or ()],
        }
    board_doc["harbours"] = [
        {"edge": board.edge_name(h.edge), "kind": h.kind} for h in board.harbours
    ]
    board_doc["islands"] = [
        {"id": i.id, "hexes": list(i.hexes or ())}
        if board.is_hex
        else {"id": i.id, "nodes": list(i.nodes or ())}
        for i in board.islands
    ]
    board_doc["robber"] = None if state.robber is None else board.hexes[state.robber].id
    board_doc["pirate"] = None if state.pirate is None else board.hexes[state.pirate].id
    doc["board"] = board_doc
    players = []
    for q, pid in enumerate(state.players):
        edges = sorted(state.player_edges[q], key=lambda e: board.edge_names[e])
        players.append(
            {
                "id": pid,
                "hand": {r: state.hands[q][i] for i, r in enumerate(RESOURCES)},
                "dev_cards": [
                    {"card": card, "new": True} if new else card for card, new in state.dev_cards[q]
                ],
                "knights_played": state.knights[q],
                "roads": [board.edge_name(e) for e in edges if state.edge_piece[e] == ROAD],
                "ships": [
                    {
                        "edge": board.edge_name(e),
                        "new": e in state.ship_new,
                        "closed": e in state.ship_closed,
                    }
                    for e in edges
                    if state.edge_piece[e] == SHIP
                ],
                "settlements": sorted(
                    names[n]
                    for n, o in enumerate(state.node_owner)
                    if o == q and state.node_level[n] == SETTLEMENT
                ),
                "cities": sorted(
                    names[n]
                    for n, o in enumerate(state.node_owner)
                    if o == q and state.node_level[n] == CITY
                ),
                "svp": [
                    {"node": names[n], "points": pts, "island": isl} for n, pts, isl in state.svp[q]
                ],
                "home_islands": list(state.home_islands[q]),
                "gold_picks": state.gold_picks[q],
                "discard": state.discard[q],
            }
        )
    doc["players"] = players
    doc["bank"] = {r: state.bank[i] for i, r in enumerate(RESOURCES)}
    doc["dev_deck"] = list(state.deck)
    doc["holders"] = {
        "longest_route": None if state.longest == NONE else state.players[state.longest],
        "largest_army": None if state.army == NONE else state.players[state.army],
    }
    doc["turn"] = turn_to_dict(state)
    return doc


def turn_to_dict(state: State) -> dict[str, Any]:
    return {
        "number": state.number,
        "player": state.players[state.player],
        "phase": state.phase,
        "dev_card_played": state.dev_card_played,
        "ship_moved": state.ship_moved,
        "free_pieces": state.free_pieces,
        "resume": state.resume,
        "setup_round": state.setup_round,
        "setup_node": None
        if state.setup_node is None
        else state.board.node_names[state.setup_node],
        "winner": None if state.winner is None else state.players[state.winner],
    }


def snapshot(state: State) -> dict[str, Any]:
    """Format "Result": routes, holders, vp, rates, movable, turn."""
    board = state.board
    players = state.players
    return {
        "routes": {pid: state.routes[q] for q, pid in enumerate(players)},
        "holders": {
            "longest_route": None if state.longest == NONE else players[state.longest],
            "largest_army": None if state.army == NONE else players[state.army],
        },
        "vp": {pid: state.vp(q) for q, pid in enumerate(players)},
        "rates": {
            pid: {r: state.rate(q, i) for i, r in enumerate(RESOURCES)}
            for q, pid in enumerate(players)
        },
        "movable": {
            pid: [
                board.edge_name(e)
                for e in sorted(state.player_edges[q], key=lambda e: board.edge_names[e])
                if movable(state, q, e)
            ]
            for q, pid in enumerate(players)
        },
        "turn": turn_to_dict(state),
    }


def run(scenario: Scenario) -> dict[str, Any]:
    """Apply the actions in order; the result document."""
    state = scenario.state.copy()
    start = snapshot(state)
    steps: list[dict[str, Any]] = []
    events: list[dict[str, Any]] = []
    refused: list[dict[str, Any]] = []
    last = start
    for index, action in enumerate(scenario.actions):
        try:
            produced = apply_action(state, action)
        except Refused as refusal:
            refused.append(Refusal(index, refusal.code, refusal.message).as_dict())
            steps.append({"action": index, "refused": True, **last})
            continue
        for event in produced:
            events.append({"action": index, **event})
        last = snapshot(state)
        steps.append({"action": index, "refused": False, **last})
    return {
        "format": RESULT_FORMAT,
        "state": state_to_dict(state),
        "start": start,
        "steps": steps,
        "events": events,
        "refused": refused,
    }


def adjudicate(document: object) -> dict[str, Any]:
    """A scenario document in, its result document out (ScenarioError for a bad file)."""
    return run(parse_scenario(document))
