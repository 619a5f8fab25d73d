"""The two games' APIs answer what is not a success through one platform module
(campaign/api_errors.py, issue 10): their handlers are its, each API with its own words."""

from __future__ import annotations

import pytest
from django.core.exceptions import RequestDataTooBig
from django.http import Http404
from django.test import Client
from ninja.errors import AuthenticationError, HttpError
from ninja.errors import ValidationError as ShapeError

from campaign.api_errors import ApiRefusals, TooManyBadKeys
from fleets.api import REFUSALS as NAVAL
from fleets.api import api as naval_api
from seafarers.api import REFUSALS as SEAFARING
from seafarers.api import api as seafaring_api


@pytest.mark.parametrize(("api", "refusals"), [(naval_api, NAVAL), (seafaring_api, SEAFARING)])
def test_each_api_registers_the_platforms_handlers(api, refusals: ApiRefusals) -> None:
    for exception in (
        TooManyBadKeys, Http404, HttpError, ShapeError, AuthenticationError, RequestDataTooBig
    ):  # fmt: skip
        handler = api._exception_handlers[exception]
        assert handler.__self__ is refusals, exception
        assert type(handler.__self__).__module__ == "campaign.api_errors"


@pytest.mark.django_db
@pytest.mark.parametrize("root", ["/api/", "/api/games/"])
def test_a_post_to_an_apis_root_is_a_json_404_even_without_a_csrf_token(root) -> None:
    """Before, the seafaring root was django-ninja's view, behind Django's CSRF check: a post
    there was a 403 page in HTML."""
    response = Client(enforce_csrf_checks=True).post(root, "{}", content_type="application/json")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"
