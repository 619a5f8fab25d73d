"""The site's settings with the floor view's URLs in front (bench/seafarers_floor.py); only the
seafaring load bench's gunicorn runs with them."""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "bench.seafarers_floor"
