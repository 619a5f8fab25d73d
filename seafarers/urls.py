"""The seafaring game's pages, under /g/<slug>/ (config/urls.py). One section per module of
seafarers/views/, so that each grows without touching the others."""

from __future__ import annotations

from django.urls import URLPattern, path

from seafarers.views import moderate

urlpatterns: list[URLPattern] = [
    # -- play: a seat's desk (seafarers/views/play.py) --
    # -- offers: domestic trade offers (seafarers/views/offers.py) --
    # -- moderate: the moderator's dashboard and new games (seafarers/views/moderate.py) --
    path("moderate/new/", moderate.game_new, name="seafarers_game_new"),
    path("<slug:slug>/moderate/", moderate.dashboard, name="seafarers_moderate"),
    path("<slug:slug>/moderate/export.json", moderate.export, name="seafarers_export"),
    path("<slug:slug>/moderate/award/", moderate.award, name="seafarers_award"),
    path("<slug:slug>/moderate/replace/", moderate.replace, name="seafarers_replace"),
    path(
        "<slug:slug>/moderate/act-for/<str:player>/",
        moderate.act_for_player,
        name="seafarers_act_for",
    ),
    path("<slug:slug>/moderate/<str:action>/", moderate.game_action, name="seafarers_game_action"),
    # -- log: the log, the table, exports, the board as PNG (seafarers/views/log.py) --
]
