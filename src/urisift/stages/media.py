"""Media type → kind of content: the one table a MIME part's
``Content-Type`` and a WARC payload's are routed by, so that a style sheet,
a feed, a PDF or an office file reads the same from a file, a mail
attachment and a crawl."""

from __future__ import annotations

from ..model import Kind

_OOXML = "application/vnd.openxmlformats-officedocument."
_ODF = "application/vnd.oasis.opendocument."

#: media types (lower case, no parameters) and the kind they are read as
KINDS: dict[str, Kind] = {
    # XHTML served as XML is parsed by a browser's XML parser; served as text/html, it is HTML
    "text/html": Kind.HTML, "application/xhtml+xml": Kind.XML,
    "text/plain": Kind.TEXT,
    # RFC 7763 (text/markdown); text/x-markdown before it
    "text/markdown": Kind.MARKDOWN, "text/x-markdown": Kind.MARKDOWN,
    "application/x-ipynb+json": Kind.NOTEBOOK,
    "text/x-rst": Kind.RST, "text/prs.fallenstein.rst": Kind.RST,
    "text/asciidoc": Kind.ASCIIDOC, "text/x-asciidoc": Kind.ASCIIDOC,
    "text/org": Kind.ORG, "text/x-org": Kind.ORG,
    "application/x-latex": Kind.LATEX, "text/x-tex": Kind.LATEX, "application/x-tex": Kind.LATEX,
    "text/x-bibtex": Kind.BIBTEX, "application/x-bibtex": Kind.BIBTEX,
    "text/x-wiki": Kind.WIKITEXT,
    # calendars and contacts (an invite's text/calendar part, a contact card)
    "text/calendar": Kind.CALENDAR, "application/ics": Kind.CALENDAR,
    "text/vcard": Kind.VCARD, "text/x-vcard": Kind.VCARD, "text/directory": Kind.VCARD,
    # tables (an export attached to a report): each cell read as text
    "text/csv": Kind.CSV, "text/tab-separated-values": Kind.CSV, "application/csv": Kind.CSV,
    # archives (a zip attached to a report, a tarball of a Maildir): each member read as its kind
    "application/zip": Kind.ARCHIVE, "application/x-zip-compressed": Kind.ARCHIVE, "application/x-zip": Kind.ARCHIVE,
    "application/x-tar": Kind.ARCHIVE, "application/x-gtar": Kind.ARCHIVE, "application/epub+zip": Kind.EPUB,
    # Outlook's: a message file, a TNEF stream (winmail.dat), a data file (MS-OXMSG, MS-OXTNEF, MS-PST)
    "application/vnd.ms-outlook": Kind.MSG, "application/x-msg": Kind.MSG, "application/x-ms-msg": Kind.MSG,
    "application/ms-tnef": Kind.TNEF, "application/vnd.ms-tnef": Kind.TNEF,
    "application/vnd.ms-outlook-pst": Kind.PST, "application/x-pst": Kind.PST,
    # images: read for the codes drawn in them with --qr, passed over without it (stages.options.ScanOptions.qr)
    "image/png": Kind.IMAGE, "image/apng": Kind.IMAGE, "image/jpeg": Kind.IMAGE, "image/jpg": Kind.IMAGE,
    "image/pjpeg": Kind.IMAGE, "image/gif": Kind.IMAGE, "image/bmp": Kind.IMAGE, "image/x-bmp": Kind.IMAGE,
    "image/x-ms-bmp": Kind.IMAGE, "image/tiff": Kind.IMAGE, "image/webp": Kind.IMAGE,
    "text/css": Kind.CSS,
    "application/xml": Kind.XML, "text/xml": Kind.XML, "application/atom+xml": Kind.XML,
    "application/rss+xml": Kind.XML, "application/rdf+xml": Kind.XML, "image/svg+xml": Kind.XML,
    "text/x-opml": Kind.XML, "application/x-opml+xml": Kind.XML,
    "application/pdf": Kind.PDF,
    _OOXML + "wordprocessingml.document": Kind.OFFICE, _OOXML + "spreadsheetml.sheet": Kind.OFFICE,
    _OOXML + "presentationml.presentation": Kind.OFFICE,
    _ODF + "text": Kind.OFFICE, _ODF + "spreadsheet": Kind.OFFICE, _ODF + "presentation": Kind.OFFICE,
}


def kind_of(media: str | None) -> Kind | None:
    """The kind ``media`` is read as; None for a type no reader takes."""
    if media is None:
        return None
    return KINDS.get(media)


def robots(uri: str | None) -> bool:
    """Whether ``uri`` (a WARC record's target) is a site's robots.txt (RFC 9309 §2.3: at the root)."""
    if not uri:
        return False
    path = uri.partition("?")[0]
    return path.endswith("/robots.txt") and path.count("/") == 3
