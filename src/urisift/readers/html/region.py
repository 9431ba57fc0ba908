"""Where on a page an element stands: the page's own content
(``main``), its navigation (``nav``), its banner (``header``), its
contentinfo (``footer``), tangential content (``aside``), a comment thread
(``comments``), or ``other``.

Two sources, the first winning where it speaks:

- **Landmarks.** ``<main>``, ``<nav>``, ``<aside>``, and ``<header>`` and
  ``<footer>`` where they are the page's banner and contentinfo: not inside
  ``article``, ``aside``, ``main``, ``nav`` or ``section`` (HTML §4.3.8,
  §4.3.9; HTML-AAM maps them to banner and contentinfo only there); the
  ARIA landmark roles ``main``, ``navigation``, ``banner``, ``contentinfo``,
  ``complementary`` (WAI-ARIA 1.2 §5.3.4) and ``comment`` (ARIA 1.3); a
  comment thread known by its class or id.  The innermost landmark holds.
- **A content scorer** (:mod:`.content`) for pages with no landmark or
  with landmarks that say little (a ``<main>`` around the whole page, an
  article outside any): it finds the block that holds the page's prose,
  and within it leaves out what reads as furniture (link lists, share bars,
  related stories).

A pure function of the parsed tree, linear in its nodes: one walk collects
what each element holds (:mod:`.content`), one pass backwards sums it up, one
forwards gives each element its region.  Elements inside a template's
contents are not on the page: ``other``.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import Any

from .content import content
from .hints import MAIN, OTHER, REGION_NAMES
from .page import Page, lexbor_page, soup_page
from .tree import LexborTree

__all__ = ["REGION_NAMES", "PageRegions", "page_regions"]

_mem_id = attrgetter("mem_id")


class PageRegions:
    """The region of each element of one parsed page, looked up by its node."""

    __slots__ = ("_index", "_codes", "_key")

    def __init__(self, index: dict[int, int], codes: bytearray, key: Callable[[Any], int]) -> None:
        self._index = index
        self._codes = codes
        self._key = key

    def of(self, node: Any) -> str:
        """The region of ``node``, an element of the page (for a text, its
        parent; for a comment at the top, none: other)."""
        if node is None:
            return REGION_NAMES[OTHER]
        i = self._index.get(self._key(node))
        return REGION_NAMES[OTHER if i is None else self._codes[i]]


def page_regions(tree: Any) -> PageRegions:
    """The regions of a parsed page (:class:`~.tree.LexborTree` or :class:`~.tree.SoupTree`)."""
    if isinstance(tree, LexborTree):
        root = tree.parser.root
        page = lexbor_page(root) if root is not None else Page()
        return PageRegions(page.index, assign(page), _mem_id)
    page = soup_page(tree.soup)
    return PageRegions(page.index, assign(page), id)


def assign(page: Page) -> bytearray:
    """Each element's region code, in tree order: main where the page's
    content is (:func:`.content.content`), else the innermost landmark's or
    zone's region, else other."""
    inside = content(page)
    codes = bytearray(page.zone)
    for i, held in enumerate(inside):
        if held:
            codes[i] = MAIN
        elif codes[i] == MAIN:  # in a <main> but left out by the scorer (a link list, a hidden block)
            codes[i] = OTHER
    return codes
