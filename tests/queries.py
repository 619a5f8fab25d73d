"""How many database queries one page costs (the fixed-number-of-queries tests)."""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext


def page_queries(user: Any, url: str) -> tuple[int, int]:
    """(the status, the number of queries) of `url` fetched by `user`, logged in afresh."""
    client = Client()
    client.force_login(user)
    with CaptureQueriesContext(connection) as queries:
        status = client.get(url).status_code
    return status, len(queries)
