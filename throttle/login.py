"""Logins limited per user name and per client address (the site's and the admin's).

The trade-off (README, "Production"): counting failures per user name stops password guessing
spread over many addresses, but lets anyone lock a player out by failing with their name. So a
browser where the player has logged in before carries a signed cookie (KNOWN_COOKIE), and its
attempts for that name are counted apart: a stranger's failures lock the name for 15 minutes
everywhere else, never in the player's own browser. The lock is checked before the password, so
a locked name does not tell whether a password is right.
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any

from django import forms
from django.contrib.admin import site
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import views as auth
from django.contrib.auth.forms import AuthenticationForm
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from throttle.limiter import (
    LOGIN_PER_ADDRESS,
    LOGIN_PER_NAME,
    LOGIN_PER_NAME_KNOWN,
    Limit,
    blocked_until,
    client_address,
    failure_record,
    failures_forget,
)

THROTTLED = "login_throttled"
KNOWN_COOKIE = "admiralty_known"
KNOWN_SALT = "throttle.login.known"
KNOWN_AGE = 365 * 24 * 3600


class ThrottledLogin(forms.Form):
    """Mixed into an AuthenticationForm: refuses a locked name or address before checking the
    password, and counts a wrong password against both."""

    request: HttpRequest | None
    user_cache: Any

    def clean(self) -> dict[str, Any]:
        counted = _counted(self.request, self.cleaned_data.get("username") or "")
        until = max((u for u in (blocked_until(*c) for c in counted) if u), default=None)
        if until is not None:
            raise forms.ValidationError(refusal(until), code=THROTTLED, params={"until": until})
        try:
            return super().clean()  # type: ignore[no-any-return]
        except forms.ValidationError:
            if self.user_cache is None:  # a wrong password (not: right, but not allowed in)
                for limit, who in counted:
                    failure_record(limit, who)
            raise
        finally:
            if self.user_cache is not None:
                for limit, who in counted[1:]:  # the name's counts; the address keeps its own
                    failures_forget(limit, who)


class LoginForm(ThrottledLogin, AuthenticationForm):
    pass


class AdminLoginForm(ThrottledLogin, AdminAuthenticationForm):
    pass


def refusal(until: datetime) -> str:
    minutes = max(1, round((until - timezone.now()).total_seconds() / 60))
    return (
        f"Too many failed logins with this name or from this address. Try again after "
        f"{until:%H:%M} UTC (in about {minutes} minute{'s' if minutes != 1 else ''}). "
        f"({THROTTLED})"
    )


class LoginView(auth.LoginView):
    authentication_form = LoginForm

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        return finish(request, super().dispatch(request, *args, **kwargs))


def admin_login(request: HttpRequest) -> HttpResponse:
    """The admin's login page, with the same limits (admin.site.login_form is AdminLoginForm)."""
    return finish(request, site.login(request))


def finish(request: HttpRequest, response: Any) -> Any:
    """A refused login is a 429 with Retry-After; a successful one marks the browser as known
    for that name."""
    form = (getattr(response, "context_data", None) or {}).get("form")
    if form is not None and form.has_error("__all__", THROTTLED):
        until = form.errors.as_data()["__all__"][0].params["until"]
        response.status_code = 429
        response["Retry-After"] = str(max(1, int((until - timezone.now()).total_seconds())))
    elif request.method == "POST" and response.status_code == 302 and request.user.is_authenticated:
        name = request.user.get_username()
        response.set_cookie(
            KNOWN_COOKIE,
            signing.dumps(_name_digest(name), salt=KNOWN_SALT),
            max_age=KNOWN_AGE,
            secure=request.is_secure(),
            httponly=True,
            samesite="Lax",
        )
    return response


def _counted(request: HttpRequest | None, username: str) -> list[tuple[Limit, str]]:
    """What a login attempt counts against: the client's address, and the name — in its own
    count when this browser has logged in as that name before."""
    address = client_address(request) if request is not None else "unknown"
    name = username.strip().lower()
    known = request is not None and _known(request, name)
    return [
        (LOGIN_PER_ADDRESS, address),
        (LOGIN_PER_NAME_KNOWN, name) if known else (LOGIN_PER_NAME, name),
    ]


def _known(request: HttpRequest, name: str) -> bool:
    try:
        value = signing.loads(
            request.COOKIES.get(KNOWN_COOKIE, ""), salt=KNOWN_SALT, max_age=KNOWN_AGE
        )
    except signing.BadSignature:
        return False
    return bool(value == _name_digest(name))


def _name_digest(name: str) -> str:
    return hashlib.sha256(name.strip().lower().encode()).hexdigest()
