"""Reading: the players' one permission-checked fetch of a campaign (`membership_get`)."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.http import Http404

from campaign.models import Campaign, Membership

User = AbstractBaseUser | AnonymousUser


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
