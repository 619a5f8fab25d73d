"""The moderator's dashboard of a seafaring game (issue 13, "Moderating"): what it shows, and
its buttons — undo again and again, act for a player, award special points, pause and resume,
replace a player — each refused with its code and plain words when it cannot be done, audited
when it is done, htmx and plain forms alike."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.urls import reverse

from campaign.models import AuditEntry
from engine.seafarers import legal_actions
from seafarers.boards import bundled_document
from seafarers.models import Action, Game
from seafarers.moderate_forms import action_key
from seafarers.positions import replay, waiting_for
from seafarers.selectors import game_get_for_user
from seafarers.services import game_create, game_start
from seafarers.views.moderate import time_taken
from tests.seafarers.helpers import play_one, play_until, position
from tests.seafarers.offer_helpers import seeded_isles

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def url(name, *args):
    return reverse(name, args=["isles", *args])


@pytest.fixture
def mod(client, people):
    client.force_login(people["mod"])
    return client


def snapshot(game):
    game.refresh_from_db()
    return (game.log_length, game.status, game.state, list(game.actions.values_list("action")))


def button(client, game, name, **data):
    game.refresh_from_db()
    return client.post(
        url("seafarers_game_action", name), {"index": game.log_length, **data}, **HTMX
    )


def test_the_dashboard_shows_status_turn_seats_board_and_log(mod, game):
    play_one(game)  # red's first setup settlement
    page = mod.get(url("seafarers_moderate")).content.decode()
    assert "setup" in page
    assert "red to play (setup route)" in page
    assert "Waiting for: <strong>red</strong> (ann, to play)" in page
    assert "<svg" in page  # the board, drawn whole
    assert "build a settlement at the " in page  # the last action, in the players' words
    assert f"seed {game.first_position['seed']}" in page
    assert "Export as a scenario file" in page
    # What cannot be done says why, with its code.
    assert "Start (draw the seed" not in page  # once started, never again
    assert "<code>not_paused</code>" in page


def test_a_new_game_offers_start_and_nothing_else(mod, people):
    created = game_create(
        name="Isles",
        slug="isles",
        moderator=people["mod"],
        board="small-isles",
        seats=["ann", "bob", None],
    )
    page = mod.get(url("seafarers_moderate")).content.decode()
    assert "<code>nothing_to_undo</code>" in page
    assert "<code>not_started</code>" in page
    response = button(mod, created, "start")
    assert "Started" in response.content.decode()
    created.refresh_from_db()
    assert created.status == Game.Status.SETUP
    assert isinstance(created.first_position["seed"], int)  # drawn and kept (G2)
    assert AuditEntry.objects.filter(campaign=created.campaign, action="game_start").exists()
    again = button(mod, created, "start")
    assert "<code>already_started</code>" in again.content.decode()


def test_undo_again_and_again_down_to_an_empty_log(mod, game):
    states = [snapshot(game)[2]]
    for _ in range(3):
        play_one(game)
        states.append(snapshot(game)[2])
    for expected in reversed(states[:-1]):
        response = button(mod, game, "undo", reason="appeal")
        assert response.status_code == 200
        assert "The last action is undone." in response.content.decode()
        game.refresh_from_db()
        # G3: the state is the log's replay without the action, exactly as it was.
        assert game.state == expected
        assert replay(game.first_position, game.actions.values_list("action", flat=True)).phase
    entries = AuditEntry.objects.filter(campaign=game.campaign, action="game_undo")
    assert [e.reason for e in entries] == ["appeal"] * 3
    assert entries.first().detail["undone"]["type"] == "build_settlement"
    response = button(mod, game, "undo", reason="appeal")
    assert "Refused: the log is empty. <small" in response.content.decode()
    assert "<code>nothing_to_undo</code>" in response.content.decode()


def test_a_stale_page_undoes_nothing(mod, game):
    play_one(game)
    shown = game.log_length
    play_one(game)  # a player acts after the page was shown
    before = snapshot(game)
    response = mod.post(url("seafarers_game_action", "undo"), {"index": shown}, **HTMX)
    assert "<code>game_moved_on</code>" in response.content.decode()
    assert snapshot(game) == before
    assert not AuditEntry.objects.filter(action="game_undo").exists()


def test_the_plain_form_redirects_with_the_outcome(mod, game):
    play_one(game)
    undo = url("seafarers_game_action", "undo")
    response = mod.post(undo, {"index": 1, "reason": "appeal"}, follow=True)
    assert response.redirect_chain[-1][0] == url("seafarers_moderate")
    assert "The last action is undone." in response.content.decode()
    response = mod.post(undo, {"index": 0, "reason": "appeal"}, follow=True)
    assert "Refused: the log is empty (nothing_to_undo)." in response.content.decode()
    response = mod.post(url("seafarers_game_action", "undo"), {"index": "x"}, follow=True)
    assert "(invalid_request)." in response.content.decode()


def test_act_for_a_player_needs_a_reason_and_is_marked_and_audited(mod, game):
    state = position(game)
    action = legal_actions(state, "red")[0]
    act = url("seafarers_act_for", "red")
    before = snapshot(game)
    data = {"act-red-index": 0, "act-red-action": action_key(action), "act-red-reason": " "}
    response = mod.post(act, data, **HTMX)
    assert "<code>reason_required</code>" in response.content.decode()
    assert snapshot(game) == before
    data["act-red-reason"] = "ann is away for a week"
    response = mod.post(act, data, **HTMX)
    assert "marked by_moderator" in response.content.decode()
    row = Action.objects.get(game=game, index=0)
    assert row.action == {**action, "by_moderator": True}  # G4
    assert row.sender == Action.Sender.MODERATOR
    entry = AuditEntry.objects.get(campaign=game.campaign, action="act_for:build_settlement")
    assert entry.reason == "ann is away for a week"
    assert entry.detail == {"index": 0, "player": "red"}
    # The page offers the next legal actions (red's setup route) with the log's new length.
    page = response.content.decode()
    assert 'name="act-red-index" value="1"' in page
    assert "build a road" in page or "build a ship" in page


def test_act_for_refusals_change_nothing(mod, game):
    act = url("seafarers_act_for", "red")
    before = snapshot(game)
    cases = [
        ({"act-red-action": "not json"}, "invalid_action"),
        ({"act-red-action": "[1]"}, "invalid_action"),
        ({"act-red-action": '{"type": "end_turn"}'}, "wrong_phase"),
        ({"act-red-action": '{"type": "roll", "dice": [6, 6]}'}, "invalid_action"),
        (
            {"act-red-action": '{"type": "build_settlement", "node": "0,0,N"}', "act-red-index": 5},
            "game_moved_on",
        ),
    ]
    for fields, code in cases:
        data = {"act-red-index": 0, "act-red-reason": "test", **fields}
        response = mod.post(act, data, **HTMX)
        assert f"<code>{code}</code>" in response.content.decode(), (fields, code)
        assert snapshot(game) == before
    blue = mod.post(
        url("seafarers_act_for", "green"),
        {"act-green-index": 0, "act-green-action": '{"type": "end_turn"}', "act-green-reason": "x"},
        **HTMX,
    )
    assert "<code>unknown_player</code>" in blue.content.decode()


def test_award_special_points_under_a_building(mod, game):
    play_one(game)  # red's first settlement
    node = game.state["players"][0]["settlements"][0]
    award = url("seafarers_award")
    before = snapshot(game)
    response = mod.post(award, {"index": 1, "building": f"red {node}", "points": 2}, **HTMX)
    assert "<code>reason_required</code>" in response.content.decode()
    assert snapshot(game) == before
    response = mod.post(
        award, {"index": 1, "building": f"blue {node}", "points": 2, "reason": "x"}, **HTMX
    )
    assert "Refused: " in response.content.decode()  # not blue's building (X19)
    assert snapshot(game) == before
    response = mod.post(
        award,
        {"index": 1, "building": f"red {node}", "points": 2, "reason": "the lighthouse"},
        **HTMX,
    )
    assert "Special points awarded." in response.content.decode()
    game.refresh_from_db()
    assert game.state["players"][0]["svp"] == [{"node": node, "points": 2, "island": None}]
    assert AuditEntry.objects.get(action="act_for:award_svp").reason == "the lighthouse"
    assert f'value="red {node}"' in response.content.decode()  # the building offered


def test_pause_and_resume(mod, game):
    response = button(mod, game, "pause", reason="holidays")
    assert "Paused" in response.content.decode()
    game.refresh_from_db()
    assert game.status == Game.Status.PAUSED
    page = response.content.decode()
    assert "<code>game_paused</code>" in page  # acting for a player is not offered
    assert "<code>cannot_pause</code>" in page
    state = position(game)
    act = mod.post(
        url("seafarers_act_for", "red"),
        {
            "act-red-index": 0,
            "act-red-reason": "x",
            "act-red-action": action_key(legal_actions(state, "red")[0]),
        },
        **HTMX,
    )
    assert "<code>game_paused</code>" in act.content.decode()
    assert button(mod, game, "pause").content.decode().count("<code>cannot_pause</code>") >= 1
    response = button(mod, game, "resume", reason="back")
    game.refresh_from_db()
    assert game.status == Game.Status.SETUP
    assert "<code>not_paused</code>" in button(mod, game, "resume").content.decode()
    reasons = dict(
        AuditEntry.objects.filter(action__in=("game_pause", "game_resume")).values_list(
            "action", "reason"
        )
    )
    assert reasons == {"game_pause": "holidays", "game_resume": "back"}


def test_replace_a_player_ends_the_old_players_access(mod, game, people):
    replace = url("seafarers_replace")
    response = mod.post(
        replace, {"index": 0, "player": "red", "username": "nobody", "reason": "x"}, **HTMX
    )
    assert "<code>invalid_request</code>" in response.content.decode()
    assert "no user named &#x27;nobody&#x27;" in response.content.decode()
    response = mod.post(
        replace, {"index": 0, "player": "red", "username": "bob", "reason": "x"}, **HTMX
    )
    assert "<code>bad_seats</code>" in response.content.decode()  # bob holds blue
    response = mod.post(
        replace, {"index": 0, "player": "red", "username": "dee", "reason": "ann left"}, **HTMX
    )
    assert "The seat is passed on." in response.content.decode()
    assert game.seats.get(player="red").user == people["dee"]
    assert game_get_for_user(people["dee"], "isles") == game
    with pytest.raises(Exception, match="No such game"):
        game_get_for_user(people["ann"], "isles")
    entry = AuditEntry.objects.get(action="seat_replace")
    assert (entry.reason, entry.detail["old"], entry.detail["new"]) == ("ann left", "ann", "dee")
    mod.post(replace, {"index": 0, "player": "blue", "username": "", "reason": "bot"}, **HTMX)
    seat = game.seats.get(player="blue")
    assert seat.bot
    assert seat.user is None


def test_the_pending_discards_after_a_seven(mod, people):
    # A fixed seed (the fixture's is drawn at the start, G2): some seeds' games end before a 7
    # makes anyone discard.
    game = seeded_isles(people["mod"], seed=5, name="Small Isles")
    play_until(game, lambda s: s.phase == "discard")
    state = position(game)
    owing = waiting_for(state)
    page = mod.get(url("seafarers_moderate")).content.decode()
    for player in owing:
        q = state.players.index(player)
        assert f"owes a discard of {state.discard[q]} (B11)" in page
        assert f'action="{url("seafarers_act_for", player)}"' in page  # act for each of them


def test_time_taken_from_the_actions_times():
    t0 = datetime(2026, 1, 1, tzinfo=UTC)
    rows = [
        {
            "action": {"type": "build_settlement", "player": "red"},
            "created_at": t0 + timedelta(hours=2),
        },
        {"action": {"type": "build_road", "player": "red"}, "created_at": t0 + timedelta(hours=3)},
        {
            "action": {"type": "build_settlement", "player": "blue"},
            "created_at": t0 + timedelta(hours=8),
        },
        {
            "action": {"type": "award_svp", "player": "red", "by_moderator": True},
            "created_at": t0 + timedelta(hours=9),
        },
    ]
    taken = time_taken(t0, rows, ["blue", "white"], t0 + timedelta(hours=10))
    # Red: 2 h + 1 h; blue: 5 h, then the wait since the last action (1 h); the award is the
    # moderator's time, nobody's; white waits with blue (a discard) and is counted too.
    assert taken == {
        "red": timedelta(hours=3),
        "blue": timedelta(hours=6),
        "white": timedelta(hours=1),
    }


# -- who may ---------------------------------------------------------------------------------
def test_everyone_but_the_moderator_gets_a_404_and_changes_nothing(client, game, people):
    play_one(game)
    other = game_create(
        name="Other",
        slug="other",
        moderator=people["dee"],
        board="small-isles",
        seats=["ann", "bob", "cid"],
    )
    assert other
    posts = [
        (url("seafarers_game_action", "undo"), {"index": 1}),
        (url("seafarers_game_action", "pause"), {"index": 1}),
        (url("seafarers_act_for", "blue"), {}),
        (url("seafarers_award"), {"index": 1, "building": "red x", "points": 1, "reason": "x"}),
        (url("seafarers_replace"), {"index": 1, "player": "red", "username": "dee"}),
    ]
    gets = [url("seafarers_moderate"), url("seafarers_export")]
    before = snapshot(game)
    # ann plays red, dee moderates another game, cid is a player too: none moderates this one.
    for name in ("ann", "dee", "cid"):
        client.force_login(people[name])
        for address in gets:
            assert client.get(address).status_code == 404, (name, address)
        for address, data in posts:
            assert client.post(address, data).status_code == 404, (name, address)
        # A slug with no game answers the same: the game's existence is not given away.
        assert client.get(reverse("seafarers_moderate", args=["nowhere"])).status_code == 404
    client.logout()
    for address in gets:
        response = client.get(address)
        assert response.status_code == 302
        assert "/accounts/login/" in response["Location"]
    assert client.post(posts[0][0], posts[0][1]).status_code == 302
    assert snapshot(game) == before
    assert not AuditEntry.objects.filter(campaign=game.campaign, action="game_undo").exists()


def test_buttons_need_post_and_csrf(game, people):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    strict.force_login(people["mod"])
    play_one(game)
    before = snapshot(game)
    assert strict.post(url("seafarers_game_action", "undo"), {"index": 1}).status_code == 403
    assert strict.get(url("seafarers_game_action", "undo")).status_code == 405
    assert strict.post(url("seafarers_game_action", "explode"), {"index": 1}).status_code == 403
    strict.logout()
    lax = Client()
    lax.force_login(people["mod"])
    assert lax.post(url("seafarers_game_action", "explode"), {"index": 1}).status_code == 404
    assert snapshot(game) == before


def test_a_graph_board_is_listed_not_drawn(mod, people):
    """A rule test's graph board (no hexes) has no geometry: the page says so, and works."""
    document = {
        "format": "seafarers-scenario/1",
        "dice": [[1, 2]],
        "board": {"edges": [["a", "b", "land"]]},
        "players": [{"id": "red"}, {"id": "blue"}],
        "turn": {"number": 4, "player": "red", "phase": "roll"},
        "actions": [{"type": "roll", "player": "red"}],
    }
    game_create(
        name="Graph",
        slug="isles",
        moderator=people["mod"],
        seats=["ann", "bob"],
        document=document,
        paused=True,
    )
    page = mod.get(url("seafarers_moderate")).content.decode()
    assert "with no hexes to draw" in page
    assert "roll the dice" in page
    assert "<code>game_paused</code>" in page


def test_the_pending_gold_picks(mod, people):
    """GD4: the players who owe gold picks are waited for, each with what they owe, and the
    moderator may pick for each of them."""
    document = bundled_document("small-isles")
    document["players"] = [
        {"id": "red", "gold_picks": 1},
        {"id": "blue"},
        {"id": "white", "gold_picks": 2},
    ]
    document["turn"] = {"number": 3, "player": "blue", "phase": "gold", "resume": "action"}
    document["actions"] = []
    game = game_create(
        name="Gold",
        slug="isles",
        moderator=people["mod"],
        seats=["ann", "bob", "cid"],
        document=document,
    )
    game_start(game=game, user=people["mod"])
    page = mod.get(url("seafarers_moderate")).content.decode()
    assert "<strong>red</strong> (ann, owes 1 gold pick(s) (GD4))" in page
    assert "<strong>white</strong> (cid, owes 2 gold pick(s) (GD4))" in page
    assert "blue</strong> (bob" not in page
    assert f'action="{url("seafarers_act_for", "white")}"' in page
    assert "take 2 brick for gold" in page


def test_undo_needs_a_reason_and_keeps_it_in_the_audit_log(mod, game):
    """G3, G4: an undo is an audited change of the moderator's, like acting for a player: with
    no reason it is refused `reason_required` in words and nothing changes; the reason given
    is the audit entry's."""
    play_one(game)
    before = snapshot(game)
    for reason in ("", "   "):
        page = button(mod, game, "undo", reason=reason).content.decode()
        assert "Refused: say why the last action is undone." in page
        assert "<code>reason_required</code>" in page
        assert snapshot(game) == before
    assert not AuditEntry.objects.filter(action="game_undo").exists()
    page = mod.get(url("seafarers_moderate")).content.decode()
    assert '<label for="undo-reason">Reason</label>' in page  # the undo form's field
    assert 'name="reason" id="undo-reason" maxlength="500" required' in page
    page = button(mod, game, "undo", reason="a misclick").content.decode()
    assert "The last action is undone." in page
    assert AuditEntry.objects.get(action="game_undo").reason == "a misclick"


def test_why_not_says_the_words_first_the_code_as_a_hint(mod, people):
    """What cannot be done says why in words; the code follows only as a small hint, for the
    moderator, and the disabled button carries the words too (its title)."""
    game_create(
        name="Isles",
        slug="isles",
        moderator=people["mod"],
        board="small-isles",
        seats=["ann", "bob"],
    )
    page = mod.get(url("seafarers_moderate")).content.decode()
    hint = '<small class="hint" title="the refusal\'s code, for the moderator"><code>'
    assert f'id="why-undo">The log is empty. {hint}nothing_to_undo</code></small>' in page
    assert f'id="why-resume">The game is not paused. {hint}not_paused</code></small>' in page
    assert 'disabled title="The log is empty" aria-describedby="why-undo"' in page
    assert f"The game has not started yet. {hint}not_started</code></small>" in page
    assert "<code>nothing_to_undo</code> the log is empty" not in page
    refused = button(mod, Game.objects.get(), "pause", reason="x").content.decode()
    assert f"Refused: a game that is new cannot be paused. {hint}cannot_pause</code>" in refused
    plain = mod.post(url("seafarers_game_action", "pause"), {"index": 0}, follow=True)
    assert "Refused: a game that is new cannot be paused (cannot_pause)." in plain.content.decode()


def test_the_seed_is_on_the_moderators_pages_only(client, game, people):
    """G2: the seed decides the dice to come; the moderator's status line shows it, the
    players' pages never."""
    play_one(game)
    client.force_login(people["mod"])
    assert (
        f"seed {game.first_position['seed']}"
        in client.get(url("seafarers_moderate")).content.decode()
    )
    client.force_login(people["ann"])
    for name in ("seafarers_desk", "seafarers_poll", "seafarers_log", "seafarers_table"):
        page = client.get(url(name)).content.decode()
        assert "seed" not in page.lower(), name


@pytest.mark.parametrize("htmx", [True, False])
def test_a_refused_replacement_is_shown_at_its_form_with_what_was_typed(mod, game, htmx):
    """The refusal stands beside the replace form, not on top of the page, and the seat, the
    user name and the reason typed are kept to correct; nothing changes."""
    before = snapshot(game)
    data = {"index": 0, "player": "white", "username": "bob", "reason": "cid moved away"}
    response = mod.post(url("seafarers_replace"), data, **(HTMX if htmx else {}))
    assert response.status_code == 200
    page = response.content.decode()
    form_at = page.index('action="' + url("seafarers_replace") + '"')
    refusal_at = page.index('id="replace-refusal"')
    assert page.index("<h2>Replace a player</h2>") < refusal_at < form_at
    assert page.count('class="note refused"') == 1  # not on top as well
    assert "<code>bad_seats</code>" in page[refusal_at:form_at]
    form = page[form_at : page.index("</form>", form_at)]
    assert '<option value="white" selected>' in form
    assert 'value="bob"' in form
    assert 'value="cid moved away"' in form
    assert f'name="index" value="{game.log_length}"' in form
    assert snapshot(game) == before
    assert game.seats.get(player="white").user.username == "cid"
