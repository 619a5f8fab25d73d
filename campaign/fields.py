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
the standard library. Reading gains less (a third), and is orjson's where the text reaches Python
(SQLite); psycopg decodes PostgreSQL's `json` with the standard library itself.
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
