"""Admin registrations for the fleets app (none until it has models)."""
