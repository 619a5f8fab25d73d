"""The seafaring game's pages, under /g/<slug>/ (config/urls.py). One section per module of
seafarers/views/, so that each grows without touching the others."""

from __future__ import annotations

from django.urls import URLPattern, path

from seafarers.views import play

urlpatterns: list[URLPattern] = [
    # -- play: a seat's desk (seafarers/views/play.py) --
    path("<slug:slug>/", play.desk, name="seafarers_desk"),
    path("<slug:slug>/act/", play.act, name="seafarers_act"),
    path("<slug:slug>/poll/", play.desk_poll, name="seafarers_poll"),
    # -- offers: domestic trade offers (seafarers/views/offers.py) --
    # -- moderate: the moderator's dashboard and new games (seafarers/views/moderate.py) --
    # -- log: the log, the table, exports, the board as PNG (seafarers/views/log.py) --
]
