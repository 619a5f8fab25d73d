"""The moderator acts for a player on the board itself (G4, issue 20 §4): the dashboard draws
the board with the targets the seat's own desk draws — the same places, the same actions — and
the board's form posts a tapped one through `act_for`, audited with its reason; without a
reason nothing is sent and the panel says why."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest
from django.urls import reverse

from campaign.models import AuditEntry
from engine.seafarers import legal_actions
from seafarers.models import Action
from seafarers.services import action_submit, game_pause
from tests.seafarers.helpers import position
from tests.seafarers.play_helpers import desk_url, game_at_roll

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
RICH = {"brick": 6, "wood": 6, "wool": 6, "grain": 6, "ore": 6}
TARGET = re.compile(r'<a class="target [^"]*"[^>]*data-action="([^"]*)"')


def targets(html: str) -> set[str]:
    """The actions of the board's targets, as posted (JSON, unescaped)."""
    return {unescape(found) for found in TARGET.findall(html)}


def dashboard(client, game) -> str:
    return client.get(reverse("seafarers_moderate", args=[game.campaign.slug])).content.decode()


@pytest.fixture
def rolled(people):
    """Small Isles after setup, red has rolled and holds cards for every piece (ann away)."""
    game = game_at_roll(people, hands={"red": RICH}, dice=[[6, 6]])
    action_submit(
        game=game, user=people["ann"], action={"type": "roll", "player": "red"}, expected_index=0
    )
    game.refresh_from_db()
    return game


def snapshot(game):
    game.refresh_from_db()
    return (game.log_length, game.state, list(game.actions.values_list("action")))


def test_the_board_offers_the_seats_targets_as_its_desk_does(client, people, rolled):
    client.force_login(people["ann"])
    desk = client.get(desk_url(rolled)).content.decode()
    client.force_login(people["mod"])
    page = dashboard(client, rolled)
    assert targets(desk), "red may build"
    assert targets(page) == targets(desk)
    assert 'id="board-form"' in page
    assert 'data-act-for="red"' in page
    assert "Act for red on the board" in page
    assert 'id="board-confirm"' in page  # the question a tap asks, as on the desk
    reason = re.search(r'<input [^>]*id="board-act-red-reason"[^>]*>', page).group(0)
    assert "required" in reason
    assert 'data-board-reason=""' in reason


def test_no_board_targets_when_nobody_may_act_on_a_place(client, people):
    """Red to roll: nothing names a place; paused: nothing is sent at all."""
    game = game_at_roll(people, dice=[[6, 6]])
    client.force_login(people["mod"])
    page = dashboard(client, game)
    assert targets(page) == set()
    assert 'id="board-form"' not in page
    game_pause(game=game, user=people["mod"], reason="a break")
    assert 'id="board-form"' not in dashboard(client, game)


def test_a_tapped_place_needs_a_reason_then_is_sent_marked_and_audited(client, people, rolled):
    client.force_login(people["mod"])
    page = dashboard(client, rolled)
    road = next(a for a in targets(page) if '"build_road"' in a)
    sent = json.loads(road)
    act = reverse("seafarers_act_for", args=[rolled.campaign.slug, "red"])
    before = snapshot(rolled)
    for reason in ("", "   "):
        data = {"act-red-index": 1, "act-red-action": json.dumps(sent), "act-red-reason": reason}
        refused = mod_post(client, act, data)
        assert "Refused: say why you act for the player." in refused
        assert "<code>reason_required</code>" in refused
        assert snapshot(rolled) == before
        assert not AuditEntry.objects.filter(action__startswith="act_for:").exists()
    data["act-red-reason"] = "ann is at sea until Friday"
    done = mod_post(client, act, data)
    assert "Sent for red; marked by_moderator in the log." in done
    row = Action.objects.get(game=rolled, index=1)
    assert row.action == {**sent, "by_moderator": True}  # G4
    assert row.sender == Action.Sender.MODERATOR
    entry = AuditEntry.objects.get(action="act_for:build_road")
    assert entry.reason == "ann is at sea until Friday"
    assert entry.user == people["mod"]
    # The panel comes back with red's next targets, the road built, the reason kept for them.
    assert {json.loads(a)["type"] for a in targets(done)} >= {"build_road"}
    assert road not in targets(done)
    assert targets(done)
    assert 'value="ann is at sea until Friday"' in done
    assert 'name="act-red-index" value="2"' in done
    # And the last actions say it in words.
    assert "build a road at the " in done


def test_a_forged_or_stale_board_post_changes_nothing(client, people, rolled):
    client.force_login(people["mod"])
    act = reverse("seafarers_act_for", args=[rolled.campaign.slug, "red"])
    state = position(rolled)
    # A place off the board (the seat is the address's: the post's "player" is not read).
    nowhere = {"type": "build_city", "player": "blue", "node": "9,9,N"}
    legal = [a for a in legal_actions(state, "red") if a["type"] == "build_road"]
    before = snapshot(rolled)
    cases = [
        ({"act-red-action": "{not json", "act-red-index": 1}, "invalid_action"),
        ({"act-red-action": json.dumps(nowhere), "act-red-index": 1}, None),
        ({"act-red-action": json.dumps(legal[0]), "act-red-index": 0}, "game_moved_on"),
        ({"act-red-action": json.dumps(legal[0]), "act-red-index": "x"}, "invalid_request"),
    ]
    for fields, code in cases:
        page = mod_post(client, act, {"act-red-reason": "test", **fields})
        assert "Refused: " in page
        if code:
            assert f"<code>{code}</code>" in page, (fields, page[:200])
        assert snapshot(rolled) == before


def mod_post(client, url, data) -> str:
    response = client.post(url, data, **HTMX)
    assert response.status_code == 200
    return response.content.decode()
