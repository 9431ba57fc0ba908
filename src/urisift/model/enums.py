"""The vocabulary's string enums: how a reference was found, where it stood,
what was done to it, where a base came from, how bytes were decoded, what
went wrong, what an input holds."""

from __future__ import annotations

from enum import EnumType, StrEnum


class _Listed(EnumType):
    """A string enum's class whose ``dir()`` names its members and an enum's
    own attributes, not every method of ``str`` (``help(urisift)``
    would otherwise list all of them for each of its seven enums, 470 lines apiece); its
    members are strings all the same."""

    def __dir__(cls) -> list[str]:
        return sorted({"__class__", "__contains__", "__doc__", "__getitem__", "__iter__", "__len__",
                       "__members__", "__module__", "__name__", "__qualname__", *cls._member_names_})


class _Enum(StrEnum, metaclass=_Listed):
    """The vocabulary's string enums (see :class:`_Listed`)."""


class Style(_Enum):
    """How a reference was delimited or found (the ``style`` key; ARCHITECTURE.md, The record contract)."""

    ANGLE = "angle"  # <http://...>
    ANGLE_URL = "angle-url"  # <URL:...>
    QUOTE = "quote"  # "http://..."
    BARE = "bare"  # whitespace-delimited
    ABBREVIATED = "abbreviated"  # www.example.com, ftp.example.com (rfc2396bis-01 Appendix F)
    ATTRIBUTE = "attribute"
    SRCSET = "srcset"
    META_REFRESH = "meta-refresh"
    CSS = "css"
    HEADER = "header"
    ELEMENT = "element"  # XML: an element's text content (a sitemap's <loc>, an RSS <link>)
    ANNOTATION = "annotation"  # PDF: a link annotation's action (/URI, /Launch, /GoToR)
    MARKUP = "markup"  # a document's own link syntax: a Markdown link, image or link reference definition
    QR = "qr"  # decoded from a two-dimensional code in an image (QR, Micro QR, rMQR, Aztec, DataMatrix, PDF417)


class Where(_Enum):
    """The kind of place a reference stood in (the ``where`` key; ARCHITECTURE.md, The record contract)."""

    TEXT = "text"
    HTML = "html"
    HEADER = "header"
    CSS = "css"  # a stylesheet of its own
    XML = "xml"  # an XML document: feeds, sitemaps, SVG, OPML, office files' parts
    PDF = "pdf"
    MARKDOWN = "markdown"  # a Markdown document: its links, its prose, its code
    RST = "rst"  # a reStructuredText document
    ASCIIDOC = "asciidoc"  # an AsciiDoc document
    ORG = "org"  # an Org document
    LATEX = "latex"  # a LaTeX document
    BIBTEX = "bibtex"  # a BibTeX database
    WIKITEXT = "wikitext"  # MediaWiki wikitext: its links, templates' URLs, its prose, its code
    IMAGE = "image"  # an image: the payload of a code drawn in it (--qr)
    CSV = "csv"  # a CSV or TSV table: each cell read as text


class Flag(_Enum):
    """What the delimiting did to the text to get the reference."""

    WRAPPED = "wrapped"  # whitespace inside the delimiters was removed
    HYPHEN_BREAK = "hyphen-break"  # a line break right after a hyphen (url-syntax-05 and rfc2396bis-01 Appendix E)
    TRIMMED = "trimmed"  # trailing punctuation left out
    UNBALANCED = "unbalanced"  # an unbalanced closing bracket left out
    QUOTE_MARKERS = "quote-markers"  # mail quote markers removed from continuation lines
    # characters RFC 3986 does not allow ("|", "^", "`", "{", "}", "\\") kept in
    # ``uri`` as written and percent-encoded in ``target``
    ENCODED = "encoded"
    # HTML: a lazy-loading attribute (data-src, data-srcset, data-original ...)
    # that scripts copy into src; browsers without them do not load it
    LAZY = "lazy"
    # HTML: a srcset candidate the WHATWG parser drops (bad descriptors)
    INVALID = "invalid"
    # HTML: found in an iframe's srcdoc document, not in the page's own text
    SRCDOC = "srcdoc"
    # mail: found in a file uuencoded inside a text part; span and line are
    # in that file's decoded text
    UUENCODED = "uuencoded"
    # WARC: found in a record the crawler cut short (WARC-Truncated): the page
    # went on past what was kept, and so may its links
    TRUNCATED = "truncated"
    # found in code: a code span, block or cell of a markup document, or the text of HTML's <code>,
    # <pre>, <kbd> or <samp> (a URI in text all the same, but not a link)
    CODE = "code"
    # written defanged (hxxp:, [.], (at) ...): with --refang, ``uri`` is as written and ``target`` the URI refanged
    DEFANGED = "defanged"
    # Markdown: a wikilink ([[Page]], ![[file.png]]), read with --wikilinks
    WIKILINK = "wikilink"


class BaseSource(_Enum):
    """The layer of url-syntax-05 §5.1 / rfc2396bis-01 §5.1 a base came from, innermost first."""

    HTML_BASE = "html-base"  # (1) embedded in the content
    XML_BASE = "xml-base"  # (1) xml:base (XML Base; RFC 3986 §5.1.1)
    PDF_BASE = "pdf-base"  # (1) a PDF's /URI dictionary /Base (PDF 32000-1 §12.6.4.7)
    SITEINFO = "siteinfo"  # (1) a MediaWiki export dump's <siteinfo><base>: its wiki's article path
    HYPERLINK_BASE = "hyperlink-base"  # (1) an OOXML package's HyperlinkBase (ECMA-376 Part 1 §22.2.2.9)
    CODEBASE = "codebase"  # (1) an object's or applet's codebase (HTML 4.01 §13.3, §13.4)
    CONTENT_BASE = "content-base"  # (2) the encapsulating entity's heading
    CONTENT_LOCATION = "content-location"
    RETRIEVAL = "retrieval"  # (3) the URI the content was retrieved from
    DEFAULT = "default"  # (4) the application's default


class CharsetSource(_Enum):
    """Why a charset was chosen, in the order the chain tries them."""

    BOM = "bom"
    DECLARED = "declared"
    META = "meta"
    DETECTED = "detected"
    DEFAULT = "default"


class DefectKind(_Enum):
    """What was wrong with an input that did not stop the scan."""

    UNDECODABLE_BYTES = "undecodable-bytes"  # bytes not in the chosen charset
    BINARY_CONTENT = "binary-content"  # NUL bytes in what should be text
    UNKNOWN_CHARSET = "unknown-charset"  # a declared charset Python has no codec for
    BAD_BASE = "bad-base"  # a base URI that cannot serve (RFC 3986 §5.1)
    UNREADABLE = "unreadable"  # an input that could not be opened or read
    NOT_A_FILE = "not-a-file"  # a FIFO, socket or device met while walking a directory
    CORRUPT_COMPRESSION = "corrupt-compression"  # a .gz/.bz2/.xz stream that ends badly
    UNSUPPORTED_KIND = "unsupported-kind"  # content of a kind this version cannot read yet
    # content whose reader needs an extra that is not installed (a PDF without pypdf): said in every
    # --defects mode, and the run exits 2, as a missing extra the options need does before any input is read
    MISSING_EXTRA = "missing-extra"
    BROKEN_MIME = "broken-mime"  # a MIME structure or transfer encoding the parser had to repair
    DEEP_NESTING = "deep-nesting"  # HTML or MIME nested deeper than is parsed: capped, what is inside still read
    CHARSET_MISMATCH = "charset-mismatch"  # a <meta> charset the bytes are not in (they are UTF-8)
    BROKEN_WARC = "broken-warc"  # a WARC/ARC record, or its payload, that could not be read
    BROKEN_DOCUMENT = "broken-document"  # an XML, PDF or office document that could not be read (in full)
    BOMB = "bomb"  # a document past a bound (a zip bomb, a PDF's object streams): read no further
    # an input with no name (standard input) whose first bytes are markup of no kind told: read as text
    UNCERTAIN_KIND = "uncertain-kind"
    SCAN_FAILED = "scan-failed"  # an input the scanner failed on (a bug): the other inputs are still scanned


class Kind(_Enum):
    """What an input holds, as ``--kind`` names it (``auto``: sniffed)."""

    AUTO = "auto"
    TEXT = "text"
    HTML = "html"
    MAIL = "mail"  # one message (RFC 5322), MHTML included
    MBOX = "mbox"
    MAILDIR = "maildir"
    EMLX = "emlx"  # an Apple Mail message file (.emlx, .partial.emlx): a byte count, a message, Mail's plist
    MSG = "msg"  # an Outlook message file (.msg: MS-OXMSG, a Compound File of MAPI properties)
    TNEF = "tnef"  # a TNEF stream (winmail.dat, application/ms-tnef: MS-OXTNEF)
    PST = "pst"  # an Outlook data file (.pst, .ost: MS-PST), its folders' messages; needs the pst extra
    WARC = "warc"  # WARC and ARC
    CSS = "css"  # a stylesheet (text/css)
    XML = "xml"  # XML with xml:base: XHTML, SVG, Atom, RSS, OPML, sitemaps
    ROBOTS = "robots"  # robots.txt: its Sitemap lines
    PDF = "pdf"
    OFFICE = "office"  # OOXML (.docx, .xlsx, .pptx) and ODF (.odt, .ods, .odp)
    MARKDOWN = "markdown"  # CommonMark with GitHub's extensions
    NOTEBOOK = "notebook"  # a Jupyter notebook (.ipynb): its cells and outputs, each read as its kind
    RST = "rst"  # reStructuredText (docutils, Sphinx)
    ASCIIDOC = "asciidoc"  # AsciiDoc (Asciidoctor)
    ORG = "org"  # Org mode (Emacs)
    LATEX = "latex"  # LaTeX (.tex)
    BIBTEX = "bibtex"  # BibTeX (.bib)
    WIKITEXT = "wikitext"  # MediaWiki wikitext (.wiki, .mediawiki)
    CALENDAR = "calendar"  # iCalendar (RFC 5545: .ics, text/calendar): an invite's URLs, attendees, descriptions
    VCARD = "vcard"  # vCard (RFC 6350: .vcf, text/vcard): a contact's URLs, photos, addresses
    CSV = "csv"  # a CSV or TSV table (RFC 4180, text/tab-separated-values): each cell read as text
    ARCHIVE = "archive"  # a ZIP or tar archive (.zip, .tar, and .tar.gz, .tgz ... once inflated): its members
    EPUB = "epub"  # an EPUB book (.epub): its files, each with the retrieval URI of its path in the book
    IMAGE = "image"  # an image (PNG, JPEG, GIF, BMP, TIFF, WebP): the codes drawn in it, with --qr


class Region(_Enum):
    """Where on an HTML page a reference stands (the ``region`` key)."""

    MAIN = "main"  # the page's own content
    NAV = "nav"  # its navigation
    HEADER = "header"  # its banner (a header inside an article is the article's: main)
    FOOTER = "footer"  # its contentinfo
    ASIDE = "aside"  # content beside the main one: a sidebar, related stories
    COMMENTS = "comments"  # a comment thread
    OTHER = "other"  # none of these: the head, a share bar, a hidden block


class Unit(_Enum):
    """What a defect's ``position`` counts."""

    BYTE = "byte"
    CHARACTER = "character"
