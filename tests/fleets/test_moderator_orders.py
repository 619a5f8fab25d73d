"""The moderator's orders on the desk (issue 11, docs/rulings.md R-60): every order the
moderator gives, changes or withdraws there says why and is written to the audit log with the
faction and the order in words, like the dashboard's; without a reason it is refused
`reason_required` and nothing changes. Players' own orders are not audited (they are the
orders), and their desk has no reason field. The moderator's API key gives no orders."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from campaign.models import AuditEntry
from fleets.mapping import orders_document
from fleets.models import Faction, Order
from fleets.services import token_issue

pytestmark = pytest.mark.django_db
SLUG = "skirmish-in-the-sound"
HTMX = {"HX-Request": "true"}


def order_url(fleet: str) -> str:
    return reverse("fleet_order", args=[SLUG, fleet])


def withdraw_url(fleet: str) -> str:
    return reverse("fleet_withdraw", args=[SLUG, fleet])


def form(fleet: str, reason: str | None = None, **fields: str) -> dict[str, str]:
    base = {
        "type": "hold",
        "stance": "engage",
        "retreat": "never",
        "prefer": "sink",
        "if_cornered": "surrender",
    }
    data = {f"{fleet}-{k}": v for k, v in {**base, **fields}.items()}
    return data | ({"reason": reason} if reason is not None else {})


def audited() -> list[AuditEntry]:
    return list(
        AuditEntry.objects.filter(action__in=("moderator_order", "moderator_withdraw")).order_by(
            "id"
        )
    )


def test_the_moderators_desk_asks_a_reason_the_players_does_not(client, people) -> None:
    client.force_login(people["mod"])
    page = client.get(reverse("desk", args=[SLUG])).content.decode()
    assert 'name="reason" id="d1-reason"' in page
    client.force_login(people["danes"])
    assert 'name="reason"' not in client.get(reverse("desk", args=[SLUG])).content.decode()


def test_an_order_without_a_reason_is_refused_and_nothing_changes_htmx(client, people) -> None:
    """Before: accepted, recorded as the Danes' order, and not audited."""
    client.force_login(people["mod"])
    response = client.post(
        order_url("d1"), form("d1", type="move", destination="kattegat"), headers=HTMX
    )
    text = response.content.decode()
    assert response.status_code == 200
    assert text.lstrip().startswith('<section class="card" id="d1"')
    assert (
        "Say why you give this order: the reason goes to the audit log. (reason_required)" in text
    )
    assert not Order.objects.exists()
    assert audited() == []
    # A reason of blanks is none.
    client.post(order_url("d1"), form("d1", reason="   ", type="hold"), headers=HTMX)
    assert not Order.objects.exists()
    assert audited() == []


def test_an_order_with_a_reason_is_the_factions_and_audited_htmx(client, people) -> None:
    client.force_login(people["mod"])
    reason = "Danish orders came by e-mail"
    response = client.post(
        order_url("d1"), form("d1", reason, type="move", destination="kattegat"), headers=HTMX
    )
    assert "Order: <strong>Sail to kattegat</strong>" in response.content.decode()
    order = Order.objects.get(slot="fleet:d1")
    assert order.faction.key == "danes"
    assert order.submitted_by == people["mod"]
    [entry] = audited()
    assert entry.action == "moderator_order"
    assert entry.reason == reason
    assert entry.user == people["mod"]
    assert entry.turn == order.turn
    assert entry.detail["faction"] == "danes"
    assert entry.detail["summary"] == "Sail to kattegat"
    assert entry.detail["replaces"] is None
    assert entry.detail["order"]["path"] == ["kattegat"]
    assert entry.detail["turn_status"] == "open"


def test_a_change_names_the_order_it_replaces(client, people) -> None:
    client.force_login(people["danes"])  # the player's own order first: not audited
    client.post(order_url("d1"), form("d1", type="move", destination="kattegat"))
    assert audited() == []
    client.force_login(people["mod"])
    client.post(order_url("d1"), form("d1", "appeal upheld", type="hold"), headers=HTMX)
    [entry] = audited()
    assert (entry.detail["summary"], entry.detail["replaces"]) == ("Hold", "Sail to kattegat")
    turn = Order.objects.first().turn
    assert [o["type"] for o in orders_document(turn)] == ["hold"]


def test_without_javascript_the_refusal_is_the_page_and_the_order_a_redirect(
    client, people
) -> None:
    client.force_login(people["mod"])
    page = client.post(order_url("s2"), form("s2", type="hold"))
    assert page.status_code == 200  # the whole desk, the refusal by the order
    assert "(reason_required)" in page.content.decode()
    assert not Order.objects.exists()
    given = client.post(order_url("s2"), form("s2", "the Swedes asked", type="hold"))
    assert given.status_code == 302
    assert given["Location"].endswith("#s2")
    [entry] = audited()
    assert entry.detail["faction"] == "swedes"
    assert Order.objects.get().faction.key == "swedes"


def test_an_engine_refusal_keeps_the_reason_typed_and_audits_nothing(client, people) -> None:
    client.force_login(people["mod"])
    response = client.post(
        order_url("s3"),
        form("s3", "split as asked", type="split", split_ships=["hjorten"], new_fleet="s1"),
        headers=HTMX,
    )
    text = response.content.decode()
    assert "there is already a fleet called s1 (invalid_order)" in text
    assert 'value="split as asked"' in text
    assert audited() == []


def test_a_withdrawal_needs_a_reason_and_is_audited(client, people) -> None:
    client.force_login(people["danes"])
    client.post(order_url("d2"), form("d2", type="hold", stance="evade"))
    client.force_login(people["mod"])
    refused = client.post(withdraw_url("d2"), headers=HTMX).content.decode()
    assert "Say why you withdraw this order" in refused
    assert "(reason_required)" in refused
    turn = Order.objects.first().turn
    assert [o["fleet"] for o in orders_document(turn)] == ["d2"]  # still counts
    plain = client.post(withdraw_url("d2"), {"reason": "sent to the wrong fleet"})
    assert plain.status_code == 302
    assert orders_document(turn) == []
    [entry] = audited()
    assert entry.action == "moderator_withdraw"
    assert entry.reason == "sent to the wrong fleet"
    assert entry.detail["faction"] == "danes"
    assert entry.detail["summary"] == "Hold"
    # Nothing left to withdraw: nothing written, nothing audited.
    client.post(withdraw_url("d2"), {"reason": "again"}, headers=HTMX)
    assert len(audited()) == 1
    assert Order.objects.filter(slot="fleet:d2").count() == 2


def test_a_players_withdrawal_is_not_audited(client, people) -> None:
    client.force_login(people["danes"])
    client.post(order_url("d1"), form("d1", type="hold"))
    client.post(withdraw_url("d1"))
    assert Order.objects.filter(slot="fleet:d1", withdrawn=True).exists()
    assert audited() == []


@pytest.mark.parametrize(
    ("kind", "data"),
    [
        ("hire", {"hire-port": "copenhagen", "hire-ship_type": "frigate", "hire-count": 1}),
        ("repair", {"fleet": "d2", "reason": "r"}),
        ("disband", {"fleet": "d2", "reason": "r"}),
        ("buyout", {"fleet": "d2", "adrift_fleet": "p1", "reason": "r"}),
        ("priority", {"priority": "d2", "reason": "r"}),
        ("withdraw", {"slot": "fleet:d1", "reason": "r"}),
    ],
)
def test_the_moderators_desk_gives_no_economy_orders(client, people, kind, data) -> None:
    """The moderator's desk has no faction, so no treasury to spend: economy orders and the
    upkeep priority are given on the dashboard (audited there). Refused, nothing changed."""
    client.force_login(people["mod"])
    page = client.post(reverse("economy_order", args=[SLUG, kind]), data, follow=True)
    said = [str(m) for m in page.context["messages"]]
    assert said == ["Only a faction's player gives its economy orders (not_commander)."]
    assert not Order.objects.exists()
    assert Faction.objects.get(key="danes", campaign__slug=SLUG).upkeep_priority == ["d1"]
    assert not AuditEntry.objects.filter(action__in=("upkeep priority", "moderator_order"))


def test_the_moderators_api_key_gives_no_orders(client, people) -> None:
    key = token_issue(membership=people["mod"].memberships.get())
    auth = {"Authorization": f"Bearer {key}"}
    answer = client.post(
        f"/api/campaigns/{SLUG}/orders",
        json.dumps({"order": {"fleet": "d1", "type": "hold"}}),
        content_type="application/json",
        headers=auth,
    )
    assert answer.status_code == 400
    assert answer.json()["code"] == "not_commander"
    gone = client.delete(f"/api/campaigns/{SLUG}/orders/fleet:d1", headers=auth)
    assert gone.status_code == 400
    assert not Order.objects.exists()
    assert audited() == []


# ---- The moderator on one faction's desk (?faction=): its economy too ------------------------


def faction_desk(faction: str) -> str:
    return reverse("desk", args=[SLUG]) + f"?faction={faction}"


def economy(client, kind: str, data: dict) -> list[str]:
    response = client.post(reverse("economy_order", args=[SLUG, kind]), data, follow=True)
    return [str(m) for m in response.context["messages"]]


def test_the_moderator_opens_a_factions_desk(client, people) -> None:
    client.force_login(people["mod"])
    page = client.get(reverse("desk", args=[SLUG])).content.decode()
    assert f'href="{faction_desk("danes")}"' in page  # a link to each faction's desk
    page = client.get(faction_desk("danes")).content.decode()
    assert "(the moderator on its desk)" in page
    assert 'id="d1"' in page
    assert 'id="s1"' not in page  # the Danes' fleets only
    assert 'id="economy"' in page  # and their economy
    assert page.count('name="faction" value="danes"') >= 4  # every form says whose desk
    assert client.get(faction_desk("atlantis")).status_code == 404
    client.force_login(people["swedes"])  # a player's `faction` is not read: their own desk
    page = client.get(faction_desk("danes")).content.decode()
    assert 'id="s1"' in page
    assert 'id="d1"' not in page


def test_an_economy_order_on_a_factions_desk_needs_a_reason_and_is_audited(client, people):
    client.force_login(people["mod"])
    hire = {"hire-port": "copenhagen", "hire-ship_type": "frigate", "hire-count": 1}
    said = economy(client, "hire", hire | {"faction": "danes"})
    assert said == [
        "Say why you give this order: the reason goes to the audit log (reason_required)."
    ]
    assert not Order.objects.exists()
    said = economy(client, "hire", hire | {"faction": "danes", "reason": "ordered by letter"})
    assert said == ["Hire 1 × Frigate at copenhagen: recorded for the economy phase."]
    order = Order.objects.get()
    assert (order.faction.key, order.payload["faction"]) == ("danes", "danes")
    [entry] = audited()
    assert entry.detail["summary"] == "Hire 1 × Frigate at copenhagen"
    assert entry.reason == "ordered by letter"
    # Withdrawn from the faction's desk: audited too.
    said = economy(client, "withdraw", {"slot": order.slot, "faction": "danes", "reason": "r"})
    assert said == ["Economy order withdrawn."]
    assert [e.action for e in audited()] == ["moderator_order", "moderator_withdraw"]


def test_the_upkeep_priority_on_a_factions_desk_needs_a_reason(client, people) -> None:
    client.force_login(people["mod"])
    danes = Faction.objects.get(key="danes", campaign__slug=SLUG)
    said = economy(client, "priority", {"priority": "d2, d1", "faction": "danes"})
    assert "(reason_required)" in said[0]
    danes.refresh_from_db()
    assert danes.upkeep_priority == ["d1"]
    said = economy(client, "priority", {"priority": "d2, d1", "faction": "danes", "reason": "x"})
    assert said == ["Upkeep priority saved (U2)."]
    danes.refresh_from_db()
    assert danes.upkeep_priority == ["d2", "d1"]
    entry = AuditEntry.objects.get(action="upkeep priority")
    assert (entry.reason, entry.user) == ("x", people["mod"])


def test_a_fleet_order_on_a_factions_desk_goes_back_to_it(client, people) -> None:
    client.force_login(people["mod"])
    given = client.post(
        order_url("d1"), form("d1", "by letter", type="hold") | {"faction": "danes"}
    )
    assert given.status_code == 302
    assert given["Location"].endswith(faction_desk("danes") + "#d1")
    assert audited()[0].detail["faction"] == "danes"
    # Another faction's fleet is not on the Danes' desk.
    other = client.post(order_url("s1"), form("s1", "r", type="hold") | {"faction": "danes"})
    assert other.status_code == 404
    assert Order.objects.count() == 1
