"""The fuzz tests use the players' fixtures: the skirmish campaign, its turn open, a player per
faction."""

from tests.fleets.conftest import open_skirmish, people

__all__ = ["open_skirmish", "people"]
