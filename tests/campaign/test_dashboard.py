"""The moderator's dashboard in the admin: who may see it, and each button."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse

from campaign import lifecycle
from campaign.models import AuditEntry, Membership, Turn
from fleets.models import Fleet, Order, Relation

Status = Turn.Status


@pytest.fixture
def staff(django_user_model):
    def make(name: str, campaign=None, faction=None):
        user = django_user_model.objects.create_user(
            name, f"{name}@example.org", "pw", is_staff=faction is None
        )
        if campaign is not None:
            role = Membership.Role.PLAYER if faction else Membership.Role.MODERATOR
            Membership.objects.create(user=user, campaign=campaign, role=role, faction=faction)
        return user

    return make


def url(name: str, *args) -> str:
    return reverse(f"admin:{name}", args=args)


@pytest.mark.django_db
def test_who_may_see_the_dashboard(client, skirmish, staff) -> None:
    page = url("campaign_dashboard", skirmish.pk)
    assert client.get(page).status_code == 302  # anonymous: to the login page
    client.force_login(staff("anna", skirmish, skirmish.factions.get(key="danes")))
    assert client.get(page).status_code == 302  # a player is not staff
    client.force_login(staff("other"))  # staff, but not this campaign's moderator
    assert client.get(page).status_code == 404
    client.force_login(staff("mod", skirmish))
    response = client.get(page)
    assert response.status_code == 200
    assert b"Turn 1" in response.content


@pytest.mark.django_db
def test_a_turn_run_from_the_dashboard(
    client, skirmish, staff, django_capture_on_commit_callbacks
) -> None:
    client.force_login(staff("mod", skirmish))
    page = url("campaign_dashboard", skirmish.pk)
    client.post(url("campaign_turn_action", skirmish.pk, "open"))
    response = client.get(page)
    assert b"No orders yet from" in response.content
    assert b"Give the pirates these orders" in response.content
    client.post(url("campaign_pirate_orders", skirmish.pk))
    assert Order.objects.filter(faction__key="pirates").count() == 1
    swedes = skirmish.factions.get(key="swedes")
    turn = skirmish.current_turn
    Order.objects.create(
        turn=turn,
        faction=swedes,
        slot="fleet:s1",
        payload={"fleet": "s1", "type": "move", "path": ["oresund"]},
    )
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url("campaign_turn_action", skirmish.pk, "lock"), {"reason": "deadline"})
    turn.refresh_from_db()
    assert turn.status == Status.RESOLVED  # eager Celery on the embedded default
    response = client.get(page)
    assert b"Draft result" in response.content
    assert b"Battle at oresund" in response.content
    # A rollback needs a reason: refused with a message, the turn unchanged.
    response = client.post(
        url("campaign_turn_action", skirmish.pk, "rollback"), {"reason": ""}, follow=True
    )
    assert b"Say why" in response.content
    client.post(url("campaign_turn_action", skirmish.pk, "publish"))
    turn.refresh_from_db()
    assert turn.status == Status.PUBLISHED
    assert skirmish.current_turn.number == 2
    progress = client.get(
        url("campaign_turn_progress", skirmish.pk, turn.pk), headers={"HX-Request": "true"}
    )
    assert progress.status_code == 286  # htmx: stop polling, the turn is resolved


@pytest.mark.django_db
def test_the_latest_published_turn_is_rolled_back_from_the_dashboard(
    client, skirmish, staff, django_capture_on_commit_callbacks
) -> None:
    """R-35, issue 11: the button for the latest published turn, with a reason; the world goes
    back to the lock, turn 2 is cancelled, turn 1 opens again with its seed."""
    client.force_login(staff("mod", skirmish))
    page = url("campaign_dashboard", skirmish.pk)
    client.post(url("campaign_turn_action", skirmish.pk, "open"))
    first = skirmish.current_turn
    swedes = skirmish.factions.get(key="swedes")
    Order.objects.create(
        turn=first,
        faction=swedes,
        slot="fleet:s1",
        payload={"fleet": "s1", "type": "move", "path": ["oresund"]},
    )
    before = sorted(
        Fleet.objects.filter(campaign=skirmish).values_list("key", "province__key", "port__key")
    )
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url("campaign_turn_action", skirmish.pk, "lock"), {"reason": "deadline"})
    client.post(url("campaign_turn_action", skirmish.pk, "publish"))
    first.refresh_from_db()
    seed, treasury = first.seed, swedes.treasury  # `swedes` was read before the lock
    assert skirmish.current_turn.number == 2
    world = sorted(
        Fleet.objects.filter(campaign=skirmish).values_list("key", "province__key", "port__key")
    )
    assert world != before  # the published turn moved the fleets
    shown = client.get(page).content.decode()
    assert "Roll back turn 1 (published)" in shown
    rollback = url("campaign_turn_action", skirmish.pk, "rollback-published")
    # Without a reason: refused, nothing changes.
    refused = client.post(rollback, {"turn": first.pk, "reason": " "}, follow=True)
    assert b"Say why" in refused.content
    first.refresh_from_db()
    assert first.status == Status.PUBLISHED
    done = client.post(rollback, {"turn": first.pk, "reason": "an appeal"}, follow=True)
    assert b"Turn 1: rolled back." in done.content
    first.refresh_from_db()
    swedes.refresh_from_db()
    assert (first.status, first.seed, first.result) == (Status.OPEN, seed, None)
    assert swedes.treasury == treasury  # the world as it was when turn 1 locked
    restored = Fleet.objects.filter(campaign=skirmish)
    assert sorted(restored.values_list("key", "province__key", "port__key")) == before
    assert skirmish.turns.get(number=2).archived
    assert AuditEntry.objects.filter(action="rollback", reason="an appeal", turn=first).exists()
    # The page, reloaded, offers no rollback again; a second post (a stale page) finds no
    # published turn to roll back and changes nothing.
    assert "Roll back turn 1 (published)" not in client.get(page).content.decode()
    again = client.post(rollback, {"turn": first.pk, "reason": "twice"})
    assert again.status_code == 404
    first.refresh_from_db()
    assert first.status == Status.OPEN


@pytest.mark.django_db
def test_a_refused_action_says_why(client, skirmish, staff) -> None:
    client.force_login(staff("mod", skirmish))
    response = client.post(url("campaign_turn_action", skirmish.pk, "publish"), follow=True)
    assert b"A draft turn cannot be published." in response.content
    assert skirmish.current_turn.status == Status.DRAFT


@pytest.mark.django_db
def test_an_edit_of_the_world_records_its_reason(client, skirmish, staff) -> None:
    moderator = staff("mod", skirmish)
    moderator.is_superuser = True
    moderator.save()
    client.force_login(moderator)
    danes = skirmish.factions.get(key="danes")
    form = {
        "campaign": skirmish.pk,
        "key": "danes",
        "name": danes.name,
        "colour": danes.colour,
        "treasury": 999,
        "income": danes.income,
        "upkeep_priority": "[]",
        "reason": "loan from the Dutch",
    }
    response = client.post(url("fleets_faction_change", danes.pk), form)
    assert response.status_code == 302
    entry = AuditEntry.objects.get(action="edit faction")
    assert (entry.user, entry.reason) == (moderator, "loan from the Dutch")
    assert entry.detail["changes"]["treasury"] == ["600", "999"]
    form.pop("reason")
    response = client.post(url("fleets_faction_change", danes.pk), form)
    assert response.status_code == 200  # no reason: the form comes back with the error
    danes.refresh_from_db()
    assert danes.treasury == 999


@pytest.mark.django_db
def test_extend_moves_the_deadline(client, skirmish, staff) -> None:
    client.force_login(staff("mod", skirmish))
    lifecycle.turn_open(skirmish.current_turn, user=None)
    client.post(
        url("campaign_turn_action", skirmish.pk, "extend"),
        {"deadline": "2030-01-02 18:00", "reason": "holidays"},
    )
    turn = skirmish.current_turn
    assert turn.deadline.isoformat().startswith("2030-01-02T18:00")
    response = client.post(
        url("campaign_turn_action", skirmish.pk, "extend"), {"deadline": "soon"}, follow=True
    )
    assert b"YYYY-MM-DD HH:MM" in response.content


@pytest.mark.django_db
def test_a_campaign_file_imported_from_the_admin(client, staff, tmp_path) -> None:
    from pathlib import Path

    moderator = staff("mod")
    client.force_login(moderator)
    baltic = Path(__file__).resolve().parents[2] / "examples" / "baltic.campaign.yaml"
    with baltic.open("rb") as handle:
        response = client.post(url("campaign_import"), {"file": handle})
    assert response.status_code == 302
    membership = Membership.objects.get(user=moderator)
    assert membership.role == Membership.Role.MODERATOR  # the importer moderates it
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: naval-campaign/1\nname: Broken\nmap: {provinces: 7}\n")
    with bad.open("rb") as handle:
        response = client.post(url("campaign_import"), {"file": handle})
    assert response.status_code == 200
    assert b"map.provinces: must be a list" in response.content


@pytest.mark.django_db
def test_the_moderator_gives_and_corrects_orders(client, skirmish, staff) -> None:
    client.force_login(staff("mod", skirmish))
    lifecycle.turn_open(skirmish.current_turn, user=None)
    post = url("campaign_moderator_order", skirmish.pk)
    client.post(
        post,
        {"faction": "danes", "order": '{"fleet": "d1", "type": "hold"}', "reason": "Anna's e-mail"},
    )
    response = client.post(
        post,
        {"faction": "danes", "order": '{"fleet": "d1", "type": "move", "path": ["mars"]}'},
        follow=True,
    )
    assert b"Refused (unknown_province)" in response.content
    response = client.post(post, {"faction": "danes", "order": "{fleet"}, follow=True)
    assert b"not an order in JSON" in response.content
    response = client.post(
        post, {"faction": "danes", "order": '{"fleet": "s1", "type": "hold"}'}, follow=True
    )
    assert b"not_commander" in response.content
    assert Order.objects.filter(turn__campaign=skirmish).count() == 1
    assert AuditEntry.objects.get(action="moderator_order").reason == "Anna's e-mail"


@pytest.mark.django_db
def test_a_battle_report_shows_every_round_and_die(client, skirmish, staff) -> None:
    from battles.models import Battle
    from tests.conftest import resolve_with_the_swedes_attacking

    moderator = staff("mod", skirmish)
    moderator.is_superuser = True
    moderator.save()
    client.force_login(moderator)
    turn = resolve_with_the_swedes_attacking(skirmish)
    battle = Battle.objects.get(turn=turn, province="oresund")
    event = battle.report
    assert event["type"] == "battle"
    assert battle.rounds == len(event["rounds"])
    page = client.get(url("battles_battle_change", battle.pk))
    assert page.status_code == 200
    first = event["rounds"][0]
    assert f"{first['dice'][0]} – {first['dice'][1]}".encode() in page.content


@pytest.mark.django_db
def test_a_moderator_sees_only_their_campaigns_in_the_admin(client, skirmish, staff) -> None:
    from fleets.campaign_files import read_campaign_file
    from fleets.importing import campaign_import
    from fleets.models import Fleet
    from tests.conftest import skirmish_campaign_document

    other = campaign_import(read_campaign_file(skirmish_campaign_document(slug="elsewhere")))
    client.force_login(staff("mod", skirmish))  # staff, moderator of the skirmish only
    listing = client.get(url("fleets_fleet_changelist")).content.decode()
    assert listing.count('class="field-key"') == Fleet.objects.filter(campaign=skirmish).count()
    theirs = Fleet.objects.get(campaign=other, key="d1")
    mine = Fleet.objects.get(campaign=skirmish, key="d1")
    assert client.get(url("fleets_fleet_change", mine.pk)).status_code == 200
    assert client.get(url("fleets_fleet_change", theirs.pk)).status_code == 302  # "no such"
    assert client.get(url("campaign_dashboard", other.pk)).status_code == 404
    audit = client.get(url("campaign_auditentry_changelist")).content.decode()
    assert "elsewhere" not in audit


@pytest.mark.django_db
def test_queue_again_is_offered_only_for_a_locked_turn_without_news(
    client, skirmish, staff
) -> None:
    """A locked turn being resolved shows its progress; one locked for more than 15 minutes
    (its task lost) or whose task never reached the queue offers 'Queue again'."""
    from datetime import timedelta

    from django.utils import timezone

    client.force_login(staff("mod", skirmish))
    turn = lifecycle.turn_open(skirmish.current_turn, user=None)
    lifecycle.turn_lock(turn, user=None)  # the send waits for a commit that never comes here
    page = url("campaign_dashboard", skirmish.pk)
    assert b"Queue again" not in client.get(page).content
    Turn.objects.filter(pk=turn.pk).update(locked_at=timezone.now() - timedelta(minutes=16))
    assert b">Queue again</button>" in client.get(page).content
    Turn.objects.filter(pk=turn.pk).update(locked_at=timezone.now(), error=lifecycle.QUEUE_DOWN)
    content = client.get(page).content.decode()
    assert ">Queue again</button>" in content
    assert "the queue (Redis) is unavailable, so resolution has not started" in content


@pytest.mark.django_db
def test_a_deletion_in_the_admin_is_recorded(client, skirmish, staff) -> None:
    """Deleting a fleet (its page) or relations (the list's action) writes an audit entry each, with
    the row's last values: the world changed by hand leaves a trace, as an edit does."""
    from fleets.models import Fleet

    moderator = staff("mod", skirmish)
    moderator.is_superuser = True
    moderator.save()
    client.force_login(moderator)
    fleet = Fleet.objects.get(campaign=skirmish, key="d1")
    response = client.post(url("fleets_fleet_delete", fleet.pk), {"post": "yes"})
    assert response.status_code == 302
    entry = AuditEntry.objects.get(action="delete fleet")
    assert (entry.user, entry.campaign, entry.detail["values"]["key"]) == (
        moderator,
        skirmish,
        "d1",
    )
    relations = list(Relation.objects.filter(campaign=skirmish).values_list("pk", flat=True))
    action = {"action": "delete_selected", "_selected_action": relations, "post": "yes"}
    assert client.post(url("fleets_relation_changelist"), action).status_code == 302
    assert AuditEntry.objects.filter(action="delete relation").count() == len(relations) > 0


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("posted", "said"),
    [
        ({"deadline": "2001-01-01 12:00", "reason": "holidays"}, "has passed already"),
        ({"deadline": "2030-01-02 18:00", "reason": "  "}, "say why the deadline moves"),
        ({"deadline": "2030-01-02 18:00"}, "say why the deadline moves"),
    ],
)
def test_extend_refuses_a_past_deadline_and_no_reason(client, skirmish, staff, posted, said):
    client.force_login(staff("mod", skirmish))
    turn = lifecycle.turn_open(skirmish.current_turn, user=None)
    response = client.post(
        url("campaign_turn_action", skirmish.pk, "extend"),
        {**posted, "turn": turn.pk},
        follow=True,
    )
    assert said in response.content.decode()
    deadline = turn.deadline
    turn.refresh_from_db()
    assert turn.deadline == deadline  # unchanged
    assert not AuditEntry.objects.filter(action="extend").exists()


@pytest.mark.django_db
def test_the_progress_bar_s_first_frame_says_it_waits(client, skirmish, staff) -> None:
    from django.core.cache import cache

    cache.clear()  # no progress left by another test's turn of the same id
    client.force_login(staff("mod", skirmish))
    turn = lifecycle.turn_open(skirmish.current_turn, user=None)
    lifecycle.turn_lock(turn, user=None)  # no worker has started: no progress in the cache
    page = client.get(url("campaign_dashboard", skirmish.pk)).content.decode()
    assert "Resolving: waiting for a worker (0 %)" in page
    assert "( %)" not in page


@pytest.mark.django_db
def test_the_draft_preview_is_the_report_rendered(client, skirmish, staff) -> None:
    from tests.conftest import resolve_with_the_swedes_attacking

    client.force_login(staff("mod", skirmish))
    resolve_with_the_swedes_attacking(skirmish)
    page = client.get(url("campaign_dashboard", skirmish.pk)).content.decode()
    preview = page[page.index("Each faction's report (preview)") : page.index("The whole turn")]
    assert '<article class="turn-report">' in preview
    assert "<h3>" in preview
    assert "## " not in preview
    assert "**" not in preview


@pytest.mark.django_db
def test_the_audit_list_shows_who_what_why_first_and_the_status_then(
    client, skirmish, staff
) -> None:
    moderator = staff("mod", skirmish)
    client.force_login(moderator)
    turn = lifecycle.turn_open(skirmish.current_turn, user=moderator)
    lifecycle.turn_extend(
        turn, user=moderator, deadline=turn.deadline + timedelta(hours=1), reason="x" * 300
    )
    lifecycle.turn_lock(turn, user=moderator)
    page = client.get(url("campaign_auditentry_changelist")).content.decode()
    head = page[page.index("<thead>") :]
    columns = [head.index(f"column-{name}") for name in ("user", "action", "short_reason")]
    assert columns == sorted(columns)
    assert columns[-1] < head.index("column-turn_then")
    assert head.index("column-turn_then") < head.index("column-campaign")
    assert "x" * 80 not in page  # a long reason is cut in the list
    rows = {e.action: e for e in AuditEntry.objects.filter(turn=turn)}
    assert rows["open"].turn_status == "open"
    assert rows["extend"].turn_status == "open"  # the turn is locked now
    assert rows["lock"].turn_status == "locked"
    assert '<td class="field-turn_then">1 (open)</td>' in page


@pytest.mark.django_db
def test_two_campaigns_of_one_name_are_told_apart(client, skirmish, staff) -> None:
    from fleets.campaign_files import read_campaign_file
    from fleets.importing import campaign_import
    from tests.conftest import skirmish_campaign_document

    other = campaign_import(read_campaign_file(skirmish_campaign_document(slug="sound-2")))
    assert other.name == skirmish.name
    moderator = staff("mod", skirmish)
    moderator.is_superuser = True
    moderator.save()
    client.force_login(moderator)
    for page in ("campaign_campaign_changelist", "campaign_auditentry_changelist"):
        text = client.get(url(page)).content.decode()
        assert f"{skirmish.name} ({skirmish.slug})" in text, page
        assert f"{skirmish.name} (sound-2)" in text, page


@pytest.mark.django_db
def test_orders_are_given_and_corrected_on_the_map_not_typed(client, skirmish, staff) -> None:
    """Issue 20 §2: the dashboard's "Give or correct an order" opens the desk's map (every
    fleet, or a faction's desk); the order typed as JSON stays, folded away, for what is odd."""
    client.force_login(staff("mod", skirmish))
    lifecycle.turn_open(skirmish.current_turn, user=None)
    text = client.get(url("campaign_dashboard", skirmish.pk)).content.decode()
    desk = reverse("desk", args=[skirmish.slug])
    part = text.split("<h2>Give or correct an order</h2>")[1].split("</section>")[0]
    assert f'href="{desk}"' in part
    assert f'href="{desk}?faction=danes"' in part
    assert part.index(f'href="{desk}"') < part.index("<details>") < part.index("<textarea")
