"""The order form offers for a blockade only the hostile ports (naval.md B1, M4) and for
entering a port only the own or allied ones (M3): each order its own field, `<fleet>-port` for
enter_port, `<fleet>-blockade_port` for blockade, its choices the engine's legal orders
(engine/naval/legal.py). One field served both once, so the blockade's list offered one's own
Copenhagen."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from fleets.models import Order
from tests.fleets.test_desk import form, order_url

pytestmark = pytest.mark.django_db
DESK = reverse("desk", args=["skirmish-in-the-sound"])


def options(html: str, name: str) -> list[str]:
    """The values offered by the select called `name` (the empty choice left out)."""
    found = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', html, re.S)
    assert found, name
    return [v for v in re.findall(r'<option value="([^"]*)"', found.group(1)) if v]


def test_each_order_offers_its_own_ports(client, people) -> None:
    # d1, in Øresund by Copenhagen: Copenhagen is the Danes' own, Malmö and Gothenburg Swedish.
    client.force_login(people["danes"])
    html = client.get(DESK).content.decode()
    assert options(html, "d1-port") == ["copenhagen"]  # M3: own or allied
    assert options(html, "d1-blockade_port") == ["gothenburg", "malmo"]  # B1: hostile
    assert options(html, "d2-blockade_port") == ["malmo"]
    assert options(html, "d2-port") == ["copenhagen", "lubeck"]  # the Hanse is allied


def test_a_blockade_is_given_with_its_own_field(client, people) -> None:
    client.force_login(people["danes"])
    client.post(order_url("d1"), form("d1", type="blockade", blockade_port="malmo"))
    order = Order.objects.get(withdrawn=False)
    assert order.payload["type"] == "blockade"
    assert order.payload["port"] == "malmo"
    html = client.get(DESK).content.decode()  # the order given is the one shown
    select = re.search(r'<select name="d1-blockade_port"[^>]*>(.*?)</select>', html, re.S)
    assert select
    assert '<option value="malmo" selected>' in select.group(1)


def test_ones_own_port_cannot_be_blockaded_nor_a_hostile_one_entered(client, people) -> None:
    client.force_login(people["danes"])
    own = client.post(
        order_url("d1"), form("d1", type="blockade", blockade_port="copenhagen"), follow=True
    )
    assert "Select a valid choice" in own.content.decode()
    # The enter_port's field does not stand in for the blockade's.
    other = client.post(
        order_url("d1"), form("d1", type="blockade", port="copenhagen"), follow=True
    )
    assert "Choose the port to blockade." in other.content.decode()
    hostile = client.post(order_url("d1"), form("d1", type="enter_port", port="malmo"), follow=True)
    assert "Select a valid choice" in hostile.content.decode()
    assert not Order.objects.exists()
