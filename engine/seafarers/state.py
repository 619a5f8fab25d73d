"""The mutable state of one game: hands, pieces, bank, deck, turn, chance counters.

Pieces are arrays indexed by the board's integer edge and node ids, so an action changes a few
list cells and a copy is a handful of list copies (`State.copy`), for the bot and the legal
action tests. `apply_action` checks everything first and only then writes (X25).
"""

from __future__ import annotations

from typing import Any, Final

from engine.seafarers.board import Board
from engine.seafarers.rules import Rules

# Final: constants the compiled build (tools/compile_engine.py) writes in place.
NONE: Final = -1
ROAD: Final = 1
SHIP: Final = 2
SETTLEMENT: Final = 1
CITY: Final = 2
SETUP_PHASES = frozenset({"setup_settlement", "setup_route"})
# legal.listing_for: a player's attached edges, and the ship-move targets with their one ship
Listing = tuple[tuple[int, ...], tuple[tuple[int, int], ...]]


class State:
    __slots__ = (
        "army",
        "attach",
        "bank",
        "board",
        "cities",
        "deck",
        "dev_card_played",
        "dev_cards",
        "dice_script",
        "dice_used",
        "discard",
        "draws_script",
        "draws_used",
        "edge_owner",
        "edge_piece",
        "free_pieces",
        "gold_picks",
        "hands",
        "harbour_rates",
        "home_islands",
        "knights",
        "listed",
        "listing",
        "longest",
        "node_level",
        "node_owner",
        "number",
        "phase",
        "pindex",
        "pirate",
        "player",
        "player_edges",
        "player_nodes",
        "players",
        "resume",
        "road_at",
        "roads",
        "robber",
        "rolls",
        "routes",
        "rules",
        "seed",
        "settlements",
        "setup_node",
        "setup_round",
        "ship_at",
        "ship_closed",
        "ship_moved",
        "ship_new",
        "ships",
        "split",
        "steals",
        "svp",
        "winner",
    )

    def __init__(
        self, board: Board, rules: Rules, players: list[str] | tuple[str, ...], blank: bool = False
    ) -> None:
        n = len(players)
        self.board = board
        self.rules = rules
        self.seed: int | None = None
        self.players = tuple(players)
        if blank:  # `copy` writes the rest
            return
        self.pindex = {p: i for i, p in enumerate(players)}
        self.hands = [[0] * 5 for _ in range(n)]
        self.dev_cards: list[list[tuple[str, bool]]] = [[] for _ in range(n)]  # (card, new)
        self.knights = [0] * n
        self.edge_owner = [NONE] * len(board.edge_nodes)
        self.edge_piece = [0] * len(board.edge_nodes)
        self.player_edges: list[list[int]] = [[] for _ in range(n)]
        self.player_nodes: list[list[int]] = [[] for _ in range(n)]  # buildings
        self.ship_new: set[int] = set()
        self.ship_closed: set[int] = set()
        self.node_owner = [NONE] * len(board.node_names)
        self.node_level = [0] * len(board.node_names)
        self.roads = [0] * n
        self.ships = [0] * n
        self.settlements = [0] * n
        self.cities = [0] * n
        self.svp: list[list[tuple[int, int, str | None]]] = [[] for _ in range(n)]
        self.home_islands: list[list[str]] = [[] for _ in range(n)]
        self.gold_picks = [0] * n
        self.discard = [0] * n
        self.bank = [rules.bank] * 5
        self.deck: list[str] = []
        self.longest = NONE
        self.army = NONE
        self.routes = [0] * n
        self.number = 0
        self.player = 0
        self.phase = "setup_settlement"
        self.dev_card_played = False
        self.ship_moved = False
        self.free_pieces = 0
        self.resume: str | None = None
        self.setup_round: int | None = None
        self.setup_node: int | None = None
        self.winner: int | None = None
        self.robber: int | None = board.robber_start
        self.pirate: int | None = board.pirate_start
        self.dice_script: tuple[tuple[int, int], ...] = ()
        self.dice_used = 0
        self.draws_script: tuple[int, ...] = ()
        self.draws_used = 0
        self.rolls = 0
        self.steals = 0
        # Derived, never serialised: where each player's pieces reach (engine/seafarers/reach.py).
        self.road_at: list[dict[int, int]] = [{} for _ in range(n)]
        self.ship_at: list[dict[int, list[int]]] = [{} for _ in range(n)]
        self.attach: list[dict[int, int]] = [{} for _ in range(n)]
        self.harbour_rates: list[list[int]] = [[4] * 5 for _ in range(n)]
        self.split: list[dict[int, list[tuple[int, int]]]] = [{} for _ in range(n)]
        # legal.listing_for's, per player, until a write changes where their pieces reach
        self.listing: list[Listing | None] = [None] * n
        # Derived, never serialised: the last list `legal_actions` made for this state, which
        # `apply_listed` may apply without the checks; any action clears it.
        self.listed: list[dict[str, Any]] | None = None

    def copy(self) -> State:
        other = State(self.board, self.rules, self.players, blank=True)
        other.listed = None
        for name in ("seed", "pindex", "dice_script", "draws_script"):
            setattr(other, name, getattr(self, name))
        other.hands = [list(h) for h in self.hands]
        other.dev_cards = [list(d) for d in self.dev_cards]
        other.player_edges = [list(x) for x in self.player_edges]
        other.player_nodes = [list(x) for x in self.player_nodes]
        other.svp = [list(x) for x in self.svp]
        other.home_islands = [list(x) for x in self.home_islands]
        for name in (
            "knights",
            "edge_owner",
            "edge_piece",
            "node_owner",
            "node_level",
            "roads",
            "ships",
            "settlements",
            "cities",
            "gold_picks",
            "discard",
            "bank",
            "deck",
            "routes",
        ):
            setattr(other, name, list(getattr(self, name)))
        other.road_at = [dict(x) for x in self.road_at]
        other.ship_at = [{n: list(v) for n, v in x.items()} for x in self.ship_at]
        other.attach = [dict(x) for x in self.attach]
        other.harbour_rates = [list(x) for x in self.harbour_rates]
        other.split = [{n: list(v) for n, v in x.items()} for x in self.split]
        other.listing = list(self.listing)  # tuples, shared
        other.ship_new = set(self.ship_new)
        other.ship_closed = set(self.ship_closed)
        for name in (
            "longest",
            "army",
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
            "robber",
            "pirate",
            "dice_used",
            "draws_used",
            "rolls",
            "steals",
        ):
            setattr(other, name, getattr(self, name))
        return other

    # -- derived values -------------------------------------------------------------------
    def in_setup(self) -> bool:
        """Setup, a setup gold pick included (B20, X20)."""
        return self.phase in SETUP_PHASES or (self.phase == "gold" and self.resume == "setup_route")

    def vp(self, p: int) -> int:
        """B19: settlements, cities, the two cards, Victory Point cards, special tokens."""
        points = self.settlements[p] + 2 * self.cities[p]
        if self.longest == p:
            points += 2
        if self.army == p:
            points += 2
        cards = self.dev_cards[p]
        if cards:  # asked after every action (X20): most hands hold no card, most no token
            for card, _ in cards:
                if card == "victory_point":
                    points += 1
        tokens = self.svp[p]
        if tokens:
            for token in tokens:
                points += token[1]
        return points

    def rate(self, p: int, resource: int) -> int:
        """X11 for one resource (see `rates`)."""
        return self.rates(p)[resource]

    def rates(self, p: int) -> list[int]:
        """X11 for each resource: 2 on a 2:1 harbour of the resource, else 3 on a generic
        harbour, else 4 — kept by reach.py as buildings are added (`reach.rates_of`); read
        only."""
        return self.harbour_rates[p]
