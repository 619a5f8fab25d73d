"""A campaign's webhook: news POSTed as Discord-compatible JSON, for every ruleset (the naval
bulletin, the seafaring game's notifications). Imports nothing of any game."""

from __future__ import annotations

import json
import urllib.request

DISCORD_LIMIT = 2000  # characters in one Discord message


def webhook_post(url: str, text: str) -> None:
    """POST `{"content": text}` (cut to Discord's limit) to the webhook."""
    body = json.dumps({"content": text[:DISCORD_LIMIT]}).encode()
    request = urllib.request.Request(
        url,
        data=body,
        method="POST",
        headers={"Content-Type": "application/json", "User-Agent": "Admiralty"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        response.read()
