"""Settings for every environment, read from environment variables.

Defaults are for development: DEBUG on, SQLite in the project folder, Celery tasks run inline.
Production sets DEBUG=false, SECRET_KEY, ALLOWED_HOSTS, DATABASE_URL and CELERY_BROKER_URL.
`make run` serves with DEBUG off too, on plain HTTP at 127.0.0.1, its key kept in a file
(SECRET_KEY_FILE) and its mail in files (the Makefile sets them; README, "Two commands").
"""

import os
import secrets
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, "").split(",") if item.strip()]


def secret_key_from_file(path: Path) -> str:
    """The key kept in `path`, made (random, readable by its owner only) on the first call: the
    same key on every run, so sessions and signed links outlive a restart of `make run`."""
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # made meanwhile by another process of the same run
        return path.read_text().strip()
    with os.fdopen(fd, "w") as out:
        out.write(secrets.token_urlsafe(50) + "\n")
    return path.read_text().strip()


DEBUG = env_bool("DEBUG", default=True)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY and os.environ.get("SECRET_KEY_FILE"):
    SECRET_KEY = secret_key_from_file(Path(os.environ["SECRET_KEY_FILE"]))
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    SECRET_KEY = "django-insecure-dev-only-never-use-in-production"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS")
# Webhooks on loopback, private, link-local, multicast or reserved addresses (campaign/webhooks.py)
WEBHOOK_ALLOW_PRIVATE = env_bool("WEBHOOK_ALLOW_PRIVATE", default=False)
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")  # e.g. https://admiralty.example.org

# HTTPS (README, "Production"): with DEBUG off the site is taken to be served over TLS — plain
# HTTP is redirected, cookies are sent only over TLS, browsers are told to use HTTPS only (HSTS)
# — so that `manage.py check --deploy` passes. HTTPS=false turns all of it off for a host with no
# TLS in front; each setting can also be set on its own.
HTTPS = env_bool("HTTPS", default=not DEBUG)
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=HTTPS)
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", default=HTTPS)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", default=HTTPS)
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", 31_536_000 if HTTPS else 0))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=HTTPS)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", default=HTTPS)
# Behind a proxy that ends TLS, Django sees plain HTTP; trust the proxy's header saying the
# request came over HTTPS only when told to (a client could send the header itself otherwise):
# SECURE_PROXY_SSL_HEADER=HTTP_X_FORWARDED_PROTO (the value "https" is implied).
if os.environ.get("SECURE_PROXY_SSL_HEADER"):
    SECURE_PROXY_SSL_HEADER = (os.environ["SECURE_PROXY_SSL_HEADER"], "https")
SESSION_COOKIE_HTTPONLY = True
# The client's address for the login limiter (throttle/): REMOTE_ADDR, or behind a proxy the
# header it sets, e.g. CLIENT_ADDRESS_HEADER=HTTP_X_FORWARDED_FOR (its last address is used).
CLIENT_ADDRESS_HEADER = os.environ.get("CLIENT_ADDRESS_HEADER", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    # runserver leaves static files to WhiteNoise, with DEBUG on or off (its docs' advice): one
    # way of serving them everywhere.
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "ninja",  # Swagger UI's scripts and styles for /api/docs, served by the site (no CDN)
    "campaign",
    "fleets",
    "battles",
    "rulebook",
    "seafarers",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Static files, with DEBUG off too (`make run`, gunicorn): from STATIC_ROOT, filled by
    # collectstatic; with DEBUG on straight from the apps (WHITENOISE_USE_FINDERS' default).
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language of the page (issue 22): the language cookie (the header's switcher, or the
    # account's choice set on login), else the browser's Accept-Language, else English. After
    # the session, before CommonMiddleware (Django's documented place).
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # A logged-in user's language kept on their account (campaign.UserLanguage) becomes the
    # language cookie when they log in, on any device (campaign/languages.py).
    "campaign.languages.AccountLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # A naval world the engine refuses: 409 world_invalid, not a 500 (docs/rulings.md R-74).
    "fleets.broken_world.BrokenWorldMiddleware",
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "campaign.languages.site_languages",  # the header's language switcher
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

# Database: DATABASE_URL, or SQLite beside manage.py.
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_health_checks=True,
    ),
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Tests use a file, not memory, so that a worker process can open the same database.
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / ".test-db.sqlite3")}
    # The web process and the worker write the same file: take the write lock at BEGIN,
    # wait for it instead of failing with "database is locked", and let readers run during writes.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": int(os.environ.get("SQLITE_TIMEOUT", "20")),  # seconds to wait for the lock
        "init_command": "PRAGMA journal_mode=WAL;",
    }

# Django 5.2's built-in default is AutoField; set it so no app gets models.W042.
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# The site's languages (issue 22; README, "Adding a language"): each named in its own language in
# the header's switcher. English is the source of every message; the others are the catalogues in
# locale/<code>/LC_MESSAGES/django.po, compiled by `make messages` (run by `make run` and
# `make test`). A campaign or game is written in one of these too (Campaign.language).
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("ru", "Русский"),
    ("sv", "Svenska"),
    ("es", "Español"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# The switcher's cookie, sent over TLS only when the session's is; no script reads it.
LANGUAGE_COOKIE_SECURE = SESSION_COOKIE_SECURE
LANGUAGE_COOKIE_HTTPONLY = True
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")

# Celery. Without a broker, tasks run inline in the caller (the embedded default: `make run`
# and most tests); eager mode skips the broker, serialization and on_commit timing, so the tests
# about the queue run a real worker on Redis (tests/campaign/test_queue.py).
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
# A failing task marks its turn failed for the moderator; in eager mode it must not break the
# request that queued it.
CELERY_TASK_EAGER_PROPAGATES = False
# At-least-once delivery; tasks are idempotent (a compare-and-set claim makes them effectively
# once). See ../shared/research/ecosystem-reliability.md §2.
CELERY_TASK_ACKS_LATE = True  # redeliver if the worker dies mid-task
CELERY_TASK_REJECT_ON_WORKER_LOST = True  # ...also when only the pool child is killed
CELERY_WORKER_PREFETCH_MULTIPLIER = 1  # long tasks: reserve one at a time
CELERY_TASK_TIME_LIMIT = 900
CELERY_TASK_SOFT_TIME_LIMIT = 840
# Must exceed the longest task, or Redis redelivers a task that is still running.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": int(os.environ.get("CELERY_VISIBILITY_TIMEOUT", "3600")),
}
if os.environ.get("CELERY_UNACKED_RESTORE_INTERVAL"):  # how often a worker looks for lost tasks
    CELERY_BROKER_TRANSPORT_OPTIONS["unacked_restore_interval"] = int(
        os.environ["CELERY_UNACKED_RESTORE_INTERVAL"]
    )
    CELERY_BROKER_TRANSPORT_OPTIONS["unacked_restore_throttle"] = 1
CELERY_TASK_IGNORE_RESULT = True  # the truth lives in the database
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Sending a task from a request (a lock, a retry): a Redis that refuses connections fails at
# once, one that accepts and never answers would hang `delay()` for ever; these bound the send
# to about four seconds, after which the turn stays locked and says the queue is down.
QUEUE_SEND_TIMEOUTS = {"socket_connect_timeout": 2, "socket_timeout": 2}
QUEUE_SEND_RETRY = {
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.2,
}
# Resolution: database errors are retried this many times with back-off (1, 2, 4 … s), then the
# turn is marked failed; a turn whose resolution was started this many times without finishing
# (a worker killed each time, say by the out-of-memory killer) is marked failed too, instead of
# being delivered again for ever.
RESOLUTION_RETRIES = int(os.environ.get("RESOLUTION_RETRIES", "5"))
RESOLUTION_STARTS = int(os.environ.get("RESOLUTION_STARTS", "10"))

# The cache holds the progress of running resolutions, so the web process must see what the
# worker writes, and the login limiter's counts, which every web process must share: CACHE_URL
# (a Redis URL), else the broker's Redis; otherwise the process's memory.
CACHE_URL = os.environ.get("CACHE_URL") or (
    CELERY_BROKER_URL if CELERY_BROKER_URL.startswith("redis://") else ""
)
if CACHE_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": CACHE_URL,
            # A Redis that is down or stuck must not hang a page (progress is optional).
            "OPTIONS": {"socket_connect_timeout": 2, "socket_timeout": 2},
        }
    }

# Celery beat (`celery -A config beat`): deadlines and reminders every five minutes, the
# seafaring games' reminders (seafarers/reminders.py) as often, the seafaring outbox every minute.
CELERY_BEAT_SCHEDULE = {
    "deadlines": {"task": "campaign.tasks.deadlines_task", "schedule": 300.0},
    "seafaring-reminders": {"task": "seafarers.tasks.reminders_task", "schedule": 300.0},
    # A seafaring bot's turn or news whose task never reached Redis (seafarers/outbox.py).
    "seafaring-outbox": {"task": "seafarers.tasks.outbox_sweep_task", "schedule": 60.0},
}

# E-mail: printed to the console unless an SMTP server is configured.
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
# The file backend's folder (`make run` keeps the demo's mail there: var/mail).
EMAIL_FILE_PATH = os.environ.get("EMAIL_FILE_PATH", str(BASE_DIR / "var" / "mail"))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "admiralty@localhost")
# Orders by e-mail (issue 21 §2, README "Production"): each player's address is
# orders+<token>@ORDER_MAIL_DOMAIN, which the site's mail server forwards to `order_mail`.
ORDER_MAIL_DOMAIN = os.environ.get("ORDER_MAIL_DOMAIN", "") or next(
    (host.lstrip(".") for host in ALLOWED_HOSTS if host not in ("*", "")), "localhost"
)
LOGIN_REDIRECT_URL = "/"
