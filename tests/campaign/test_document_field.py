"""A turn's documents (campaign/fields.py `DocumentField`) come back as they were written, on
SQLite and on PostgreSQL, and on PostgreSQL the `json` columns are read with the project's
orjson loader while Django's own `jsonb` columns still reach Django as text (a dict there would
break its JSONField)."""

from __future__ import annotations

import json

import pytest
from django.db import connection

from campaign.fields import loads
from campaign.models import Campaign, Turn

DOCUMENT = {
    "format": "naval-scenario/1",
    "seed": 2**31 - 1,
    "big": 2**70,  # beyond orjson's 64 bits: written and read by the standard library
    "names": ["Öresund", "Рига", "Göteborg"],
    "nested": {"list": [1, 2.5, None, True, {"x": []}]},
}


@pytest.mark.django_db
def test_a_document_comes_back_as_written() -> None:
    campaign = Campaign.objects.create(name="Documents", slug="documents")
    turn = Turn.objects.create(campaign=campaign, number=1, scenario=DOCUMENT, result=DOCUMENT)
    again = Turn.objects.get(pk=turn.pk)
    assert again.scenario == DOCUMENT
    assert again.result == DOCUMENT
    assert Turn.objects.filter(pk=turn.pk).values_list("scenario", flat=True).get() == DOCUMENT


def test_loads_reads_what_orjson_cannot() -> None:
    assert loads(b'{"a": 1}') == {"a": 1}
    assert loads(b'{"a": 1180591620717411303424}') == {"a": 2**70}
    with pytest.raises(json.JSONDecodeError, match="Expecting property name"):
        loads(b"{not json")


@pytest.mark.django_db
def test_on_postgresql_json_is_read_by_the_documents_loader_and_jsonb_left_to_django() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL's json and jsonb loaders (CI's second pass)")
    connection.ensure_connection()
    with connection.cursor() as cursor:
        cursor.execute("SELECT %s::json, %s::jsonb", ['{"a": [1, "Ö"]}', '{"b": 2}'])
        as_json, as_jsonb = cursor.fetchone()
    assert as_json == {"a": [1, "Ö"]}
    assert as_jsonb == '{"b": 2}'  # Django's TextLoader: its JSONField decodes it
    from psycopg.postgres import types

    loader = connection.connection.adapters.get_loader(types["json"].oid, 0)
    assert loader is not None
    assert loader.__name__.startswith("Document")
