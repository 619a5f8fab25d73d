"""Admin registrations for the battles app (none until it has models)."""
