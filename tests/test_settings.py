"""The settings module wires Django, the database and Celery together as documented."""

import os
import subprocess
import sys

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


PRODUCTION = {
    "DEBUG": "false",
    "SECRET_KEY": "x7Jq2-production-like-key-for-the-deploy-check-9fK3mZpL0aQwErTyUiOp",
    "ALLOWED_HOSTS": "admiralty.example.org",
}
# Variables of this process that would change what the production settings are.
OURS = (
    "DEBUG",
    "HTTPS",
    "SECURE_SSL_REDIRECT",
    "SESSION_COOKIE_SECURE",
    "CSRF_COOKIE_SECURE",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD",
    "SECURE_PROXY_SSL_HEADER",
    "DJANGO_SETTINGS_MODULE",
    "DJANGO_ALLOW_ASYNC_UNSAFE",  # set by the browser tests for their own process (W: security)
)


def manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """`manage.py ARGS` in a fresh process with the production environment (and `env`)."""
    base = {k: v for k, v in os.environ.items() if k not in OURS}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=settings.BASE_DIR,
        env={**base, **PRODUCTION, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_production_settings_pass_the_deploy_check() -> None:
    done = manage("check", "--deploy", "--fail-level", "WARNING")
    assert done.returncode == 0, done.stderr
    assert "System check identified no issues (0 silenced)." in done.stdout
    assert "WARNING" not in done.stderr


def test_a_host_without_tls_turns_https_off_and_the_check_says_so() -> None:
    done = manage("check", "--deploy", "--fail-level", "WARNING", HTTPS="false")
    assert done.returncode != 0
    for warning in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert warning in done.stderr


def test_the_proxy_header_is_trusted_only_when_asked() -> None:
    show = "from django.conf import settings; print(settings.SECURE_PROXY_SSL_HEADER)"
    assert manage("shell", "-v", "0", "-c", show).stdout.strip() == "None"
    proxied = manage(
        "shell", "-v", "0", "-c", show, SECURE_PROXY_SSL_HEADER="HTTP_X_FORWARDED_PROTO"
    )
    assert proxied.stdout.strip() == "('HTTP_X_FORWARDED_PROTO', 'https')"


def test_production_hashes_passwords_with_djangos_default_and_only_the_tests_do_not() -> None:
    """tests/conftest.py gives the tests a fast hasher; the site keeps Django's own (PBKDF2)."""
    show = "from django.contrib.auth.hashers import get_hasher; print(get_hasher().algorithm)"
    assert manage("shell", "-v", "0", "-c", show).stdout.strip() == "pbkdf2_sha256"
    assert settings.PASSWORD_HASHERS == ["django.contrib.auth.hashers.MD5PasswordHasher"]
