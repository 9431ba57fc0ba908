"""The parser: text to a tree a browser would build (lexbor, via selectolax),
or a BeautifulSoup object the caller already has, behind one walk.

lexbor follows the WHATWG tree construction, whose scope checks walk the
stack of open elements: quadratic in the nesting depth (40,000 nested
``<div>`` take 3 s, 200,000 over a minute).  Browsers cap the depth
(Chrome at 512); lexbor does not.  So a document that may nest deeper than
``DEPTH_GUARD`` elements, by a count of its tags that cannot underestimate
the depth, is parsed by Python's ``html.parser`` through BeautifulSoup
instead: linear, not the browser's tree in every corner, and reported.
"""

from __future__ import annotations

from typing import Any

from selectolax.lexbor import LexborHTMLParser

from .tree import LexborTree, SoupTree

#: start tags without matching end tags beyond which lexbor is not used
DEPTH_GUARD = 10_000


def possible_depth(markup: str | bytes) -> int:
    """An upper bound of the nesting depth: start tags less end tags (void
    elements and implied end tags only make it larger than the depth), or
    just the count of "<" when that is already below the guard."""
    lt, end_tag, bang = ("<", "</", "<!") if isinstance(markup, str) else (b"<", b"</", b"<!")
    opened = markup.count(lt)  # type: ignore[arg-type]  # a one-character count runs at memory speed
    if opened <= DEPTH_GUARD:
        return opened
    return opened - 2 * markup.count(end_tag) - markup.count(bang)  # type: ignore[arg-type]


def parse(markup: str | bytes) -> tuple[LexborTree | SoupTree, str | None]:
    """The tree of a decoded document (or of UTF-8 bytes), and why it was
    not parsed as a browser would parse it (None when it was)."""
    depth = possible_depth(markup)
    if depth > DEPTH_GUARD:
        from bs4 import BeautifulSoup

        text = markup if isinstance(markup, str) else markup.decode("utf-8", "replace")
        return SoupTree(BeautifulSoup(text, "html.parser")), (
            f"up to {depth} elements may be nested (start tags without end tags); parsed with html.parser, "
            f"which is linear in the depth where the HTML5 tree builder is quadratic, above {DEPTH_GUARD}")
    return LexborTree(LexborHTMLParser(markup)), None


def tree_of(document: Any) -> LexborTree | SoupTree:
    """The walkable tree of a str, or of a BeautifulSoup object (or tag)."""
    if isinstance(document, str):
        return parse(document)[0]
    from bs4 import Tag

    if isinstance(document, Tag):
        return SoupTree(document)
    raise TypeError(f"cannot read HTML from {type(document).__name__}: give bytes, str or a BeautifulSoup object")
