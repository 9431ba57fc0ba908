"""Which attributes of which elements hold URLs, how their values are written,
and which base each resolves against (ARCHITECTURE.md, Base URIs).

The rows are the URL-valued attributes of HTML 4.01 (Appendix "Index of
Attributes", type %URI;/%URIs;) and of the WHATWG living standard (the
attributes whose value is a "valid URL potentially surrounded by spaces",
a list of them, a srcset, or a document), plus the SVG/MathML links and the
lazy-loading conventions crawlers ask for.  ``usemap`` is not here: its value
is a hash-name reference to a ``<map>`` of the same document, not a URL.
"""

from __future__ import annotations

from enum import Enum
from typing import NamedTuple

#: anchor text is cut to this many characters (a link written as Markdown too)
ANCHOR_TEXT_LIMIT = 200


class Syntax(Enum):
    """How an attribute's value holds its URL(s)."""

    URL = "url"  # one URL, surrounding white space ignored
    URLS = "urls"  # URLs separated by white space (ping, archive of object, itemtype)
    COMMA_URLS = "comma-urls"  # URLs separated by commas (applet archive, HTML 4.01 §13.4)
    SRCSET = "srcset"  # image candidate strings (WHATWG §4.8.4.3)
    CSS = "css"  # a style="" declaration block: url(), image-set()
    DOCUMENT = "document"  # iframe srcdoc: a whole HTML document


class Against(Enum):
    """What a value resolves against (ARCHITECTURE.md, Base URIs)."""

    BASE = "base"  # the document base URL: the first <base href>, else the layer below
    FORM = "form"  # an empty value means the document's own URL, not <base> (WHATWG §4.10.21.3)
    DOCUMENT_URL = "document-url"  # always the document's own URL (html manifest)
    CODEBASE = "codebase"  # the element's codebase when present, else BASE (HTML 4.01 §13.3)


class Rule(NamedTuple):
    syntax: Syntax
    against: Against = Against.BASE
    lazy: bool = False


#: the commonest rule: one URL against the document base
_URL = Rule(Syntax.URL)
_URLS = Rule(Syntax.URLS)
_SRCSET = Rule(Syntax.SRCSET)
_CODEBASE = Rule(Syntax.URL, Against.CODEBASE)
_LAZY_URL = Rule(Syntax.URL, lazy=True)
_LAZY_SRCSET = Rule(Syntax.SRCSET, lazy=True)

#: Element "*" is any element of the HTML namespace.
ANY = "*"

#: attribute -> element -> rule, for elements in the HTML namespace
HTML_ATTRIBUTES: dict[str, dict[str, Rule]] = {
    "href": {"a": _URL, "area": _URL, "link": _URL, "base": _URL},
    "ping": {"a": _URLS, "area": _URLS},
    "imagesrcset": {"link": _SRCSET},
    # src is read on every element: custom elements (amp-img, amp-iframe ...)
    # and legacy ones (bgsound, layer) load from it as img and script do
    "src": {ANY: _URL},
    "srcset": {"img": _SRCSET, "source": _SRCSET},
    "longdesc": {"img": _URL, "frame": _URL, "iframe": _URL},
    "lowsrc": {"img": _URL},
    "dynsrc": {"img": _URL},
    "poster": {"video": _URL},
    "srcdoc": {"iframe": Rule(Syntax.DOCUMENT)},
    "data": {"object": _CODEBASE},
    "classid": {"object": _CODEBASE},
    "codebase": {"object": _URL, "applet": _URL},
    "archive": {"object": Rule(Syntax.URLS, Against.CODEBASE), "applet": Rule(Syntax.COMMA_URLS, Against.CODEBASE)},
    "code": {"applet": _CODEBASE},
    "object": {"applet": _CODEBASE},
    "action": {"form": Rule(Syntax.URL, Against.FORM)},
    "formaction": {"button": Rule(Syntax.URL, Against.FORM), "input": Rule(Syntax.URL, Against.FORM)},
    "cite": {"blockquote": _URL, "q": _URL, "del": _URL, "ins": _URL},
    "background": {"body": _URL, "table": _URL, "td": _URL, "th": _URL, "tr": _URL},
    "profile": {"head": _URLS},
    "manifest": {"html": Rule(Syntax.URL, Against.DOCUMENT_URL)},
    "itemid": {ANY: _URL},
    "itemtype": {ANY: _URLS},
    "style": {ANY: Rule(Syntax.CSS)},
    # lazy loading: scripts copy these into src/srcset
    "data-src": {ANY: _LAZY_URL},
    "data-original": {ANY: _LAZY_URL},
    "data-lazy-src": {ANY: _LAZY_URL},
    "data-srcset": {ANY: _LAZY_SRCSET},
    "data-lazy-srcset": {ANY: _LAZY_SRCSET},
}

#: attribute -> rule, for elements of SVG and MathML (SVG 2 §16.1 href, MathML 3 §2.1.6)
FOREIGN_ATTRIBUTES: dict[str, Rule] = {
    "href": _URL,
    "xlink:href": _URL,
    # <svg><image xlink:href="a.svg" src="a.png"/>: the fallback for browsers
    # without SVG (HTML reads <image> as <img>); not SVG's, but a URL written there
    "src": _URL,
    "style": Rule(Syntax.CSS),
}

#: <meta property|name=X content=URL>: Open Graph (ogp.me), Twitter cards, Windows tiles
URL_METADATA = frozenset({
    "og:url", "og:image", "og:image:url", "og:image:secure_url", "og:video", "og:video:url",
    "og:video:secure_url", "og:audio", "og:audio:url", "og:audio:secure_url",
    "twitter:image", "twitter:image:src", "twitter:url", "twitter:player", "twitter:player:stream",
    "msapplication-tileimage", "msapplication-config", "msapplication-square70x70logo",
    "msapplication-square150x150logo", "msapplication-wide310x150logo", "msapplication-square310x310logo",
})

#: every attribute name some rule reads: an element with none of them is passed over
NAMES = frozenset({*HTML_ATTRIBUTES, *FOREIGN_ATTRIBUTES, "content"})
#: the attributes whose value is text a person reads (an image's alternative text, an advisory title,
#: an accessible name, a field's hint: WHATWG HTML §4.8.4.4, §3.2.6.1, WAI-ARIA 1.2 §6.6, §4.10.5.3.10):
#: read as text nodes are, their records naming the attribute
PROSE_ATTRIBUTES = frozenset({"alt", "title", "aria-label", "placeholder"})
#: the <meta> names and properties whose content is a description a person reads (WHATWG HTML
#: §4.2.5.1, Open Graph, Twitter cards)
DESCRIPTIONS = frozenset({"description", "og:description", "twitter:description"})
#: the attributes an element is looked at for
READ_NAMES = NAMES | PROSE_ATTRIBUTES

#: elements whose links carry rel tokens and anchor text (WHATWG §4.6.7)
LINKS = frozenset({"a", "area", "link"})


#: what the URL parser strips from both ends of a value (WHATWG URL §4.4)
C0_SPACE = "".join(map(chr, range(0x21)))


def clean_value(value: str) -> tuple[str, bool]:
    """An attribute value as the URL parser reads it (WHATWG URL §4.4): C0
    controls and spaces stripped from both ends, tabs and line breaks
    removed inside; and whether any were removed inside."""
    value = value.strip(C0_SPACE)
    if "\t" in value or "\n" in value or "\r" in value:
        return value.replace("\t", "").replace("\n", "").replace("\r", ""), True
    return value, False
