"""The moderator's draft review (fleets/review.py, on the dashboard) names factions, provinces
and ports as the campaign does, in every row: the diff, the report previews, the refused orders
and the whole turn's text ("d1 sails Copenhagen → Øresund", not "… copenhagen → oresund").
Fleets and ships have no names but their ids (fleets/words.py), so they keep them."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from fleets.models import Faction, Order, Port, Province
from tests.conftest import resolve_with_the_swedes_attacking

pytestmark = pytest.mark.django_db


def named(campaign) -> dict[str, str]:
    """Every faction, province and port renamed: its id in capitals (id -> name)."""
    names = {}
    for model in (Faction, Province, Port):
        for row in model.objects.filter(campaign=campaign).exclude(key=Faction.PIRATES):
            row.name = names[row.key] = row.key.upper()
            row.save(update_fields=["name"])
    return names


def test_every_row_of_the_review_names_what_it_is_about(people, open_skirmish) -> None:
    names = named(open_skirmish)
    Order.objects.create(  # refused: Malmö is Swedish, so no Danish port to enter (M3)
        turn=open_skirmish.current_turn,
        faction=open_skirmish.factions.get(key="danes"),
        slot="fleet:d2",
        payload={"fleet": "d2", "type": "enter_port", "port": "malmo", "path": ["oresund"]},
    )
    turn = resolve_with_the_swedes_attacking(open_skirmish)
    assert turn.status == "resolved"
    assert turn.result["refused"]
    client = Client()
    client.force_login(people["mod"])
    page = client.get(reverse("admin:campaign_dashboard", args=[open_skirmish.pk]))
    html = page.content.decode()
    review = html[html.index("Draft result") : html.index("</section>", html.index("The whole"))]
    ids = [key for key in names if re.search(rf"(?<![\w-]){re.escape(key)}(?![\w-])", review)]
    assert not ids, f"ids in the review: {ids}"
    for row in re.findall(r"<tr><td>(.*?)</td>", review):  # the diff: one row a faction
        assert row in {"DANES", "SWEDES", "HANSE", "Pirates"}, row
    assert "s1 sails" in review  # a fleet keeps its id
    assert "Battle at ORESUND" in review
    assert "DANES:" in review  # the treasuries
