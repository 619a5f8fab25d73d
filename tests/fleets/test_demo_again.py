"""A second `make run` keeps the data (issue 20 §4): the `demo` and `seafarers_demo` commands run
again change no game, reset no password and log no one out, and the banner says the data was
kept and how to start afresh."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from campaign.models import Campaign, Turn


def run_demos() -> str:
    out = StringIO()
    call_command("demo", "--address", "http://127.0.0.1:8001/", stdout=out)
    call_command("seafarers_demo", "--address", "http://127.0.0.1:8001/", stdout=out)
    return out.getvalue()


def logged_in(client: Client, username: str) -> bool:
    page = client.get(reverse("home")).content.decode()
    return f"<span>{username}</span>" in page and "Log out" in page


def games() -> list[tuple[object, ...]]:
    """Every campaign's turns, with their status."""
    return list(
        Turn.objects.order_by("campaign__slug", "number").values_list(
            "campaign__slug", "number", "status", "pk"
        )
    )


@pytest.mark.django_db
def test_a_second_run_keeps_games_passwords_and_sessions() -> None:
    first = run_demos()
    assert "A new demo, in " in first
    assert "The data of the last run was kept" not in first
    assert "Players (password admiralty): denmark" in first

    clients = {}
    for name in ("moderator", "denmark", "sailor1"):
        clients[name] = Client()
        assert clients[name].login(username=name, password="admiralty")
        assert logged_in(clients[name], name)
    sailor2 = get_user_model().objects.get(username="sailor2")
    sailor2.set_password("my own now")
    sailor2.save()
    seafaring = Campaign.objects.get(slug="four-islands-demo").seafaring_game
    before = (games(), seafaring.log_length, seafaring.status)
    hashes = dict(get_user_model().objects.values_list("username", "password"))

    again = run_demos()

    seafaring.refresh_from_db()
    assert (games(), seafaring.log_length, seafaring.status) == before
    assert dict(get_user_model().objects.values_list("username", "password")) == hashes
    for name, client in clients.items():
        assert logged_in(client, name), f"{name} was logged out by the second run"
    assert Client().login(username="sailor2", password="my own now")
    assert not Client().login(username="sailor2", password="admiralty")
    assert "The data of the last run was kept, in " in again
    assert "everyone still logged in" in again
    assert "To start afresh: stop the site,\ndelete " in again or "drop the database" in again
    assert "and run `make run` again." in again
    assert "/g/four-islands-demo/ (kept from the last run, as it stands)" in again
    assert "Players (password admiralty, unless changed since): denmark" in again
    assert "A new demo" not in again
