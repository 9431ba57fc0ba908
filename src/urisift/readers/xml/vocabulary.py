"""Which XML elements and attributes hold URIs, by vocabulary (namespace),
and which hold HTML.  Data, so that a vocabulary is one more row; each row
names the section of its specification.

- Atom, RFC 4287: ``link/@href`` (§4.2.7), ``content/@src`` (§4.1.3),
  ``icon`` and ``logo`` (§4.2.5, §4.2.8), ``uri`` (§3.2.2), ``generator/@uri``
  (§4.2.4); ``content``, ``summary``, ``title``, ``subtitle`` and ``rights``
  of ``type="html"`` hold escaped HTML, of ``type="xhtml"`` an XHTML ``div``
  (§3.1.1, read as XHTML elements where they stand); the Atom Publishing
  Protocol (RFC 5023) ``collection/@href`` (§8.3.3) and ``categories/@href``
  (§7.2.1); Atom threading (RFC 4685) ``in-reply-to/@href`` (§3) and its
  ``link rel="replies"`` (an Atom link).
- RSS 2.0 (no namespace): ``link`` (of the channel, an item, an image, a
  textInput), ``comments``, ``docs``, ``image/url``, ``enclosure/@url``,
  ``source/@url``, ``guid`` unless ``isPermaLink="false"``; ``description``
  is HTML (entity-encoded, as the RSS Advisory Board's profile says); RSS
  1.0: ``link``, ``url``, ``rdf:about``, ``rdf:resource``; ``content:encoded``
  (RSS content module) is HTML, and so is an ``xhtml:body`` an item holds
  (read as XHTML elements).
- Sitemaps (sitemaps.org 0.9): ``loc`` of a ``url`` or a ``sitemap`` (an
  index); Google's image (``loc``, ``license``) and video (``thumbnail_loc``,
  ``content_loc``, ``player_loc``, ``gallery_loc``, ``uploader/@info``)
  extensions; ``xhtml:link/@href`` (hreflang alternates).  The news
  extension holds no URI.
- OPML 2.0: ``outline/@xmlUrl``, ``@htmlUrl``, ``@url``; the head's ``docs``
  and ``ownerId`` ("the http address of a web page" to reach the owner).
- XHTML (read as XML: elements known by namespace, whatever their prefix):
  HTML's own table of URL attributes (:mod:`urisift.readers.html.table`), srcset,
  ``style=""`` and ``<style>`` sheets, meta refresh, and the URIs written in
  its text.  SVG 2 ``href`` on any SVG element (§16.1), MathML 3 ``href``
  on any MathML element (§2.1.6), and ``xlink:href`` anywhere (XLink 1.1).
- Media RSS (1.5.1): ``content``, ``thumbnail``, ``player``, ``embed`` ``@url``,
  ``peerLink``, ``license``, ``subTitle`` ``@href``, ``backLink``; iTunes
  ``image/@href`` and ``new-feed-url``; the Podcasting 2.0 namespace:
  ``transcript``, ``chapters``, ``funding``, ``license`` ``@url``,
  ``person/@href`` and ``@img``, ``source/@uri``, ``socialInteract/@uri``.
- OOXML (ECMA-376): a relationship's ``Target`` when its ``TargetMode`` is
  ``External`` (Part 2 §9.3: hyperlinks of every part, externally linked
  images, templates, external workbooks); the ``HYPERLINK``, ``INCLUDEPICTURE``
  and ``INCLUDETEXT`` field codes of WordprocessingML (Part 1 §17.16.5) in
  the document, headers, footers, notes and comments; SpreadsheetML cell
  formulas calling ``HYPERLINK`` (Part 1 §18.17.7.149); the extended
  properties' ``HyperlinkBase`` (Part 1 §22.2.2.9), the base of the
  package's relative hyperlinks.
- EPUB's package document (EPUB 3.3 §5): ``manifest/item/@href`` (§5.6.2), ``metadata/link/@href``
  (§5.5.6), EPUB 2's ``guide/reference/@href`` (OPF 2.0.1 §2.6); Dublin Core's ``source`` and
  ``relation``; the NCX (ANSI/NISO Z39.86-2005 §8.4): ``content/@src``, ``img/@src``, ``audio/@src``.
- ODF (OASIS OpenDocument 1.3): every ``xlink:href`` of ``content.xml``,
  ``styles.xml`` and ``meta.xml`` (``text:a``, ``draw:a``, images, frames,
  sections, ``meta:template``, ``meta:auto-reload``), ``text:bibliography-mark/@text:url``,
  ``form:image-data``, ``table:formula`` calling ``HYPERLINK``.
"""

from __future__ import annotations

ATOM = "http://www.w3.org/2005/Atom"
APP = "http://www.w3.org/2007/app"
THREAD = "http://purl.org/syndication/thread/1.0"
RSS1 = "http://purl.org/rss/1.0/"
RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
CONTENT = "http://purl.org/rss/1.0/modules/content/"
SITEMAP = "http://www.sitemaps.org/schemas/sitemap/0.9"
IMAGE = "http://www.google.com/schemas/sitemap-image/1.1"
VIDEO = "http://www.google.com/schemas/sitemap-video/1.1"
XHTML = "http://www.w3.org/1999/xhtml"
SVG = "http://www.w3.org/2000/svg"
MATHML = "http://www.w3.org/1998/Math/MathML"
XLINK = "http://www.w3.org/1999/xlink"
MEDIA = "http://search.yahoo.com/mrss/"
ITUNES = "http://www.itunes.com/dtds/podcast-1.0.dtd"
PODCAST = "https://podcastindex.org/namespace/1.0"
XML = "http://www.w3.org/XML/1998/namespace"
#: the xml:base attribute, as lxml names it
XML_BASE = f"{{{XML}}}base"
RELATIONSHIPS = "http://schemas.openxmlformats.org/package/2006/relationships"
WORDML = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
SPREADSHEETML = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
EXTENDED = "http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"
ODF_TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
ODF_TABLE = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
ODF_FORM = "urn:oasis:names:tc:opendocument:xmlns:form:1.0"
OPF = "http://www.idpf.org/2007/opf"
NCX = "http://www.daisy.org/z3986/2005/ncx/"
DC = "http://purl.org/dc/elements/1.1/"

#: (namespace, element) -> the attributes that hold a URI ("" is no namespace)
ATTRIBUTES: dict[tuple[str, str], tuple[str, ...]] = {
    (ATOM, "link"): ("href",), (ATOM, "content"): ("src",), (ATOM, "generator"): ("uri",),
    (APP, "collection"): ("href",), (APP, "categories"): ("href",), (THREAD, "in-reply-to"): ("href",),
    ("", "enclosure"): ("url",), ("", "source"): ("url",),
    ("", "outline"): ("xmlUrl", "htmlUrl", "url"),
    (VIDEO, "uploader"): ("info",),
    (MEDIA, "content"): ("url",), (MEDIA, "thumbnail"): ("url",), (MEDIA, "player"): ("url",),
    (MEDIA, "embed"): ("url",), (MEDIA, "peerLink"): ("href",), (MEDIA, "license"): ("href",),
    (MEDIA, "subTitle"): ("href",),
    (ITUNES, "image"): ("href",),
    (PODCAST, "transcript"): ("url",), (PODCAST, "chapters"): ("url",), (PODCAST, "funding"): ("url",),
    (PODCAST, "license"): ("url",), (PODCAST, "person"): ("href", "img"), (PODCAST, "source"): ("uri",),
    (PODCAST, "socialInteract"): ("uri",),
    (ODF_TEXT, "bibliography-mark"): (f"{{{ODF_TEXT}}}url",),
    (ODF_FORM, "image"): (f"{{{ODF_FORM}}}image-data",), (ODF_FORM, "button"): (f"{{{ODF_FORM}}}image-data",),
    (OPF, "item"): ("href",), (OPF, "reference"): ("href",), (OPF, "link"): ("href",),
    (NCX, "content"): ("src",), (NCX, "img"): ("src",), (NCX, "audio"): ("src",),
}
#: attributes that hold a URI on any element: (namespace, name) -> how a record names it
ANY_ELEMENT = {(XLINK, "href"): "xlink:href", (RDF, "about"): "rdf:about", (RDF, "resource"): "rdf:resource"}
#: namespaces whose every element's plain ``href`` is a link (SVG 2 §16.1, MathML 3 §2.1.6)
HREF_ANYWHERE = frozenset({SVG, MATHML})
#: (namespace, element) whose text is a URI
TEXT: frozenset[tuple[str, str]] = frozenset({
    (ATOM, "icon"), (ATOM, "logo"), (ATOM, "uri"),
    ("", "link"), ("", "comments"), ("", "docs"), ("", "url"), ("", "guid"), ("", "ownerId"),
    (RSS1, "link"), (RSS1, "url"),
    (SITEMAP, "loc"), (IMAGE, "loc"), (IMAGE, "license"),
    (VIDEO, "thumbnail_loc"), (VIDEO, "content_loc"), (VIDEO, "player_loc"), (VIDEO, "gallery_loc"),
    (MEDIA, "backLink"), (ITUNES, "new-feed-url"),
    (DC, "source"), (DC, "relation"),
})
#: (namespace, element) whose text is escaped HTML (Atom's by its type="html"; §3.1.1.2)
HTML_TEXT: frozenset[tuple[str, str]] = frozenset({
    (ATOM, "content"), (ATOM, "summary"), (ATOM, "title"), (ATOM, "subtitle"), (ATOM, "rights"),
    (CONTENT, "encoded"), ("", "description"),
})
#: the Atom text constructs (§3.1) and content, whose ``type`` says what they hold
ATOM_TYPED = frozenset({"content", "summary", "title", "subtitle", "rights"})
#: the root elements of the vocabularies whose un-namespaced elements mean what the rows above say
UNNAMESPACED_ROOTS = frozenset({"rss", "opml"})
#: the namespaces of the root elements of the vocabularies read by their own rows (an unnamespaced root, RSS 2.0
#: or OPML, is told by :data:`UNNAMESPACED_ROOTS`): a document whose root is in none of them is read as an
#: unknown vocabulary (its text scanned, its attributes that are absolute URIs)
KNOWN_ROOTS = frozenset({ATOM, APP, RDF, RSS1, SITEMAP, XHTML, SVG, MATHML, RELATIONSHIPS, WORDML, SPREADSHEETML,
                         EXTENDED, OPF, NCX})
