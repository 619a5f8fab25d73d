"""The seafaring game's pages, under /g/<slug>/ (config/urls.py). One section per module of
seafarers/views/, so that each grows without touching the others."""

from __future__ import annotations

from django.urls import URLPattern, path

from seafarers.views import keys as key_views
from seafarers.views import offers as offer_views

urlpatterns: list[URLPattern] = [
    # -- play: a seat's desk (seafarers/views/play.py) --
    # -- offers: domestic trade offers (seafarers/views/offers.py); the seat's API key --
    path("<slug:slug>/offers/", offer_views.offers, name="seafarers_offers"),
    path("<slug:slug>/offers/new/", offer_views.offer_make, name="seafarers_offer_make"),
    path(
        "<slug:slug>/offers/<int:offer_id>/<slug:reply>/",
        offer_views.offer_reply,
        name="seafarers_offer_reply",
    ),
    path("<slug:slug>/api-key/", key_views.api_key, name="seafarers_api_key"),
    # -- moderate: the moderator's dashboard and new games (seafarers/views/moderate.py) --
    # -- log: the log, the table, exports, the board as PNG (seafarers/views/log.py) --
]
