"""Fleets, ships and the orders players submit for them."""
