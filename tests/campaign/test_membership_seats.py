"""Issue 10: a membership's seat is its ruleset's. The table requires only what holds for every
game (a moderator has no faction); the admin asks the campaign's ruleset whether a membership
fits: a naval player plays a faction, a seafaring seat is given on the game's dashboard
(docs/rulings.md S-42). And each game's pages serve only campaigns of their own ruleset, now
that a seafaring player is a member of the campaign too."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign.models import AuditEntry, Membership
from seafarers.services import game_create

pytestmark = pytest.mark.django_db


def url(name: str, *args) -> str:
    return reverse(f"admin:campaign_membership_{name}", args=args)


@pytest.fixture
def mod_client(client, people):
    client.force_login(people["mod"])
    return client


@pytest.fixture
def sea(people):
    """A seafaring game of the naval moderator: the Danes' player red, the Swedes' blue."""
    return game_create(
        name="Sea",
        slug="sea",
        moderator=people["mod"],
        board="small-isles",
        seats=["danes", "swedes", None],
    )


def test_the_table_lets_a_player_have_no_faction_but_never_a_moderator_one(
    open_skirmish, people
) -> None:
    Membership.objects.create(user=people["stranger"], campaign=open_skirmish, role="player")
    faction = open_skirmish.factions.get(key="hanse")
    with pytest.raises(IntegrityError), transaction.atomic():
        Membership.objects.filter(user=people["mod"]).update(faction=faction)


def test_a_naval_player_without_a_faction_is_refused_in_the_admin(
    mod_client, people, open_skirmish
) -> None:
    data = {
        "user": "stranger",
        "campaign": open_skirmish.pk,
        "role": "player",
        "faction": "",
        "reason": "a new player",
    }
    page = mod_client.post(url("add"), data).content.decode()
    assert "A naval player plays a faction: choose one (faction_required)." in page
    assert not Membership.objects.filter(user=people["stranger"]).exists()
    assert not AuditEntry.objects.filter(action="add membership").exists()
    hanse = open_skirmish.factions.get(key="hanse")
    assert mod_client.post(url("add"), {**data, "faction": hanse.pk}).status_code == 302
    assert Membership.objects.get(user=people["stranger"]).faction == hanse


def test_the_admin_gives_no_seafaring_seat(mod_client, people, sea) -> None:
    data = {"user": "stranger", "campaign": sea.campaign_id, "role": "player", "reason": "x"}
    page = mod_client.post(url("add"), data).content.decode()
    assert "(seat_on_dashboard)" in page
    assert not Membership.objects.filter(user=people["stranger"]).exists()
    # Nor changes the membership that holds a seat (its user, its role) …
    red = Membership.objects.get(campaign=sea.campaign, user=people["danes"])
    for change in ({"user": "stranger"}, {"role": "moderator"}):
        data = {"user": "danes", "campaign": sea.campaign_id, "role": "player", "reason": "x"}
        page = mod_client.post(url("change", red.pk), {**data, **change}).content.decode()
        assert "(seat_on_dashboard)" in page, change
    red.refresh_from_db()
    assert (red.user, red.role) == (people["danes"], "player")
    # … but a second moderator is the admin's to give, audited.
    data = {"user": "stranger", "campaign": sea.campaign_id, "role": "moderator", "reason": "y"}
    assert mod_client.post(url("add"), data).status_code == 302
    assert AuditEntry.objects.filter(action="add membership", reason="y").exists()


def test_the_membership_list_shows_each_seat_in_its_rulesets_words(mod_client, sea) -> None:
    page = mod_client.get(url("changelist")).content.decode()
    assert "danes (danes)" in page  # the naval seat: the faction's name and key
    assert '<td class="field-seat">red</td>' in page  # the seafaring one: the colour


def test_a_games_pages_serve_only_its_own_rulesets_campaigns(client, people, sea) -> None:
    """The Danes' player is a member of both campaigns: the naval desk of the seafaring one
    and the seafaring desk of the naval one are not found (for its moderator too)."""
    for who in ("danes", "mod"):
        client.force_login(people[who])
        assert client.get(reverse("desk", args=["sea"])).status_code == 404, who
        assert client.get(reverse("turns", args=["sea"])).status_code == 404, who
        assert client.get(reverse("campaign_map", args=["sea"])).status_code == 404, who
        assert client.get(reverse("seafarers_desk", args=["sea"])).status_code == 200, who
        naval = people["danes"].memberships.get(campaign__ruleset="naval").campaign.slug
        assert client.get(reverse("desk", args=[naval])).status_code == 200, who
        assert client.get(reverse("seafarers_desk", args=[naval])).status_code == 404, who


def test_the_membership_list_costs_the_same_queries_for_any_number_of_seats(
    mod_client, people, open_skirmish
) -> None:
    """The seat column reads what each ruleset names (`membership_related`): a naval faction,
    a seafaring seat, fetched with the list, never one query a row."""

    def listed() -> tuple[int, str]:
        with CaptureQueriesContext(connection) as queries:
            page = mod_client.get(url("changelist"))
        assert page.status_code == 200
        return len(queries), page.content.decode()

    make = get_user_model().objects.create_user
    seats = [make(username=f"s{i}", password="x").username for i in range(2)]
    game_create(name="One", slug="one", moderator=people["mod"], board="small-isles",
                seats=[*seats, None])  # fmt: skip
    few, page = listed()
    assert ">red<" in page
    assert ">blue<" in page
    more = [make(username=f"t{i}", password="x").username for i in range(3)]
    game_create(name="Two", slug="two", moderator=people["mod"], board="small-isles",
                seats=more)  # fmt: skip
    many, page = listed()
    assert page.count(">white<") == 1
    assert page.count(">red<") == 2
    assert many == few
