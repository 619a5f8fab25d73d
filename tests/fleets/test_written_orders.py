"""Written orders on the desk (issue 21 §1, docs/orders.md): a paste is given line by line as
the forms give orders (R-84), each line answered with its number; a refused line changes
nothing; the desk shows the faction's orders written, and pasting them back changes nothing
(R-86); the moderator's paste says why and is audited (R-60). Bad input is answered, never a
500."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaign import lifecycle
from campaign.models import AuditEntry
from fleets.mapping import orders_document
from fleets.models import Faction, Order

pytestmark = pytest.mark.django_db
SLUG = "skirmish-in-the-sound"
HTMX = {"HX-Request": "true"}


def paste(client, text: str, htmx: bool = True, **extra: str):
    return client.post(
        reverse("written_orders", args=[SLUG]),
        {"orders": text, **extra},
        headers=HTMX if htmx else {},
    )


def rows() -> list[tuple[str, dict | None]]:
    return list(Order.objects.order_by("id").values_list("slot", "payload"))


def test_a_mixed_paste_gives_the_good_lines_and_answers_each_line(client, people) -> None:
    client.force_login(people["danes"])
    text = (
        "# the Danes, turn 1\n"
        "d1: Kattegat -> Skagerrak; evade to Skagerrak; retreat below 50%\n"
        "d1x: hold\n"
        "\n"
        "hire 1 dragon at Copenhagen\n"
        "d2: sail to Atlantis\n"
    )
    response = paste(client, text)
    assert response.status_code == 200
    assert response["HX-Trigger"] == "naval-orders-changed"  # the map draws its arrows again
    page = response.content.decode()
    assert 'id="desk-orders"' in page  # the part htmx swaps (hx-select)
    assert "line 2: accepted — Sail to skagerrak by way of kattegat" in page
    assert "line 3: refused (unknown_fleet) — there is no fleet called" in page
    assert "line 5: refused (unknown_ship_type)" in page  # the skirmish has no such type
    assert "line 6: refused (unknown_province) — there is no province called" in page
    given = rows()
    assert [slot for slot, _ in given] == ["fleet:d1"]  # the refused lines wrote nothing
    assert given[0][1]["stance"] == "evade"
    assert given[0][1]["retreat"] == {"below": 0.5}
    assert given[0][1]["path"] == ["kattegat", "skagerrak"]


def test_the_engines_refusal_names_the_line(client, people) -> None:
    client.force_login(people["danes"])
    page = paste(client, "d1: hold\nd1: Skagerrak\n").content.decode()
    assert "line 1: accepted — Hold" in page
    assert "line 2: refused (not_adjacent)" in page
    assert [p["type"] for _, p in rows()] == ["hold"]


def test_another_factions_fleet_is_refused(client, people) -> None:
    client.force_login(people["danes"])
    page = paste(client, "s1: hold").content.decode()
    assert "line 1: refused (not_commander)" in page
    assert rows() == []


def test_the_desk_shows_the_orders_written_and_pasting_them_back_changes_nothing(
    client, people
) -> None:
    client.force_login(people["danes"])
    paste(client, "d1: Kattegat; capture\nhire 2 frigate at Copenhagen\nupkeep priority d1, d2")
    page = client.get(reverse("desk", args=[SLUG])).content.decode()
    written = page.split('id="written-now"', 1)[1].split(">", 1)[1].split("</textarea>", 1)[0]
    assert written.splitlines() == [
        "d1: kattegat; capture",
        "hire 2 frigate at copenhagen",
        "upkeep priority d1, d2",
    ]
    before = rows()
    again = paste(client, written).content.decode()
    assert "line 1: unchanged" in again
    assert "line 2: unchanged" in again  # the hire is not given twice
    assert "line 3: unchanged" in again
    assert rows() == before
    assert "HX-Trigger" not in paste(client, written)


def test_nothing_is_given_when_the_turn_is_closed(client, people, open_skirmish) -> None:
    lifecycle.turn_lock(open_skirmish.current_turn, user=None)
    client.force_login(people["danes"])
    page = paste(client, "d1: hold").content.decode()
    assert "refused (turn_closed)" in page
    assert rows() == []


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   \n\n# only a comment",
        "\x00",
        "d1: hold\x00",
        "d1:" + "x" * 5000,
        "hire 99999999999999999999 frigate at copenhagen",
        "hire 21 frigate at copenhagen",
        "d1: hold; retreat below 1e400%",
        "d1: [ü]",
        "[]: hold",
        "upkeep priority s1",
        "d1: split dannebrog as a/b",
        "x" * 70_000,
        "d1: hold\n" * 201,
    ],
)
def test_bad_input_is_answered_and_changes_nothing(client, people, text: str) -> None:
    client.force_login(people["danes"])
    response = paste(client, text)
    assert response.status_code == 200
    page = response.content.decode()
    assert "refused" in page
    assert rows() == []
    assert Faction.objects.get(
        campaign=people["danes"].memberships.first().campaign, key="danes"
    ).upkeep_priority == ["d1"]


def test_without_javascript_the_page_comes_back_with_the_answers(client, people) -> None:
    client.force_login(people["swedes"])
    response = paste(client, "s2: enter gothenburg", htmx=False)
    assert response.status_code == 200
    page = response.content.decode()
    assert "line 1: accepted — Enter port at gothenburg" in page
    assert "<h2>Fleets</h2>" in page
    assert rows()[0][1]["port"] == "gothenburg"


def test_the_moderators_paste_says_why_and_is_audited(client, people) -> None:
    client.force_login(people["mod"])
    page = paste(client, "s1: hold", faction="swedes").content.decode()
    assert "refused (reason_required)" in page
    assert rows() == []
    page = paste(
        client, "s1: hold\nd1: hold\nupkeep priority s2", faction="swedes", reason="by e-mail"
    ).content.decode()
    assert "line 1: accepted" in page
    assert "line 2: refused (not_commander)" in page  # the Swedes' desk orders the Swedes'
    assert "line 3: accepted — Upkeep priority: s2" in page
    entry = AuditEntry.objects.get(action="moderator_order")
    assert entry.reason == "by e-mail"
    assert entry.detail["faction"] == "swedes"
    assert entry.detail["written"] == "s1: hold"
    assert AuditEntry.objects.get(action="upkeep priority").reason == "by e-mail"
    assert [
        o["fleet"] for o in orders_document(people["mod"].memberships.first().campaign.current_turn)
    ] == ["s1"]


def test_the_moderator_gives_written_orders_only_on_a_factions_desk(client, people) -> None:
    client.force_login(people["mod"])
    page = paste(client, "s1: hold", reason="by e-mail").content.decode()
    assert "refused (not_commander)" in page
    assert rows() == []


def test_the_box_is_on_the_desk(client, people) -> None:
    client.force_login(people["danes"])
    page = client.get(reverse("desk", args=[SLUG])).content.decode()
    assert 'name="orders"' in page
    assert 'hx-select="#desk-orders"' in page
    assert 'name="reason" id="written-reason"' not in page  # a player gives no reason


# --- the moderator's dashboard: "Give or correct an order" -------------------------------------


def dashboard_paste(client, campaign, **data: str):
    return client.post(
        reverse("admin:campaign_moderator_written_orders", args=[campaign.pk]),
        {"turn": campaign.current_turn.pk, **data},
        follow=True,
    )


def test_the_dashboard_takes_a_factions_written_orders_with_the_reason(
    client, people, open_skirmish
) -> None:
    client.force_login(people["mod"])
    page = client.get(reverse("admin:campaign_dashboard", args=[open_skirmish.pk]))
    assert b'name="orders"' in page.content  # the box, beside the JSON one
    text = "s1: Bornholm Basin\ns1x: hold\nhire 1 galley at Gothenburg"
    refused = dashboard_paste(client, open_skirmish, faction="swedes", orders=text)
    assert b"refused (reason_required)" in refused.content
    assert rows() == []
    answered = dashboard_paste(
        client, open_skirmish, faction="swedes", orders=text, reason="Karl's forum message"
    ).content.decode()
    assert "Swedes, line 1: accepted — Sail to bornholm_basin" in answered
    assert "Swedes, line 2: refused (unknown_fleet)" in answered
    assert "Swedes, line 3: accepted — Hire 1 × Galley at gothenburg" in answered
    assert [slot.split(":")[0] for slot, _ in rows()] == ["fleet", "hire"]
    entries = AuditEntry.objects.filter(action="moderator_order").order_by("id")
    assert [e.reason for e in entries] == ["Karl's forum message"] * 2
    assert [e.detail["where"] for e in entries] == ["dashboard"] * 2
    assert entries[0].detail["written"] == "s1: Bornholm Basin"


def test_the_dashboards_paste_for_no_faction_changes_nothing(client, people, open_skirmish):
    client.force_login(people["mod"])
    page = dashboard_paste(client, open_skirmish, faction="nobody", orders="s1: hold", reason="r")
    assert b"Choose a faction." in page.content
    assert rows() == []


# --- withdraw (R-98) ---------------------------------------------------------------------------


def test_a_withdraw_line_takes_back_a_fleets_order_and_a_hire(client, people) -> None:
    client.force_login(people["danes"])
    paste(client, "d1: Kattegat\nhire 2 frigate at Copenhagen\nhire 1 frigate at Copenhagen")
    assert len(orders_document(people["danes"].memberships.get().campaign.current_turn)) == 3
    page = paste(
        client,
        "withdraw d1\n"
        "withdraw hire 1 frigate at copenhagen\n"
        "withdraw d1\n"  # again: nothing left to withdraw
        "withdraw hire 3 frigate at copenhagen\n"  # no such hire given
        "withdraw s1\n"  # the Swedes' fleet: answered as a fleet with no order of theirs
        "withdraw upkeep priority d1\n"
        "withdraw\n",
    ).content.decode()
    assert "line 1: accepted — withdrawn: Sail to kattegat" in page
    assert "line 2: accepted — withdrawn: Hire 1 × Frigate at copenhagen" in page
    assert "line 3: refused (nothing_to_withdraw) — you have given no order for d1" in page
    assert "line 4: refused (nothing_to_withdraw) — you have given no order like it" in page
    assert "line 5: refused (nothing_to_withdraw) — you have given no order for s1" in page
    assert "line 6: refused (invalid_order) — an upkeep priority is not withdrawn" in page
    assert "line 7: refused (invalid_order) — say what to withdraw" in page
    left = orders_document(people["danes"].memberships.get().campaign.current_turn)
    assert [(o["type"], o.get("count")) for o in left] == [("hire", 2)]
    withdrawn = [slot for slot, payload in rows() if payload is None]
    assert withdrawn[0] == "fleet:d1"
    assert withdrawn[1].startswith("hire:")
    assert len(withdrawn) == 2


def test_the_moderators_withdraw_line_is_audited(client, people) -> None:
    client.force_login(people["danes"])
    paste(client, "d1: Kattegat")
    client.force_login(people["mod"])
    page = paste(client, "withdraw d1", faction="danes", reason="asked by mail").content.decode()
    assert "line 1: accepted — withdrawn:" in page
    entry = AuditEntry.objects.get(action="moderator_withdraw")
    assert entry.reason == "asked by mail"
    assert entry.detail["slot"] == "fleet:d1"
