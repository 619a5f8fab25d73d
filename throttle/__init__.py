"""Failed logins and bad API keys, counted in Django's cache and refused past a limit."""
