"""Which XML elements and attributes hold URIs, by vocabulary (namespace),
and which hold HTML.  Data, so that a vocabulary is one more row.

- Atom, RFC 4287: ``link/@href`` (§4.2.7), ``content/@src`` (§4.1.3),
  ``icon`` and ``logo`` (§4.2.5, §4.2.8), ``uri`` (§3.2.2), ``generator/@uri``
  (§4.2.4); ``content`` and ``summary`` of ``type="html"`` or ``"xhtml"``
  hold HTML (§3.1.1).
- RSS 2.0 (no namespace): ``link``, ``comments``, ``docs``, ``image/url``,
  ``enclosure/@url``, ``source/@url``, ``guid`` unless ``isPermaLink="false"``;
  ``description`` is HTML (entity-encoded, as the RSS Advisory Board's
  profile says); RSS 1.0: ``link``, ``url``, ``rdf:about``, ``rdf:resource``;
  ``content:encoded`` (RSS content module) is HTML.
- Sitemaps (sitemaps.org 0.9): ``loc`` of a ``url`` or a ``sitemap`` (an
  index); Google's image (``loc``, ``license``), video (``thumbnail_loc``,
  ``content_loc``, ``player_loc``) extensions; ``xhtml:link/@href``
  (hreflang alternates).  The news extension holds no URI.
- OPML 2.0: ``outline/@xmlUrl``, ``@htmlUrl``, ``@url``; ``docs``.
- SVG 2 ``href`` on any SVG element, and ``xlink:href`` anywhere (XLink 1.1).
- Media RSS: ``content``, ``thumbnail``, ``player`` ``@url``; iTunes ``image/@href``.
"""

from __future__ import annotations

ATOM = "http://www.w3.org/2005/Atom"
RSS1 = "http://purl.org/rss/1.0/"
RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
CONTENT = "http://purl.org/rss/1.0/modules/content/"
SITEMAP = "http://www.sitemaps.org/schemas/sitemap/0.9"
IMAGE = "http://www.google.com/schemas/sitemap-image/1.1"
VIDEO = "http://www.google.com/schemas/sitemap-video/1.1"
XHTML = "http://www.w3.org/1999/xhtml"
SVG = "http://www.w3.org/2000/svg"
XLINK = "http://www.w3.org/1999/xlink"
MEDIA = "http://search.yahoo.com/mrss/"
ITUNES = "http://www.itunes.com/dtds/podcast-1.0.dtd"
XML = "http://www.w3.org/XML/1998/namespace"
#: the xml:base attribute, as lxml names it
XML_BASE = f"{{{XML}}}base"

#: (namespace, element) -> the attributes that hold a URI ("" is no namespace)
ATTRIBUTES: dict[tuple[str, str], tuple[str, ...]] = {
    (ATOM, "link"): ("href",), (ATOM, "content"): ("src",), (ATOM, "generator"): ("uri",),
    ("", "enclosure"): ("url",), ("", "source"): ("url",),
    ("", "outline"): ("xmlUrl", "htmlUrl", "url"),
    (XHTML, "link"): ("href",),
    (MEDIA, "content"): ("url",), (MEDIA, "thumbnail"): ("url",), (MEDIA, "player"): ("url",),
    (ITUNES, "image"): ("href",),
}
#: attributes that hold a URI on any element: (namespace, name) -> how a record names it
ANY_ELEMENT = {(XLINK, "href"): "xlink:href", (RDF, "about"): "rdf:about", (RDF, "resource"): "rdf:resource"}
#: (namespace, element) whose text is a URI
TEXT: frozenset[tuple[str, str]] = frozenset({
    (ATOM, "icon"), (ATOM, "logo"), (ATOM, "uri"),
    ("", "link"), ("", "comments"), ("", "docs"), ("", "url"), ("", "guid"),
    (RSS1, "link"), (RSS1, "url"),
    (SITEMAP, "loc"), (IMAGE, "loc"), (IMAGE, "license"),
    (VIDEO, "thumbnail_loc"), (VIDEO, "content_loc"), (VIDEO, "player_loc"),
})
#: (namespace, element) whose text is HTML (Atom's only with type="html" or "xhtml")
HTML_TEXT: frozenset[tuple[str, str]] = frozenset({(ATOM, "content"), (ATOM, "summary"), (CONTENT, "encoded"),
                                                   ("", "description")})
#: the root elements of the vocabularies whose un-namespaced elements mean what the rows above say
UNNAMESPACED_ROOTS = frozenset({"rss", "opml"})
