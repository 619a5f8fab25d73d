"""What the desk keeps with the world's version (issue 20) changes nothing it shows: a card's
options written once (`fleets.forms.Options`), a card's fields and battle odds kept in the
shared cache for the other workers (`KeptWorld.shared`), and a faction's orders read from its
own slots only (`orders_document(turn, fleets)`) — the same pages, byte for byte, as with
nothing kept."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import cache
from django.urls import reverse

from fleets import world_cache
from fleets.forms import FastSelect, Options
from fleets.mapping import orders_document
from fleets.models import Fleet, Order, Ship
from fleets.selectors import _belongs, desk_for
from fleets.services import order_slot
from fleets.spending import economy_orders

pytestmark = pytest.mark.django_db
SLUG = "skirmish-in-the-sound"
TOKEN = re.compile(r"[A-Za-z0-9]{64}")  # the CSRF token, new on every page


@pytest.fixture(autouse=True)
def fresh() -> Iterator[None]:
    cache.clear()
    world_cache._kept.clear()
    yield
    cache.clear()
    world_cache._kept.clear()


def order(fleet: str, **fields: str) -> dict[str, str]:
    base = {
        "type": "move",
        "stance": "engage",
        "retreat": "never",
        "prefer": "sink",
        "if_cornered": "surrender",
    }
    return {f"{fleet}-{k}": v for k, v in {**base, **fields}.items()}


def page(client: Any, query: str = "") -> str:
    text = client.get(reverse("desk", args=[SLUG]) + query).content.decode()
    return TOKEN.sub("TOKEN", text)


DESKS = [("danes", ""), ("swedes", ""), ("mod", ""), ("mod", "?faction=swedes")]


def test_the_desks_are_the_same_kept_or_not(client, people, settings) -> None:
    """Each desk (two players', the moderator's, the moderator on a faction's) with orders,
    one that meets an enemy (the odds), and a hire (the hire forms), as a process that keeps
    nothing writes it, then as one that keeps the world (first: worked out; second: its own
    memory; third: a fresh process that finds the shared cache's copies)."""
    client.force_login(people["swedes"])
    url = reverse("fleet_order", args=[SLUG, "s1"])
    given = client.post(url, order("s1", destination="oresund", retreat="below:0.5"))
    assert given.status_code == 302
    client.force_login(people["danes"])
    url = reverse("fleet_order", args=[SLUG, "d1"])
    assert client.post(url, order("d1", destination="kattegat")).status_code == 302
    hire = {"hire-port": "copenhagen", "hire-ship_type": "galley", "hire-count": 2}
    client.post(reverse("economy_order", args=[SLUG, "hire"]), hire, follow=True)  # its message
    assert Order.objects.filter(slot__startswith="hire:").exists()
    settings.WORLD_CACHE = False
    pages = {}
    for who, query in DESKS:
        client.force_login(people[who])
        pages[who, query] = page(client, query)
    assert "Odds against d1" in pages["swedes", ""]  # s1 meets the Danes at Øresund
    settings.WORLD_CACHE = True
    for turn in ("worked out", "kept in the process", "from the shared cache"):
        if turn == "from the shared cache":
            world_cache._kept.clear()  # another worker: nothing in its memory
        for who, query in DESKS:
            client.force_login(people[who])
            assert page(client, query) == pages[who, query], (turn, who, query)


def test_a_card_answered_to_htmx_is_the_desks_card(client, people, settings) -> None:
    """The card an htmx order post answers with (its fields written, then kept for the desk)
    is the card the desk shows next, with the world kept and without."""
    settings.WORLD_CACHE = True
    client.force_login(people["swedes"])
    answer = client.post(
        reverse("fleet_order", args=[SLUG, "s1"]),
        order("s1", destination="oresund"),
        headers={"HX-Request": "true"},
    ).content.decode()
    card = TOKEN.sub("TOKEN", answer[: answer.index("</section>")])
    kept = page(client)
    settings.WORLD_CACHE = False
    assert page(client) == kept
    assert card in kept


@pytest.mark.parametrize(
    "value", [None, "", "x", ["x"], ["nowhere"], ["y", "x"], "2", ["", "y"], 'a&"b<']
)
def test_written_options_are_what_the_fast_select_writes(value: Any) -> None:
    """A select's options written once give what FastSelect writes from the choices (Django's
    select, tests/fleets/test_fast_widgets.py): the first option of equal values selected,
    escaping included."""
    choices = [
        ("", "—"),
        ("x", "X"),
        ("y", "Ø <y>"),
        ("x", "X again"),
        ('a&"b<', "odd"),
        ("2", "2"),
    ]
    attrs = {"id": "id_d1-destination", "required": False}
    plain = FastSelect(choices=choices).render("d1-destination", value, attrs)
    written = FastSelect(choices=choices)
    written.written = Options(choices)
    assert written.render("d1-destination", value, attrs) == plain


def test_a_factions_orders_read_from_its_slots_are_all_its_orders(people) -> None:
    """orders_document(turn, fleets) keeps of the turn's orders exactly those the faction's
    desk keeps of all of them (R-33's file order included): its fleets' orders, repairs and
    pay-offs, its hires and buy-outs — also after a fleet changed hands with its order given,
    and with a slot's order withdrawn and given again; and the economy orders read with them
    are `economy_orders`'."""
    membership = people["danes"].memberships.get()
    campaign, danes = membership.campaign, membership.faction
    turn = campaign.current_turn
    swedes = campaign.factions.get(key="swedes")

    def give(faction: Any, payload: dict[str, Any], *, withdrawn: bool = False) -> None:
        Order.objects.create(
            turn=turn,
            faction=faction,
            slot=order_slot(payload),
            payload=payload,
            withdrawn=withdrawn,
        )

    give(danes, {"fleet": "d1", "type": "move", "path": ["kattegat"]})
    give(swedes, {"fleet": "s1", "type": "move", "path": ["oresund"]})
    give(danes, {"fleet": "d2", "type": "hold"})
    give(danes, {"fleet": "d2", "type": "hold"}, withdrawn=True)
    give(danes, {"type": "repair", "fleet": "d1"})
    give(danes, {"type": "hire", "faction": "danes", "port": "copenhagen", "ship_type": "x"})
    give(swedes, {"type": "hire", "faction": "swedes", "port": "malmo", "ship_type": "x"})
    give(swedes, {"type": "disband", "fleet": "s1"})
    give(danes, {"fleet": "d1", "type": "hold"})  # d1's order again: to the end of the file
    # The Swedes' fleet given to the Danes after its order: the Danes' desk shows it now.
    Fleet.objects.filter(campaign=campaign, key="s1").update(owner=danes)
    Ship.objects.filter(campaign=campaign, fleet__key="s1").update(owner=danes)  # W7
    world_cache._kept.clear()
    view = desk_for(membership)
    everything = [o for o in orders_document(turn) if _belongs(o, "danes", view.world)]
    assert view.orders == everything
    assert view.economy == economy_orders(turn, danes)  # read in the same query
    assert [o["type"] for o in (view.economy or {}).values()] == ["repair", "hire"]
    assert {o.get("fleet") for o in everything} >= {"d1", "s1"}
    assert [o["type"] for o in everything][-1] == "hold"  # d1's, last given


OLD_SHIPS = """{% for s in ships %}<li>{{ s.id }} ({{ s.type }}) health {{ s.health }} of {{ s.full }}{% if s.owner %}, {{ s.owner }}'s{% endif %}</li>{% endfor %}"""  # noqa: E501 (the card's loop over its ships, before issue 20)
OLD_RELATIONS = """{% load admiralty %}{% for other, state in relations %}<li>{{ names.factions|lookup:other }}: {{ state }}</li>{% endfor %}"""  # noqa: E501
OLD_STRANGERS = """{% for f in strangers %}<tr><td>{{ f.id }}</td><td>{{ f.flag }}</td><td>{{ f.where }}</td><td>{{ f.ships|length }}</td></tr>{% endfor %}"""  # noqa: E501
ODD = 'Ø & <b> "q" \'s'  # a name that needs escaping


def test_the_lists_written_by_joins_are_what_the_templates_loops_wrote() -> None:
    """The card's ships, the relations and the fleets in sight, written by the view's joins
    (fleets/views.py `_items`, `_rows`), byte for byte as the desk template's loops wrote them,
    escaping, numbers, safe text and a joint fleet's other owner (W7) included."""
    from django.template import Context, Template
    from django.utils.safestring import mark_safe

    from fleets.views import _e, _items, _rows

    ships = [
        {"id": "d1-1", "type": ODD, "health": 14, "full": 20, "owner": None},
        {"id": "a&b", "type": "galley", "health": 1000, "full": 1000, "owner": ODD},
        {"id": "x", "type": mark_safe("<i>safe</i>"), "health": 0, "full": 5, "owner": None},
    ]
    old = Template(OLD_SHIPS).render(Context({"ships": ships}))
    ours = _items(
        f"{_e(s['id'])} ({_e(s['type'])}) health {_e(s['health'])} of {_e(s['full'])}"
        + (f", {_e(s['owner'])}'s" if s["owner"] else "")
        for s in ships
    )
    assert ours == old
    relations = [("swedes", "war"), ("odd", "alliance"), ("nameless", "peace")]
    names = {"factions": {"swedes": "Sweden", "odd": ODD}}
    old = Template(OLD_RELATIONS).render(Context({"relations": relations, "names": names}))
    ours = _items(f"{_e(names['factions'].get(k, k))}: {_e(v)}" for k, v in relations)
    assert ours == old
    strangers = [
        {"id": "s1", "flag": "Sweden", "where": ODD, "ships": [1, 2]},
        {"id": "<p>", "flag": ODD, "where": "Øresund", "ships": []},
    ]
    old = Template(OLD_STRANGERS).render(Context({"strangers": strangers}))
    ours = _rows((f["id"], f["flag"], f["where"], len(f["ships"])) for f in strangers)
    assert ours == old
