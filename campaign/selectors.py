"""Reading: what the moderator's pages and the tasks ask of the database, and the players'
one permission-checked fetch of a campaign (`membership_get`)."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.http import Http404

from campaign.models import Campaign, Faction, Membership, Port, Province
from reports.build import Names

User = AbstractBaseUser | AnonymousUser


def campaign_names(campaign_id: int) -> Names:
    """Display names and colours of a campaign's factions, provinces and ports: 3 queries."""
    factions = list(
        Faction.objects.filter(campaign_id=campaign_id).values_list("key", "name", "colour")
    )
    return Names(
        factions={key: name for key, name, _ in factions},
        provinces=dict(Province.objects.filter(campaign_id=campaign_id).values_list("key", "name")),
        ports=dict(Port.objects.filter(campaign_id=campaign_id).values_list("key", "name")),
        colours={key: colour for key, _, colour in factions},
    )


def membership_get(user: User, slug: str) -> Membership:
    """The user's membership of the campaign (a player's, or the moderator's); 404 otherwise,
    so that a campaign's existence is not given away."""
    if not user.is_authenticated or "\x00" in slug:  # (PostgreSQL cannot even compare a NUL)
        raise Http404("No such campaign.")
    membership = (
        Membership.objects.select_related("campaign", "faction")
        .filter(user=user, campaign__slug=slug)
        .first()
    )
    if membership is None and getattr(user, "is_superuser", False):
        # A superuser sees any campaign as its moderator would (not saved).
        campaign = Campaign.objects.filter(slug=slug).first()
        if campaign is not None:
            return Membership(user=user, campaign=campaign, role=Membership.Role.MODERATOR)
    if membership is None:
        raise Http404("No such campaign.")
    return membership
