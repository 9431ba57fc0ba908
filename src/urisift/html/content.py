"""The content scorer of :mod:`.region`: what each element of a page holds,
and which of them hold the page's own content.

What an element holds is collected in one walk of the tree, in tree order
(:func:`collect`), and summed up in one pass backwards (a child comes after
its parent in tree order, so going backwards every element is done before
its parent): its text, the part of it that is link text, its paragraphs.
A *paragraph* is the inline text of a block (``p``, a ``div`` or ``td`` of
text ...) of 25 characters or more; it scores one, one a comma (prose has
commas, menus have none) and one a hundred characters up to three, and
gives its score to the block around it and, less and less, to the four
above (the block holding many paragraphs gathers the most).

The block holding the page's content is the best scorer once its score is
cut by its link density (a block of links is a menu however long) and
weighed by its element and its class and id words (:mod:`.hints`); a
parent holding several close runners-up, or scoring more, takes its place,
and its siblings that read as prose join it.  Inside it, what reads as
furniture is left out: landmarks and zones of their own, hidden blocks, and
containers mostly of links.

Every step is linear in the page's elements: an element's score goes up
five ancestors at most, a candidate is compared with five others, and the
content is marked in one pass forwards.
"""

from __future__ import annotations

from typing import Any

from .hints import (
    ASIDE,
    BLOCKS,
    FIRST_ELEMENT_ID,
    FOOTER,
    FURNITURE_ROLES,
    HEADER,
    MAIN,
    NAV,
    NONE,
    OTHER,
    PARAGRAPHS,
    PRIOR,
    ROLES,
    SECTIONING,
    TAG,
    TEXT_ID,
    UNRENDERED,
    weight_of,
    zone_of,
)

# element flags
_SKIP = 1  # not rendered, or hidden: its text is no one's (inherited)
_LINK = 2  # inside a link (inherited)
_HASH = 4  # inside a link to a place in the page (inherited)
_SECTIONED = 8  # inside sectioning content or main (inherited)
_BLOCKY = 16  # has a block child
_INHERITED = _SKIP | _LINK | _HASH | _SECTIONED

#: a paragraph has this many characters at least
PARAGRAPH = 25
#: what a paragraph's score gives the blocks around it, by how far up they are
_SHARES = (1.0, 0.5, 1 / 6, 1 / 9, 1 / 12)
#: a zone's best candidate scoring this many times the best outside zones was misnamed
_MISNAMED = 2.0
#: candidates compared with the best
_RUNNERS_UP = 5

_A, _BODY, _HTML, _HEADER, _FOOTER = TAG["a"], TAG["body"], TAG["html"], TAG["header"], TAG["footer"]
_LANDMARK_TAGS = {TAG["main"]: MAIN, TAG["nav"]: NAV, TAG["aside"]: ASIDE}
_LIST_TAGS = frozenset({TAG["ul"], TAG["ol"], TAG["dl"]})
_CONTAINERS = frozenset(TAG[t] for t in ["div", "section", "form", "fieldset"])
#: table cells: a cell of text is a datum, not a paragraph; one holding blocks is a layout's
_CELLS = frozenset({TAG["td"], TAG["th"]})
_COMMAS = (",", "\uff0c", "\u060c", "\u3001")


class Page:
    """What each element of a page holds, one list a quantity, indexed by the
    element's place in tree order."""

    __slots__ = ("index", "parent", "tag", "flags", "zone", "own", "weight", "text", "links", "inline",
                 "commas", "score", "size", "listed", "body")

    def __init__(self) -> None:
        self.index: dict[int, int] = {}  # lexbor node (mem_id) -> its place
        self.parent: list[int] = []  # the parent's place, -1 at the top
        self.tag: list[int] = []
        self.flags = bytearray()
        self.zone = bytearray()  # the innermost landmark's or zone's region (OTHER: none)
        self.own = bytearray()  # the element's own landmark or zone (NONE: none)
        self.weight: list[int] = []  # what its class and id words say (hints.weight_of)
        self.text: list[int] = []  # characters of text, itself and below
        self.links: list[float] = []  # of which link text (a link within the page counts less)
        self.inline: list[int] = []  # characters of its inline text (its paragraph's)
        self.commas: list[int] = []  # commas in its inline text
        self.score: list[float] = []  # what paragraphs gave it
        self.size: list[int] = []  # itself and its descendants: its subtree is [i, i + size)
        self.listed: list[int] = []  # characters of its text in lists
        self.body = -1

    # -- the quantities ---------------------------------------------------------------------

    def link_density(self, i: int) -> float:
        text = self.text[i]
        return self.links[i] / text if text else 0.0

    def candidate(self, i: int) -> float:
        """The score of ``i`` as the block holding the page's content."""
        return (self.score[i] + PRIOR.get(self.tag[i], 0) + self.weight[i]) * (1.0 - self.link_density(i))

    # -- the content ----------------------------------------------------------------------------

    def content(self) -> bytearray:
        """Per element, 1 where it is part of the page's content."""
        n = len(self.parent)
        inside = bytearray(n)
        roots = self._roots()
        root_set = set(roots)
        parent, own, flags = self.parent, self.own, self.flags
        for i in range(n):
            if i in root_set:
                inside[i] = 1
                continue
            p = parent[i]
            if p < 0 or not inside[p]:
                continue
            if flags[i] & _SKIP or (own[i] != NONE and own[i] != MAIN) or self._furniture(i):
                continue
            inside[i] = 1
        return inside

    def _furniture(self, i: int) -> bool:
        """Whether a container inside the content reads as furniture: mostly links, little prose."""
        tag = self.tag[i]
        if tag not in _CONTAINERS or not self.flags[i] & _BLOCKY:
            return False
        text = self.text[i]
        if text == 0 or self.listed[i] > 0.9 * text:
            return False
        density = self.link_density(i)
        if self.commas[i] >= 10:
            return False
        return density > (0.5 if self.weight[i] >= 25 else 0.33)

    def _roots(self) -> list[int]:
        """The blocks holding the page's content: the best candidate, its
        parent when that gathers the runners-up or scores more, and its
        siblings that read as prose."""
        best: list[tuple[float, int]] = []
        zoned: list[tuple[float, int]] = []  # the same, inside furniture zones
        zone, flags, score = self.zone, self.flags, self.score
        for i in range(len(self.parent)):
            if score[i] <= 0 or flags[i] & _SKIP:
                continue
            c = self.candidate(i)
            ranking = best if zone[i] == OTHER or zone[i] == MAIN else zoned
            if len(ranking) < _RUNNERS_UP or c > ranking[-1][0]:
                ranking.append((c, i))
                ranking.sort(reverse=True)
                del ranking[_RUNNERS_UP:]
        # a zone holding content far better than any outside is misnamed: a
        # layout's column called a sidebar, a page wrapped in a header
        if zoned and (not best or zoned[0][0] > _MISNAMED * best[0][0]):
            best = zoned
        if not best:
            return [self.body] if self.body >= 0 else []
        top_score, top = best[0]
        top = self._gathering(top, top_score, [i for c, i in best[1:] if c >= 0.75 * top_score])
        top = self._climb(top)
        return self._with_siblings(top)

    def _ancestors(self, i: int) -> list[int]:
        out = []
        parent = self.parent
        i = parent[i]
        while i >= 0:
            out.append(i)
            i = parent[i]
        return out

    def _gathering(self, top: int, top_score: float, close: list[int]) -> int:
        """The lowest ancestor of ``top`` holding three of the runners-up close to it, if any."""
        if len(close) < 3:
            return top
        size = self.size
        for a in self._ancestors(top):
            if a == self.body:
                break
            if sum(1 for c in close if a <= c < a + size[a]) >= 3:
                return a
        return top

    def _climb(self, top: int) -> int:
        """Up from ``top`` while a parent scores more (the content spread over
        its children), or is an only child's wrapper."""
        parent, body, score = self.parent, self.body, self.score
        last = self.candidate(top)
        floor = last / 3
        p = parent[top]
        while p >= 0 and p != body:
            s = self.candidate(p) if score[p] > 0 else None
            if s is not None:
                if s < floor:
                    break
                if s > last:
                    top = p
                    last = s
                    floor = last / 3
            p = parent[p]
        return top

    def _with_siblings(self, top: int) -> list[int]:
        p = self.parent[top]
        if p < 0:
            return [top]
        threshold = max(10.0, self.candidate(top) * 0.2)
        roots = []
        size = self.size
        c = p + 1
        end = p + size[p]
        while c < end:
            if c == top:
                roots.append(c)
            elif self.flags[c] & _SKIP == 0 and self.own[c] in (NONE, MAIN):
                if self.score[c] > 0 and self.candidate(c) >= threshold:
                    roots.append(c)
                elif self.tag[c] == TAG["p"]:
                    length = self.text[c]
                    density = self.link_density(c)
                    if (length > 80 and density < 0.25) or (0 < length <= 80 and density == 0):
                        roots.append(c)
            c += size[c]
        return roots


def _names(attributes: Any) -> str:
    return f"{attributes.get('class') or ''} {attributes.get('id') or ''}".lower().replace("_", "-")


def _role_region(role: str) -> int:
    """The region of the first role token that names one (NONE: none does)."""
    for token in role.lower().split():
        if token in ROLES:
            return ROLES[token]
        if token in FURNITURE_ROLES:
            return OTHER
    return NONE


def _hidden(attributes: Any) -> bool:
    if "hidden" in attributes:
        return True
    if (attributes.get("aria-hidden") or "").strip().lower() == "true":
        return True
    style = attributes.get("style")
    if style:
        style = style.lower().replace(" ", "")
        return "display:none" in style or "visibility:hidden" in style
    return False


def collect(root: Any) -> Page:
    """What each element below ``root`` (a lexbor node) holds, summed up."""
    page = Page()
    index, parent, tags, flags, zone, own, weight = (page.index, page.parent, page.tag, page.flags, page.zone,
                                                      page.own, page.weight)
    text, links, commas = page.text, page.links, page.commas
    text_id, first = TEXT_ID, FIRST_ELEMENT_ID
    unrendered, sectioning, landmark_tags = UNRENDERED, SECTIONING, _LANDMARK_TAGS
    for node in root.traverse(include_text=True, skip_empty=True):
        tag_id = node.tag_id
        if tag_id == text_id:
            up = node.parent
            j = index.get(up.mem_id) if up is not None else None
            if j is None or flags[j] & _SKIP:
                continue
            value = node.text_content
            length = len(value.strip())
            text[j] += length
            if flags[j] & _LINK:
                links[j] += length * 0.3 if flags[j] & _HASH else length
            if "," in value or not value.isascii():
                commas[j] += sum(value.count(c) for c in _COMMAS)
            continue
        if tag_id < first:
            continue
        up = node.parent
        p = index.get(up.mem_id, -1) if up is not None else -1
        i = len(parent)
        index[node.mem_id] = i
        parent.append(p)
        tags.append(tag_id)
        inherited = flags[p] & _INHERITED if p >= 0 else 0
        region = zone[p] if p >= 0 else OTHER
        mine = NONE  # the element's own landmark or zone
        names = ""
        w = 0
        attributes = node.attributes
        if tag_id in unrendered:
            inherited |= _SKIP
        if attributes:
            if _hidden(attributes):
                inherited |= _SKIP
            role = attributes.get("role")
            if role:  # an explicit role overrides the element's own (WAI-ARIA 1.2 §4.1)
                mine = _role_region(role)
            if "class" in attributes or "id" in attributes:
                names = _names(attributes)
                w = weight_of(names)
            if tag_id == _A and attributes.get("href") is not None:
                inherited |= _LINK
                if (attributes.get("href") or "").startswith("#"):
                    inherited |= _HASH
        if mine == NONE:
            if tag_id in landmark_tags:
                mine = landmark_tags[tag_id]
            elif tag_id in (_HEADER, _FOOTER):
                # the page's banner and contentinfo, or (in a section) the section's
                # own: the element says which, whatever its class words (HTML-AAM)
                if not inherited & _SECTIONED:
                    mine = HEADER if tag_id == _HEADER else FOOTER
            elif names:
                mine = zone_of(names)
        if tag_id in sectioning:
            inherited |= _SECTIONED
        if tag_id == _BODY and page.body < 0:
            page.body = i
        flags.append(inherited)
        own.append(mine)
        zone.append(region if mine == NONE else mine)
        weight.append(w)
        text.append(0)
        links.append(0.0)
        commas.append(0)
    _sum_up(page)
    return page


def _sum_up(page: Page) -> None:
    """Backwards through the elements: each one's text and links into its
    parent's, its inline text into its block's paragraph, each paragraph's
    score into the blocks above it."""
    n = len(page.parent)
    parent, tags, flags, text, links, commas = page.parent, page.tag, page.flags, page.text, page.links, page.commas
    inline = list(text)  # direct text so far; inline children add theirs below
    score = [0.0] * n
    size = [1] * n
    listed = [0] * n
    lists = _LIST_TAGS
    cells = _CELLS
    blocks, paragraphs, shares = BLOCKS, PARAGRAPHS, _SHARES
    for i in range(n - 1, -1, -1):
        tag = tags[i]
        p = parent[i]
        if tag in blocks:
            if tag in paragraphs and inline[i] >= PARAGRAPH and not flags[i] & _SKIP and (
                    tag not in cells or flags[i] & _BLOCKY):
                value = 1 + commas[i] + min(inline[i] // 100, 3)
                # a block with blocks in it holds its loose text as a paragraph of its own
                j = i if flags[i] & _BLOCKY else p
                for share in shares:
                    if j < 0:
                        break
                    score[j] += value * share
                    j = parent[j]
            if p >= 0:
                flags[p] |= _BLOCKY
        elif p >= 0:
            inline[p] += inline[i]
            commas[p] += commas[i]
        if p >= 0:
            text[p] += text[i]
            links[p] += links[i]
            size[p] += size[i]
            listed[p] += text[i] if tag in lists else listed[i]
    page.inline = inline
    page.listed = listed
    page.score = score
    page.size = size
