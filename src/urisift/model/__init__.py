"""The vocabulary of the pipeline (ARCHITECTURE.md, model/: the vocabulary): what is found, where it came
from, how its bytes were decoded, which base applied, and what went wrong.

This module imports nothing of the pipeline or of the URI core, so every
stage can use it (an import-linter contract holds it to that).  The values
are frozen: string enums, frozen dataclasses, and named tuples for the two
built once a reference (:class:`Found`, :class:`Record`).  A record is
composed of them, and the parts that every record of one input shares (its
:class:`Origin`, its :class:`Charset`, the :class:`Base` in force) are one
object each, not copied into every record.

The fast constructors (``new_found``, ``new_place``, ``new_record``,
``origin_with``, ``with_flags``, ``nested_content``, in :mod:`.build`) are the hot path of every scan: they
build the same objects as the classes' own constructors, in a fraction of
the time.  The scan's events (:class:`Content` to route, a unit's
:class:`Tally`, a worker's :class:`Rendered` batch) are in :mod:`.events`.

Undefined is ``None``, empty is ``""``, everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, NamedTuple

from .enums import BaseSource, CharsetSource, DefectKind, Flag, Kind, Region, Style, Unit, Where


@dataclass(frozen=True, slots=True)
class Risk:
    """One RFC 3986 §7 concern about one URI (the flags are raised by
    :mod:`urisift.uri.risk`; this is the plain value a record holds)."""

    flag: str
    section: str
    detail: str

    def __str__(self) -> str:
        return f"{self.flag} (§{self.section}): {self.detail}"

    def to_json(self) -> dict[str, str]:
        return {"flag": self.flag, "section": self.section, "detail": self.detail}


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
    text: str | None | Literal[False] = None
    # PDF: the 1-based page the reference is on
    page: int | None = None
    # office files: the member of the ZIP package (``word/_rels/document.xml.rels``)
    member: str | None = None
    # HTML: where on the page the element stands: main, nav, header,
    # footer, aside, comments or other; None outside HTML, False where not asked for
    region: str | None | Literal[False] = None


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
    # the line of the file where this message's (or record's) text starts, when it stands there as
    # written (an mbox message's first line after its envelope; 1 in a message file): records'
    # ``in_file`` lines count from it (text output's location).  Not in the JSON records
    line: int | None = None
    # the input's retrieval URI (RFC 3986 §5.1.3: --base, joined with the file's path under a directory
    # walked; a web input's URL after its redirects), where it can serve: the source of the edges it
    # draws when a WARC record names none of its own.  Not in the JSON records
    retrieval: str | None = None


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
class Effective:
    """Where a crawl's captures say a target really ends: the URI
    reached by following, in the captures of the WARCs read, each 3xx
    ``Location`` (RFC 9110 §15.4), ``<meta http-equiv=refresh>`` (WHATWG HTML
    §4.2.5.3) and ``rel=canonical`` (RFC 6596) from the target.

    ``hops`` counts the steps followed (0: the target itself is where it
    ends); ``status`` is the HTTP status of the capture the chain ends at
    (None when that URI was not captured, or its capture has no HTTP
    status, a ``resource`` record); ``loop`` says the chain came back to a
    URI already on it (``target`` is then the last one before it did)."""

    target: str
    hops: int
    status: int | None
    loop: bool


class Record(NamedTuple):
    """One URI reference found in the input (ARCHITECTURE.md, The record contract), composed of what was
    found, where it stands, the base it was resolved against and its target.

    A field the scan was not asked for (``ScanOptions.fields``) is
    ``False``, never a None or an empty tuple that would read as "none":
    ``span``, ``line`` and ``column`` without positions, ``risks``,
    ``browser_target``, ``unwrapped`` and ``wrapper``, ``points_to``, and an
    HTML link's ``text`` and ``region``.

    The flat names of the JSON contract (``uri``, ``file``, ``charset`` ...)
    are properties, so that a record reads the way its JSON line does.

    A named tuple: frozen, and built in 0.18 µs with :func:`new_record`
    against 0.59 µs for a slotted frozen dataclass set through its slots
    (1.15 µs through its ``__init__``), measured on Python 3.11.  Change one
    with ``record._replace(...)``.
    """

    found: Found
    target: str | None
    base_layer: Base | None
    origin: Origin
    decoding: Charset | None
    span: Span | None | Literal[False] = None
    line: int | None | Literal[False] = None
    column: int | None | Literal[False] = None
    risks: tuple[Risk, ...] | Literal[False] = ()
    # the MIME part path of the part of this message the reference names
    # (cid:, mid:, or a part's Content-Location); None when it names none
    points_to: str | None | Literal[False] = None
    # the text around the reference (--context N), when asked for
    context: str | None = None
    # what the WHATWG URL parser gives for the reference against the same
    # base: the URL, None where that parser fails, False where it
    # was not asked (text and mail without --resolve browser|both)
    browser_target: str | None | Literal[False] = False
    # the URL behind a link-protection service's, a redirector's or an
    # archive's wrapping; None when not wrapped, or when the
    # wrapper hides it (then ``wrapper`` names it and a risk says so)
    unwrapped: str | None | Literal[False] = None
    # the wrappers, outermost first ("safelinks", "wayback@2024-05-03T12:00:00Z")
    wrapper: tuple[str, ...] | Literal[False] = ()
    # where the target ends in the captures of a crawl (--effective), when asked for
    effective: Effective | None = None
    # where the reference stands in its message (or record) as written in the file: (line from the
    # origin's ``line``, column), 1-based; None where its text does not stand in the file as written
    # (a base64 part) or was not asked for (ScanOptions.locations).  Not in the JSON records
    # (the column None: the record has none, an XML element's or a feed's HTML's, and so none in the file)
    in_file: tuple[int, int | None] | None = None

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
    def text(self) -> str | None | Literal[False]:
        return self.found.place.text

    @property
    def region(self) -> str | None | Literal[False]:
        return self.found.place.region

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

    ``position`` has one meaning: an offset from the start of the smallest
    thing ``origin`` names, in bytes or code points as ``unit`` says, None
    when the defect is about that thing as a whole.  With a ``part``: into
    the part's bytes once its transfer encoding is undone (or its decoded
    text); with a ``message`` and no part: into the message as it stands in
    the archive (``origin.offset`` is where it starts in the file);
    otherwise into the input: its bytes as stored (a WARC/ARC record's
    position is where the record starts), or after decompression for a
    compressed input of another kind, or its decoded text.
    """

    kind: DefectKind
    detail: str
    origin: Origin = NOWHERE
    position: int | None = None
    unit: Unit = Unit.BYTE

    def __post_init__(self) -> None:
        # one defect, one line on standard error: a library's message (libxml2's,
        # an exception's) may hold line breaks
        detail = self.detail
        if "\n" in detail or "\r" in detail:
            object.__setattr__(self, "detail", " ".join(part.strip() for part in detail.splitlines() if part.strip()))

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


# the rest of the vocabulary, imported last: both modules build on the values above
from .build import nested_content, new_found, new_place, new_record, origin_with, with_flags  # noqa: E402
from .events import Content, Rendered, Tally  # noqa: E402

__all__ = ["NOWHERE", "TEXT", "Base", "BaseSource", "Charset", "CharsetSource", "Content", "Defect", "DefectKind",
           "Effective", "Flag", "Found", "Kind", "Origin", "Place", "Record", "Region", "Rendered", "Risk", "Span",
           "Style", "Tally", "Unit", "Where", "nested_content", "new_found", "new_place", "new_record", "origin_with",
           "with_flags"]
