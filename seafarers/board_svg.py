"""The seafaring board as one self-contained SVG (issue 13, "Seafaring games on the platform").

`board_svg` draws a hex board's terrain and number tokens, the harbours on their coast edges,
every road, ship, settlement and city in its owner's colour, the robber, the pirate, the last
action's place, and — when the viewer's legal actions are given — clickable targets for the
actions that name a place. Pure: an engine state in, a string out; the same input always gives
the same bytes (everything drawn in a sorted order, numbers written with fixed decimals).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.seafarers import State, state_to_dict
from seafarers.board_geometry import SIZE, Point, edge_key, edge_middle, frame, in_view, node_point
from seafarers.board_layers import (
    draw_harbours,
    draw_hex,
    draw_last_action,
    draw_pieces,
    draw_thieves,
    hex_point,
    last_places,
    place_point,
)
from seafarers.board_legend import LEGEND_WIDTH, draw_legend, legend_lines
from seafarers.board_marks import FONT, GLYPH_OF, PALETTE, PAPER, SEAT_COLOURS, el, num, title
from seafarers.board_places import Places
from seafarers.board_targets import HIT_RADIUS, Target, draw_targets, targets_of

# Paper round the outermost hexes: enough for a harbour's token or the pirate at the rim, and
# no more, so that on a phone the hexes get the width (the sea ring is the real margin).
MARGIN = SIZE * 0.25


def player_colours(players: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    """A fixed colour per seat: a seat named for a colour (the platform's seats: red, blue,
    white, …) is drawn in it; any other id (a scenario file's) takes the colours no seat is
    named for, in seat order (the palette repeats past six players). docs/rulings.md S-49."""
    ids = [p["id"] for p in players]
    named = {pid: SEAT_COLOURS[pid] for pid in ids if pid in SEAT_COLOURS}
    free = [c for c in PALETTE if c not in named.values()] or list(PALETTE)
    others = [pid for pid in ids if pid not in named]
    spare = {pid: free[k % len(free)] for k, pid in enumerate(others)}
    return {pid: named.get(pid) or spare[pid] for pid in ids}


def player_glyphs(players: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    """A fixed mark per seat, the second cue beside its colour: the colour's own mark."""
    return {pid: GLYPH_OF[colour] for pid, colour in player_colours(players).items()}


def board_svg(
    state: State,
    *,
    viewer: str | None,
    legal: list[dict[str, Any]] | None = None,
    last_action_events: list[dict[str, Any]] | None = None,
    legend: bool = True,
    min_scale: float | None = None,
    targets_for: str | None = None,
) -> str:
    """The board as an SVG document (a string, no XML declaration, ready to inline in HTML).

    `viewer` is the player looking (None: the moderator or a spectator); the board holds nothing
    private, so it only decides whose `legal` actions become targets: those of the viewer, and
    none without one. `legal` is `legal_actions(state, viewer)`: each action naming an edge, a
    node or a hex becomes one `<a data-action="…">` on that place; the others (roll, trades,
    cards, end turn) are not places and are left to the page. `last_action_events` are the
    events of the last action applied: its piece or hex is ringed. `legend`: the key drawn on
    the right; without it (the desk, which shows `legend_svg` beside or under the board as the
    screen allows) the hexes get the whole width, which a phone needs for its taps.
    `min_scale`: CSS px per SVG unit below which the picture is not shrunk (a `min-width`), so
    that its targets keep their size on a narrow screen; a page scrolls a larger board sideways.
    `targets_for`: the player whose `legal` actions become targets when the viewer is not that
    player — the moderator acting for a seat on the board (G4, issue 20 §4), who is no viewer.

    Graph boards (rule tests) have no geometry: ValueError."""
    doc = state_to_dict(state)
    board = doc["board"]
    if "edges" in board:
        raise ValueError("a graph board has no hex geometry to draw; only hex boards are drawn")
    colours = player_colours(doc["players"])
    places = Places(state)
    targets = targets_of(legal or [], viewer if targets_for is None else targets_for, places)
    marks = _marks(doc, targets, last_action_events or [])
    hexes = sorted(in_view(board["hexes"], marks), key=lambda h: (h["r"], h["q"]))
    extent = frame(((h["q"], h["r"]) for h in hexes), MARGIN)
    last = draw_last_action(last_action_events or [], places)
    lines = legend_lines(doc, colours, viewer, bool(targets), bool(last))
    key, key_height = draw_legend(
        doc, colours, viewer, extent.x1, extent.y0, bool(targets), bool(last)
    )
    width = extent.width + (LEGEND_WIDTH if legend else 0.0)
    height = max(extent.height, key_height) if legend else extent.height
    body = [
        title("Seafaring board"),
        el("desc", text=" ".join(lines)),
        el(
            "rect",
            {
                "x": extent.x0,
                "y": extent.y0,
                "width": width,
                "height": height,
                "fill": PAPER,
            },
        ),
        el("g", {"class": "hexes"}, *(draw_hex(h, places) for h in hexes)),
        el("g", {"class": "harbours"}, *draw_harbours(board.get("harbours", []), places)),
        el(
            "g",
            {"class": "pieces"},
            *draw_pieces(doc["players"], colours, places, player_glyphs(doc["players"])),
        ),
        el("g", {"class": "thieves"}, *draw_thieves(board, places)),
        el("g", {"class": "last-actions"}, *last),
        el("g", {"class": "targets"}, *draw_targets(targets, places)),
        key if legend else "",
    ]
    return el(
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "width": round(width),
            "height": round(height),
            "viewBox": f"{num(extent.x0)} {num(extent.y0)} {num(width)} {num(height)}",
            "font-family": FONT,
            "class": "seafarers-board",
            "role": "img",
            **({"style": f"min-width: {round(width * min_scale)}px"} if min_scale else {}),
        },
        *body,
    )


# WCAG 2.5.8's minimum target size, in CSS px: a place on the board is at least this wide to tap.
TAP_TARGET_PX = 24.0


def tappable_board(
    state: State,
    *,
    viewer: str | None,
    legal: list[dict[str, Any]],
    events: list[dict[str, Any]],
    has_targets: bool,
    targets_for: str | None = None,
) -> tuple[str, str]:
    """The board as a page to tap on draws it — the seat's desk, and the moderator's dashboard
    when he acts for a seat (issue 20 §4): the hexes without the key, never shrunk below
    TAP_TARGET_PX a target, and the key apart (the page places it beside or under the board).
    `has_targets`: whether `legal` gives the board a target (the caller has them listed)."""
    svg = board_svg(
        state,
        viewer=viewer,
        legal=legal,
        last_action_events=events,
        legend=False,
        min_scale=TAP_TARGET_PX / (2 * HIT_RADIUS),
        targets_for=targets_for,
    )
    key = legend_svg(state, viewer=viewer, targets=has_targets, last=bool(last_places(events)))
    return svg, key


def legend_svg(state: State, *, viewer: str | None, targets: bool, last: bool) -> str:
    """The board's key on its own, for a page that places it apart from the board."""
    doc = state_to_dict(state)
    colours = player_colours(doc["players"])
    key, height = draw_legend(doc, colours, viewer, 0.0, 0.0, targets, last)
    return el(
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "width": round(LEGEND_WIDTH),
            "height": round(height),
            "viewBox": f"0 0 {num(LEGEND_WIDTH)} {num(height)}",
            "font-family": FONT,
            "class": "seafarers-key",
            "role": "img",
        },
        title("Key to the board"),
        el("desc", text=" ".join(legend_lines(doc, colours, viewer, targets, last))),
        key,
    )


def _marks(
    doc: Mapping[str, Any], targets: Sequence[Target], events: list[dict[str, Any]]
) -> list[Point]:
    """Where something is drawn: every piece, the thieves, each place to act and the last
    action's place; the sea hexes under them are kept in the picture."""
    out: list[Point] = []
    for player in doc["players"]:
        out += [edge_middle(edge_key(e)) for e in player.get("roads", [])]
        out += [edge_middle(edge_key(s["edge"])) for s in player.get("ships", [])]
        out += [node_point(n) for n in (*player.get("settlements", []), *player.get("cities", []))]
    out += [hex_point(doc["board"][t]) for t in ("robber", "pirate") if doc["board"].get(t)]
    out += [place_point(t.kind, t.place) for t in targets]
    out += [place_point(t.kind, t.source) for t in targets if t.source is not None]
    out += [place_point(kind, name) for kind, name in last_places(events)]
    return out


__all__ = [
    "TAP_TARGET_PX",
    "board_svg",
    "legend_svg",
    "player_colours",
    "player_glyphs",
    "tappable_board",
]
