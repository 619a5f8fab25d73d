"""The answers of the site's JSON APIs that are not a success, each `{code, message}`: written
once here for every game's API (naval: fleets/api.py at /api/, seafaring: seafarers/api.py at
/api/games/), since the two games' apps may not import each other.

What every API answers the same way: 401 `unauthorized` (no key or a bad one), 404 `not_found`
(an `Http404` of an operation, a path the API does not have, django-ninja's root), 405
`method_not_allowed` (with its `Allow`), 413 `body_too_large`, 422 `invalid_request` (a request
that does not fit the schema: where, in one message), 429 `api_key_throttled` (too many bad keys
from one address, with `Retry-After`: throttle/limiter.py). What each API words its own way is
its `ApiRefusals`: where its keys are made, its body limit, its paths' words, the status and
code of a body that is not JSON, its content type (the answers stay what they were, byte for
byte, before the two APIs shared this).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed, JsonResponse
from django.urls import URLPattern, re_path
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError
from ninja.errors import ValidationError as ShapeError

from throttle.limiter import API_KEY_PER_ADDRESS, blocked_until, client_address, failure_record

Holder = TypeVar("Holder")
View = Callable[..., HttpResponse]
SHAPE_PROBLEMS = 5  # the schema's problems named in a 422's message (then "and N more")


class TooManyBadKeys(Exception):
    """Too many bad keys from the request's address: refused (429) until `until`."""

    def __init__(self, until: datetime) -> None:
        super().__init__(until)
        self.until = until


def key_holder(
    request: HttpRequest, token: str, find: Callable[[str], Holder | None]
) -> Holder | None:
    """Whose the key is (a membership, a seat: `find`), or None for a bad key, which is counted
    against the client's address; past the limit every key from there is refused, a good one
    too (TooManyBadKeys), so that guessing keys is as slow as guessing passwords."""
    address = client_address(request)
    until = blocked_until(API_KEY_PER_ADDRESS, address)
    if until is not None:
        raise TooManyBadKeys(until)
    holder = find(token)
    if holder is None:
        failure_record(API_KEY_PER_ADDRESS, address)
    return holder  # None: django-ninja's HttpBearer answers 401


@dataclass(frozen=True)
class ApiRefusals:
    """How one API words the refusals that are the same for every API."""

    key_made: str  # where a player makes a key, named by the 401
    unknown_path: Callable[[HttpRequest], str]  # the 404's words for a path the API has not
    wrong_method: Callable[[HttpRequest, str], str]  # the 405's words, given its Allow header
    # django-ninja's 400 (a body that is not JSON) as (status, code); the code of its others
    # (None: `http_<status>`).
    not_json: tuple[int, str]
    http_code: str | None = None
    # The largest body, refused before the view reads it and named by every 413; None: the
    # site's DATA_UPLOAD_MAX_MEMORY_SIZE, past which Django refuses to read it.
    max_body: int | None = None
    content_type: str = "application/json"

    def problem(self, status: int, code: str, message: str) -> HttpResponse:
        return JsonResponse(
            {"code": code, "message": message}, status=status, content_type=self.content_type
        )

    def register(self, api: NinjaAPI) -> None:
        """Answer the API's exceptions as refusals."""
        handlers: list[tuple[type[Exception], Callable[[HttpRequest, Any], HttpResponse]]] = [
            (TooManyBadKeys, self._throttled),
            (Http404, self._not_found),
            (HttpError, self._http_error),
            (ShapeError, self._shape_error),
            (AuthenticationError, self._no_key),
            (RequestDataTooBig, self._too_big),
        ]
        for exception, handler in handlers:
            api.add_exception_handler(exception, handler)

    def patterns(self, patterns: list[Any]) -> list[Any]:
        """The API's URL patterns, each view answering its wrong methods and a body too large
        as refusals, django-ninja's root as a path the API has not, then every other path
        under the API's prefix a `not_found`."""
        unknown = csrf_exempt(self._unknown_path)  # it only refuses, whoever asks
        answered: list[Any] = []
        for pattern in patterns:
            if isinstance(pattern, URLPattern):
                root = pattern.name == "api-root"  # django-ninja's: a 404 in Django's words
                view = unknown if root else self._answered(pattern.callback)
                pattern = URLPattern(pattern.pattern, view, pattern.default_args, pattern.name)
            answered.append(pattern)
        answered.append(re_path(r"^.*$", unknown, name="api-unknown"))
        return answered

    def _unknown_path(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        return self.problem(404, "not_found", self.unknown_path(request))

    # The exception handlers.
    def _throttled(self, request: HttpRequest, error: TooManyBadKeys) -> HttpResponse:
        wait = max(1, int((error.until - timezone.now()).total_seconds()))
        message = (
            f"Too many bad API keys from this address. Try again after {error.until:%H:%M} UTC "
            f"(in {wait} seconds)."
        )
        response = self.problem(429, "api_key_throttled", message)
        response["Retry-After"] = str(wait)
        return response

    def _not_found(self, request: HttpRequest, error: Http404) -> HttpResponse:
        """Another campaign or game, another's fleet or offer: one plain refusal, telling
        nothing of what is there."""
        return self.problem(404, "not_found", str(error) or "Not found.")

    def _http_error(self, request: HttpRequest, error: HttpError) -> HttpResponse:
        if error.status_code == 400:  # django-ninja's: a body that is not JSON
            status, code = self.not_json
            return self.problem(status, code, "The request body is not JSON.")
        code = self.http_code or f"http_{error.status_code}"
        return self.problem(error.status_code, code, str(error))

    def _shape_error(self, request: HttpRequest, error: ShapeError) -> HttpResponse:
        """A request that does not fit the schema (422): what does not, in one plain message."""
        parts = []
        for problem in error.errors[:SHAPE_PROBLEMS]:
            where = ".".join(str(step) for step in problem.get("loc", ()))
            parts.append(f"{where}: {problem.get('msg', 'invalid')}")
        extra = len(error.errors) - SHAPE_PROBLEMS
        more = f" (and {extra} more)" if extra > 0 else ""
        message = "The request does not fit the API's schema: " + "; ".join(parts) + more
        return self.problem(422, "invalid_request", message)

    def _no_key(self, request: HttpRequest, error: AuthenticationError) -> HttpResponse:
        message = f"This needs a valid API key: Authorization: Bearer KEY ({self.key_made})."
        return self.problem(401, "unauthorized", message)

    def _too_big(self, request: HttpRequest, error: RequestDataTooBig) -> HttpResponse:
        """A body past the limit (Django's: a 500 with DEBUG on, an HTML 400 without)."""
        return self._body_too_large()

    def _body_too_large(self) -> HttpResponse:
        limit = self.max_body or settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        message = f"The request body is larger than {limit:,} bytes."
        return self.problem(413, "body_too_large", message)

    def _answered(self, view: View) -> View:
        @functools.wraps(view)
        def answered(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if self.max_body is not None:
                length = request.META.get("CONTENT_LENGTH") or "0"
                limit = min(self.max_body, settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
                if length.isdigit() and int(length) > limit:
                    return self._body_too_large()
            response = view(request, *args, **kwargs)
            if isinstance(response, HttpResponseNotAllowed):
                allowed = response["Allow"]
                message = self.wrong_method(request, allowed)
                refused = self.problem(405, "method_not_allowed", message)
                refused["Allow"] = allowed
                return refused
            return response

        return answered  # (functools.wraps keeps the view's csrf_exempt)
