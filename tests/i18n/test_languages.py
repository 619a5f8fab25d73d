"""The page's language (issue 22): the browser's Accept-Language before a user chooses; the
header's switcher (Django's set_language) sets the cookie, and for a logged-in user keeps the
choice on their account, set again on their next login on any device; a naval campaign's
language chosen by its moderator (the new-campaign page, the admin, the campaign file)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from campaign.models import AuditEntry, Campaign, Membership, UserLanguage
from fleets.campaign_files import read_campaign_file
from fleets.world_files import campaign_file_document
from tests.conftest import skirmish_campaign_document

pytestmark = pytest.mark.django_db
COOKIE = settings.LANGUAGE_COOKIE_NAME
SWITCH = reverse("set_language")


@pytest.fixture
def sven(open_skirmish, django_user_model):
    """A player of the skirmish (the Swedes), its turn 1 open."""
    user = django_user_model.objects.create_user("sven", "sven@example.org", "sail-away")
    Membership.objects.create(
        user=user,
        campaign=open_skirmish,
        role=Membership.Role.PLAYER,
        faction=open_skirmish.factions.get(key="swedes"),
    )
    return user


def log_in(client: Client, name: str = "sven", **headers: str):
    return client.post(
        reverse("login"), {"username": name, "password": "sail-away"}, follow=False, **headers
    )


def test_accept_language_ru_gets_the_russian_home_page(client, sven) -> None:
    client.force_login(sven)
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="ru,en;q=0.5").content.decode()
    assert '<html lang="ru">' in page
    assert "<h1>Ваши игры</h1>" in page
    assert "<h2>Морская кампания</h2>" in page
    assert "ход 1: открыт, ждём ваших приказов" in page  # the ruleset's status, in Russian
    assert "1 игра ждёт вашего хода." in page  # the plural form of 1
    assert ">Выйти</button>" in page
    assert ">Правила</a>" in page
    assert "Your games" not in page
    assert "Log out" not in page
    assert "Skirmish in the Sound" in page  # the campaign's name as its file spells it


@pytest.mark.parametrize(
    ("language", "words"),
    [("en", "Log in"), ("ru", "Войти"), ("sv", "Logga in"), ("es", "Iniciar sesión")],
)
def test_the_login_page_in_each_language(client, language, words) -> None:
    page = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f'<html lang="{language}">' in page
    assert f"<h1>{words}</h1>" in page


def test_a_language_the_site_does_not_have_is_english(client) -> None:
    page = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE="fr,de;q=0.8").content.decode()
    assert '<html lang="en">' in page
    assert "<h1>Log in</h1>" in page


def test_the_switcher_is_in_the_header_with_each_language_in_its_own_words(client) -> None:
    page = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE="sv").content.decode()
    header = page.split('<header class="site">')[1].split("</header>")[0]
    assert f'action="{SWITCH}"' in header
    assert 'name="next" value="/accounts/login/"' in header
    for code, name in (("en", "English"), ("ru", "Русский"), ("sv", "Svenska"), ("es", "Español")):
        assert f'<option value="{code}" lang="{code}"' in header
        assert f">{name}</option>" in header
    assert '<option value="sv" lang="sv" selected>' in header
    assert '<input type="submit" value="Byt">' in header


def test_an_anonymous_choice_is_the_cookie_only(client) -> None:
    response = client.post(SWITCH, {"language": "es", "next": "/accounts/login/"})
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/"
    assert response.cookies[COOKIE].value == "es"
    page = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "<h1>Iniciar sesión</h1>" in page  # the cookie before the browser's language
    assert not UserLanguage.objects.exists()


def test_the_choice_is_kept_for_the_user_across_a_fresh_login(client, sven) -> None:
    log_in(client)
    response = client.post(SWITCH, {"language": "sv", "next": "/"})
    assert response["Location"] == "/"
    assert response.cookies[COOKIE].value == "sv"
    assert UserLanguage.objects.get(user=sven).language == "sv"
    assert "<h1>Dina spel</h1>" in client.get("/").content.decode()
    client.post(reverse("logout"))
    # Another device: no cookie, a browser that asks for Spanish. Logged in, the account's
    # Swedish is the cookie, and the page after login is Swedish.
    device = Client()
    answer = log_in(device, HTTP_ACCEPT_LANGUAGE="es")
    assert answer.status_code == 302
    assert answer.cookies[COOKIE].value == "sv"
    page = device.get("/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert '<html lang="sv">' in page
    assert "<h1>Dina spel</h1>" in page
    assert "omgång 1: öppen, dina order väntas" in page


def test_a_user_who_never_chose_keeps_the_browser_s_language(client, sven) -> None:
    answer = log_in(client, HTTP_ACCEPT_LANGUAGE="es")
    assert COOKIE not in answer.cookies
    assert "<h1>Tus partidas</h1>" in client.get("/", HTTP_ACCEPT_LANGUAGE="es").content.decode()


def test_a_language_the_site_does_not_have_changes_nothing(client, sven) -> None:
    client.force_login(sven)
    client.post(SWITCH, {"language": "ru", "next": "/"})
    response = client.post(SWITCH, {"language": "xx", "next": "/"})
    assert response.status_code == 302  # Django's view: back to the page, no cookie set
    assert COOKIE not in response.cookies
    assert UserLanguage.objects.get(user=sven).language == "ru"
    assert client.get(SWITCH).status_code == 405  # a form's post only


def test_next_on_another_site_goes_home(client) -> None:
    response = client.post(SWITCH, {"language": "ru", "next": "https://evil.example/"})
    assert response["Location"] == "/"


@pytest.mark.parametrize(
    ("language", "words"),
    [("ru", "Не найдено"), ("sv", "Hittades inte"), ("es", "No encontrado")],
)
def test_the_not_found_page_in_each_language(client, language, words) -> None:
    response = client.get("/no-such-page/", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 404
    assert f"<h1>{words}</h1>" in response.content.decode()


# -- a naval campaign's language ---------------------------------------------------------------
@pytest.fixture
def staff(client, django_user_model):
    user = django_user_model.objects.create_user(
        "mod", "mod@example.org", "sail-away", is_staff=True
    )
    client.force_login(user)
    return client


def test_a_new_naval_campaign_in_russian(staff) -> None:
    data = {"name": "Балтика", "slug": "baltika", "turn_hours": "72", "fog_of_war": "on"}
    response = staff.post(reverse("world_campaign_new"), {**data, "language": "ru"})
    assert response.status_code == 302
    campaign = Campaign.objects.get(slug="baltika")
    assert campaign.language == "ru"
    desk = staff.get(reverse("moderating")).content.decode()
    assert '<td lang="ru">Русский</td>' in desk  # the moderator's desk shows it
    # Left out (an older form): English.
    staff.post(reverse("world_campaign_new"), {**data, "slug": "other"})
    assert Campaign.objects.get(slug="other").language == "en"
    # A language the site does not have: the form again, nothing made.
    answer = staff.post(reverse("world_campaign_new"), {**data, "slug": "bad", "language": "xx"})
    assert answer.status_code == 400
    assert not Campaign.objects.filter(slug="bad").exists()


def test_the_moderator_changes_a_campaign_s_language_in_the_admin(open_skirmish, client, people):
    client.force_login(people["mod"])
    url = reverse("admin:campaign_campaign_change", args=[open_skirmish.pk])
    form = client.get(url).context["adminform"].form
    assert form["language"].value() == "en"
    data = {name: form[name].value() for name in form.fields if form[name].value() is not None}
    data.update(language="es", reason="the Spanish forum")
    data = {k: ("on" if v is True else v) for k, v in data.items() if v is not False}
    answer = client.post(url, data)
    assert answer.status_code == 302, answer.content.decode()[:3000]
    open_skirmish.refresh_from_db()
    assert open_skirmish.language == "es"
    assert AuditEntry.objects.filter(campaign=open_skirmish, reason="the Spanish forum").exists()


def test_the_campaign_file_carries_the_language() -> None:
    """naval-campaign/1's `settings.language` (docs/campaign-format.md): read, checked, written
    back by the export."""
    from fleets.importing import campaign_import

    campaign = campaign_import(
        read_campaign_file(skirmish_campaign_document(settings={"language": "ru"}))
    )
    assert campaign.language == "ru"
    assert campaign_file_document(campaign)["settings"]["language"] == "ru"
    from engine.naval import ScenarioError

    with pytest.raises(ScenarioError) as refused:
        read_campaign_file(skirmish_campaign_document(settings={"language": "fr"}))
    (problem,) = refused.value.problems
    assert problem.path == "settings.language"
    assert problem.message == "must be one of en, ru, sv, es"


@pytest.mark.parametrize(
    ("language", "words"),
    [("ru", "Что-то пошло не так"), ("sv", "Något gick fel"), ("es", "Algo salió mal")],
)
def test_the_server_error_page_in_each_language(language, words) -> None:
    """Django renders 500.html with no context at all: its words need only the language."""
    from django.template.loader import render_to_string
    from django.utils import translation

    with translation.override(language):
        page = render_to_string("500.html")
    assert f'<html lang="{language}">' in page
    assert f"<h1>{words}</h1>" in page
    assert "(server_error)" in page  # the stable code, untranslated


def test_the_forbidden_page_in_russian(rf) -> None:
    from django.core.exceptions import PermissionDenied
    from django.utils import translation
    from django.views.defaults import permission_denied

    request = rf.get("/")
    from django.contrib.auth.models import AnonymousUser

    request.user = AnonymousUser()
    with translation.override("ru"):
        page = permission_denied(request, PermissionDenied()).content.decode()
    assert "<h1>Отказано</h1>" in page
    assert "Вам это не разрешено. (forbidden)" in page


def test_the_logged_out_page_is_the_site_s_in_the_reader_s_language(client, sven) -> None:
    client.force_login(sven)
    page = client.post(reverse("logout"), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "<h1>Вы вышли</h1>" in page
    assert f'<a href="{reverse("login")}">Войти снова</a>' in page
    assert '<header class="site">' in page  # the site's look, not the admin's page
