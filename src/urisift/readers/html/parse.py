"""The parser: text to a tree a browser would build (lexbor, via selectolax),
or a BeautifulSoup object the caller already has, behind one walk.

lexbor follows the WHATWG tree construction, which is quadratic in two
shapes: the nesting depth (its scope checks walk the stack of open
elements) and the attributes of one element (each is compared with those
before it).  Browsers cap the depth (Blink at 512); lexbor does not.  So
the markup first passes :func:`.guard.guard`, one linear pass that caps
both before lexbor sees it, and says what it capped.  There is
no second parser: the tree is always the HTML5 one, the tokenizer's
RCDATA and RAWTEXT rules included.
"""

from __future__ import annotations

from typing import Any

from selectolax.lexbor import LexborHTMLParser

from .guard import guard
from .tree import LexborTree, SoupTree


def parse(markup: str | bytes, comments: bool = True) -> tuple[LexborTree, str | None]:
    """The tree of a decoded document (or of UTF-8 bytes), and what was capped
    to parse it in linear time (None when nothing was).  ``comments`` False:
    their texts are not read, and the long ones are not parsed (see guard).

    A decoded document is encoded here, to the UTF-8 that lexbor reads, as
    selectolax would encode it (a lone surrogate dropped): then the guard's
    first pass reads those bytes, in C where the build has it."""
    if isinstance(markup, str):
        markup = markup.encode("utf-8", "ignore")
    guarded = guard(markup, comments)
    return LexborTree(LexborHTMLParser(guarded.markup)), "; ".join(guarded.notes) or None


def tree_of(document: Any) -> LexborTree | SoupTree:
    """The walkable tree of a str, or of a BeautifulSoup object (or tag)."""
    if isinstance(document, str):
        return parse(document)[0]
    from bs4 import Tag

    if isinstance(document, Tag):
        return SoupTree(document)
    raise TypeError(f"cannot read HTML from {type(document).__name__}: give bytes, str or a BeautifulSoup object")
