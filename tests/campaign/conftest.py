"""The campaign tests' fixtures: the real broker of the queue tests (tests/campaign/workers.py)."""

from tests.campaign.workers import broker

__all__ = ["broker"]
