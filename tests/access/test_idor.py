"""Ids and keys of other factions, or of another campaign, in URLs, form fields and JSON bodies
are refused — in plain words with a stable code, a 4xx and never a 500 — and change nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from campaign.models import Campaign, Membership, Turn
from fleets.models import Faction, Fleet, Order, Port, Ship
from fleets.services import token_issue
from tests.conftest import RIVAL_SLUG

pytestmark = pytest.mark.django_db
SLUG = "skirmish-in-the-sound"


def world_rows() -> list[Any]:
    """Everything a refused request must leave as it was."""
    return [
        list(Order.objects.order_by("id").values()),
        list(Fleet.objects.order_by("id").values()),
        list(Ship.objects.order_by("id").values()),
        list(Faction.objects.order_by("id").values()),
        list(Membership.objects.order_by("id").values()),
        list(Turn.objects.order_by("id").values("id", "status", "deadline")),
    ]


@pytest.fixture
def unchanged():
    """Call with a request: asserts that it changed no Order, Fleet, Ship, Faction, Membership
    or Turn row, and returns the response."""

    def check(send, *args: Any, **kwargs: Any) -> Any:
        before = world_rows()
        response = send(*args, **kwargs)
        assert response.status_code < 500
        assert world_rows() == before
        return response

    return check


def api(client: Client, method: str, path: str, key: str, body: Any = None) -> Any:
    return getattr(client, method)(
        f"/api{path}",
        data=json.dumps(body) if body is not None else None,
        content_type="application/json",
        headers={"Authorization": f"Bearer {key}"},
    )


def key_of(user) -> str:
    return token_issue(membership=user.memberships.get())


# ---- The desk's forms -----------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["repair", "disband", "buyout"])
def test_another_factions_fleet_in_an_economy_form_is_a_404(client, people, unchanged, kind):
    client.force_login(people["swedes"])
    url = reverse("economy_order", args=[SLUG, kind])
    data = {"fleet": "d2", "adrift_fleet": "p1"}
    assert unchanged(client.post, url, data).status_code == 404


def test_another_factions_fleet_in_the_order_and_withdraw_urls_is_a_404(client, people, unchanged):
    client.force_login(people["swedes"])
    for name in ("fleet_order", "fleet_withdraw"):
        url = reverse(name, args=[SLUG, "d1"])
        assert unchanged(client.post, url, {"d1-type": "hold"}).status_code == 404


def test_a_hire_at_another_factions_port_is_refused(client, people, unchanged) -> None:
    client.force_login(people["swedes"])
    url = reverse("economy_order", args=[SLUG, "hire"])
    data = {"hire-port": "copenhagen", "hire-ship_type": "frigate", "hire-count": 1}
    page = unchanged(client.post, url, data, follow=True)
    assert b"Choose a port" in page.content  # Copenhagen is not offered to the Swedes (P1)


def test_a_hire_at_an_allys_port_is_taken(client, people) -> None:
    """P1: hiring in an allied port is legal (the Hanse's Lübeck, for the Danes)."""
    client.force_login(people["danes"])
    url = reverse("economy_order", args=[SLUG, "hire"])
    client.post(url, {"hire-port": "lubeck", "hire-ship_type": "galley", "hire-count": 1})
    assert Order.objects.get().payload["port"] == "lubeck"


def test_the_upkeep_priority_names_only_ones_own_fleets(client, people, unchanged) -> None:
    client.force_login(people["swedes"])
    url = reverse("economy_order", args=[SLUG, "priority"])
    page = unchanged(client.post, url, {"priority": "s1,d1"}, follow=True)
    assert b"Not your fleets: d1" in page.content


def test_an_unknown_kind_of_economy_order_is_a_404(client, people, unchanged) -> None:
    client.force_login(people["danes"])
    url = reverse("economy_order", args=[SLUG, "tribute"])
    assert unchanged(client.post, url, {"fleet": "d1"}).status_code == 404


def test_another_campaigns_slug_is_a_404_for_every_page(client, people) -> None:
    """The Danes' player of the skirmish has no place in "elsewhere", which has a d1 too."""
    client.force_login(people["danes"])
    for name, args in [
        ("desk", []),
        ("campaign_map", []),
        ("turns", []),
        ("api_key", []),
        ("fleet_order", ["d1"]),
        ("economy_order", ["repair"]),
    ]:
        url = reverse(name, args=[RIVAL_SLUG, *args])
        method = client.get if name in ("desk", "campaign_map", "turns") else client.post
        assert method(url, {"fleet": "d1"}).status_code == 404, name
    assert not Order.objects.exists()


def test_a_turn_number_that_is_not_published_here_is_a_404(client, people) -> None:
    client.force_login(people["danes"])
    for number in (1, 2, 99):  # turn 1 is open here; no turn 99 anywhere
        for name in ("turn_report", "turn_report_md", "turn_map"):
            assert client.get(reverse(name, args=[SLUG, number])).status_code == 404


def test_faction_in_the_report_address_does_not_show_another_factions_report(client, played):
    people = played
    client.force_login(people["swedes"])
    url = reverse("turn_report_md", args=[SLUG, 1])
    assert client.get(url + "?faction=danes").content == client.get(url).content
    client.force_login(people["mod"])  # the moderator may choose, among this campaign's factions
    assert client.get(url + "?faction=danes").content != client.get(url).content
    # No faction chosen, or one that is not this campaign's: no private report (issue 11: the
    # bulletin is bulletin.md), the same 404 either way.
    assert client.get(url + "?faction=nobody").status_code == 404
    assert client.get(url).status_code == 404


# ---- The API --------------------------------------------------------------------------------

ORDERS = f"/campaigns/{SLUG}/orders"


@pytest.mark.parametrize(
    ("order", "code"),
    [
        ({"fleet": "s1", "type": "hold"}, "not_commander"),  # another faction's fleet
        ({"fleet": "s1", "type": "repair"}, "not_commander"),
        ({"fleet": "s1", "type": "disband"}, "not_commander"),
        (  # the Swedes as the paying faction
            {
                "type": "hire",
                "faction": "swedes",
                "port": "gothenburg",
                "ship_type": "galley",
                "count": 1,
            },
            "not_commander",
        ),
        (  # a hire joining a Swedish fleet (X20)
            {
                "type": "hire",
                "faction": "danes",
                "port": "copenhagen",
                "ship_type": "galley",
                "count": 1,
            }
            | {"fleet": "s1"},
            "not_commander",
        ),
        (  # a hire at a port of a faction not allied (P1)
            {
                "type": "hire",
                "faction": "danes",
                "port": "gothenburg",
                "ship_type": "galley",
                "count": 1,
            },
            "not_friendly_port",
        ),
        (  # the Swedes named as the buyer (U4)
            {"type": "buyout", "faction": "swedes", "fleet": "s1", "adrift_fleet": "p1"}
            | {"offer": 10},
            "not_commander",
        ),
        (  # a buy-out paid for by a Swedish fleet
            {"type": "buyout", "faction": "danes", "fleet": "s1", "adrift_fleet": "p1"}
            | {"offer": 10},
            "not_commander",
        ),
    ],
)
def test_api_orders_naming_another_faction_are_refused(client, people, unchanged, order, code):
    response = unchanged(api, client, "post", ORDERS, key_of(people["danes"]), {"order": order})
    assert response.status_code == 400
    assert response.json()["code"] == code
    assert response.json()["message"]


def test_joining_a_fleet_follows_the_rulebook(client, people, unchanged, open_skirmish) -> None:
    """W7: a fleet may join an ally's fleet in the same place (the Hanse's h1, for the Danes);
    never an enemy's (the Swedes' s1), refused when it is given, not only at the merge step."""
    oresund = open_skirmish.provinces.get(key="oresund")
    Fleet.objects.filter(campaign=open_skirmish, key__in=["h1", "s1"]).update(province=oresund)
    key = key_of(people["danes"])
    enemy = {"order": {"fleet": "d1", "type": "merge", "into": "s1"}}
    refused = unchanged(api, client, "post", ORDERS, key, enemy)
    assert (refused.status_code, refused.json()["code"]) == (400, "not_commander")
    ally = {"order": {"fleet": "d1", "type": "merge", "into": "h1"}}
    assert api(client, "post", ORDERS, key, ally).status_code == 201


def test_the_api_cannot_withdraw_another_factions_order(client, people, open_skirmish) -> None:
    """Slots are the turn's ("repair:s3" is the Swedes' repair): withdrawing one answers exactly
    as withdrawing from an empty slot (R-45: a refusal would say the slot holds an order, and so
    that s3 exists), writes nothing, and the Swedish order still counts."""
    from fleets.mapping import orders_document

    Order.objects.create(
        turn=open_skirmish.current_turn,
        faction=open_skirmish.factions.get(key="swedes"),
        slot="repair:s3",
        payload={"type": "repair", "fleet": "s3"},
    )
    before = Order.objects.count()
    key = key_of(people["danes"])
    theirs = api(client, "delete", f"{ORDERS}/repair:s3", key)
    empty = api(client, "delete", f"{ORDERS}/repair:nowhere", key)
    assert (theirs.status_code, theirs.content) == (empty.status_code, empty.content)
    assert theirs.status_code == 204
    # A fleet's slot names the fleet: another faction's is "no such fleet", as one that is not.
    theirs = api(client, "delete", f"{ORDERS}/fleet:s1", key)
    empty = api(client, "delete", f"{ORDERS}/fleet:nowhere", key)
    assert (theirs.status_code, theirs.json()) == (empty.status_code, empty.json())
    assert theirs.status_code == 404
    assert Order.objects.count() == before
    assert {"type": "repair", "fleet": "s3"} in orders_document(open_skirmish.current_turn)


def test_a_key_reaches_only_its_own_campaign(client, people, unchanged) -> None:
    danes, rival = key_of(people["danes"]), key_of(people["rival"])
    for path in ("state", "orders", "turns", "turns/1/report", "fleets/d1/legal"):
        assert api(client, "get", f"/campaigns/{RIVAL_SLUG}/{path}", danes).status_code == 404
        assert api(client, "get", f"/campaigns/{SLUG}/{path}", rival).status_code == 404
    hold = {"order": {"fleet": "d1", "type": "hold"}}
    elsewhere = f"/campaigns/{RIVAL_SLUG}/orders"
    assert unchanged(api, client, "post", elsewhere, danes, hold).status_code == 404
    assert unchanged(api, client, "post", ORDERS, rival, hold).status_code == 404


# ---- The dashboard and the admin ------------------------------------------------------------


def admin_url(name: str, *args: Any) -> str:
    return reverse(f"admin:{name}", args=args)


def test_a_dashboard_action_naming_another_campaigns_turn_is_a_404(
    client, people, unchanged, open_skirmish
) -> None:
    elsewhere = Campaign.objects.get(slug=RIVAL_SLUG)
    theirs = elsewhere.current_turn
    client.force_login(people["mod"])
    for name, args in [
        ("campaign_turn_action", ["lock"]),
        ("campaign_pirate_orders", []),
        ("campaign_moderator_order", []),
    ]:
        url = admin_url(name, open_skirmish.pk, *args)
        data = {"turn": theirs.pk, "faction": "danes", "order": '{"fleet": "d1", "type": "hold"}'}
        assert unchanged(client.post, url, data).status_code == 404, name
    progress = admin_url("campaign_turn_progress", open_skirmish.pk, theirs.pk)
    assert client.get(progress).status_code == 404


def test_a_dashboard_action_on_a_turn_that_moved_on_does_nothing(
    client, played, unchanged, open_skirmish
) -> None:
    """Shown for turn 1, posted after turn 1 was published: stale_turn, nothing done."""
    first = open_skirmish.turns.get(number=1)
    client.force_login(played["mod"])
    url = admin_url("campaign_turn_action", open_skirmish.pk, "lock")
    page = unchanged(client.post, url, {"turn": first.pk}, follow=True)
    assert b"stale_turn" in page.content
    assert open_skirmish.current_turn.status == Turn.Status.OPEN  # turn 2 not locked


def test_admin_forms_offer_only_the_moderators_campaign(client, people, open_skirmish) -> None:
    fleet = Fleet.objects.get(campaign=open_skirmish, key="d1")
    client.force_login(people["mod"])
    form = client.get(admin_url("fleets_fleet_change", fleet.pk)).context["adminform"].form
    for name in ("campaign", "owner", "province", "port", "blockading"):
        offered = form.fields[name].queryset
        assert offered.exists()
        campaigns = {getattr(row, "campaign_id", row.pk) for row in offered}
        assert campaigns == {open_skirmish.pk}, name
    port = client.get(
        admin_url("fleets_port_change", Port.objects.filter(campaign=open_skirmish)[0].pk)
    )
    waters = port.context["adminform"].form.fields["waters"].queryset
    assert {p.campaign_id for p in waters} == {open_skirmish.pk}
    listing = client.get(admin_url("fleets_fleet_changelist")).content.decode()
    assert "Elsewhere" not in listing  # nor in the list's filters


@pytest.fixture
def two_campaigns_moderator(people, open_skirmish):
    """The moderator moderates "elsewhere" too: a form could mix the two campaigns."""
    Membership.objects.create(
        user=people["mod"],
        campaign=Campaign.objects.get(slug=RIVAL_SLUG),
        role=Membership.Role.MODERATOR,
    )
    return people["mod"]


def fleet_form(fleet: Fleet, **changes: Any) -> dict[str, Any]:
    data = {
        "campaign": fleet.campaign_id,
        "key": fleet.key,
        "owner": fleet.owner_id,
        "province": fleet.province_id or "",
        "port": fleet.port_id or "",
        "mp_penalty": fleet.mp_penalty,
        "blockading": fleet.blockading_id or "",
        "reason": "testing",
        "ships-TOTAL_FORMS": 0,
        "ships-INITIAL_FORMS": 0,
    }
    return data | changes


@pytest.mark.parametrize("moderator", ["mod", "both"])
def test_admin_forms_refuse_links_into_another_campaign(
    client, people, two_campaigns_moderator, unchanged, open_skirmish, moderator
) -> None:
    """A fleet's owner posted as another campaign's faction: refused by its field, for the
    moderator of one campaign and for the moderator of both; nothing changes."""
    if moderator == "mod":
        Membership.objects.filter(user=people["mod"], campaign__slug=RIVAL_SLUG).delete()
    elsewhere = Campaign.objects.get(slug=RIVAL_SLUG)
    fleet = Fleet.objects.get(campaign=open_skirmish, key="d1")
    client.force_login(people["mod"])
    url = admin_url("fleets_fleet_change", fleet.pk)
    for field, value in [
        ("owner", elsewhere.factions.get(key="danes").pk),
        ("province", elsewhere.provinces.get(key="oresund").pk),
        ("campaign", elsewhere.pk),
    ]:
        page = unchanged(client.post, url, fleet_form(fleet, **{field: value}))
        assert page.status_code == 200, field  # the form again, with the error by the field
        errors = str(page.context["adminform"].form.errors)
        # Not offered to a moderator of one campaign; offered but refused for one of both.
        assert "not one of the available choices" in errors or "another_campaign" in errors
    membership = Membership.objects.get(user=people["danes"])
    page = unchanged(
        client.post,
        admin_url("campaign_membership_change", membership.pk),
        {
            "user": people["danes"].username,
            "campaign": open_skirmish.pk,
            "role": "player",
            "faction": elsewhere.factions.get(key="danes").pk,
            "reason": "a swap",  # (a membership's change says why: the faction alone is wrong)
        },
    )
    assert page.context["adminform"].form.errors["faction"]


def test_a_ship_cannot_be_given_another_campaigns_type(
    client, people, two_campaigns_moderator, unchanged, open_skirmish
) -> None:
    fleet = Fleet.objects.get(campaign=open_skirmish, key="d2")
    ship = fleet.ships.get()
    elsewhere = Campaign.objects.get(slug=RIVAL_SLUG)
    client.force_login(people["mod"])
    data = fleet_form(fleet) | {
        "ships-TOTAL_FORMS": 1,
        "ships-INITIAL_FORMS": 1,
        "ships-0-id": ship.pk,
        "ships-0-fleet": fleet.pk,
        "ships-0-key": ship.key,
        "ships-0-type": elsewhere.ship_types.get(key="frigate").pk,
        "ships-0-owner": ship.owner_id,
        "ships-0-health": ship.health,
        "ships-0-position": ship.position,
    }
    url = admin_url("fleets_fleet_change", fleet.pk)
    page = unchanged(client.post, url, data)
    assert page.status_code == 200
    assert "another_campaign" in page.content.decode()
    own = data | {"ships-0-type": open_skirmish.ship_types.get(key="galley").pk}
    assert client.post(url, own).status_code == 302  # a moderator edits ships (README)
    assert fleet.ships.get().type.key == "galley"


def test_htmx_posts_need_the_csrf_token(people) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(people["danes"])
    page = client.get(reverse("desk", args=[SLUG]))
    token = page.cookies["csrftoken"].value
    url = reverse("fleet_order", args=[SLUG, "d1"])
    hold = {
        "d1-type": "hold",
        "d1-stance": "engage",
        "d1-retreat": "never",
        "d1-prefer": "sink",
        "d1-if_cornered": "surrender",
    }
    assert client.post(url, hold, headers={"HX-Request": "true"}).status_code == 403
    allowed = client.post(url, hold, headers={"HX-Request": "true", "X-CSRFToken": token})
    assert allowed.status_code == 200


def test_refusals_say_why_in_plain_words_with_a_code(client, people) -> None:
    client.force_login(people["swedes"])
    page = client.post(reverse("economy_order", args=[SLUG, "repair"]), {"fleet": "d2"})
    assert page.status_code == 404
    assert "No such fleet. (not_found)" in page.content.decode()
    legal = api(client, "get", f"/campaigns/{SLUG}/fleets/d2/legal", key_of(people["swedes"]))
    assert legal.json() == {"code": "not_found", "message": "No such fleet."}


def test_a_superuser_looking_in_gets_no_api_key(client, django_user_model, open_skirmish) -> None:
    """A superuser sees any campaign as its moderator, without a membership to hang a key on
    (this was a 500)."""
    boss = django_user_model.objects.create_superuser("boss", "b@example.org", "pw")
    client.force_login(boss)
    assert client.get(reverse("desk", args=[SLUG])).status_code == 200
    assert client.post(reverse("api_key", args=[SLUG])).status_code == 404


def test_publishing_a_turn_already_published_says_who_did_it(
    client, played, unchanged, open_skirmish
) -> None:
    """A second click on 'publish' for turn 1 (the page still shows it) after it was published:
    nothing done, and the moderator is told it is already published, not just 'stale'."""
    first = open_skirmish.turns.get(number=1)
    client.force_login(played["mod"])
    url = admin_url("campaign_turn_action", open_skirmish.pk, "publish")
    page = unchanged(client.post, url, {"turn": first.pk}, follow=True)
    assert b"Nothing done: turn 1 is already published" in page.content
    assert open_skirmish.current_turn.status == Turn.Status.OPEN


def test_a_moderator_names_a_new_player_without_seeing_every_account(
    client, people, open_skirmish
) -> None:
    """The membership form takes a user name, typed: the site's accounts are not listed."""
    client.force_login(people["mod"])
    add = admin_url("campaign_membership_add")
    assert b"stranger" not in client.get(add).content  # another account, not in this campaign
    form = {"campaign": open_skirmish.pk, "role": "player", "faction": "", "reason": "new player"}
    page = client.post(add, {**form, "user": "nobody-by-this-name"})
    assert "no_such_user" in str(page.context["adminform"].form.errors["user"])
    hanse = open_skirmish.factions.get(key="hanse").pk
    Membership.objects.filter(user=people["hanse"]).delete()
    assert client.post(add, {**form, "user": "hanse", "faction": hanse}).status_code == 302
    assert Membership.objects.get(user=people["hanse"]).faction_id == hanse
