"""The dashboard's *Open* of an imported campaign's draft turn runs the world's check first
(docs/rulings.md R-72): a world with problems is refused with `world_invalid`, the problems
named and the check linked, nothing changed; a clean world opens as before. The platform asks
through the ruleset's `opening_problems` (naval: the world editor's `world_check`)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.urls import reverse

from campaign import lifecycle
from campaign.models import AuditEntry, Campaign, Membership, Turn
from campaign.rulesets import ruleset_get
from campaign.transitions import TransitionError
from fleets.models import Port, Province, Ship
from fleets.world_files import campaign_file_document
from seafarers.services import game_create

pytestmark = pytest.mark.django_db

Status = Turn.Status


@pytest.fixture
def mod(django_user_model, skirmish):
    user = django_user_model.objects.create_user("mod", "mod@example.org", "pw", is_staff=True)
    Membership.objects.create(user=user, campaign=skirmish, role=Membership.Role.MODERATOR)
    return user


def open_from_the_dashboard(client: Any, campaign: Campaign) -> str:
    """Press *Open* as the page shows it (the turn it was shown for), and read the page the
    post lands on."""
    response = client.post(
        reverse("admin:campaign_turn_action", args=[campaign.pk, "open"]),
        {"turn": campaign.current_turn.pk},
        follow=True,
    )
    assert response.status_code == 200
    return str(response.content.decode())


def snapshot(campaign: Campaign) -> tuple[Any, ...]:
    """Everything an opening could change: the world, the turn's row, the audit log."""
    turn = Turn.objects.get(campaign=campaign)
    return (
        json.dumps(campaign_file_document(campaign), sort_keys=True),
        (turn.status, turn.deadline, turn.opened_at),
        AuditEntry.objects.filter(campaign=campaign).count(),
    )


def break_the_world(campaign: Campaign) -> None:
    """Made wrong behind the editor's back (the admin, a hand-edited row): a ship above its
    type's maximum."""
    Ship.objects.filter(campaign=campaign, key="dannebrog").update(health=99)


def test_a_broken_imported_world_is_not_opened_and_nothing_changes(client, skirmish, mod):
    break_the_world(skirmish)
    client.force_login(mod)
    before = snapshot(skirmish)
    page = open_from_the_dashboard(client, skirmish)
    assert snapshot(skirmish) == before
    assert skirmish.current_turn.status == Status.DRAFT
    assert not AuditEntry.objects.filter(campaign=skirmish, action="open").exists()
    assert "Nothing done: turn 1 was not opened, the world has 1 problem" in page
    assert "(world_invalid)" in page
    # The problem in words with its place, as the check page says it, and the link to that page.
    assert "fleet d1, ship dannebrog: its health: 99 is above" in page
    assert f'<a href="{reverse("world_check", args=[skirmish.slug])}">the check</a>' in page
    assert "Turn 1: opened." not in page


def test_a_clean_imported_world_opens_as_before(client, skirmish, mod):
    client.force_login(mod)
    page = open_from_the_dashboard(client, skirmish)
    assert "Turn 1: opened." in page
    turn = skirmish.current_turn
    assert turn.status == Status.OPEN
    assert turn.deadline is not None
    assert turn.opened_at is not None
    opened = AuditEntry.objects.get(campaign=skirmish, action="open")
    assert opened.user == mod


def test_once_the_problem_is_mended_the_turn_opens(client, skirmish, mod):
    break_the_world(skirmish)
    client.force_login(mod)
    open_from_the_dashboard(client, skirmish)
    assert skirmish.current_turn.status == Status.DRAFT
    Ship.objects.filter(campaign=skirmish, key="dannebrog").update(health=20)
    assert "Turn 1: opened." in open_from_the_dashboard(client, skirmish)
    assert skirmish.current_turn.status == Status.OPEN


def test_many_problems_name_the_first_and_count_the_rest(client, skirmish, mod):
    Ship.objects.filter(campaign=skirmish).update(health=99)  # all 20 ships
    client.force_login(mod)
    page = open_from_the_dashboard(client, skirmish)
    assert "the world has 20 problems" in page
    assert page.count(": its health: 99 is above") == 10
    assert "<li>and 10 more</li>" in page
    assert skirmish.current_turn.status == Status.DRAFT


def test_the_worlds_own_names_in_a_problem_are_escaped(client, skirmish, mod):
    Port.objects.filter(campaign=skirmish, key="copenhagen").update(name="<b>Copenhagen</b>")
    Province.objects.filter(campaign=skirmish, key="oresund").update(kind="land")
    client.force_login(mod)
    page = open_from_the_dashboard(client, skirmish)
    assert "port &lt;b&gt;Copenhagen&lt;/b&gt; (copenhagen)" in page
    assert "<b>Copenhagen</b>" not in page
    assert skirmish.current_turn.status == Status.DRAFT


def test_the_draft_says_that_open_checks_the_world(client, skirmish, mod):
    client.force_login(mod)
    page = client.get(reverse("admin:campaign_dashboard", args=[skirmish.pk])).content.decode()
    assert "Open runs" in page
    assert "R-72" in page
    assert reverse("world_check", args=[skirmish.slug]) in page


# -- the lifecycle and the hook ------------------------------------------------------------------


def test_the_checked_open_refuses_with_the_rulesets_problems(skirmish, mod):
    break_the_world(skirmish)
    before = snapshot(skirmish)
    with pytest.raises(lifecycle.OpeningRefused) as caught:
        lifecycle.turn_open_checked(skirmish.current_turn, user=mod)
    assert caught.value.problems.code == "world_invalid"
    assert isinstance(caught.value, TransitionError)  # every refusal of the lifecycle is one
    assert snapshot(skirmish) == before


def test_a_turn_already_open_is_refused_as_such_not_by_the_check(skirmish, mod):
    """The check is asked of a draft only: a second *Open* of an open turn says it is open,
    whatever the world has become since (an admin edit)."""
    turn = lifecycle.turn_open_checked(skirmish.current_turn, user=mod)
    break_the_world(skirmish)
    stale = Turn.objects.get(pk=turn.pk)
    with pytest.raises(TransitionError) as caught:
        lifecycle.turn_open_checked(stale, user=mod)
    assert not isinstance(caught.value, lifecycle.OpeningRefused)
    assert "already open" in str(caught.value)


def test_the_naval_hook_is_the_world_check(skirmish):
    naval = ruleset_get("naval")
    assert naval.opening_problems(skirmish.current_turn) is None
    break_the_world(skirmish)
    problems = naval.opening_problems(skirmish.current_turn)
    assert problems is not None
    assert problems.code == "world_invalid"
    assert problems.message == "the world has 1 problem: fix it, then open"
    assert [p.split(":")[0] for p in problems.problems] == ["fleet d1, ship dannebrog"]
    assert problems.check is not None
    assert problems.check.url == reverse("world_check", args=[skirmish.slug])


def test_the_seafaring_hook_has_nothing_to_check(django_user_model):
    mod = django_user_model.objects.create_user("mod", "m@example.org", "pw", is_staff=True)
    game = game_create(
        name="Small Isles", slug="isles", moderator=mod, board="small-isles", seats=[None, None]
    )
    seafarers = ruleset_get("seafarers")
    assert seafarers.opening_problems(Turn(campaign_id=game.campaign_id, number=1)) is None
