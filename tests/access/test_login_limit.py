"""Failed logins are limited per user name and per client address, on the site's login page and
the admin's; bad API keys per address. Counted in the real cache (the process's memory, as in
tests and `make run`; Redis in production, tested at the end on the tests' Redis)."""

from __future__ import annotations

import os
import time
import uuid

import pytest
from django.core.cache.backends.redis import RedisCache
from django.test import Client
from django.urls import reverse

from fleets.services import token_issue
from throttle.limiter import Limit, blocked_until, client_address, failure_record, failures_forget
from throttle.login import KNOWN_COOKIE

pytestmark = pytest.mark.django_db
LOGIN = reverse("login")
ADMIN_LOGIN = reverse("admin:login")


def log_in(client: Client, name: str, password: str, address: str = "10.0.0.1", url=LOGIN):
    return client.post(url, {"username": name, "password": password}, REMOTE_ADDR=address)


def fail(client: Client, name: str, times: int, address: str = "10.0.0.1", url=LOGIN) -> None:
    for _ in range(times):
        assert log_in(client, name, "wrong", address, url).status_code == 200


def test_five_failures_lock_the_name_with_a_clear_refusal(client, people) -> None:
    fail(client, "danes", 5)
    refused = log_in(client, "danes", "pw")  # the right password, but too late
    assert refused.status_code == 429
    page = refused.content.decode()
    assert "Too many failed logins" in page
    assert "Try again after" in page
    assert "(login_throttled)" in page
    assert 800 < int(refused["Retry-After"]) <= 900
    assert "_auth_user_id" not in client.session


def test_the_name_is_locked_from_every_address(client, people) -> None:
    fail(client, "danes", 5, address="10.0.0.1")
    assert log_in(Client(), "danes", "pw", address="10.9.9.9").status_code == 429
    assert log_in(Client(), "swedes", "pw", address="10.9.9.9").status_code == 302  # others not


def test_a_stranger_cannot_lock_the_player_out_of_their_own_browser(people) -> None:
    """The trade-off: the player's browser has logged in before and counts apart."""
    players_browser = Client()
    assert log_in(players_browser, "danes", "pw", address="10.0.0.7").status_code == 302
    assert KNOWN_COOKIE in players_browser.cookies
    players_browser.post(reverse("logout"))  # (Client.logout() would drop every cookie)
    fail(Client(), "danes", 5, address="10.6.6.6")  # someone else, elsewhere
    assert log_in(Client(), "danes", "pw", address="10.0.0.8").status_code == 429
    assert log_in(players_browser, "danes", "pw", address="10.0.0.7").status_code == 302


def test_the_known_browser_has_its_own_limit(people) -> None:
    browser = Client()
    log_in(browser, "danes", "pw")
    browser.post(reverse("logout"))
    fail(browser, "danes", 5)
    assert log_in(browser, "danes", "pw").status_code == 429


def test_a_success_clears_the_names_failures(client, people) -> None:
    fail(client, "danes", 4)
    assert log_in(client, "danes", "pw").status_code == 302
    client.logout()
    fail(client, "danes", 4)
    assert log_in(client, "danes", "pw").status_code == 302


def test_twenty_failures_lock_the_address_whatever_the_names(client, people) -> None:
    for n in range(20):
        fail(client, f"guess{n}", 1, address="10.0.0.66")
    assert log_in(client, "swedes", "pw", address="10.0.0.66").status_code == 429
    assert log_in(Client(), "swedes", "pw", address="10.0.0.67").status_code == 302


def test_the_admin_login_is_limited_too(client, people) -> None:
    fail(client, "mod", 5, url=ADMIN_LOGIN)
    refused = log_in(client, "mod", "pw", url=ADMIN_LOGIN)
    assert refused.status_code == 429
    assert "(login_throttled)" in refused.content.decode()
    assert log_in(Client(), "mod", "pw", url=LOGIN).status_code == 429  # one count per name


def test_a_right_password_without_admin_access_is_not_a_failure(client, people) -> None:
    for _ in range(6):  # a player (not staff) at the admin's login page
        assert log_in(client, "danes", "pw", url=ADMIN_LOGIN).status_code == 200
    assert log_in(client, "danes", "pw").status_code == 302


def test_bad_api_keys_are_limited_per_address(client, people) -> None:
    good = token_issue(membership=people["danes"].memberships.get())
    for _ in range(20):
        response = client.get(
            "/api/me", headers={"Authorization": "Bearer nope"}, REMOTE_ADDR="10.0.0.5"
        )
        assert response.status_code == 401
    refused = client.get(
        "/api/me", headers={"Authorization": f"Bearer {good}"}, REMOTE_ADDR="10.0.0.5"
    )
    assert refused.status_code == 429
    assert refused.json()["code"] == "api_key_throttled"
    assert "Try again after" in refused.json()["message"]
    assert int(refused["Retry-After"]) > 0
    elsewhere = client.get(
        "/api/me", headers={"Authorization": f"Bearer {good}"}, REMOTE_ADDR="10.0.0.6"
    )
    assert elsewhere.status_code == 200


def test_the_client_address_behind_a_proxy(rf, settings) -> None:
    request = rf.get("/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.9")
    assert client_address(request) == "10.0.0.1"  # the header is ignored unless trusted
    settings.CLIENT_ADDRESS_HEADER = "HTTP_X_FORWARDED_FOR"
    assert client_address(request) == "203.0.113.9"  # the proxy's, not the client's claim
    six = rf.get("/", REMOTE_ADDR="2001:db8::1:2:3:4")
    settings.CLIENT_ADDRESS_HEADER = ""
    assert client_address(six) == "2001:db8::/64"


SHORT = Limit("test-short", attempts=2, window=1)


def windows_end(store) -> None:
    who = f"someone-{uuid.uuid4().hex}"
    failure_record(SHORT, who, store=store)
    assert blocked_until(SHORT, who, store=store) is None
    failure_record(SHORT, who, store=store)
    assert blocked_until(SHORT, who, store=store) is not None
    time.sleep(1.2)
    assert blocked_until(SHORT, who, store=store) is None  # the window is over
    failure_record(SHORT, who, store=store)
    failure_record(SHORT, who, store=store)
    failures_forget(SHORT, who, store=store)
    assert blocked_until(SHORT, who, store=store) is None


def test_the_window_ends_in_memory() -> None:
    from django.core.cache import cache

    windows_end(cache)


def test_the_window_ends_on_redis() -> None:
    """The production cache: the tests' Redis database (TEST_BROKER_URL), only our own keys."""
    url = os.environ.get("TEST_BROKER_URL", "redis://127.0.0.1:6379/15")
    store = RedisCache(url, {"KEY_PREFIX": f"test-throttle-{uuid.uuid4().hex}"})
    try:
        store.get("ping")
    except Exception as error:  # no Redis on this machine
        pytest.skip(f"no Redis at {url}: {error}")
    windows_end(store)


UNREACHABLE = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",  # a closed port: Redis down
        "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
    }
}


def test_with_the_cache_down_logins_still_work_uncounted(people, settings, caplog) -> None:
    """Redis down must not lock everyone out: the limiter lets attempts through uncounted and
    says so in the log (fail open)."""
    settings.CACHES = UNREACHABLE  # Django's test signals rebuild the cache handler
    client = Client()
    fail(client, "danes", 6)  # past the limit, but nothing can be counted
    assert log_in(client, "danes", "pw").status_code == 302
    assert "cache is unreachable" in caplog.text
