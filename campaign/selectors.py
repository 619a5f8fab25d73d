"""Reading: the one permission-checked fetch of a campaign, for every ruleset — is this user a
member of it (a player, whose seat is the ruleset's), or its moderator."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.http import Http404

from campaign.models import Campaign, Membership

User = AbstractBaseUser | AnonymousUser


def membership_find(user: Any, campaign_id: int) -> Membership | None:
    """The user's own membership of the campaign (a player's or the moderator's), or None: the
    access check every ruleset's pages and services make (a superuser is no member)."""
    if user is None or not user.is_authenticated:
        return None
    return Membership.objects.filter(user_id=user.pk, campaign_id=campaign_id).first()


def moderates(user: Any, campaign_id: int) -> bool:
    """Whether the user may moderate the campaign: its moderator (a membership), or a superuser,
    who runs any game as its moderator would, audited under their own name — as the naval
    dashboard (campaign.dashboard.moderated_campaign) and `membership_get` have it."""
    if getattr(user, "is_superuser", False) and getattr(user, "is_authenticated", False):
        return True
    membership = membership_find(user, campaign_id)
    return membership is not None and membership.role == Membership.Role.MODERATOR


def membership_get(user: User, slug: str, *, ruleset: str | None = None) -> Membership:
    """The user's membership of the campaign (a player's, or the moderator's); 404 otherwise,
    so that a campaign's existence is not given away — and 404 for a campaign of another
    ruleset than `ruleset` (a game's pages serve only its own campaigns)."""
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
            membership = Membership(user=user, campaign=campaign, role=Membership.Role.MODERATOR)
    if membership is None or (ruleset is not None and membership.campaign.ruleset != ruleset):
        raise Http404("No such campaign.")
    return membership


def campaign_others(user: Any, moderated: list[Campaign]) -> list[Campaign]:
    """Every campaign the user does not moderate, for a superuser's desk; one query, by name."""
    if user is None or not getattr(user, "is_superuser", False):
        return []
    return list(Campaign.objects.exclude(pk__in=[c.pk for c in moderated]).order_by("name", "slug"))


def campaign_moderated(user: Any) -> list[Campaign]:
    """The campaigns of every ruleset (naval campaigns, seafaring games: a seafarers.Game hangs
    on its Campaign) that the user moderates — a moderator's membership; a superuser's look at
    any campaign (`membership_get`) is not one. One query, by name."""
    if user is None or not user.is_authenticated:
        return []
    return list(
        Campaign.objects.filter(
            memberships__user_id=user.pk, memberships__role=Membership.Role.MODERATOR
        ).order_by("name", "slug")
    )
