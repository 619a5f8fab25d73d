"""Written orders through the API (issue 21 §1): POST /campaigns/{slug}/orders with a
`text/plain` body, given line by line as the desk's paste box gives them and answered line by
line in JSON; a JSON body is as before. Bad text is answered, never a 500."""

from __future__ import annotations

import json

import pytest

from campaign import lifecycle
from fleets.models import Order
from fleets.services import token_issue

pytestmark = pytest.mark.django_db
SLUG = "skirmish-in-the-sound"
ORDERS = f"/api/campaigns/{SLUG}/orders"


@pytest.fixture
def danes(people) -> str:
    return token_issue(membership=people["danes"].memberships.get())


def post_text(client, key: str | None, body: bytes | str, content_type: str = "text/plain"):
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    return client.post(ORDERS, data=body, content_type=content_type, headers=headers)


def test_a_text_body_is_answered_line_by_line(client, danes) -> None:
    text = "d1: Kattegat; evade\n\nd1x: hold\nhire 1 frigate at Malmö\n"
    response = post_text(client, danes, text)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    answer = response.json()
    assert (answer["accepted"], answer["unchanged"], answer["refused"]) == (1, 0, 2)
    first, second, third = answer["lines"]
    assert first["line"] == 1
    assert first["outcome"] == "accepted"
    assert first["summary"] == "Sail to kattegat"
    assert first["written"] == "d1: kattegat; evade"
    assert first["order"]["stance"] == "evade"
    assert (second["line"], second["code"]) == (3, "unknown_fleet")
    assert second["message"] == 'there is no fleet called "d1x"'
    assert (third["line"], third["code"]) == (4, "not_friendly_port")  # a Swedish port (P1)
    assert list(Order.objects.values_list("slot", flat=True)) == ["fleet:d1"]
    again = post_text(client, danes, "d1: kattegat; evade").json()
    assert again["lines"][0]["outcome"] == "unchanged"
    assert Order.objects.count() == 1


def test_the_json_body_is_as_before(client, danes) -> None:
    response = client.post(
        ORDERS,
        data=json.dumps({"order": {"fleet": "d1", "type": "hold"}}),
        content_type="application/json",
        headers={"Authorization": f"Bearer {danes}"},
    )
    assert response.status_code == 201
    assert response.json()["slot"] == "fleet:d1"


def test_a_text_body_needs_a_key_and_an_open_turn(client, danes, open_skirmish) -> None:
    assert post_text(client, None, "d1: hold").status_code == 401
    assert post_text(client, "not-a-key", "d1: hold").status_code == 401
    lifecycle.turn_lock(open_skirmish.current_turn, user=None)
    closed = post_text(client, danes, "d1: hold")
    assert closed.status_code == 400
    assert closed.json()["code"] == "turn_closed"
    assert Order.objects.count() == 0


def test_the_moderators_key_gives_no_written_orders(client, people) -> None:
    key = token_issue(membership=people["mod"].memberships.get(campaign__slug=SLUG))
    response = post_text(client, key, "d1: hold")
    assert response.status_code == 400
    assert response.json()["code"] == "not_commander"


@pytest.mark.parametrize(
    "body",
    [
        b"\n \n",
        b"\xff\xfe not utf-8",
        b"\x00",
        b"d1: hold\x00",
        b"x" * 70_000,
        ("d1: " + "→" * 3000).encode(),
        b"d1: hold\n" * 201,
    ],
)
def test_bad_text_is_a_clear_answer_and_changes_nothing(client, danes, body: bytes) -> None:
    response = post_text(client, danes, body, content_type="text/plain; charset=utf-8")
    assert response.status_code in (200, 400)
    answer = response.json()
    if response.status_code == 400:
        assert answer["code"] == "invalid_order"
        assert answer["message"]
    else:
        assert answer["accepted"] == 0
        assert answer["refused"] >= 1
    assert Order.objects.count() == 0


def test_the_schema_documents_the_text_body(client) -> None:
    schema = client.get("/api/openapi.json").json()
    operation = schema["paths"]["/api/campaigns/{slug}/orders"]["post"]
    content = operation["requestBody"]["content"]
    assert set(content) == {"application/json", "text/plain"}
    assert "200" in operation["responses"]
    assert not any(path.endswith("/orders/text") for path in schema["paths"])


@pytest.mark.parametrize("hidden", ["s3", "p1"])
def test_a_fleet_out_of_sight_reads_as_one_that_does_not_exist_r45(client, people, hidden) -> None:
    """Under fog the Hanse cannot see s3 (at Kalmar) nor p1: written orders naming them are
    answered exactly as for a fleet that does not exist."""
    key = token_issue(membership=people["hanse"].memberships.get())

    def answer(fleet: str) -> list[dict]:
        text = f"{fleet}: hold\nrepair {fleet}\nbuy out {fleet} with h1\nupkeep priority {fleet}"
        lines = post_text(client, key, text).json()["lines"]
        return [{k: v for k, v in line.items() if k != "text"} for line in lines]

    seen = answer(hidden)
    unknown = answer("zz9")
    assert [line["code"] for line in seen] == ["unknown_fleet"] * 4
    assert json.dumps(seen).replace(hidden, "zz9") == json.dumps(unknown)
    assert Order.objects.count() == 0
