""" "My orders are final" and early resolution (issue 21 §3, docs/rulings.md R-89–R-92).

The skirmish's players: danes (d1, d2), swedes (s1, s2, s3), hanse (h1); the pirates (p1) have
no player. A faction marks its orders final on the desk, through its key or with a written
`final`; any order given afterwards unmarks it; the dashboard shows who is final; the reminders
skip a final faction; with `resolve_early` on, the last mark locks the turn as the moderator's
Lock does, audited with why.
"""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from campaign import lifecycle
from campaign.deadlines import check_deadlines
from campaign.models import AuditEntry, Membership, Turn
from engine.naval import ScenarioError
from fleets.final import EARLY_REASON, Marked, orders_final_mark
from fleets.models import FinalOrders, NavalSettings
from fleets.services import moderator_order_submit, order_submit, token_issue

pytestmark = pytest.mark.django_db
SLUG = "skirmish-in-the-sound"
HTMX = {"HX-Request": "true"}
Status = Turn.Status


def desk(faction: str | None = None) -> str:
    url = reverse("desk", args=[SLUG])
    return f"{url}?faction={faction}" if faction else url


def final_url() -> str:
    return reverse("orders_final", args=[SLUG])


def hold(fleet: str) -> dict[str, str]:
    """The desk's form for a fleet holding (tests/fleets/test_desk.py's)."""
    fields = {
        "type": "hold",
        "stance": "engage",
        "retreat": "never",
        "prefer": "sink",
        "if_cornered": "surrender",
    }
    return {f"{fleet}-{k}": v for k, v in fields.items()}


def is_final(campaign, key: str) -> bool:
    return FinalOrders.objects.filter(
        turn=campaign.current_turn, faction__key=key, marked_at__isnull=False
    ).exists()


def said(response) -> str:
    return response.content.decode().replace("&#x27;", "'")


def resolve_early(campaign, on: bool = True) -> None:
    NavalSettings.objects.filter(campaign=campaign).update(resolve_early=on)


def api(client, method: str, path: str, key: str, body=None, **extra):
    return getattr(client, method)(
        f"/api/campaigns/{SLUG}{path}",
        data=json.dumps(body) if body is not None else None,
        content_type="application/json",
        headers={"Authorization": f"Bearer {key}"},
        **extra,
    )


# --- the desk ----------------------------------------------------------------------------------


def test_the_desk_marks_the_orders_final_and_an_order_after_it_unmarks_them(
    client, people, open_skirmish
) -> None:
    client.force_login(people["danes"])
    page = said(client.get(desk()))
    assert "My orders are final</button>" in page
    marked = client.post(final_url(), headers=HTMX)
    assert marked.status_code == 200
    panel = said(marked)
    assert panel.lstrip().startswith('<section class="card" id="final-orders"')  # the panel
    assert "Your orders are final." in panel  # the answer
    assert "<strong>Your orders are final</strong>" in panel
    assert "My orders are final</button>" not in panel
    assert is_final(open_skirmish, "danes")
    assert not is_final(open_skirmish, "swedes")  # the Danes' mark only
    row = FinalOrders.objects.get(faction__key="danes")
    assert row.marked_by == people["danes"]

    # An order given now (d1 holds) unmarks them: the card says so, and the panel, swapped
    # out of band, says it too.
    card = client.post(reverse("fleet_order", args=[SLUG, "d1"]), hold("d1"), headers=HTMX)
    assert card.status_code == 200
    text = said(card)
    assert "Your orders are no longer marked final: this changed them." in text
    assert 'id="final-orders" aria-labelledby="final-orders-title" hx-swap-oob="true"' in text
    assert not is_final(open_skirmish, "danes")
    row.refresh_from_db()
    assert row.marked_at is None
    assert row.unmarked_by == people["danes"]
    page = said(client.get(desk()))
    assert "Your orders were marked final, but an order given since changed them" in page
    assert "My orders are final</button>" in page  # to mark them again


def test_without_javascript_the_desk_comes_back_with_the_answer(client, people) -> None:
    client.force_login(people["swedes"])
    response = client.post(final_url(), follow=True)
    assert response.redirect_chain[-1][0].endswith(desk() + "#final-orders")
    page = said(response)
    assert "Your orders are final." in page  # the message
    assert "<strong>Your orders are final</strong>" in page


def test_a_withdrawal_and_an_economy_order_unmark_them_too(client, people, open_skirmish) -> None:
    danes = open_skirmish.factions.get(key="danes")
    turn = open_skirmish.current_turn
    order_submit(turn=turn, faction=danes, order={"fleet": "d1", "type": "hold"})
    client.force_login(people["danes"])
    client.post(final_url(), headers=HTMX)
    withdrawn = client.post(reverse("fleet_withdraw", args=[SLUG, "d1"]), headers=HTMX)
    assert "Your orders are no longer marked final" in said(withdrawn)
    assert not is_final(open_skirmish, "danes")

    client.post(final_url(), headers=HTMX)
    repaired = client.post(
        reverse("economy_order", args=[SLUG, "disband"]), {"fleet": "d2"}, follow=True
    )
    assert "Your orders are no longer marked final: this changed them." in said(repaired)
    assert not is_final(open_skirmish, "danes")

    client.post(final_url(), headers=HTMX)  # the upkeep priority is one of its orders (U2)
    client.post(reverse("economy_order", args=[SLUG, "priority"]), {"priority": "d2, d1"})
    assert not is_final(open_skirmish, "danes")


def test_the_moderators_correction_unmarks_them_and_the_player_is_told(
    client, people, open_skirmish
) -> None:
    turn = open_skirmish.current_turn
    swedes = open_skirmish.factions.get(key="swedes")
    assert isinstance(orders_final_mark(turn=turn, faction=swedes, user=people["swedes"]), Marked)
    assert is_final(open_skirmish, "swedes")
    given = moderator_order_submit(
        turn=turn,
        faction=swedes,
        order={"fleet": "s1", "type": "hold"},
        user=people["mod"],
        reason="the Swedish player's forum post",
    )
    assert given.final_unmarked is True
    assert not is_final(open_skirmish, "swedes")
    client.force_login(people["swedes"])
    page = said(client.get(desk()))
    assert "Your orders were marked final, but the moderator changed them" in page


def test_the_moderator_does_not_mark_a_factions_orders_final(client, people, open_skirmish):
    client.force_login(people["mod"])
    page = said(client.get(desk("danes")))
    assert "My orders are final</button>" not in page
    assert "Not marked final: only its player marks them." in page
    refused = client.post(final_url(), {"faction": "danes"}, headers=HTMX)
    assert refused.status_code == 400
    assert "Only the faction's player marks its orders final" in said(refused)
    assert "(not_commander)" in said(refused)
    assert not FinalOrders.objects.exists()


def test_a_mark_is_refused_when_the_turn_is_not_open(client, people, open_skirmish) -> None:
    turn = lifecycle.turn_lock(open_skirmish.current_turn, user=None)
    danes = open_skirmish.factions.get(key="danes")
    refusal = orders_final_mark(turn=turn, faction=danes, user=people["danes"])
    assert refusal.code == "turn_closed"
    assert refusal.message == (
        "Turn 1 is locked: orders are closed, so they cannot be marked final."
    )
    client.force_login(people["danes"])
    page = said(client.get(desk()))
    assert "My orders are final</button>" not in page  # no button on a closed desk
    response = client.post(final_url(), headers=HTMX)
    assert response.status_code == 400
    assert (
        "Turn 1 is locked: orders are closed, so they cannot be marked final. (turn_closed)"
        in said(response)
    )
    assert not FinalOrders.objects.exists()  # nothing written


# --- the API -----------------------------------------------------------------------------------


def test_a_key_marks_the_orders_final_and_an_order_after_it_says_it_unmarked_them(
    client, people, open_skirmish
) -> None:
    key = token_issue(membership=people["danes"].memberships.get())
    assert api(client, "get", "/state", key).json()["turn"]["final"] is False
    marked = api(client, "post", "/final", key)
    assert marked.status_code == 200
    body = marked.json()
    assert body["turn"] == 1
    assert body["final"] is True
    assert body["locked"] is False
    assert body["message"] == "Your orders are final."
    assert api(client, "get", "/state", key).json()["turn"]["final"] is True

    given = api(client, "post", "/orders", key, {"order": {"fleet": "d1", "type": "hold"}})
    assert given.status_code == 201
    assert given.json()["final_unmarked"] is True
    assert api(client, "get", "/state", key).json()["turn"]["final"] is False
    again = api(client, "post", "/orders", key, {"order": {"fleet": "d2", "type": "hold"}})
    assert again.json()["final_unmarked"] is False  # nothing was final to unmark

    api(client, "post", "/final", key)
    withdrawn = api(client, "delete", "/orders/fleet:d1", key)
    assert withdrawn.status_code == 204
    assert withdrawn["Admiralty-Orders-Final"] == "unmarked"
    assert not is_final(open_skirmish, "danes")


def test_the_api_refuses_a_mark_when_the_turn_is_not_open(client, people, open_skirmish) -> None:
    key = token_issue(membership=people["hanse"].memberships.get())
    lifecycle.turn_lock(open_skirmish.current_turn, user=None)
    refused = api(client, "post", "/final", key)
    assert refused.status_code == 400
    assert refused.json() == {
        "code": "turn_closed",
        "message": "Turn 1 is locked: orders are closed.",
    }
    moderator_key = token_issue(membership=people["mod"].memberships.get())
    no_faction = api(client, "post", "/final", moderator_key)
    assert no_faction.status_code == 400
    assert no_faction.json()["code"] == "not_commander"
    assert not FinalOrders.objects.exists()


# --- written orders ----------------------------------------------------------------------------


def test_a_written_final_marks_them_and_a_later_line_unmarks_them(
    client, people, open_skirmish
) -> None:
    client.force_login(people["danes"])
    response = client.post(
        reverse("written_orders", args=[SLUG]), {"orders": "d1: hold\nfinal"}, headers=HTMX
    )
    page = said(response)
    assert "line 1: accepted — Hold" in page
    assert "line 2: accepted — your orders are final" in page
    assert "<strong>Your orders are final</strong>" in page  # the panel is in #desk-orders
    assert is_final(open_skirmish, "danes")

    again = said(
        client.post(
            reverse("written_orders", args=[SLUG]), {"orders": "final\nd2: hold"}, headers=HTMX
        )
    )
    assert "line 1: accepted — your orders are final" in again
    assert (
        "line 2: accepted — Hold (your orders are no longer final: write `final` again when "
        "they are)" in again
    )
    assert not is_final(open_skirmish, "danes")


def test_a_key_writes_final_as_text(client, people, open_skirmish) -> None:
    key = token_issue(membership=people["swedes"].memberships.get())
    answer = client.post(
        f"/api/campaigns/{SLUG}/orders",
        data="s1: hold\nFINAL",
        content_type="text/plain",
        headers={"Authorization": f"Bearer {key}"},
    )
    assert answer.status_code == 200
    second = answer.json()["lines"][1]
    assert second["outcome"] == "accepted"
    assert second["summary"] == "your orders are final"
    assert second["written"] == "final"
    assert is_final(open_skirmish, "swedes")


def test_a_moderators_written_final_is_refused(client, people, open_skirmish) -> None:
    client.force_login(people["mod"])
    page = said(
        client.post(
            reverse("written_orders", args=[SLUG]),
            {"orders": "final", "faction": "danes", "reason": "their post"},
            headers=HTMX,
        )
    )
    assert "line 1: refused (not_commander) — only the faction's player marks" in page
    assert not FinalOrders.objects.exists()


# --- the dashboard and the reminders -----------------------------------------------------------


def test_the_dashboard_shows_who_is_final(client, people, open_skirmish) -> None:
    turn = open_skirmish.current_turn
    orders_final_mark(turn=turn, faction=open_skirmish.factions.get(key="hanse"))
    client.force_login(people["mod"])
    page = said(client.get(reverse("admin:campaign_dashboard", args=[open_skirmish.pk])))
    names = {f.key: f.name for f in open_skirmish.factions.all()}
    assert (
        f"Orders marked final: {names['hanse']}; not final: {names['danes']}, "
        f"{names['swedes']}." in page
    )
    assert "resolve early is off" in page
    resolve_early(open_skirmish)
    page = said(client.get(reverse("admin:campaign_dashboard", args=[open_skirmish.pk])))
    assert "The turn locks itself when every faction with a player has marked" in page


def test_the_reminders_skip_a_final_faction(people, open_skirmish, settings) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    turn = open_skirmish.current_turn
    Turn.objects.filter(pk=turn.pk).update(deadline=timezone.now() + timedelta(hours=10))
    turn.refresh_from_db()
    # The Swedes say "no orders, our fleets hold": final without an order.
    orders_final_mark(turn=turn, faction=open_skirmish.factions.get(key="swedes"))
    counts = check_deadlines()
    assert counts["reminded"] == 2  # danes and hanse: no orders and not final
    # One mail a player since orders by e-mail (each names its own order address, R-93).
    assert sorted(to for m in mail.outbox for to in m.to) == [
        "danes@example.org",
        "hanse@example.org",
    ]


# --- early resolution --------------------------------------------------------------------------


def test_the_last_mark_locks_the_turn_and_sends_it_to_the_worker(
    people, open_skirmish, django_capture_on_commit_callbacks
) -> None:
    resolve_early(open_skirmish)
    turn = open_skirmish.current_turn
    for key in ("danes", "swedes"):
        marked = orders_final_mark(turn=turn, faction=open_skirmish.factions.get(key=key))
        assert marked.locked is False
    assert Turn.objects.get(pk=turn.pk).status == Status.OPEN  # the Hanse is not final yet
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        marked = orders_final_mark(
            turn=turn, faction=open_skirmish.factions.get(key="hanse"), user=people["hanse"]
        )
    assert marked.locked is True
    assert marked.words == (
        "your orders are final: every faction's are, so the turn is locked "
        "(every faction marked its orders final)"
    )
    assert len(callbacks) == 1  # the resolution queued after the commit, as the Lock's
    turn.refresh_from_db()
    assert turn.status == Status.RESOLVED  # eager Celery ran it in-process
    assert turn.scenario["orders"] == []  # everyone's fleets hold
    lock = AuditEntry.objects.get(turn=turn, action="lock")
    assert lock.reason == EARLY_REASON
    assert lock.user is None  # the system's lock, not the player's
    assert lock.detail["from"] == "open"
    assert not AuditEntry.objects.filter(turn=turn, action="publish").exists()  # the moderator's


def test_the_desks_last_mark_reloads_the_closed_desk(client, people, open_skirmish) -> None:
    resolve_early(open_skirmish)
    turn = open_skirmish.current_turn
    for key in ("danes", "swedes"):
        orders_final_mark(turn=turn, faction=open_skirmish.factions.get(key=key))
    client.force_login(people["hanse"])
    response = client.post(final_url(), headers=HTMX)
    assert response.status_code == 200
    assert response["HX-Refresh"] == "true"
    assert "so the turn is locked (every faction marked its orders final)" in said(response)
    assert Turn.objects.get(pk=turn.pk).status != Status.OPEN


def test_with_the_setting_off_every_faction_final_locks_nothing(people, open_skirmish) -> None:
    turn = open_skirmish.current_turn
    for key in ("danes", "swedes", "hanse"):
        marked = orders_final_mark(turn=turn, faction=open_skirmish.factions.get(key=key))
        assert marked.locked is False
    assert Turn.objects.get(pk=turn.pk).status == Status.OPEN
    assert not AuditEntry.objects.filter(turn=turn, action="lock").exists()


def test_a_faction_without_a_player_does_not_block(people, open_skirmish) -> None:
    resolve_early(open_skirmish)
    Membership.objects.filter(user=people["hanse"]).delete()  # the Hanse has no player now
    turn = open_skirmish.current_turn
    assert (
        orders_final_mark(turn=turn, faction=open_skirmish.factions.get(key="danes")).locked
        is False
    )
    marked = orders_final_mark(turn=turn, faction=open_skirmish.factions.get(key="swedes"))
    assert marked.locked is True  # the Hanse and the pirates are not waited for
    assert Turn.objects.get(pk=turn.pk).status != Status.OPEN


def test_an_order_after_a_mark_means_the_last_mark_does_not_lock(people, open_skirmish) -> None:
    resolve_early(open_skirmish)
    turn = open_skirmish.current_turn
    danes = open_skirmish.factions.get(key="danes")
    orders_final_mark(turn=turn, faction=danes)
    orders_final_mark(turn=turn, faction=open_skirmish.factions.get(key="swedes"))
    order_submit(turn=turn, faction=danes, order={"fleet": "d1", "type": "hold"})  # unmarks
    marked = orders_final_mark(turn=turn, faction=open_skirmish.factions.get(key="hanse"))
    assert marked.locked is False  # the Danes are not final any more
    assert Turn.objects.get(pk=turn.pk).status == Status.OPEN


# --- the setting -------------------------------------------------------------------------------


def test_resolve_early_is_kept_in_the_campaign_file() -> None:
    from fleets.campaign_files import read_campaign_file
    from fleets.importing import campaign_import
    from fleets.world_files import campaign_file_document
    from tests.conftest import skirmish_campaign_document

    document = skirmish_campaign_document(slug="early", settings={"resolve_early": True})
    campaign = campaign_import(read_campaign_file(document))
    assert NavalSettings.objects.get(campaign=campaign).resolve_early is True
    assert campaign_file_document(campaign)["settings"]["resolve_early"] is True
    plain = campaign_import(read_campaign_file(skirmish_campaign_document(slug="plain")))
    assert NavalSettings.objects.get(campaign=plain).resolve_early is False  # off by default
    assert campaign_file_document(plain)["settings"]["resolve_early"] is False


def test_a_campaign_file_with_a_wrong_resolve_early_is_refused() -> None:
    from fleets.campaign_files import read_campaign_file
    from tests.conftest import skirmish_campaign_document

    document = skirmish_campaign_document(settings={"resolve_early": "yes"})
    with pytest.raises(ScenarioError) as refused:
        read_campaign_file(document)
    assert "settings.resolve_early" in str(refused.value)
    assert "has the wrong type" in str(refused.value)


def test_the_setting_is_edited_with_the_naval_settings_and_frozen_with_them(
    client, people, open_skirmish
) -> None:
    client.force_login(people["mod"])
    url = reverse("admin:fleets_navalsettings_change", args=[open_skirmish.pk])
    form = {"rules": "{}", "fog_of_war": "on", "resolve_early": "on", "reason": "a quick war"}
    assert client.post(url, form).status_code == 302  # saved while the turn is open
    assert NavalSettings.objects.get(campaign=open_skirmish).resolve_early is True
    lifecycle.turn_lock(open_skirmish.current_turn, user=None)
    refused = client.post(url, {**form, "resolve_early": ""})
    assert "(world_frozen)" in said(refused)  # frozen while the turn waits
    assert NavalSettings.objects.get(campaign=open_skirmish).resolve_early is True


def test_a_written_final_that_locks_the_turn_closes_the_lines_after_it(
    client, people, open_skirmish
) -> None:
    resolve_early(open_skirmish)
    turn = open_skirmish.current_turn
    for key in ("danes", "swedes"):
        orders_final_mark(turn=turn, faction=open_skirmish.factions.get(key=key))
    client.force_login(people["hanse"])
    page = said(
        client.post(
            reverse("written_orders", args=[SLUG]), {"orders": "h1: hold\nfinal\nh1: hold; evade"}
        )
    )
    assert "line 1: accepted — Hold" in page
    assert "line 2: accepted — your orders are final: every faction's are, so the turn is" in page
    assert "line 3: refused (turn_closed) — Turn 1 is locked: orders are closed." in page
    assert Turn.objects.get(pk=turn.pk).status != Status.OPEN


def test_the_home_page_says_a_final_faction_owes_nothing(client, people, open_skirmish) -> None:
    client.force_login(people["swedes"])
    assert "your orders are due" in said(client.get(reverse("home")))
    orders_final_mark(
        turn=open_skirmish.current_turn, faction=open_skirmish.factions.get(key="swedes")
    )
    home = said(client.get(reverse("home")))
    assert "turn 1: open, your orders are final" in home
    assert "your orders are due" not in home


def test_the_moderator_on_a_factions_desk_unmarks_them_and_reads_its_not_your(
    client, people, open_skirmish
) -> None:
    orders_final_mark(
        turn=open_skirmish.current_turn, faction=open_skirmish.factions.get(key="danes")
    )
    client.force_login(people["mod"])
    assert "<strong>Its orders are final</strong>" in said(client.get(desk("danes")))
    card = client.post(
        reverse("fleet_order", args=[SLUG, "d1"]),
        {**hold("d1"), "faction": "danes", "reason": "the Danes' forum post"},
        headers=HTMX,
    )
    assert "Its orders are no longer marked final: this changed them." in said(card)
    assert not is_final(open_skirmish, "danes")
    audit = AuditEntry.objects.get(action="moderator_order")
    assert audit.reason == "the Danes' forum post"
