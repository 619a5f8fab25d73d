"""Admin registrations for the campaign app (none until it has models)."""
