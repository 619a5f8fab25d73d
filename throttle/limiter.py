"""Counting failures in Django's cache, in fixed windows: after `attempts` failures within
`window` seconds of the first, the caller is refused until the window ends.

The cache is Redis in production (config/settings.py: CACHE_URL, or the broker's Redis), so
every web process shares the counts; the process's memory by default (one process). Keys hold a
hash of who is counted (a user name, an address), never the name itself.

When the cache cannot be reached (Redis down or stuck: its socket timeouts are 2 s), the limiter
lets the attempt through uncounted and logs a warning: locking every player and moderator out of
the site for as long as Redis is down would be worse than pausing the count (docs/reliability.md).
"""

from __future__ import annotations

import hashlib
import ipaddress
import logging
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Limit:
    name: str
    attempts: int  # failures allowed in a window; the next attempt is refused
    window: int  # seconds, from the first failure


MINUTES_15 = 15 * 60
# A user name tried from anywhere but a browser where that user has logged in before.
LOGIN_PER_NAME = Limit("login-name", 5, MINUTES_15)
# The same user name from a browser that has logged in as that user before (login.KNOWN_COOKIE):
# its own count, so that strangers' failures never lock the player out of their own browser.
LOGIN_PER_NAME_KNOWN = Limit("login-known", 5, MINUTES_15)
# One client address, whatever the names: higher, as players may share an address.
LOGIN_PER_ADDRESS = Limit("login-address", 20, MINUTES_15)
# Bad API keys (Bearer) from one client address.
API_KEY_PER_ADDRESS = Limit("api-key-address", 20, MINUTES_15)


def blocked_until(limit: Limit, who: str, *, store: Any = None) -> datetime | None:
    """When `who` may try again, if it has used up its attempts; None if it may try now."""
    store = store or cache
    key = _key(limit, who)
    try:
        if (store.get(key) or 0) < limit.attempts:
            return None
        end = store.get(key + ":until") or time.time() + limit.window
    except Exception as error:  # redis-py's ConnectionError, TimeoutError …: fail open
        _unreachable(limit, error)
        return None
    return datetime.fromtimestamp(end, UTC)


def failure_record(limit: Limit, who: str, *, store: Any = None) -> None:
    """One more failure of `who`; the first opens the window."""
    store = store or cache
    key = _key(limit, who)
    try:
        store.add(key + ":until", time.time() + limit.window, limit.window)
        store.add(key, 0, limit.window)
        try:
            store.incr(key)
        except ValueError:  # the window ended between add and incr: this failure opens a new one
            store.set(key, 1, limit.window)
    except Exception as error:
        _unreachable(limit, error)


def failures_forget(limit: Limit, who: str, *, store: Any = None) -> None:
    store = store or cache
    key = _key(limit, who)
    try:
        store.delete_many([key, key + ":until"])
    except Exception as error:
        _unreachable(limit, error)


def _unreachable(limit: Limit, error: Exception) -> None:
    log.warning("%s limiter: the cache is unreachable, not counting (%s)", limit.name, error)


def client_address(request: HttpRequest) -> str:
    """The client's address: REMOTE_ADDR, or — behind a proxy, when CLIENT_ADDRESS_HEADER names
    the header it sets (e.g. HTTP_X_FORWARDED_FOR) — the last address in that header, the one the
    proxy itself added (the earlier ones are the client's word). An IPv6 address counts as its
    /64 network, which one subscriber usually holds whole."""
    header = getattr(settings, "CLIENT_ADDRESS_HEADER", "")
    raw = request.META.get(header, "") if header else ""
    text = raw.split(",")[-1].strip() if raw else request.META.get("REMOTE_ADDR", "")
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return text or "unknown"
    if address.version == 6:
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


def _key(limit: Limit, who: str) -> str:
    digest = hashlib.sha256(who.encode()).hexdigest()[:32]
    return f"throttle:{limit.name}:{digest}"
