"""What each element of a page holds, for :mod:`.region`: collected in one
walk of the tree in tree order, summed up in one pass backwards.

Going backwards through the elements in tree order, every element is done
before its parent (a child comes after it), so one pass sums up each
element's text, the part of it that is link text, and its paragraphs.  A
*paragraph* is the inline text of a block (``p``, a ``div`` of text, a
layout's table cell ...) of :data:`PARAGRAPH` characters or more; it scores
one, one a comma (prose has commas, menus have none) and one a hundred
characters up to three, and gives its score to the block around it and,
less and less, to the four above: the block holding many paragraphs
gathers the most.

The quantities live in one list each, indexed by the element's place in
tree order: a page of a hundred thousand elements is a few lists of
numbers, not a hundred thousand objects.  The walk reads a lexbor tree or
a BeautifulSoup one alike.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .hints import (
    BLOCKS,
    FIRST_ELEMENT_ID,
    FOOTER,
    FURNITURE_ROLES,
    HEADER,
    INLINE,
    NONE,
    OTHER,
    PARAGRAPHS,
    ROLES,
    SECTIONING,
    TAG,
    TEXT_ID,
    UNRENDERED,
    hints_of,
)

# element flags
SKIP = 1  # not rendered, or hidden: its text is no one's (inherited)
LINK = 2  # inside a link (inherited)
HASH = 4  # inside a link to a place in the page (inherited)
SECTIONED = 8  # inside sectioning content or main (inherited)
BLOCKY = 16  # has a block child
NAMED = 32  # its own zone is named by its class or id words, not by its element or role
_INHERITED = SKIP | LINK | HASH | SECTIONED

#: a paragraph has this many characters at least
PARAGRAPH = 25
#: what a paragraph's score gives the blocks around it, by how far up they are
SHARES = (1.0, 0.5, 1 / 6, 1 / 9, 1 / 12)
#: a link to a place in the page (a footnote, a section) weighs this much of its text as link text
HASH_WEIGHT = 0.3

_A, _BODY, _HEADER, _FOOTER = TAG["a"], TAG["body"], TAG["header"], TAG["footer"]
_LANDMARK_TAGS = {TAG["main"]: ROLES["main"], TAG["nav"]: ROLES["navigation"], TAG["aside"]: ROLES["complementary"]}
LISTS = frozenset({TAG["ul"], TAG["ol"], TAG["dl"]})
#: table cells: a cell of text is a datum, not a paragraph; one holding blocks is a layout's
_CELLS = frozenset({TAG["td"], TAG["th"]})
_COMMAS = (",", "\uff0c", "\u060c", "\u3001")
#: the id of an element lexbor does not know (a custom one), for a BeautifulSoup tree
_UNKNOWN = -1


class Page:
    """What each element of a page holds, one list a quantity."""

    __slots__ = ("index", "parent", "tag", "flags", "zone", "own", "weight", "text", "links", "inline",
                 "commas", "all_commas", "score", "size", "listed", "body")

    def __init__(self) -> None:
        self.index: dict[int, int] = {}  # node (lexbor's mem_id, or id()) -> its place in tree order
        self.parent: list[int] = []  # the parent's place, -1 at the top
        self.tag: list[int] = []  # lexbor's tag id
        self.flags = bytearray()
        self.zone = bytearray()  # the innermost landmark's or zone's region (OTHER: none)
        self.own = bytearray()  # the element's own landmark or zone (NONE: none)
        self.weight: list[int] = []  # what its class and id words say (hints.weight_of)
        self.text: list[int] = []  # characters of text, itself and below
        self.links: list[float] = []  # of which link text (a link within the page counts less)
        self.inline: list[int] = []  # characters of its inline text (its paragraph's)
        self.commas: list[int] = []  # commas in its inline text
        self.all_commas: list[int] = []  # commas in its text
        self.score: list[float] = []  # what paragraphs gave it
        self.size: list[int] = []  # itself and its descendants: its subtree is [i, i + size)
        self.listed: list[int] = []  # characters of its text in lists
        self.body = -1

    def link_density(self, i: int) -> float:
        text = self.text[i]
        return self.links[i] / text if text else 0.0

    # -- the walk -------------------------------------------------------------------------------

    def element(self, p: int, tag: int, attributes: Any) -> int:
        """Add an element (its parent's place ``p``, -1 at the top), return its place."""
        i = len(self.parent)
        flags = self.flags
        self.parent.append(p)
        self.tag.append(tag)
        inherited = flags[p] & _INHERITED if p >= 0 else 0
        mine = NONE  # the element's own landmark or zone
        named = NONE  # the zone its class and id words name
        weight = 0
        if tag in UNRENDERED:
            inherited |= SKIP
        if attributes:
            if _hidden(attributes):
                inherited |= SKIP
            role = attributes.get("role")
            if role:  # an explicit role overrides the element's own (WAI-ARIA 1.2 §4.1)
                mine = _role_region(role)
            if "class" in attributes or "id" in attributes:
                named, weight = hints_of(attributes.get("class"), attributes.get("id"))
            if tag == _A:
                href = attributes.get("href")
                if href is not None:
                    inherited |= LINK | HASH if href.startswith("#") else LINK
        if mine == NONE:
            if tag in _LANDMARK_TAGS:
                mine = _LANDMARK_TAGS[tag]
            elif tag in (_HEADER, _FOOTER):
                # the page's banner and contentinfo, or (in a section) the section's
                # own: the element says which, whatever its class words (HTML-AAM)
                if not inherited & SECTIONED:
                    mine = HEADER if tag == _HEADER else FOOTER
            elif tag not in INLINE and named != NONE:  # a block of furniture, not a word of it
                mine = named
                inherited |= NAMED
        if tag in SECTIONING:
            inherited |= SECTIONED
        if tag == _BODY and self.body < 0:
            self.body = i
        flags.append(inherited)
        self.own.append(mine)
        self.zone.append((self.zone[p] if p >= 0 else OTHER) if mine == NONE else mine)
        self.weight.append(weight)
        self.text.append(0)
        self.links.append(0.0)
        self.commas.append(0)
        return i

    def text_node(self, j: int, value: str) -> None:
        """Add a text node's text to its parent, the element at ``j``."""
        flags = self.flags[j]
        if flags & SKIP:
            return
        length = len(value.strip())
        self.text[j] += length
        if flags & LINK:
            self.links[j] += length * HASH_WEIGHT if flags & HASH else length
        if "," in value or not value.isascii():
            self.commas[j] += sum(value.count(c) for c in _COMMAS)


def _role_region(role: str) -> int:
    """The region of the first role token that names one (NONE: none does)."""
    for token in role.lower().split():
        if token in ROLES:
            return ROLES[token]
        if token in FURNITURE_ROLES:
            return OTHER
    return NONE


def _hidden(attributes: Any) -> bool:
    """Whether an element is not shown: ``hidden``, ``aria-hidden="true"``, or hidden by its own style."""
    if "hidden" in attributes:
        return True
    if (attributes.get("aria-hidden") or "").strip().lower() == "true":
        return True
    style = attributes.get("style")
    if style:
        style = style.lower().replace(" ", "")
        return "display:none" in style or "visibility:hidden" in style
    return False


def lexbor_page(root: Any) -> Page:
    """What each element below ``root`` (a lexbor node) holds, summed up."""
    page = Page()
    index = page.index
    element, text_node = page.element, page.text_node
    text_id, first = TEXT_ID, FIRST_ELEMENT_ID
    for node in root.traverse(include_text=True, skip_empty=True):
        tag_id = node.tag_id
        up = node.parent
        p = index.get(up.mem_id, -1) if up is not None else -1
        if tag_id == text_id:
            if p >= 0:
                text_node(p, node.text_content)
        elif tag_id >= first:
            index[node.mem_id] = element(p, tag_id, node.attributes)
    sum_up(page)
    return page


def soup_page(soup: Any) -> Page:
    """What each element of a BeautifulSoup tree holds, summed up (its nodes known by ``id()``)."""
    from bs4.element import NavigableString, PreformattedString, Tag

    page = Page()
    index = page.index
    tag_of: Callable[[str], int] = lambda name: TAG.get(name, _UNKNOWN)  # noqa: E731
    for node in soup.descendants:
        up = node.parent
        p = index.get(id(up), -1) if up is not None else -1
        if isinstance(node, Tag):
            attributes = {k: " ".join(v) if isinstance(v, list) else v for k, v in node.attrs.items()}
            index[id(node)] = page.element(p, tag_of((node.name or "").lower()), attributes)
        elif isinstance(node, NavigableString) and not isinstance(node, PreformattedString) and p >= 0:
            page.text_node(p, str(node))
    sum_up(page)
    return page


def sum_up(page: Page) -> None:
    """Backwards through the elements: each one's text and links into its
    parent's, its inline text into its block's paragraph, each paragraph's
    score into the blocks above it."""
    n = len(page.parent)
    parent, tags, flags, text, links, commas = page.parent, page.tag, page.flags, page.text, page.links, page.commas
    inline = list(text)  # direct text so far; inline children add theirs below
    all_commas = list(commas)
    score = [0.0] * n
    size = [1] * n
    listed = [0] * n
    blocks, paragraphs, cells, lists, shares = BLOCKS, PARAGRAPHS, _CELLS, LISTS, SHARES
    for i in range(n - 1, -1, -1):
        tag = tags[i]
        p = parent[i]
        if tag in blocks:
            if tag in paragraphs and inline[i] >= PARAGRAPH and not flags[i] & SKIP and (
                    tag not in cells or flags[i] & BLOCKY):
                value = 1 + commas[i] + min(inline[i] // 100, 3)
                # a block with blocks in it holds its loose text as a paragraph of its own
                j = i if flags[i] & BLOCKY else p
                for share in shares:
                    if j < 0:
                        break
                    score[j] += value * share
                    j = parent[j]
            if p >= 0:
                flags[p] |= BLOCKY
        elif p >= 0:
            inline[p] += inline[i]
            commas[p] += commas[i]
        if p >= 0:
            text[p] += text[i]
            links[p] += links[i]
            all_commas[p] += all_commas[i]
            size[p] += size[i]
            listed[p] += text[i] if tag in lists else listed[i]
    page.inline = inline
    page.all_commas = all_commas
    page.score = score
    page.size = size
    page.listed = listed
