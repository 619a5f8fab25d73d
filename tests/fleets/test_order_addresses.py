"""A player's order address (issue 21 §2, docs/rulings.md R-93, R-97): on the desk with its
*Replace* button, in every turn e-mail, and from `manage.py order_address`."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from django.core import mail
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import timezone

from campaign.deadlines import check_deadlines
from campaign.models import Turn
from fleets.models import OrderAddress
from fleets.order_addresses import order_address_state, token_digest

pytestmark = pytest.mark.django_db
SLUG = "skirmish-in-the-sound"


@pytest.fixture(autouse=True)
def domain(settings) -> None:
    settings.ORDER_MAIL_DOMAIN = "orders.example.org"


def test_the_desk_shows_the_players_address_and_replaces_it(client, people) -> None:
    client.force_login(people["danes"])
    page = client.get(reverse("desk", args=[SLUG])).content.decode()
    assert "Make my order address" in page  # a GET writes nothing: the button makes it
    assert OrderAddress.objects.count() == 0
    response = client.post(reverse("order_address", args=[SLUG]))
    assert response.status_code == 302
    assert response["Location"].endswith("#order-address")
    first = order_address_state(people["danes"].memberships.get()).address
    assert first.startswith("orders+")
    assert first.endswith("@orders.example.org")
    page = client.get(reverse("desk", args=[SLUG])).content.decode()
    assert first in page
    assert "Replace my order address" in page
    client.post(reverse("order_address", args=[SLUG]))
    second = order_address_state(people["danes"].memberships.get()).address
    assert second != first
    page = client.get(reverse("desk", args=[SLUG])).content.decode()
    assert second in page
    assert first not in page
    assert OrderAddress.objects.count() == 1  # one row per membership, the old one replaced


def test_the_desk_reads_both_keys_in_one_query(client, people, django_assert_num_queries) -> None:
    client.force_login(people["danes"])
    client.post(reverse("order_address", args=[SLUG]))
    client.post(reverse("api_key", args=[SLUG]))
    # 19 as before the address (the world read whole: the tests keep no cache; the faction's
    # orders and economy orders one query since issue 20): the key's query reads the address too.
    with django_assert_num_queries(19):
        page = client.get(reverse("desk", args=[SLUG])).content.decode()
    assert "your API key works" in page
    assert "Replace my order address" in page


def test_no_address_for_the_moderator_or_a_stranger(client, people) -> None:
    client.force_login(people["mod"])
    assert client.post(reverse("order_address", args=[SLUG])).status_code == 404
    client.force_login(people["stranger"])
    assert client.post(reverse("order_address", args=[SLUG])).status_code == 404
    assert OrderAddress.objects.count() == 0


def test_a_dead_address_says_why_on_the_desk(client, people) -> None:
    membership = people["danes"].memberships.get()
    order_address_state(membership)
    OrderAddress.objects.update(seal="0:player:-")  # as if made for someone else
    client.force_login(people["danes"])
    page = client.get(reverse("desk", args=[SLUG])).content.decode()
    assert "your order address no longer works" in page
    assert "Make a new order address" in page


def test_the_reminder_names_each_players_own_address(people, open_skirmish) -> None:
    turn = open_skirmish.current_turn
    Turn.objects.filter(pk=turn.pk).update(deadline=timezone.now() + timedelta(hours=1))
    check_deadlines()
    by_whom = {m.to[0]: m.body for m in mail.outbox}
    assert set(by_whom) == {"danes@example.org", "swedes@example.org", "hanse@example.org"}
    for name in ("danes", "swedes", "hanse"):
        own = order_address_state(people[name].memberships.get()).address
        assert f"Send your orders by e-mail to {own} " in by_whom[f"{name}@example.org"]
        others = [b for who, b in by_whom.items() if who != f"{name}@example.org"]
        assert all(own not in body for body in others)  # never in another player's mail


def test_the_command_prints_the_address_once_made(people) -> None:
    out = StringIO()
    call_command("order_address", SLUG, "danes", stdout=out)
    printed = out.getvalue().strip()
    token = printed.split("+", 1)[1].split("@", 1)[0]
    assert OrderAddress.objects.get().digest == token_digest(token)
    again = StringIO()
    call_command("order_address", SLUG, "danes", stdout=again)
    assert again.getvalue().strip() == printed  # the same address, not a new one
    with pytest.raises(CommandError, match="no_such_player"):
        call_command("order_address", SLUG, "mod")
    with pytest.raises(CommandError, match="no_such_player"):
        call_command("order_address", "no-such-campaign", "danes")
