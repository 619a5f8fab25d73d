"""The seafaring game's pages, under /g/<slug>/ (config/urls.py). One section per module of
seafarers/views/, so that each grows without touching the others."""

from __future__ import annotations

from django.urls import URLPattern, path

from seafarers.views import keys as key_views
from seafarers.views import log, moderate, play
from seafarers.views import offers as offer_views

urlpatterns: list[URLPattern] = [
    path("moderate/new/", moderate.game_new, name="seafarers_game_new"),
    # -- play: a seat's desk (seafarers/views/play.py) --
    path("<slug:slug>/", play.desk, name="seafarers_desk"),
    path("<slug:slug>/act/", play.act, name="seafarers_act"),
    path("<slug:slug>/poll/", play.desk_poll, name="seafarers_poll"),
    # -- offers: domestic trade offers (seafarers/views/offers.py); the seat's API key --
    path("<slug:slug>/offers/", offer_views.offers, name="seafarers_offers"),
    path("<slug:slug>/offers/new/", offer_views.offer_make, name="seafarers_offer_make"),
    path(
        "<slug:slug>/offers/<int:offer_id>/<slug:reply>/",
        offer_views.offer_reply,
        name="seafarers_offer_reply",
    ),
    path("<slug:slug>/api-key/", key_views.api_key, name="seafarers_api_key"),
    # -- moderate: the moderator's dashboard (seafarers/views/moderate.py) --
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
    path("<slug:slug>/log/", log.log_page, name="seafarers_log"),
    path("<slug:slug>/log.md", log.log_export, {"fmt": "md"}, name="seafarers_log_md"),
    path("<slug:slug>/log.bbcode", log.log_export, {"fmt": "bbcode"}, name="seafarers_log_bbcode"),
    path("<slug:slug>/table/", log.table, name="seafarers_table"),
    path("<slug:slug>/board.png", log.board_png_member, name="seafarers_board_png"),
    path(
        "<slug:slug>/board/<str:signature>.png",
        log.board_png_public,
        name="seafarers_board_public",
    ),
]
