"""The vocabulary of the pipeline (DESIGN §1, §2): what is found, where it came
from, how its bytes were decoded, which base applied, and what went wrong.

This module imports nothing of the pipeline, so every stage can use it.  The
values are frozen dataclasses and string enums; a :class:`Record` is composed
of them, and the parts that every record of one input shares (its
:class:`Origin`, its :class:`Charset`, the :class:`Base` in force) are one
object each, not copied into every record.

Undefined is ``None``, empty is ``""``, everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

from .risk import Risk


class Style(StrEnum):
    """How a reference was delimited or found (DESIGN §2 ``style``)."""

    ANGLE = "angle"  # <http://...>
    ANGLE_URL = "angle-url"  # <URL:...>
    QUOTE = "quote"  # "http://..."
    BARE = "bare"  # whitespace-delimited
    ABBREVIATED = "abbreviated"  # www.example.com, ftp.example.com (seed 002 Appendix F)
    ATTRIBUTE = "attribute"
    SRCSET = "srcset"
    META_REFRESH = "meta-refresh"
    CSS = "css"
    HEADER = "header"


class Where(StrEnum):
    """The kind of place a reference stood in (DESIGN §2 ``where``)."""

    TEXT = "text"
    HTML = "html"
    HEADER = "header"


class Flag(StrEnum):
    """What the delimiting did to the text to get the reference."""

    WRAPPED = "wrapped"  # whitespace inside the delimiters was removed
    HYPHEN_BREAK = "hyphen-break"  # a line break right after a hyphen (seed 001/002 Appendix E)
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


class BaseSource(StrEnum):
    """The layer of seed 001 §5.1 / seed 002 §5.1 a base came from, innermost first."""

    HTML_BASE = "html-base"  # (1) embedded in the content
    CODEBASE = "codebase"  # (1) an object's or applet's codebase (HTML 4.01 §13.3, §13.4)
    CONTENT_BASE = "content-base"  # (2) the encapsulating entity's heading
    CONTENT_LOCATION = "content-location"
    RETRIEVAL = "retrieval"  # (3) the URI the content was retrieved from
    DEFAULT = "default"  # (4) the application's default


class CharsetSource(StrEnum):
    """Why a charset was chosen, in the order the chain tries them."""

    BOM = "bom"
    DECLARED = "declared"
    META = "meta"
    DETECTED = "detected"
    DEFAULT = "default"


class DefectKind(StrEnum):
    """What was wrong with an input that did not stop the scan."""

    UNDECODABLE_BYTES = "undecodable-bytes"  # bytes not in the chosen charset
    BINARY_CONTENT = "binary-content"  # NUL bytes in what should be text
    UNKNOWN_CHARSET = "unknown-charset"  # a declared charset Python has no codec for
    BAD_BASE = "bad-base"  # a base URI that cannot serve (RFC 3986 §5.1)
    UNREADABLE = "unreadable"  # an input that could not be opened or read
    NOT_A_FILE = "not-a-file"  # a FIFO, socket or device met while walking a directory
    CORRUPT_COMPRESSION = "corrupt-compression"  # a .gz/.bz2/.xz stream that ends badly
    UNSUPPORTED_KIND = "unsupported-kind"  # content of a kind this version cannot read yet
    BROKEN_MIME = "broken-mime"  # a MIME structure or transfer encoding the parser had to repair
    DEEP_NESTING = "deep-nesting"  # HTML nested too deep for the HTML5 tree builder: read another way
    CHARSET_MISMATCH = "charset-mismatch"  # a <meta> charset the bytes are not in (they are UTF-8)
    BROKEN_WARC = "broken-warc"  # a WARC/ARC record, or its payload, that could not be read
    SCAN_FAILED = "scan-failed"  # an input the scanner failed on (a bug): the other inputs are still scanned


class Kind(StrEnum):
    """What an input holds, as ``--kind`` names it (``auto``: sniffed)."""

    AUTO = "auto"
    TEXT = "text"
    HTML = "html"
    MAIL = "mail"  # one message (RFC 5322), MHTML included
    MBOX = "mbox"
    MAILDIR = "maildir"
    WARC = "warc"  # WARC and ARC


class Unit(StrEnum):
    """What a defect's ``position`` counts."""

    BYTE = "byte"
    CHARACTER = "character"


class Span(NamedTuple):
    """``[start, end)`` in code points of the decoded text of one part: the
    reference as it stands there, delimiters excluded.  A tuple, so that it
    compares equal to ``(start, end)``."""

    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Place:
    """Where in its part a reference stood: running text, an HTML element's
    attribute (with a link's ``rel`` tokens and anchor text), or a header."""

    where: Where = Where.TEXT
    element: str | None = None
    attribute: str | None = None
    header: str | None = None
    rel: tuple[str, ...] | None = None
    text: str | None = None


#: the place of every reference found in plain text
TEXT = Place()


@dataclass(frozen=True, slots=True)
class Origin:
    """Which input, message, part and archive record some content came from.

    ``offset`` is the byte offset of the message or WARC record in its file,
    so that a reader can seek to it; ``part`` is the MIME part path (``1.2``).
    """

    file: str | None = None
    message: int | None = None
    message_id: str | None = None
    part: str | None = None
    offset: int | None = None
    warc_record_id: str | None = None
    warc_target_uri: str | None = None
    warc_date: str | None = None


#: the origin of content that came from nowhere in particular (a string handed in)
NOWHERE = Origin()


@dataclass(frozen=True, slots=True)
class Charset:
    """How some bytes were decoded: the charset's registered name, and why it was chosen."""

    name: str
    source: CharsetSource


@dataclass(frozen=True, slots=True)
class Base:
    """A base URI in force (RFC 3986 §5.1): the URI (never with a fragment),
    the layer it came from, and a human-readable note of exactly where
    (``--base``, ``Content-Location of part 2``, ``<base href> at line 4``)."""

    uri: str
    source: BaseSource
    detail: str = ""


class Found(NamedTuple):
    """One reference delimited in some text (or taken from an attribute or header).

    ``start``/``end`` are code-point offsets of the reference as it stands in
    the text, delimiters excluded (for a wrapped reference the span covers
    the line breaks and indentation that were removed).  ``reference`` is the
    reference itself: delimiters and white space removed.  ``expanded`` is the
    absolute URI an abbreviated reference stands for.  ``start`` is None for
    a reference with no place in a text (an attribute value, a header).

    A named tuple rather than a dataclass, like :class:`~urisift.UriReference`:
    the scanner builds one per reference, and a frozen dataclass measured
    four times the cost (1.4 µs against 0.3 µs).
    """

    reference: str
    start: int | None
    end: int | None
    style: Style
    flags: tuple[Flag, ...] = ()
    alternatives: tuple[str, ...] = ()
    expanded: str | None = None
    place: Place = TEXT


@dataclass(frozen=True, slots=True)
class Record:
    """One URI reference found in the input (DESIGN §2), composed of what was
    found, where it stands, the base it was resolved against and its target.

    The flat names of the JSON contract (``uri``, ``file``, ``charset`` ...)
    are properties, so that a record reads the way its JSON line does.
    """

    found: Found
    target: str | None
    base_layer: Base | None
    origin: Origin
    decoding: Charset | None
    span: Span | None = None
    line: int | None = None
    column: int | None = None
    risks: tuple[Risk, ...] = ()
    # the MIME part path of the part of this message the reference names
    # (cid:, mid:, or a part's Content-Location); None when it names none
    points_to: str | None = None
    # the text around the reference (--context N), when asked for
    context: str | None = None

    @property
    def uri(self) -> str:
        return self.found.reference

    @property
    def style(self) -> Style:
        return self.found.style

    @property
    def flags(self) -> tuple[Flag, ...]:
        return self.found.flags

    @property
    def alternatives(self) -> tuple[str, ...]:
        return self.found.alternatives

    @property
    def place(self) -> Place:
        return self.found.place

    @property
    def where(self) -> Where:
        return self.found.place.where

    @property
    def element(self) -> str | None:
        return self.found.place.element

    @property
    def attribute(self) -> str | None:
        return self.found.place.attribute

    @property
    def header(self) -> str | None:
        return self.found.place.header

    @property
    def rel(self) -> tuple[str, ...] | None:
        return self.found.place.rel

    @property
    def text(self) -> str | None:
        return self.found.place.text

    @property
    def base(self) -> str | None:
        return None if self.base_layer is None else self.base_layer.uri

    @property
    def base_source(self) -> BaseSource | None:
        return None if self.base_layer is None else self.base_layer.source

    @property
    def file(self) -> str | None:
        return self.origin.file

    @property
    def message(self) -> int | None:
        return self.origin.message

    @property
    def message_id(self) -> str | None:
        return self.origin.message_id

    @property
    def part(self) -> str | None:
        return self.origin.part

    @property
    def offset(self) -> int | None:
        return self.origin.offset

    @property
    def warc_record_id(self) -> str | None:
        return self.origin.warc_record_id

    @property
    def warc_target_uri(self) -> str | None:
        return self.origin.warc_target_uri

    @property
    def warc_date(self) -> str | None:
        return self.origin.warc_date

    @property
    def charset(self) -> str | None:
        return None if self.decoding is None else self.decoding.name

    @property
    def charset_source(self) -> CharsetSource | None:
        return None if self.decoding is None else self.decoding.source


@dataclass(frozen=True, slots=True)
class Defect:
    """Something wrong with the input that did not stop the scan: bytes that
    are not in the charset, a base that cannot serve, a broken MIME part ...

    ``position`` is a byte offset into the file (or part) when the defect is
    about bytes, a code-point offset into the decoded text otherwise, as
    ``unit`` says; None when the defect is about the whole input.
    """

    kind: DefectKind
    detail: str
    origin: Origin = NOWHERE
    position: int | None = None
    unit: Unit = Unit.BYTE

    @property
    def file(self) -> str | None:
        return self.origin.file

    @property
    def message(self) -> int | None:
        return self.origin.message

    @property
    def part(self) -> str | None:
        return self.origin.part

    def __str__(self) -> str:
        origin = self.origin
        where = origin.file or "<input>"
        if origin.message is not None:
            where += f" message {origin.message}"
        if origin.part is not None:
            where += f" part {origin.part}"
        if origin.warc_record_id is not None:
            where += f" record {origin.warc_record_id}"
        if self.position is not None:
            where += f" at {self.unit} {self.position}"
        return f"{where}: {self.kind}: {self.detail}"
