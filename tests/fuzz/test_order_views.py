"""Order submissions through the real views (issue 5): hypothesis posts the desk's forms —
valid-looking values and garbage, unknown and missing fields, huge strings, unicode, NUL bytes,
negative and huge numbers, wrong fleet keys, unknown kinds, with and without htmx. Never a 500; a
refused submission shows a refusal (plain words and a code) and changes nothing; an accepted one
leaves exactly one latest order in its slot, one the engine accepts."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote

import pytest
from django.contrib.messages import get_messages
from django.db import transaction
from django.test import Client
from hypothesis import event, given
from hypothesis import strategies as st

from campaign.models import Campaign
from engine.naval import parse_scenario, validate_order
from engine.naval.refusals import CODES
from fleets.mapping import orders_document, world_document
from fleets.models import ApiToken, Faction, Fleet, Order, Ship
from tests.fuzz.profile import FUZZ

pytestmark = pytest.mark.django_db
SLUG = "skirmish-in-the-sound"
REFUSAL = re.compile(r"\(({})\)".format("|".join(sorted(CODES))))

PROVINCES = ["skagerrak", "kattegat", "oresund", "belt_sea", "arkona_basin", "bornholm_basin"]
GARBAGE = st.one_of(
    st.text(max_size=12),
    st.sampled_from(
        ["", "\x00", "d1\x00", "x" * 10_000, "-1", "0", "1e9", str(10**30), "Øresund ⚓", "null"]
    ),
)
FLEETS = st.sampled_from(["d1", "d2", "s1", "h1", "p1", "atlantis", "ü", "d1 ", "D1", "d\x001"])
# The desk's order form, field by field: the values it offers and a few it does not.
VALUES = {
    "type": ["hold", "move", "enter_port", "blockade", "support", "merge", "split", "hire", "fly"],
    "destination": [*PROVINCES, "zealand", "copenhagen"],
    "via": PROVINCES,
    "port": ["copenhagen", "gothenburg", "malmo", "lubeck", "kalmar"],
    "support": ["danes", "hanse", "swedes", "pirates"],
    "merge_into": ["d1", "d2", "s1"],
    "split_ships": ["dannebrog", "havfruen", "hvide-orn", "kronan"],
    "new_fleet": ["d9", "new fleet", "d1", "x" * 61, "a/b"],
    "stance": ["engage", "evade"],
    "retreat": ["never", "below:0.5", "after:2", "below:7", "after:x", "below:"],
    "retreat_to": PROVINCES,
    "evade_to": PROVINCES,
    "prefer": ["sink", "capture"],
    "if_cornered": ["surrender", "attack"],
}
HOLD = {"type": "hold", "stance": "engage", "retreat": "never", "prefer": "sink"}


@st.composite
def order_post(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    fleet = draw(st.one_of(st.sampled_from(["d1", "d2"]), st.sampled_from(["d1", "d2"]), FLEETS))
    prefix = draw(st.sampled_from([fleet, fleet, fleet, fleet, "d1", "s1", ""]))
    complete = draw(st.integers(0, 3)) > 0
    fields: dict[str, Any] = {**HOLD, "if_cornered": "surrender"} if complete else {}
    for name in draw(st.lists(st.sampled_from(sorted(VALUES)), max_size=5)):
        if name == "split_ships":
            value: Any = draw(st.lists(st.sampled_from(VALUES[name]), max_size=3))
        else:
            garbage = draw(st.integers(0, 4)) == 0
            value = draw(GARBAGE) if garbage else draw(st.sampled_from(VALUES[name]))
        fields[name] = value
    if draw(st.integers(0, 3)) == 0:
        fields.pop(draw(st.sampled_from(sorted(fields) or ["type"])), None)  # a missing field
    if draw(st.integers(0, 3)) == 0:
        fields[draw(st.sampled_from(["weather", "fleet", "csrfmiddlewaretoken"]))] = draw(GARBAGE)
    data = {f"{prefix}-{k}" if prefix else k: v for k, v in fields.items()}
    what = draw(st.sampled_from(["order", "order", "order", "withdraw"]))
    return f"/c/{SLUG}/fleets/{quote(fleet, safe='')}/{what}/", data


@st.composite
def economy_post(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    kind = draw(
        st.sampled_from(["hire", "repair", "disband", "buyout", "priority", "steal", "HIRE"])
    )
    data: dict[str, Any] = {}
    if kind.lower() == "hire":
        data = {
            "hire-port": draw(st.one_of(st.sampled_from(VALUES["port"]), GARBAGE)),
            "hire-ship_type": draw(
                st.one_of(st.sampled_from(["frigate", "galley", "ship_of_the_line"]), GARBAGE)
            ),
            "hire-count": draw(
                st.one_of(st.sampled_from(["1", "2", "20", "21", "0", "-3", str(2**70)]), GARBAGE)
            ),
        }
    else:
        data = {"fleet": draw(st.one_of(st.sampled_from(["d1", "d2"]), FLEETS, GARBAGE))}
        if draw(st.booleans()):
            data["adrift_fleet"] = draw(st.one_of(FLEETS, GARBAGE))
        if kind == "priority" or draw(st.booleans()):
            keys = draw(st.lists(st.one_of(FLEETS, GARBAGE), max_size=4))
            data["priority"] = ", ".join(keys)
    for name in draw(st.lists(st.sampled_from(sorted(data)), max_size=1)):
        data.pop(name)
    return f"/c/{SLUG}/economy/{quote(kind, safe='')}/", data


REQUESTS = st.one_of(
    order_post(), order_post(), economy_post(), st.just((f"/c/{SLUG}/api-key/", {}))
)


def world() -> dict[str, Any]:
    """What a submission must never change: fleets, ships, treasuries."""
    return {
        "fleets": list(Fleet.objects.order_by("pk").values()),
        "ships": list(Ship.objects.order_by("pk").values()),
        "treasuries": list(Faction.objects.order_by("pk").values_list("key", "treasury")),
    }


def orders() -> list[tuple[Any, ...]]:
    return list(
        Order.objects.order_by("pk").values_list("faction__key", "slot", "payload", "withdrawn")
    )


def shown(response: Any) -> list[str]:
    """What the player is told: the page or card, or the messages after a redirect."""
    said = [str(m) for m in get_messages(response.wsgi_request)]
    if response.status_code == 200:
        said.append(response.content.decode())
    return said


@FUZZ
@given(request=REQUESTS, htmx=st.booleans(), given_before=st.booleans())
def test_a_posted_form_is_refused_plainly_or_accepted_whole(
    people, request, htmx, given_before
) -> None:
    url, data = request
    with transaction.atomic():
        client = Client()
        client.force_login(people["danes"])
        campaign = Campaign.objects.get(slug=SLUG)
        if given_before:  # an order already given, to change or withdraw
            for fleet in ("d1", "d2"):
                Order.objects.create(
                    turn=campaign.current_turn,
                    faction=Faction.objects.get(campaign__slug=SLUG, key="danes"),
                    slot=f"fleet:{fleet}",
                    payload={"fleet": fleet, "type": "hold"},
                )
        before_world, before_orders = world(), orders()
        before_priority = Faction.objects.get(campaign__slug=SLUG, key="danes").upkeep_priority
        before_token = list(ApiToken.objects.values_list("digest", flat=True))
        headers = {"HX-Request": "true"} if htmx else {}
        response = client.post(url, data, headers=headers)
        assert response.status_code in (200, 302, 404), response.status_code
        assert world() == before_world, "a submission changed the world"
        after = orders()
        assert after[: len(before_orders)] == before_orders, "an earlier order was changed"
        added = after[len(before_orders) :]
        assert len(added) <= 1, added
        priority = Faction.objects.get(campaign__slug=SLUG, key="danes").upkeep_priority
        event(f"{'accepted' if added else response.status_code} {url.split('/')[-2]}")
        if url.endswith("/api-key/"):
            assert response.status_code == 200
            assert list(ApiToken.objects.values_list("digest", flat=True)) != before_token
        elif added:
            faction, slot, payload, withdrawn = added[0]
            assert faction == "danes"
            counted = orders_document(campaign.current_turn)
            if withdrawn:
                assert payload is None
            else:
                engine_world = parse_scenario(world_document(campaign)).world
                assert validate_order(engine_world, payload) is None, payload
                assert counted.count(payload) >= 1
                assert [s for _, s, _, _ in after].count(slot) >= 1
        elif priority != before_priority or "Upkeep priority saved" in " ".join(shown(response)):
            assert url.endswith("/priority/")
            assert "Upkeep priority saved" in " ".join(shown(response))
        elif response.status_code != 404 and "/withdraw/" not in url:
            told = " ".join(shown(response))
            assert REFUSAL.search(told), (url, data, response.status_code, told[-2000:])
        transaction.set_rollback(True)
