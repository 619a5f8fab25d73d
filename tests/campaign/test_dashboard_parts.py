"""The dashboard's layout is the platform's, each game's sections its ruleset's (issue 10): the
platform's template names no naval page, and a seafaring campaign's dashboard in the admin shows
no naval section (it showed the naval map, the fleets' lists and the order form before)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.urls import reverse

from campaign.models import Campaign
from campaign.rulesets import DashboardPart, ruleset_get
from seafarers.services import game_create

TEMPLATE = Path(__file__).resolve().parents[2] / "templates/admin/campaign/dashboard.html"


def test_the_platforms_dashboard_template_has_no_naval_markup() -> None:
    text = TEMPLATE.read_text()
    naval = re.compile(
        r"\b(fleets?|factions?|pirates?|orders?|battles?)\b|campaign_map|'desk'|'turns'|U3", re.I
    )
    assert not naval.findall(text)


@pytest.mark.django_db
def test_a_seafaring_campaign_has_its_own_part_of_the_dashboard(client, django_user_model):
    mod = django_user_model.objects.create_user("mod", "m@example.org", "pw", is_staff=True)
    game = game_create(
        name="Small Isles", slug="isles", moderator=mod, board="small-isles", seats=[None, None]
    )
    client.force_login(mod)
    page = client.get(reverse("admin:campaign_dashboard", args=[game.campaign_id]))
    assert page.status_code == 200
    html = page.content.decode().split('<div class="dash">')[1]  # the page, not the admin's menu
    assert f'href="{reverse("seafarers_moderate", args=["isles"])}"' in html
    for naval in ("Map (everything, no fog)", "fleets", "API keys", "Give or correct an order"):
        assert naval not in html


@pytest.mark.django_db
def test_the_naval_part_names_its_templates_links_and_variables(skirmish) -> None:
    part = ruleset_get("naval").moderator_dashboard(skirmish, skirmish.current_turn)
    assert isinstance(part, DashboardPart)
    assert part.turn == ["admin/fleets/dashboard/orders.html"]
    assert [link.text for link in part.links][:2] == ["Rules and fog of war", "Fleets and ships"]
    assert part.links[0].url == reverse("admin:fleets_navalsettings_change", args=[skirmish.pk])
    assert "api_keys" in part.context
    before_a_turn = ruleset_get("naval").moderator_dashboard(Campaign(pk=skirmish.pk), None)
    assert before_a_turn.context == {}
