"""A JSON document that is only ever written and read whole: a turn's scenario and result.

On PostgreSQL Django's JSONField is `jsonb`, which the server parses into its binary form on the
way in and prints back to text on the way out — worth it for a column that is queried inside, a
cost for one that is not. A 2,000-fleet turn's result is 3.4 MB of JSON; stored as `json` (the
text kept as sent, only checked to be JSON) it is written about 2.5× and read about 4× faster
than as `jsonb` (docs/benchmarks.md). Nothing queries inside these documents (no lookups on
their keys), so this field stores them as `json`. Elsewhere (SQLite) it is Django's JSONField
unchanged; in Python it is a dict either way.
"""

from __future__ import annotations

from typing import Any

from django.db import models


class DocumentField(models.JSONField):  # type: ignore[type-arg]
    description = "A JSON document read and written whole (PostgreSQL: json, not jsonb)"

    def db_type(self, connection: Any) -> str | None:
        if connection.vendor == "postgresql":
            return "json"
        return super().db_type(connection)

    def get_db_prep_value(self, value: Any, connection: Any, prepared: bool = False) -> Any:
        if connection.vendor != "postgresql":
            return super().get_db_prep_value(value, connection, prepared)
        from psycopg.types.json import Json

        if not prepared:
            value = self.get_prep_value(value)
        return Json(value)  # sent as `json`: Django's adapter would send `jsonb`

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Any:
        # psycopg decodes a `json` column itself (Django registers a text loader only for jsonb).
        if value is None or not isinstance(value, str | bytes):
            return value
        return super().from_db_value(value, expression, connection)
