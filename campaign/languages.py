"""The language a page is written in (issue 22; docs/architecture.md, "Languages").

Django's `LocaleMiddleware` picks it for each request: the language cookie, else the browser's
Accept-Language, else English. The cookie is set by the page header's switcher (a plain form
posting to `set_language`, below) and, for a user who chose before, when they log in: the choice
is kept on their account (`UserLanguage`), so it follows them to their next login and to any
other device. Anonymous visitors have only the cookie.

`on_login` is connected when this module is imported, which is before any request: the settings'
MIDDLEWARE names `AccountLanguageMiddleware` (and config/urls.py `set_language`), and Django loads
the middleware when it makes its request handler.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.utils.translation import check_for_language
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language

from campaign.models import UserLanguage, language_choices

LANGUAGE_FIELD = "language"  # Django's set_language reads this field of the form


def language_known(code: str) -> bool:
    """One of the site's languages (settings.LANGUAGES) with its catalogue."""
    return code in dict(settings.LANGUAGES) and check_for_language(code)


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """Django's `set_language` (the cookie, and the redirect to `next` when it is a page of this
    site), and for a logged-in user the choice kept on their account. A language the site does
    not have changes nothing (Django's view sets no cookie for it either)."""
    response = django_set_language(request)
    code = request.POST.get(LANGUAGE_FIELD, "")
    if request.user.is_authenticated and language_known(code):
        UserLanguage.objects.update_or_create(user=request.user, defaults={"language": code})
    return response


def language_field(label: str, help_text: str = "", *, blank_is_english: bool = False) -> Any:
    """A form's choice of a campaign's or game's language (Campaign.language), one of the site's;
    `blank_is_english`: the field may be left out or empty (a new campaign or game), English."""
    return forms.ChoiceField(
        choices=language_choices,
        initial="en",
        required=not blank_is_english,
        label=label,
        help_text=help_text,
    )


def site_languages(request: HttpRequest) -> dict[str, Any]:
    """A context processor: the site's languages for the header's switcher, each named in its own
    words as settings.LANGUAGES names it (`get_available_languages` would translate the names:
    "English" is "Engelska" on a Swedish page)."""
    return {"site_languages": settings.LANGUAGES}


def account_language(user: Any) -> str | None:
    """The language the user chose and kept on their account, if they chose one the site still
    has."""
    code = UserLanguage.objects.filter(user_id=user.pk).values_list("language", flat=True).first()
    return code if code and language_known(code) else None


@receiver(user_logged_in, dispatch_uid="campaign.languages.on_login")
def on_login(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    """On login (the site's page or the admin's), the account's language is noted for the
    response (`AccountLanguageMiddleware` sets the cookie): the page after login is in it."""
    if request is None:
        return
    code = account_language(user)
    if code is not None:
        request.account_language = code  # type: ignore[attr-defined]


def language_cookie_set(response: HttpResponse, code: str) -> None:
    """The language cookie, as Django's `set_language` sets it."""
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        code,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,  # type: ignore[arg-type]  # "Lax"
    )


class AccountLanguageMiddleware:
    """Sets the language cookie to the account's language on the response to a login (noted by
    `on_login`); every later request reads the cookie, so this costs no query a page."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        code = getattr(request, "account_language", None)
        if code is not None:
            language_cookie_set(response, code)
        return response
