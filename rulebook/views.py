"""The rulebook pages: public, like a printed rulebook (players read them before they join)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import mark_safe

from rulebook.render import book_html
from rulebook.texts import BOOKS


def rulebook(request: HttpRequest, key: str) -> HttpResponse:
    book = BOOKS.get(key)
    if book is None:
        raise Http404("There is no rulebook of that name.")
    body = mark_safe(book_html(key))  # the project's own text, rendered with raw HTML off
    return render(request, "rulebook/book.html", {"book": book, "body": body})
