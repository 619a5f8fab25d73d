"""The board as SVG (issue 13): every piece once in its owner's colour, ships closed and open
told apart, the robber and the pirate where the state says, the last action ringed, targets
exactly the viewer's legal places, names escaped, the same bytes for the same input."""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

import pytest
import yaml

from engine.seafarers import State, apply_action, legal_actions, parse_scenario, state_to_dict
from seafarers.board_geometry import edge_key
from seafarers.board_svg import board_svg, player_colours
from tests.seafarers.board.helpers import (
    ODD,
    ROOT,
    SVG,
    crafted,
    crafted_doc,
    find,
    frozen,
    on_board,
    parse,
    played,
    target_actions,
    title_of,
    who_acts,
)


def pieces_in_state(state: State) -> Counter[tuple[str, str, str]]:
    doc = state_to_dict(state)
    out: Counter[tuple[str, str, str]] = Counter()
    for p in doc["players"]:
        for e in p["roads"]:
            out[(p["id"], "road", "|".join(edge_key(e)))] += 1
        for s in p["ships"]:
            out[(p["id"], "ship", "|".join(edge_key(s["edge"])))] += 1
        for kind, key in (("settlement", "settlements"), ("city", "cities")):
            for n in p[key]:
                out[(p["id"], kind, n)] += 1
    return out


def pieces_drawn(svg: str) -> Counter[tuple[str, str, str]]:
    return Counter(
        (g.get("data-owner") or "", g.get("data-kind") or "", g.get("data-place") or "")
        for g in find(parse(svg), "piece")
    )


def colours_of(piece: Any) -> set[str]:
    return {v for e in piece.iter() for k, v in e.attrib.items() if k in ("fill", "stroke")} - {
        "none"
    }


@pytest.fixture(scope="module")
def midgame() -> tuple[State, list[dict[str, Any]]]:
    return played(90)  # red settles on a new island, closing a line of ships


def test_every_piece_is_drawn_once(midgame: tuple[State, list[dict[str, Any]]]) -> None:
    state, _ = midgame
    for s in (state, crafted()):
        expected = pieces_in_state(s)
        assert sum(expected.values()) > 5  # a test on an empty board would prove nothing
        assert pieces_drawn(board_svg(s, viewer=None)) == expected


def test_each_piece_in_its_owners_colour(midgame: tuple[State, list[dict[str, Any]]]) -> None:
    for s in (midgame[0], crafted()):
        colours = player_colours(state_to_dict(s)["players"])
        assert len(set(colours.values())) == len(colours)
        for piece in find(parse(board_svg(s, viewer=None)), "piece"):
            owner = piece.get("data-owner") or ""
            used = colours_of(piece)
            assert colours[owner] in used
            assert not used & (set(colours.values()) - {colours[owner]})


def test_closed_and_open_ships_differ() -> None:
    root = parse(board_svg(crafted(), viewer=None))
    ships = {
        g.get("data-closed"): g
        for g in find(root, "piece")
        if g.get("data-kind") == "ship" and g.get("data-owner") == ODD
    }
    assert set(ships) == {"true", "false"}
    colour = player_colours(state_to_dict(crafted())["players"])[ODD]
    fills = {k: {p.get("fill") for p in g.iter(f"{SVG}polygon")} for k, g in ships.items()}
    assert fills["true"] == {colour}
    assert fills["false"] == {"#ffffff", "none"}  # white inside the band (S-49)
    assert "closed ship" in title_of(ships["true"])
    assert "open ship" in title_of(ships["false"])


def test_robber_and_pirate_where_the_state_says() -> None:
    state = crafted()
    root = parse(board_svg(state, viewer=None))
    assert [g.get("data-hex") for g in find(root, "robber")] == ["1,0"]
    assert [g.get("data-hex") for g in find(root, "pirate")] == ["-1,1"]
    doc = crafted_doc()
    doc["board"]["pirate"] = None
    doc["board"]["robber"] = "0,0"
    root = parse(board_svg(parse_scenario(doc).state, viewer=None))
    assert [g.get("data-hex") for g in find(root, "robber")] == ["0,0"]
    assert find(root, "pirate") == []


def test_the_robber_follows_a_move() -> None:
    state, _ = played(0)
    for _ in range(600):  # play on to the first robber move the bot makes
        if state.phase == "robber":
            break
        events = apply_action(state, _bot(state))
    assert state.phase == "robber"
    player = who_acts(state)
    legal = legal_actions(state, player)
    thief = next(a for a in legal if a["type"] == "move_robber")
    events = apply_action(state, thief)
    root = parse(board_svg(state, viewer=None, last_action_events=events))
    assert [g.get("data-hex") for g in find(root, "robber")] == [thief["hex"]]
    assert [g.get("data-place") for g in find(root, "last-action")] == [thief["hex"]]


def _bot(state: State) -> dict[str, Any]:
    from engine.seafarers import bot_action

    action = bot_action(state, who_acts(state), 3)
    assert action is not None
    return action


def test_the_last_action_is_marked(midgame: tuple[State, list[dict[str, Any]]]) -> None:
    state, events = midgame
    built = [e for e in events if e["type"] == "built"]
    assert built, "the playout's last action should be a build"
    root = parse(board_svg(state, viewer=None, last_action_events=events))
    place = "|".join(edge_key(built[0]["edge"])) if "edge" in built[0] else built[0]["node"]
    assert [g.get("data-place") for g in find(root, "last-action")] == [place]
    assert place in {g.get("data-place") for g in find(root, "piece")}
    moved = [{"type": "ship_moved", "player": ODD, "from": "0,-1,E", "to": "0,-1,SE"}]
    root = parse(board_svg(crafted(), viewer=None, last_action_events=moved))
    assert [g.get("data-place") for g in find(root, "last-action")] == [
        "|".join(edge_key("0,-1,SE"))
    ]
    assert find(parse(board_svg(state, viewer=None)), "last-action") == []


def test_targets_are_exactly_the_legal_places() -> None:
    state = crafted()
    legal = legal_actions(state, ODD)
    placed = on_board(legal)
    assert {a["type"] for a in placed} >= {
        "build_road",
        "build_ship",
        "build_settlement",
        "build_city",
        "move_ship",
    }
    root = parse(board_svg(state, viewer=ODD, legal=legal))
    drawn = target_actions(root)
    assert len(drawn) == len(placed)
    assert frozen(drawn) == frozen(placed)
    for a in find(root, "target"):
        action = target_actions_of(a)
        key = {"build_road": "edge", "build_ship": "edge", "move_ship": "to"}.get(action["type"])
        want = "|".join(edge_key(action[key])) if key else action.get("node", action.get("hex"))
        assert a.get("data-place") == want
        assert a.get("href")
        assert title_of(a)
    movable = {tuple(a["from"]) for a in placed if a["type"] == "move_ship"}
    assert {g.get("data-place") for g in find(root, "movable")} == {
        "|".join(edge_key(list(e))) for e in movable
    }


def target_actions_of(a: Any) -> dict[str, Any]:
    import json

    return dict(json.loads(a.get("data-action")))


def test_robber_targets_offer_each_victim() -> None:
    state, _ = played(0)
    for _ in range(600):
        if state.phase == "robber":
            break
        apply_action(state, _bot(state))
    player = who_acts(state)
    legal = legal_actions(state, player)
    root = parse(board_svg(state, viewer=player, legal=legal))
    assert frozen(target_actions(root)) == frozen(on_board(legal))
    assert {a["type"] for a in target_actions(root)} & {"move_robber", "move_pirate"}


def test_no_targets_for_another_viewer_or_none() -> None:
    state = crafted()
    legal = legal_actions(state, ODD)
    for viewer in ("blue", None):
        assert target_actions(parse(board_svg(state, viewer=viewer, legal=legal))) == []


def test_numbers_with_pips_and_the_likely_ones_stand_out() -> None:
    root = parse(board_svg(crafted(), viewer=None))
    tokens = {t.get("data-number"): t for t in find(root, "token")}
    assert set(tokens) == {"6", "4"}
    six = tokens["6"].find(f"{SVG}text")
    four = tokens["4"].find(f"{SVG}text")
    assert six is not None
    assert four is not None
    assert six.get("font-weight") == "bold"
    assert four.get("font-weight") != "bold"
    assert six.get("fill") != four.get("fill")
    assert len(tokens["6"].findall(f"{SVG}circle")) == 1 + 5
    assert len(tokens["4"].findall(f"{SVG}circle")) == 1 + 3


def test_harbours_with_their_rates() -> None:
    root = parse(board_svg(crafted(), viewer=None))
    harbours = {h.get("data-kind"): h for h in find(root, "harbour")}
    assert set(harbours) == {"generic", "brick"}
    texts = {k: [t.text for t in h.iter(f"{SVG}text")] for k, h in harbours.items()}
    assert texts == {"generic": ["3:1", "any"], "brick": ["2:1", "brick"]}
    assert harbours["brick"].get("data-edge") == "|".join(edge_key("1,0,E"))


def test_names_are_escaped() -> None:
    svg = board_svg(crafted(), viewer=ODD, legal=legal_actions(crafted(), ODD))
    assert ODD not in svg
    assert "Isle <&>" not in svg
    root = parse(svg)  # well-formed whatever the names
    titles = [t.text or "" for t in root.iter(f"{SVG}title")]
    settled = f"{ODD}'s settlement at the north corner of forest 6 on Isle <&>"  # S-39
    assert any(t.startswith(settled) for t in titles)
    legend = {g.get("data-player") for g in find(root, "legend-player")}
    assert legend == {ODD, "blue"}
    assert all(a["player"] == ODD for a in target_actions(root))


def test_the_same_input_gives_the_same_bytes() -> None:
    state = crafted()
    legal = legal_actions(state, ODD)
    first = board_svg(state, viewer=ODD, legal=legal)
    again = board_svg(parse_scenario(crafted_doc()).state, viewer=ODD, legal=list(reversed(legal)))
    assert first == again
    assert board_svg(state.copy(), viewer=ODD, legal=copy.deepcopy(legal)) == first


def test_a_graph_board_is_refused() -> None:
    case = yaml.safe_load(
        (ROOT / "tests/scenarios/seafarers/b/B2-pieces-and-costs.yaml").read_text()
    )
    doc = {k: v for k, v in case["scenario"].items() if k != "actions"}
    assert "edges" in doc["board"]
    with pytest.raises(ValueError, match="graph board"):
        board_svg(parse_scenario(doc).state, viewer=None)


def test_the_legend_names_the_players_in_seat_order_with_their_colours(
    midgame: tuple[State, list[dict[str, Any]]],
) -> None:
    state, _ = midgame
    root = parse(board_svg(state, viewer="blue"))
    rows = find(root, "legend-player")
    assert [r.get("data-player") for r in rows] == list(state.players)
    drawn = {
        g.get("data-owner"): colours_of(g) for g in find(root, "piece")
    }  # every owner's pieces carry the colour its legend row shows
    for row in rows:
        assert row.get("data-colour") in drawn.get(row.get("data-player"), {row.get("data-colour")})
    desc = root.find(f"{SVG}desc")
    assert desc is not None
    assert "Seen by blue." in (desc.text or "")
    assert all(p in (desc.text or "") for p in state.players)
    hexes = find(root, "hex")
    assert {h.get("data-hex") for h in hexes} <= {h.id for h in state.board.hexes}
    assert all(title_of(h) for h in hexes)
