"""The settings module wires Django, the database and Celery together as documented."""

import os

import dj_database_url
import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection

from config import celery_app


@pytest.mark.django_db
def test_system_check_passes_and_database_matches_database_url() -> None:
    call_command("check", fail_level="WARNING")

    url = os.environ.get("DATABASE_URL", f"sqlite:///{settings.BASE_DIR / 'db.sqlite3'}")
    expected_engine = dj_database_url.parse(url)["ENGINE"]
    assert connection.settings_dict["ENGINE"] == expected_engine
    connection.ensure_connection()
    if "DATABASE_URL" not in os.environ:
        assert connection.vendor == "sqlite"
        assert connection.settings_dict["OPTIONS"]["transaction_mode"] == "IMMEDIATE"


@pytest.mark.skipif(
    bool(os.environ.get("CELERY_BROKER_URL")), reason="eager mode is only used without a broker"
)
def test_celery_app_runs_tasks_eagerly_without_a_broker() -> None:
    assert celery_app.main == "admiralty"
    assert celery_app.conf.task_always_eager is True
    assert celery_app.conf.task_eager_propagates is False  # a failed turn, not a 500
    assert celery_app.conf.task_acks_late is True

    @celery_app.task
    def add(a: int, b: int) -> int:
        return a + b

    assert add.delay(2, 3).get() == 5
