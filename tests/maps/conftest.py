"""Fixtures for the map tests: the bundled Baltic campaign as a scenario document and a Layout."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml  # type: ignore[import-untyped]

from maps import Layout
from tests.maps.helpers import split_campaign

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def baltic_campaign() -> dict[str, Any]:
    with open(ROOT / "examples" / "baltic.campaign.yaml", encoding="utf-8") as handle:
        campaign: dict[str, Any] = yaml.safe_load(handle)
    return campaign


@pytest.fixture
def baltic(baltic_campaign: dict[str, Any]) -> tuple[dict[str, Any], Layout]:
    return split_campaign(baltic_campaign)
