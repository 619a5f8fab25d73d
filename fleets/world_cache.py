"""The campaign's world, read and parsed once per version and kept in the process (issue 11).

Every desk request, order post and map read the whole world from the rows (`world_document`,
9 queries) and the desk and order post parsed it (`parse_scenario`): on the load bench's
campaign (100 factions, 500 fleets, 5,000 ships) about four fifths of a desk request's time
(docs/benchmarks.md, "The order desk, profiled"). The world changes rarely — a turn's
publication or rollback, a moderator's edit, a player's upkeep priority —, so a parsed copy is
kept here, in the process's memory, under the campaign's **world version**.

The version is a random token in the shared cache (Redis: every web process and worker sees the
same), replaced by `world_changed` after the commit of every write to the world's rows: the
models' save, delete and m2m signals (the admin, the dashboard, anything that saves), and the
bulk writers that pass no signal call it themselves (`fleets.mapping.apply_state`, the upkeep
priority's update). Why it cannot show a stale world:

- the token is replaced after the writer's commit, never before: a reader that takes the old
  token after the commit may keep the new world under it (harmless, the token is retired);
  one that took it before reads the old world under the old token, which no one uses after;
- a token that is missing (evicted, the cache flushed or restarted) is made anew, random, so no
  old copy is ever addressed by it; the key also holds the database's name and the campaign's
  creation time (a new campaign with a reused id in a re-made database is another key);
- a cache that cannot be reached, or one private to each process (a `LocMemCache` behind
  several processes: a bump in one would not reach the others), means no copy is kept: the
  world is read and parsed as before (`WORLD_CACHE` in the settings forces it on or off);
- a kept copy is also dropped after WORLD_CACHE_SECONDS, whatever its token.

What is kept is read-only for its users: the document (the rows as `world_document` gives them),
the parsed `World`, and what the desk computes from them alone (each fleet's legal orders, each
faction's visible fleets and watched seas, the map's layout).
"""

from __future__ import annotations

import functools
import hashlib
import logging
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction
from django.db.models.signals import m2m_changed, post_delete, post_save

from campaign.models import Campaign
from engine.naval import World, parse_scenario

log = logging.getLogger(__name__)
T = TypeVar("T")
WORLD_CACHE_SECONDS = 300.0  # a kept world's longest life in the process
VERSION_SECONDS = 7 * 24 * 3600  # the token's in the shared cache (a missing one is made anew)
KEPT = 4  # worlds kept per process (a big campaign's is some megabytes)
SHARED_BACKENDS = ("RedisCache", "PyMemcacheCache", "PyLibMCCache", "DatabaseCache")


@dataclass(slots=True)
class KeptWorld:
    """One version of a campaign's world, and what is computed from it alone."""

    version: str
    document: dict[str, Any]
    world: World
    made: float = field(default_factory=time.monotonic)
    memo: dict[Any, Any] = field(default_factory=dict)

    def computed(self, key: Any, compute: Callable[[], T]) -> T:
        """`compute()`'s value, computed once for this version (it must read only the world)."""
        if key not in self.memo:
            self.memo[key] = compute()
        value: T = self.memo[key]
        return value

    def shared(self, key: Any, compute: Callable[[], T]) -> T:
        """As `computed`, and kept in the shared cache too under this version's token, so that
        the other processes find it (issue 20: under load nearly every desk is a faction's first
        in its worker, and what one worker worked out the next may need). For what is slow to
        compute and deterministic given the world and `key` (which must say all else it reads);
        the value must pickle. A world not kept (no token) keeps nothing beyond the request."""
        if key in self.memo:
            found: T = self.memo[key]
            return found
        address = self._shared_key(key)
        value: Any = None
        if address is not None:
            try:
                value = cache.get(address)
            except Exception as error:  # as world_version: an unreachable cache is no cache
                log.warning("world cache unreachable, computing (%s)", error)
                address = None
        if value is None:
            value = compute()
            if address is not None and value is not None:
                try:
                    cache.set(address, value, WORLD_CACHE_SECONDS)
                except Exception as error:
                    log.warning("world cache unreachable, not kept (%s)", error)
        self.memo[key] = value
        kept: T = value
        return kept

    def prefetch(self, keys: list[Any]) -> None:
        """What the shared cache holds of these keys (for `shared`), read in one round trip
        instead of one each."""
        addresses = {}
        for key in keys:
            address = self._shared_key(key)
            if address is not None and key not in self.memo:
                addresses[address] = key
        if not addresses:
            return
        try:
            found = cache.get_many(list(addresses))
        except Exception as error:
            log.warning("world cache unreachable, computing (%s)", error)
            return
        for address, value in found.items():
            if value is not None:
                self.memo[addresses[address]] = value

    def _shared_key(self, key: Any) -> str | None:
        """The shared cache's address of `key` for this version: the token is random and
        renewed with every change of the world (`world_changed`), so an address is never
        stale; the key is hashed (any length, any characters)."""
        if not self.version:
            return None
        digest = hashlib.sha256(f"{_code()}|{key!r}".encode()).hexdigest()
        return f"world-kept:{self.version}:{digest}"


@functools.cache
def _code() -> str:
    """The hash of the code that makes what is shared (the desk's views, forms and templates,
    the engine's rules): a process running other code (a deploy rolling through the workers)
    never takes another's copy, which might be written otherwise."""
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for pattern in ("fleets/*.py", "templates/fleets/*.html", "engine/naval/*.py"):
        for path in sorted(root.glob(pattern)):
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


_kept: OrderedDict[tuple[Any, ...], KeptWorld] = OrderedDict()


def enabled() -> bool:
    wanted = getattr(settings, "WORLD_CACHE", None)
    if wanted is not None:
        return bool(wanted)
    backend = str(settings.CACHES.get("default", {}).get("BACKEND", ""))
    return backend.rsplit(".", 1)[-1] in SHARED_BACKENDS


def _version_key(campaign_id: int) -> str:
    return f"world-version:{connection.settings_dict['NAME']}:{campaign_id}"


def world_version(campaign_id: int) -> str | None:
    """The campaign's world version now (made if missing), or None if the cache is unreachable."""
    key = _version_key(campaign_id)
    try:
        version = cache.get(key)
        if version is None:
            cache.add(key, uuid.uuid4().hex, VERSION_SECONDS)  # the first of racing makers wins
            version = cache.get(key)
    except Exception as error:  # redis-py's ConnectionError, TimeoutError …
        log.warning("world cache unreachable, reading the world (%s)", error)
        return None
    return str(version) if version is not None else None


def world_changed(campaign_id: int) -> None:
    """The campaign's world rows are being written: a new version once the write commits."""
    key = _version_key(campaign_id)

    def bump() -> None:
        _forget(campaign_id)
        try:
            cache.set(key, uuid.uuid4().hex, VERSION_SECONDS)
        except Exception as error:
            try:  # a missing token is made anew; a stale one must not stay
                cache.delete(key)
            except Exception:
                log.error("world version of campaign %s not renewed (%s)", campaign_id, error)

    transaction.on_commit(bump)


def _forget(campaign_id: int) -> None:
    for key in [k for k in _kept if k[1] == campaign_id]:
        _kept.pop(key, None)


def kept_world(campaign: Campaign, read: Callable[[Campaign], dict[str, Any]]) -> KeptWorld:
    """The campaign's world now: the kept copy of this version, or read (`read`, the rows'
    document: `fleets.mapping.world_document`) and parsed, and kept."""
    version = world_version(campaign.pk) if enabled() else None
    if version is None:
        document = read(campaign)
        return KeptWorld("", document, parse_scenario(document).world)
    key = (connection.settings_dict["NAME"], campaign.pk, campaign.created_at, version)
    found = _kept.get(key)
    if found is not None and time.monotonic() - found.made < WORLD_CACHE_SECONDS:
        _kept.move_to_end(key)
        return found
    document = read(campaign)
    entry = KeptWorld(version, document, parse_scenario(document).world)
    _kept[key] = entry
    while len(_kept) > KEPT:
        _kept.popitem(last=False)
    return entry


# -- the writes that change the world -------------------------------------------------------------


def _changed(sender: Any, instance: Any, **_: Any) -> None:
    campaign_id = instance.pk if isinstance(instance, Campaign) else instance.campaign_id
    if campaign_id is not None:
        world_changed(campaign_id)


def _connect() -> None:
    from fleets.models import (
        Adjacency,
        Faction,
        Fleet,
        MapDrawing,
        NavalSettings,
        Port,
        Province,
        Relation,
        Ship,
        ShipType,
    )

    world = (Campaign, NavalSettings, Faction, Relation, Province, Adjacency, Port, ShipType)
    # NavalSettings: the world's `rules` (fleets 0008); MapDrawing: the map's layout (0009).
    for model in (*world, MapDrawing, Fleet, Ship):
        post_save.connect(_changed, sender=model, dispatch_uid=f"world-cache-save-{model.__name__}")
        post_delete.connect(
            _changed, sender=model, dispatch_uid=f"world-cache-del-{model.__name__}"
        )
    m2m_changed.connect(_changed, sender=Port.waters.through, dispatch_uid="world-cache-waters")


_connect()
