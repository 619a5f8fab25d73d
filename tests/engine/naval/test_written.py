"""Written orders (docs/orders.md, engine/naval/written.py): each kind of line, names matched
without case or accents, ids, routes, ambiguous and unknown names, line numbers; and the round
trip: every order the desk can give is written as a line that reads back to the same order."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.naval import World, legal_orders, parse_scenario
from engine.naval.written import (
    Lexicon,
    fold,
    read_line,
    read_orders,
    write_order,
    write_orders,
)
from fleets.campaign_files import read_campaign_file
from fleets.forms import RETREATS, _retreat
from tests.engine.naval.random_turns import random_turn
from tests.engine.naval.worlds import fleet, sea_lane, world_of

BALTIC = Path(__file__).resolve().parents[3] / "examples" / "baltic.campaign.yaml"
STANDING = {
    "stance": "engage",
    "retreat": "never",
    "retreat_to": [],
    "evade_to": [],
    "prefer": "sink",
    "if_cornered": "surrender",
}


@cache
def baltic() -> tuple[World, Lexicon]:
    file = read_campaign_file(yaml.safe_load(BALTIC.read_text()))
    world = parse_scenario(file.scenario).world
    lexicon = Lexicon(
        world,
        provinces={k: v["name"] for k, v in file.province_extras.items()},
        ports=file.port_names,
        factions={k: v["name"] for k, v in file.faction_extras.items()},
    )
    return world, lexicon


def one(text: str, faction: str | None = "denmark", lexicon: Lexicon | None = None) -> Any:
    read = read_orders(text, lexicon or baltic()[1], faction=faction)
    assert len(read) == 1
    return read[0]


def order(text: str, **kwargs: Any) -> dict[str, Any]:
    line = one(text, **kwargs)
    assert line.refusal is None, line.refusal
    return dict(line.order)


def refusal(text: str, **kwargs: Any) -> tuple[str, str]:
    line = one(text, **kwargs)
    assert line.order is None
    assert line.priority is None
    return line.refusal.code, line.refusal.message


# --- each kind of line ---------------------------------------------------------------------------


def test_a_route_is_the_path_as_written_m2() -> None:
    assert order("Dk-1: Øresund -> Kattegat") == {
        "fleet": "dk-1",
        "type": "move",
        "path": ["oresund", "kattegat"],
        **STANDING,
    }
    assert order("dk-1: sail oresund → KATTEGAT")["path"] == ["oresund", "kattegat"]
    assert order("dk-1:oresund->kattegat")["path"] == ["oresund", "kattegat"]  # spaces or none
    assert order("dk-1 : hold")["type"] == "hold"


def test_sail_to_takes_the_shortest_route_as_the_desks_destination_does() -> None:
    assert order("dk-1: sail to Kattegat")["path"] == ["oresund", "kattegat"]


def test_enter_and_blockade_take_the_desks_route_or_the_one_written_m3_b1() -> None:
    assert order("dk-3: enter Christiania")["path"] == ["oslofjord"]
    assert order("dk-1: enter port Copenhagen via Oresund") == {
        "fleet": "dk-1",
        "type": "enter_port",
        "port": "copenhagen",
        "path": ["oresund"],
        **STANDING,
    }
    blockade = order("Swedish: blockade Riga".replace("Swedish", "se-3"), faction="sweden")
    assert blockade["type"] == "blockade"
    assert blockade["port"] == "riga"


def test_support_join_split_and_hold() -> None:
    assert order("dk-1: support Tsardom of Russia")["faction"] == "russia"
    assert order("dk-1: support pirates")["faction"] == "pirates"
    assert order("dk-1: join dk-2")["into"] == "dk-2"
    assert order("dk-1: join dk-raiders")["into"] == "dk-raiders"  # split off this turn (W5)
    split = order("dk-1: split Havfruen, justitia as raiders")
    assert (split["ships"], split["new_fleet"]) == (["havfruen", "justitia"], "raiders")
    assert order("dk-1: hold") == {"fleet": "dk-1", "type": "hold", **STANDING}


def test_the_standing_battle_choices_e2_d5_d6_r3_r4() -> None:
    got = order(
        "dk-1: hold; evade to Kattegat, Skagerrak; retreat below 50% to Øresund; capture;"
        " if cornered attack"
    )
    assert got == {
        "fleet": "dk-1",
        "type": "hold",
        "stance": "evade",
        "evade_to": ["kattegat", "skagerrak"],
        "retreat": {"below": 0.5},
        "retreat_to": ["oresund"],
        "prefer": "capture",
        "if_cornered": "attack",
    }
    assert order("dk-1: hold; retreat below 0.25")["retreat"] == {"below": 0.25}
    assert order("dk-1: hold; retreat below 3/4")["retreat"] == {"below": 0.75}
    assert order("dk-1: hold; retreat after round 2")["retreat"] == {"after_round": 2}
    assert order("dk-1: hold; evade")["stance"] == "evade"
    engage = order("dk-1: hold; engage; evade to Kattegat")
    assert (engage["stance"], engage["evade_to"]) == ("engage", ["kattegat"])


def test_economy_lines_p_u() -> None:
    assert order("hire 2 galley at Gothenburg") == {
        "type": "hire",
        "faction": "denmark",
        "port": "gothenburg",
        "ship_type": "galley",
        "count": 2,
    }
    assert order("Hire 3 × Ships of the line at copenhagen into dk-1")["fleet"] == "dk-1"
    assert order("repair dk-1") == {"type": "repair", "fleet": "dk-1"}
    assert order("repair dk-1 only havfruen")["ships"] == ["havfruen"]
    assert order("pay off dk-2") == {"type": "disband", "fleet": "dk-2"}
    assert order("buy out pi-1 with dk-1 offering 10 a ship") == {
        "type": "buyout",
        "faction": "denmark",
        "fleet": "dk-1",
        "adrift_fleet": "pi-1",
        "offer": 10,
    }
    line = one("upkeep priority: dk-2, DK-1")
    assert line.priority == ("dk-2", "dk-1")
    assert line.order is None
    assert one("upkeep priority none").priority == ()


def test_names_without_case_or_accents_and_ids_too() -> None:
    assert fold("Øresund") == fold("oresund") == "oresund"
    assert fold("Denmark–Norway") == "denmark norway"
    assert fold("Słupsk Furrow") == "slupsk furrow"
    assert order("dk-1: blockade MALMO")["port"] == "malmo"
    assert order("dk-1: blockade malmö")["port"] == "malmo"
    assert order("dk-1: oresund -> [kattegat]")["path"] == ["oresund", "kattegat"]
    assert order("dk-1: support denmark_norway".replace("_", "–"))["faction"] == "denmark"
    # a name's part in brackets may be left out (docs/rulings.md R-85)
    assert order("ru-1: enter Kronstadt", faction="russia")["port"] == "kronstadt"


def test_line_numbers_blank_lines_and_comments_r84() -> None:
    text = "# our orders\n\ndk-1: hold\n  \nnonsense\ndk-2: Atlantis\n"
    read = read_orders(text, baltic()[1], faction="denmark")
    assert [r.number for r in read] == [3, 5, 6]
    assert read[0].order is not None
    assert read[1].refusal.order == 5
    assert read[1].refusal.code == "invalid_order"
    assert read[2].refusal.order == 6
    assert read[2].refusal.code == "unknown_province"


# --- refusals ------------------------------------------------------------------------------------


def test_unknown_names_are_refused_in_words_with_the_engines_codes() -> None:
    assert refusal("dk-1: Atlantis") == (
        "unknown_province",
        'there is no province called "Atlantis"',
    )
    assert refusal("dk-9: hold")[0] == "unknown_fleet"
    assert refusal("dk-1: enter Atlantis")[0] == "unknown_port"
    assert refusal("hire 2 dragon at Copenhagen")[0] == "unknown_ship_type"
    assert refusal("dk-1: support Atlantis")[0] == "invalid_order"
    code, message = refusal("dk-1: Copenhagen")
    assert code == "unknown_province"
    assert 'write "enter Copenhagen"' in message


def test_shapes_that_are_not_orders_are_refused() -> None:
    for text in (
        "dk-1:",
        "dk-1: hold fast",
        "dk-1: enter",
        "dk-1: Oresund -> -> Kattegat",
        "dk-1: hold; retreat below 150%",
        "dk-1: hold; retreat below nothing",
        "dk-1: hold; retreat after round 0",
        "dk-1: hold; evade; engage",
        "dk-1: hold; dance",
        "dk-1: split havfruen",
        "dk-1: split havfruen as two words",
        "dk-1: split nobody as x",
        "hire none galley at Copenhagen",
        "hire 2 galley",
        "buy out pi-1",
        "buy out pi-1 with dk-1 offering lots",
        "x" * 3000,
        "dk-1: hold\x00",
    ):
        code, message = refusal(text)
        assert code in {"invalid_order", "unknown_province"}, text
        assert message, text


def test_hires_and_buyouts_need_a_faction() -> None:
    assert refusal("hire 1 galley at Copenhagen", faction=None)[0] == "not_commander"


def ambiguous_world() -> Lexicon:
    """Two seas called Bay (the issue's own example), a port called like a sea's id."""
    doc = sea_lane(fleet("b1", "blue", "west"), fleet("b2", "blue", "west"))
    return Lexicon(
        world_of(doc),
        provinces={"west": "Bay", "middle": "Bay", "east": "West", "isle": "Isle"},
        ports={"haven": "Haven"},
        factions={"blue": "Blue", "red": "Red"},
    )


def test_a_name_two_seas_bear_is_refused_with_both_never_guessed_r83() -> None:
    lexicon = ambiguous_world()
    code, message = refusal("b1: Bay", lexicon=lexicon, faction="blue")
    assert code == "ambiguous_name"
    assert "Bay [middle]" in message
    assert "Bay [west]" in message
    # "West" is one sea's name and the other's id: both are candidates
    code, message = refusal("b1: west", lexicon=lexicon, faction="blue")
    assert code == "ambiguous_name"
    assert "[east]" in message
    assert "[west]" in message
    assert order("b1: [middle] -> [east]", lexicon=lexicon, faction="blue")["path"] == [
        "middle",
        "east",
    ]


def test_the_writer_writes_brackets_where_a_name_is_ambiguous() -> None:
    lexicon = ambiguous_world()
    # "Bay" is two seas' name: their ids; "west" is a sea's id and another's name: [west]
    move = {"fleet": "b1", "type": "move", "path": ["middle", "west"], **STANDING}
    line = write_order(move, lexicon)
    assert line == "b1: middle -> [west]"
    assert read_line(line, 1, lexicon, faction="blue").order == move


def test_the_writer_in_the_campaigns_names() -> None:
    _world, lexicon = baltic()
    orders = [
        {"fleet": "dk-1", "type": "move", "path": ["oresund", "kattegat"], **STANDING},
        {
            "type": "hire",
            "faction": "denmark",
            "port": "gothenburg",
            "ship_type": "galley",
            "count": 2,
        },
        {
            "fleet": "dk-2",
            "type": "hold",
            **{**STANDING, "stance": "evade", "retreat": {"below": 0.5}},
        },
    ]
    assert write_orders(orders, lexicon, ["dk-1"]) == (
        "dk-1: Øresund -> Kattegat\n"
        "hire 2 galley at Gothenburg\n"
        "dk-2: hold; evade; retreat below 50%\n"
        "upkeep priority dk-1"
    )


# --- the round trip ------------------------------------------------------------------------------

NAMES = [
    "Bay",
    "Bay",
    "Øresund",
    "Hold Fast",
    "To Sea",
    "Gulf of Riga",
    "Bay via Sea",
    "Nord",
    "Kattegat at Sea",
    "Sea, the",
    "Åbo",
    "s01",
    "port0",
    "f1",
]


@cache
def generated(seed: int) -> tuple[World, Lexicon]:
    """A generated world with names that collide, read like grammar words or like ids."""
    doc = random_turn(seed)
    doc.pop("orders")
    world = parse_scenario(doc).world
    rng = random.Random(seed)

    def names(keys: Any) -> dict[str, str]:
        return {k: rng.choice(NAMES) for k in keys if rng.random() < 0.8}

    lexicon = Lexicon(
        world,
        provinces=names(world.map.provinces),
        ports=names(world.map.ports),
        factions=names(world.factions),
    )
    return world, lexicon


WORLDS = [baltic, *[lambda seed=seed: generated(seed) for seed in range(40)]]


def standing(draw: Any, seas: list[str]) -> dict[str, Any]:
    """As the desk's form gives them (fleets/forms.py), and the API's longer lists."""
    places = st.lists(st.sampled_from(seas), max_size=3) if seas else st.just([])
    return {
        "stance": draw(st.sampled_from(["engage", "evade"])),
        "retreat": _retreat(draw(st.sampled_from([r for r, _ in RETREATS]))),
        "retreat_to": draw(places),
        "evade_to": draw(places),
        "prefer": draw(st.sampled_from(["sink", "capture"])),
        "if_cornered": draw(st.sampled_from(["surrender", "attack"])),
    }


def desk_orders(world: World, fleet_id: str, draw: Any) -> list[dict[str, Any]]:
    """Every order the desk's forms can give this fleet (OrderForm.to_order, the economy
    forms), and the API's optional keys."""
    legal = legal_orders(world, fleet_id)
    owner = world.fleets[fleet_id].owner
    ships = [s.id for s in world.fleets[fleet_id].ships]
    seas = sorted(legal.moves) or sorted(p for p in world.map.provinces if world.map.is_sea(p))
    out: list[dict[str, Any]] = [{"type": "hold"}]
    out += [{"type": "move", "path": list(path)} for path in legal.moves.values()]
    out += [{"type": "move", "path": [a, b]} for a in seas[:3] for b in seas[-2:]]  # via
    for kind, routes in (("enter_port", legal.enter_port), ("blockade", legal.blockade)):
        for port, path in routes.items():
            out.append({"type": kind, "port": port, **({"path": list(path)} if path else {})})
    out += [{"type": "support", "faction": f} for f in legal.support]
    out += [{"type": "merge", "into": f} for f in legal.merge_into]
    if legal.can_split:
        some = draw(
            st.lists(st.sampled_from(ships), min_size=1, max_size=len(ships) - 1, unique=True)
        )
        out.append({"type": "split", "ships": some, "new_fleet": f"{owner}-raiders"})
    fleet_orders = [{"fleet": fleet_id, **o, **standing(draw, seas)} for o in out]
    economy: list[dict[str, Any]] = [
        {"type": "repair", "fleet": fleet_id},
        {"type": "disband", "fleet": fleet_id},
        {"type": "repair", "fleet": fleet_id, "ships": ships[:1]},
    ]
    for adrift in legal.buyout:
        economy.append(
            {"type": "buyout", "faction": owner, "fleet": fleet_id, "adrift_fleet": adrift}
        )
        economy.append(
            {
                "type": "buyout",
                "faction": owner,
                "fleet": fleet_id,
                "adrift_fleet": adrift,
                "offer": 99,
            }
        )
    for port in world.map.ports.values():
        if world.relations.friendly(owner, port.owner):
            for ship_type in world.ship_types:
                count = draw(st.integers(1, 20))
                economy.append(
                    {
                        "type": "hire",
                        "faction": owner,
                        "port": port.id,
                        "ship_type": ship_type,
                        "count": count,
                    }
                )
    economy.append(
        {
            "type": "hire",
            "faction": owner,
            "port": sorted(world.map.ports)[0] if world.map.ports else "x",
            "ship_type": sorted(world.ship_types)[0],
            "count": 1,
            "fleet": fleet_id,
        }
    )
    return fleet_orders + economy


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_order_the_desk_gives_is_written_and_read_back_the_same(data: Any) -> None:
    world, lexicon = data.draw(st.sampled_from(WORLDS))()
    fleet_id = data.draw(st.sampled_from(sorted(world.fleets)))
    faction = world.fleets[fleet_id].owner
    for given_order in desk_orders(world, fleet_id, data.draw):
        line = write_order(given_order, lexicon)
        read = read_line(line, 7, lexicon, faction=faction)
        assert read is not None, line
        assert read.refusal is None, (line, read.refusal)
        assert read.order == given_order, line


@pytest.mark.parametrize("seed", range(5))
def test_a_whole_faction_written_reads_back_line_by_line(seed: int) -> None:
    world, lexicon = generated(seed)
    for owner in sorted({f.owner for f in world.fleets.values()}):
        given_orders = [
            {"fleet": f.id, "type": "hold", **STANDING}
            for f in world.fleets.values()
            if f.owner == owner
        ]
        text = write_orders(given_orders, lexicon, [given_orders[0]["fleet"]])
        read = read_orders(text, lexicon, faction=owner)
        assert [r.order for r in read[:-1]] == given_orders
        assert read[-1].priority == (given_orders[0]["fleet"],)


PIECES = [
    "dk-1:",
    "hire",
    "2",
    "galley",
    "at",
    "Copenhagen",
    "->",
    "Øresund",
    ";",
    "evade",
    "to",
    "retreat",
    "below",
    "50%",
    "1/0",
    "after",
    "round",
    "via",
    "enter",
    "blockade",
    "split",
    "as",
    "join",
    "only",
    "buy out",
    "with",
    "offering",
    "upkeep priority",
    ",",
    "[",
    "]",
    "[dk-1]",
    "\n",
    "#",
    ":",
    "pay off",
    "sail",
    "capture",
    "if cornered",
    "×",
    "9" * 30,
    "0.0",
    "1e309",
    "\x00",
    "  ",
]


@settings(max_examples=400, deadline=None)
@given(
    text=st.one_of(
        st.text(max_size=200),
        st.lists(st.sampled_from(PIECES), max_size=14).map(" ".join),
    )
)
def test_any_text_is_read_or_refused_never_raises(text: str) -> None:
    """Bad input: every line that says something is an order, a priority or a refusal with a
    code and words, whatever the text (a paste is never a server error)."""
    for line in read_orders(text, baltic()[1], faction="denmark"):
        assert (line.order, line.priority, line.refusal).count(None) == 2
        if line.refusal is not None:
            assert line.refusal.code
            assert line.refusal.message
        if line.order is not None:  # what is read is an order the writer writes back
            again = read_line(
                write_order(line.order, baltic()[1]), 1, baltic()[1], faction="denmark"
            )
            assert again is not None
            assert again.order == line.order
