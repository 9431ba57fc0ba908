"""The parser: text to a tree a browser would build (lexbor, via selectolax),
or a BeautifulSoup object the caller already has, behind one walk."""

from __future__ import annotations

from typing import Any

from selectolax.lexbor import LexborHTMLParser

from .tree import LexborTree, SoupTree


def parse(markup: str | bytes) -> LexborTree:
    """Build the HTML5 tree of a decoded document (or of UTF-8 bytes)."""
    return LexborTree(LexborHTMLParser(markup))


def tree_of(document: Any) -> LexborTree | SoupTree:
    """The walkable tree of a str, or of a BeautifulSoup object (or tag)."""
    if isinstance(document, str):
        return parse(document)
    from bs4 import Tag

    if isinstance(document, Tag):
        return SoupTree(document)
    raise TypeError(f"cannot read HTML from {type(document).__name__}: give bytes, str or a BeautifulSoup object")
