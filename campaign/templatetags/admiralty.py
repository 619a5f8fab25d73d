"""Template helpers for the players' pages."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.filter
def lookup(mapping: Any, key: Any) -> Any:
    """`names|lookup:key`: a display name, or the key itself when there is none."""
    if isinstance(mapping, dict):
        return mapping.get(key, key)
    return key


@register.filter
def percent(value: float) -> str:
    return f"{round(value * 100)} %"
