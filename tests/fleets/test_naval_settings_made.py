"""Every naval campaign has its settings row (fleets.NavalSettings: rules, fog of war) from its
first save, however it is made — the import, the world editor's new-campaign page, the admin —
so that its desk, map and lock never meet a campaign without one; a seafaring campaign has none."""

from __future__ import annotations

import pytest

from campaign.models import Campaign
from fleets.models import NavalSettings


@pytest.mark.django_db
def test_a_naval_campaign_is_made_with_its_default_settings() -> None:
    campaign = Campaign.objects.create(name="Made by hand", slug="by-hand")
    settings = NavalSettings.objects.get(campaign=campaign)
    assert (settings.rules, settings.fog_of_war) == ({}, True)
    campaign.save()  # a later save makes no second row
    assert NavalSettings.objects.filter(campaign=campaign).count() == 1


@pytest.mark.django_db
def test_a_seafaring_campaign_has_no_naval_settings() -> None:
    campaign = Campaign.objects.create(name="Isles", slug="isles", ruleset="seafarers")
    assert not NavalSettings.objects.filter(campaign=campaign).exists()
