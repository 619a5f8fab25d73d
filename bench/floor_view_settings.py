"""The site's settings with the floor views' URLs in front (bench/floor_view.py); only the load
benches' gunicorn runs with them."""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "bench.floor_view"
