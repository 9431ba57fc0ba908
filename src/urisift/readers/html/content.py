"""The content scorer of :mod:`.region`: which elements of a page hold its
own content, from what each holds (:mod:`.page`).

The block holding the page's content is the best *candidate*: the score
its paragraphs gave it, with a prior for its element and what its class and
id words say (:mod:`.hints`), cut by its link density (a block of links is
a menu however long).  A parent holding three close runners-up takes its
place, and so does an ancestor scoring more (the content spread over its
children); then its siblings that read as prose join it.  Inside it, what
reads as furniture is left out: landmarks and zones of their own, hidden
blocks, and containers mostly of links.

Landmarks and class words that name furniture are believed unless the
page's content is inside them: a zone whose best block scores far above
any outside every zone was misnamed (a layout's column called a sidebar,
a whole page inside a ``<header>``), and the best is taken inside it.

Every step is linear in the page's elements: a candidate is compared with
five others, an ancestor chain is walked once for each of three steps, and
the content is marked in one pass forwards.
"""

from __future__ import annotations

from .hints import COMMENTS, MAIN, NONE, OTHER, PRIOR, TAG
from .page import BLOCKY, NAMED, SKIP, Page

#: a best candidate scoring less than this is little prose (a landing page, a list of products):
#: the ``<main>`` around it, where there is one, says more of the page's content than the scorer
WEAK = 20.0
#: a block named furniture by its class words scoring this much with less link text than this is prose
PROSE_SCORE = 20.0
PROSE_LINKS = 0.2
#: candidates compared with the best
RUNNERS_UP = 5
#: a runner-up this close to the best counts towards gathering them under a parent ...
CLOSE = 0.75
#: ... when this many are under it
GATHERED = 3
#: a zone's best candidate scoring this many times the best outside zones was misnamed
MISNAMED = 2.0
#: a container inside the content holding more link text than this (of its text) is furniture ...
FURNITURE = 0.33
#: ... or, when its class and id words say content, this
FURNITURE_NAMED = 0.5
#: ... unless it has this many commas (prose)
PROSE_COMMAS = 10

_P, _TABLE = TAG["p"], TAG["table"]
#: the whole page is no candidate: it is what is left when none is found
_WHOLE = frozenset({TAG["body"], TAG["html"]})
_CONTAINERS = frozenset(TAG[t] for t in ["div", "section", "form", "fieldset"])


def candidate(page: Page, i: int) -> float:
    """The score of element ``i`` as the block holding the page's content."""
    return (page.score[i] + PRIOR.get(page.tag[i], 0) + page.weight[i]) * (1.0 - page.link_density(i))


def content(page: Page) -> bytearray:
    """Per element in tree order, 1 where it is part of the page's content."""
    n = len(page.parent)
    inside = bytearray(n)
    tabled = bytearray(n)  # inside a table: its cells are data, links often, never furniture
    roots = set(_roots(page))
    parent, own, flags, tag = page.parent, page.own, page.flags, page.tag
    for i in range(n):
        p = parent[i]
        if p >= 0 and (tabled[p] or tag[p] == _TABLE):
            tabled[i] = 1
        if i in roots:
            inside[i] = 1
            continue
        if p < 0 or not inside[p]:
            continue
        if flags[i] & SKIP or (own[i] != NONE and own[i] != MAIN and not _prose(page, i)) or (
                not tabled[i] and _furniture(page, i)):
            continue
        inside[i] = 1
    return inside


def _prose(page: Page, i: int) -> bool:
    """Whether a block its class words call furniture holds prose all the
    same: several paragraphs, few links (a section whose id is its heading's
    words, "sharing-with-a-team").  A comment thread is prose by nature: it
    stays a thread."""
    return (page.flags[i] & NAMED and page.own[i] != COMMENTS and page.score[i] >= PROSE_SCORE
            and page.link_density(i) < PROSE_LINKS) != 0


def _furniture(page: Page, i: int) -> bool:
    """Whether a container inside the content reads as furniture: mostly
    links and little prose.  A list is not judged so (the article's
    references, its table of contents), nor is a container mostly of lists,
    nor a table (a data table's cells are links often)."""
    if page.tag[i] not in _CONTAINERS or not page.flags[i] & BLOCKY:
        return False
    text = page.text[i]
    if text == 0 or page.listed[i] > 0.9 * text or page.all_commas[i] >= PROSE_COMMAS:
        return False
    return page.link_density(i) > (FURNITURE_NAMED if page.weight[i] > 0 else FURNITURE)


def _roots(page: Page) -> list[int]:
    """The blocks holding the page's content: the best candidate, or the
    parent gathering it and its runners-up, or an ancestor scoring more;
    and its siblings that read as prose."""
    best: list[tuple[float, int]] = []
    zoned: list[tuple[float, int]] = []  # the same, inside furniture zones
    zone, flags, score, tag = page.zone, page.flags, page.score, page.tag
    for i in range(len(page.parent)):
        if score[i] <= 0 or flags[i] & SKIP or tag[i] in _WHOLE:
            continue
        c = candidate(page, i)
        ranking = best if zone[i] == OTHER or zone[i] == MAIN else zoned
        if len(ranking) < RUNNERS_UP or c > ranking[-1][0]:
            ranking.append((c, i))
            ranking.sort(reverse=True)
            del ranking[RUNNERS_UP:]
    if zoned and (not best or zoned[0][0] > MISNAMED * best[0][0]):
        best = zoned
    if not best:  # no prose at all: the author's <main>, else the whole page
        landmark = next((i for i, region in enumerate(page.own) if region == MAIN and not flags[i] & SKIP), -1)
        return [landmark] if landmark >= 0 else [page.body] if page.body >= 0 else []
    top_score, top = best[0]
    top = _gathering(page, top, [i for c, i in best[1:] if c >= CLOSE * top_score])
    top = _climb(page, top)
    if top_score < WEAK:  # little prose anywhere: the author's <main>, if it holds the best
        a = top
        while a >= 0:
            if page.own[a] == MAIN:
                return [a]
            a = page.parent[a]
    return _with_siblings(page, top)


def _gathering(page: Page, top: int, close: list[int]) -> int:
    """The lowest ancestor of ``top`` below the body holding ``GATHERED`` of ``close``, else ``top``."""
    if len(close) < GATHERED:
        return top
    parent, size = page.parent, page.size
    a = parent[top]
    while a >= 0 and a != page.body:
        if sum(1 for c in close if a <= c < a + size[a]) >= GATHERED:
            return a
        a = parent[a]
    return top


def _climb(page: Page, top: int) -> int:
    """Up from ``top`` to an ancestor scoring more (the content spread over
    its children), while the ancestors on the way keep a third of its score."""
    parent, body, score = page.parent, page.body, page.score
    last = candidate(page, top)
    a = parent[top]
    while a >= 0 and a != body:
        if score[a] > 0:
            c = candidate(page, a)
            if c < last / 3:
                break
            if c > last:
                top, last = a, c
        a = parent[a]
    return top


def _with_siblings(page: Page, top: int) -> list[int]:
    """``top`` and its siblings that read as the page's content too: a
    candidate scoring a fifth of it, a paragraph of prose."""
    p = page.parent[top]
    if p < 0:
        return [top]
    threshold = max(10.0, candidate(page, top) * 0.2)
    roots = []
    size, flags, own, score, tag, text = page.size, page.flags, page.own, page.score, page.tag, page.text
    c, end = p + 1, p + size[p]
    while c < end:  # the children of p, each subtree skipped over
        if c == top:
            roots.append(c)
        elif not flags[c] & SKIP and own[c] in (NONE, MAIN):
            if score[c] > 0 and candidate(page, c) >= threshold:
                roots.append(c)
            elif tag[c] == _P:
                density = page.link_density(c)
                if (text[c] > 80 and density < 0.25) or (0 < text[c] <= 80 and density == 0):
                    roots.append(c)
        c += size[c]
    return roots
