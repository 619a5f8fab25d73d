"""Django for the end-to-end benchmark: a fresh database, tables created, Celery in-process."""

from __future__ import annotations

import os
import tempfile


def setup_django() -> str:
    """Point Django at a fresh database (a temporary SQLite file, or the empty database named by
    BENCH_DATABASE_URL), create the tables; the database's vendor. Call before importing
    bench.database."""
    url = os.environ.get("BENCH_DATABASE_URL")
    if not url:
        url = f"sqlite:///{tempfile.mkdtemp(prefix='admiralty-bench-')}/bench.sqlite3"
    os.environ["DATABASE_URL"] = url
    os.environ.pop("CELERY_BROKER_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django
    from django.core.management import call_command
    from django.db import connection

    django.setup()
    call_command("migrate", verbosity=0)
    return str(connection.vendor)
