"""`{{ text|clauses:"naval" }}`: clause ids in a text linked to the ruleset's rulebook page."""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString

from rulebook.render import clause_links

register = template.Library()


@register.filter
def clauses(text: object, ruleset: str) -> SafeString:
    return clause_links(text, ruleset)
