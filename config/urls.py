"""Root URL configuration: the players' pages, the API and the moderator's admin."""

from django.contrib import admin
from django.contrib.auth import views as auth
from django.urls import include, path

from campaign import languages
from campaign import views as campaign_views
from fleets import map_views as fleet_map_views
from fleets import report_views as fleet_report_views
from fleets import views as fleet_views
from fleets import world_views
from fleets.api import api
from rulebook import views as rulebook_views
from seafarers.api import urls as seafaring_api_urls
from throttle import login

# Both login pages count failures per user name and per address (throttle/login.py).
admin.site.login_form = login.AdminLoginForm

urlpatterns = [
    path("", campaign_views.home, name="home"),
    path("accounts/login/", login.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth.LogoutView.as_view(), name="logout"),
    # The header's language switcher (campaign/languages.py): Django's set_language, and the
    # choice kept on the account of a user logged in.
    path("i18n/setlang/", languages.set_language, name="set_language"),
    path("moderate/", campaign_views.moderating, name="moderating"),  # the moderator's desk
    path("campaigns/new/", world_views.campaign_new, name="world_campaign_new"),
    path("c/<slug:slug>/", fleet_views.desk, name="desk"),
    # The world editor, for the campaign's moderator (fleets/world_views.py, issue 11).
    path("c/<slug:slug>/world/", world_views.world, name="world"),
    path("c/<slug:slug>/world/check/", world_views.world_check_page, name="world_check"),
    path("c/<slug:slug>/world/open/", world_views.world_open, name="world_open"),
    path("c/<slug:slug>/world/drawing/", world_views.world_drawing, name="world_drawing"),
    path(
        "c/<slug:slug>/world/drawing/remove/",
        world_views.world_drawing_remove,
        name="world_drawing_remove",
    ),
    path(
        "c/<slug:slug>/world/export.<str:fmt>",
        world_views.world_export,
        name="world_export",
    ),
    path("c/<slug:slug>/world/<str:table>/new/", world_views.world_add, name="world_add"),
    path("c/<slug:slug>/world/<str:table>/<int:pk>/", world_views.world_row, name="world_row"),
    path(
        "c/<slug:slug>/world/<str:table>/<int:pk>/delete/",
        world_views.world_remove,
        name="world_delete",
    ),
    path("c/<slug:slug>/fleets/<str:key>/order/", fleet_views.fleet_order, name="fleet_order"),
    path(
        "c/<slug:slug>/fleets/<str:key>/withdraw/",
        fleet_views.fleet_withdraw,
        name="fleet_withdraw",
    ),
    path("c/<slug:slug>/economy/<str:kind>/", fleet_views.economy_order, name="economy_order"),
    path("c/<slug:slug>/orders/written/", fleet_views.written_orders, name="written_orders"),
    path("c/<slug:slug>/orders/final/", fleet_views.orders_final, name="orders_final"),
    path("c/<slug:slug>/map.svg", fleet_map_views.campaign_map, name="campaign_map"),
    path("c/<slug:slug>/turns/", fleet_report_views.turns, name="turns"),
    path("c/<slug:slug>/turns/<int:number>/", fleet_report_views.turn_report, name="turn_report"),
    path(
        "c/<slug:slug>/turns/<int:number>/report.md",
        fleet_report_views.turn_report,
        {"fmt": "md"},
        name="turn_report_md",
    ),
    path(
        "c/<slug:slug>/turns/<int:number>/report.bbcode",
        fleet_report_views.turn_report,
        {"fmt": "bbcode"},
        name="turn_report_bbcode",
    ),
    path("c/<slug:slug>/turns/<int:number>/map.svg", fleet_map_views.turn_map, name="turn_map"),
    # The forum export (issue 11): the bulletin to post, the private report, the public map.
    path(
        "c/<slug:slug>/turns/<int:number>/export/",
        fleet_report_views.turn_export,
        name="turn_export",
    ),
    path(
        "c/<slug:slug>/turns/<int:number>/bulletin.md",
        fleet_report_views.turn_bulletin_text,
        {"fmt": "md"},
        name="turn_bulletin_md",
    ),
    path(
        "c/<slug:slug>/turns/<int:number>/bulletin.bbcode",
        fleet_report_views.turn_bulletin_text,
        {"fmt": "bbcode"},
        name="turn_bulletin_bbcode",
    ),
    path(
        "c/<slug:slug>/turns/<int:number>/public-map/replace/",
        fleet_report_views.public_map_replace,
        name="public_map_replace",
    ),
    path(
        "c/<slug:slug>/turns/<int:number>/map/<str:token>.png",
        fleet_report_views.public_map,
        name="public_map",
    ),
    path("c/<slug:slug>/api-key/", fleet_views.api_key, name="api_key"),
    path("c/<slug:slug>/order-address/", fleet_views.order_address, name="order_address"),
    path("g/", include("seafarers.urls")),  # the seafaring games' pages
    path("rules/<slug:key>/", rulebook_views.rulebook, name="rulebook"),
    path("api/games/", seafaring_api_urls()),  # the seafaring API (seafarers/api.py)
    path("api/", api.urls),
    path("admin/login/", login.admin_login),  # before the admin's own, which it wraps
    path("admin/", admin.site.urls),
]
