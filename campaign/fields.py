"""A JSON document that is only ever written and read whole: a turn's scenario and result.

On PostgreSQL Django's JSONField is `jsonb`, which the server parses into its binary form on the
way in and prints back to text on the way out — worth it for a column that is queried inside, a
cost for one that is not. A 2,000-fleet turn's result is 3.4 MB of JSON; stored as `json` (the
text kept as sent, only checked to be JSON) it is written about 2.5× and read about 4× faster
than as `jsonb` (docs/benchmarks.md). Nothing queries inside these documents beyond taking one
key out of the result (its `state`, when publishing), so this field stores them as `json`.
Elsewhere (SQLite) the column is text, as Django's JSONField's is.

The documents are written with orjson, ten times faster than the standard library's `json.dumps`
on them (2 ms instead of 26 for that result, on every resolution; 1 ms instead of 12 for the
scenario, on every lock); anything orjson does not write (an integer beyond 64 bits) falls back to
the standard library. They are read with orjson too: where the text reaches Python (SQLite) in
`from_db_value`, and on PostgreSQL, where psycopg decodes a `json` column itself, through the
loader `use_orjson_loads` gives each new connection (campaign/apps.py): the 2,000-fleet turn's
task reads its 1.9 MB scenario and the publication its 3 MB result, each about a third faster
(the result fetched and decoded: 111 ms with the standard library, 80 ms with orjson, side by
side; the text alone arrives in 11 ms: making the objects is the cost).
"""

from __future__ import annotations

import json
from typing import Any

import orjson
from django.db import models


def dumps(value: Any) -> bytes:
    """The document as JSON text (UTF-8)."""
    try:
        return orjson.dumps(value)
    except TypeError:
        return json.dumps(value).encode()


def loads(data: str | bytes) -> Any:
    """A document's JSON text as Python; what orjson does not read (an integer beyond 64 bits,
    which `dumps` wrote with the standard library) is read by the standard library."""
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:
        return json.loads(data)


def use_orjson_loads(sender: Any, connection: Any, **_: Any) -> None:
    """`connection_created`: psycopg decodes this PostgreSQL connection's `json` columns (the
    documents') with `loads`. Only `json`: Django reads `jsonb` (its JSONField's) as text and
    decodes it itself, and a loader for it here would hand Django a dict instead."""
    if connection.vendor != "postgresql":
        return
    from psycopg.types.json import JsonBinaryLoader, JsonLoader

    for base in (JsonLoader, JsonBinaryLoader):
        loader = type(f"Document{base.__name__}", (base,), {"_loads": staticmethod(loads)})
        connection.connection.adapters.register_loader("json", loader)


class DocumentField(models.JSONField):  # type: ignore[type-arg]
    description = "A JSON document read and written whole (PostgreSQL: json, not jsonb)"

    def db_type(self, connection: Any) -> str | None:
        if connection.vendor == "postgresql":
            return "json"
        return super().db_type(connection)

    def get_db_prep_value(self, value: Any, connection: Any, prepared: bool = False) -> Any:
        if not prepared:
            value = self.get_prep_value(value)
        if value is None:
            return None
        if connection.vendor == "postgresql":
            from psycopg.types.json import Json

            return Json(value, dumps=dumps)  # as `json`: Django's adapter would say `jsonb`
        return dumps(value).decode()

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Any:
        if value is None or not isinstance(value, str | bytes):
            return value  # psycopg decodes a `json` column itself
        try:
            return orjson.loads(value)
        except orjson.JSONDecodeError:
            return value  # as Django's: a key's plain text from SQLite's JSON_EXTRACT
