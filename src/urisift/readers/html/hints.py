"""What an element's name, role, class and id say of where it stands on the
page: the region codes, the landmark elements and roles, and the
words in class and id values that sites give their furniture and their
content.

Class and id words are hints, not rules: a site is free to name a block
anything, so the words say only what most sites mean by them, and the
content scorer (:mod:`.content`) weighs them against what the block holds.
"""

from __future__ import annotations

from selectolax.lexbor import LexborHTMLParser

from ...model import Region
from ...uri import patterns

#: region codes, indexes into REGION_NAMES (the ``region`` key's values)
MAIN, NAV, HEADER, FOOTER, ASIDE, COMMENTS, OTHER = range(7)
REGION_NAMES: tuple[str, ...] = tuple(region.value for region in Region)
assert REGION_NAMES[OTHER] == "other" and REGION_NAMES[MAIN] == "main"
#: no landmark or zone of its own
NONE = 255

#: WAI-ARIA 1.2 §5.3.4 landmark roles (and ARIA 1.3's comment) -> region;
#: search is a landmark of the page's furniture, with its navigation
ROLES = {
    "main": MAIN, "navigation": NAV, "search": NAV, "banner": HEADER, "contentinfo": FOOTER,
    "complementary": ASIDE, "comment": COMMENTS,
}
#: roles whose element is not part of the reading (menus, dialogs, alerts)
FURNITURE_ROLES = frozenset({"menu", "menubar", "dialog", "alertdialog", "alert", "tablist", "toolbar"})


def _ids(names: str) -> dict[str, int]:
    """lexbor's ids of the tags ``names`` (its enumeration, which a new version may renumber)."""
    parser = LexborHTMLParser("")
    return {name: parser.create_node(name).tag_id for name in names.split()}


TAG = _ids(
    "a main nav header footer aside article section body html head p div pre td th blockquote dd dt li ul ol dl "
    "table tbody thead tfoot tr form fieldset h1 h2 h3 h4 h5 h6 script style noscript template title textarea "
    "select option optgroup datalist iframe object embed svg math button input img picture figure figcaption "
    "address center details summary dialog hgroup hr menu caption br canvas video audio code label abbr b bdi "
    "bdo cite data dfn em i kbd mark q s samp small span strong sub sup time u var wbr font"
)
_TEXT_PARSER = LexborHTMLParser("<p>x</p>")
#: the id lexbor gives text nodes, and the first id of an element (lexbor
#: numbers the kinds of node that are not elements before its first tag, "a")
TEXT_ID = next(n.tag_id for n in _TEXT_PARSER.root.traverse(include_text=True) if n.tag == "-text")  # type: ignore[union-attr]
FIRST_ELEMENT_ID = TAG["a"]
del _TEXT_PARSER

def _tags(names: str) -> frozenset[int]:
    return frozenset(TAG[name] for name in names.split())


#: elements that break the flow of text into blocks (a paragraph is the inline text of one)
BLOCKS = _tags("address article aside blockquote body center dd details dialog div dl dt fieldset figcaption "
               "figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr html li main menu nav ol p pre section "
               "summary table tbody thead tfoot tr td th caption ul")
#: elements whose text no reader sees as the page's text
UNRENDERED = _tags("head script style noscript template title textarea select option optgroup datalist svg math "
                   "button canvas")
#: elements whose inline text is scored as a paragraph (a list item is not: lists are most often menus)
PARAGRAPHS = _tags("p pre td blockquote dd h2 h3 h4 h5 h6 div section article main center")
#: phrasing elements: their class words name a link or a word ("headerlink", "share-count"), not a block
INLINE = _tags("a abbr b bdi bdo br cite code data dfn em i img kbd label mark q s samp small span strong sub sup "
               "time u var wbr font picture svg button input select")
#: sectioning content and main: a header or footer inside one is its section's, not the page's
SECTIONING = _tags("article aside main nav section")
#: a prior for the block holding the page's content, by its element (prose sits in divs and
#: articles, not in lists, forms and headings)
PRIOR = {TAG["div"]: 5, TAG["article"]: 10, TAG["section"]: 3, TAG["main"]: 10, TAG["pre"]: 3, TAG["td"]: 3,
         TAG["blockquote"]: 3, TAG["address"]: -3, TAG["ol"]: -3, TAG["ul"]: -3, TAG["dl"]: -3, TAG["dd"]: -3,
         TAG["dt"]: -3, TAG["li"]: -3, TAG["form"]: -3, TAG["h1"]: -5, TAG["h2"]: -5, TAG["h3"]: -5,
         TAG["h4"]: -5, TAG["h5"]: -5, TAG["h6"]: -5, TAG["th"]: -5}

# -- class and id words -------------------------------------------------------------------------

#: words naming a block of the page's furniture, by the region they place it in; the
#: first that matches holds (comments before navigation: "comment-nav" is the thread's)
_ZONE_WORDS = (
    (COMMENTS, r"comment|disqus|respond\b|replies|discussion"),
    (NAV, r"\bnav|navigation|menu|breadcrumb|pagination|\bpager\b|\btoc\b|skip-?link"),
    (HEADER, r"header|masthead|\bbanner\b|\btopbar|site-?title|branding"),
    (FOOTER, r"footer|colophon|copyright"),
    (ASIDE, r"sidebar|\baside\b|\brail\b|related|recommend|trending|popular|most-?read|widget|sponsor|"
            r"promo|outbrain|taboola|\bads?\b|advert"),
    (OTHER, r"share|sharing|social|follow-?us|subscribe|newsletter|signup|sign-?up|login|cookie|gdpr|consent|"
            r"popup|modal|overlay|print-only|\btags?\b"),
)
_ZONES = patterns.compile("|".join(f"(?P<z{code}>{words})" for code, words in _ZONE_WORDS))
#: words naming a block of content: a block named for both is given the benefit of the doubt
#: ("main" is not one of them: "main-menu", "main-nav" are the site's main navigation)
_CONTENT = patterns.compile(r"article|content|entry|\bpost|story|\bbody|\btext\b|hentry|h-entry|blog")
_MAIN = patterns.compile(r"\bmain\b")
#: words that lower a block's score as the page's content, short of naming it furniture
_DOUBTFUL = patterns.compile(r"\bmeta\b|byline|author|date|caption|credit|hidden|\bhid\b|media|contact|scroll")


def _words(value: str) -> tuple[int, bool, int]:
    """What one class or id value says: the zone its words name (NONE:
    none), whether they name content, and their weight (+25 content, -25
    furniture or doubtful, both: 0)."""
    names = value.lower().replace("_", "-")
    zone = _ZONES.search(names)
    content = _CONTENT.search(names) is not None
    furniture = zone is not None or _DOUBTFUL.search(names) is not None
    weight = (25 if content or _MAIN.search(names) else 0) - (25 if furniture else 0)
    return (NONE if zone is None else int(zone.lastgroup[1:])), content, weight  # type: ignore[index]


#: what each class or id value seen says: a page repeats its class values
#: many times (every menu item, every paragraph), so each is read once; kept
#: for values of a usual length only, so that it holds a megabyte at most
_SEEN: dict[str, tuple[int, bool, int]] = {}
_SEEN_LIMIT = 8192
_SEEN_LENGTH = 128


def hints_of(classes: str | None, ident: str | None) -> tuple[int, int]:
    """The zone an element's class and id words place it in (NONE: none,
    or they name content too: a block named for both is given the benefit
    of the doubt) and how much they say it holds the page's content
    (negative: furniture), each value counting for itself."""
    zone, content, weight = NONE, False, 0
    for value in (classes, ident):
        if value:
            said = _SEEN.get(value)
            if said is None:
                said = _words(value)
                if len(value) <= _SEEN_LENGTH:
                    if len(_SEEN) >= _SEEN_LIMIT:
                        _SEEN.clear()
                    _SEEN[value] = said
            if zone == NONE:
                zone = said[0]
            content = content or said[1]
            weight += said[2]
    return (NONE if content else zone), weight


__all__ = ["ASIDE", "BLOCKS", "COMMENTS", "FIRST_ELEMENT_ID", "FOOTER", "FURNITURE_ROLES", "HEADER", "INLINE",
           "MAIN", "NAV", "NONE", "OTHER", "PARAGRAPHS", "PRIOR", "REGION_NAMES", "ROLES", "SECTIONING", "TAG",
           "TEXT_ID", "UNRENDERED", "hints_of"]
