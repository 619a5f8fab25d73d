"""Campaigns, factions, membership and the turn lifecycle."""
