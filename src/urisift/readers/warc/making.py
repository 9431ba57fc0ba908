"""A record made into a unit, whichever library read it: warcio's record,
or one FastWARC read, in the shape of warcio's (:mod:`.fast`).  One maker,
so that a unit is the same whichever path read its record."""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, BinaryIO, cast

from ...model import Kind
from ...stages.media import kind_of, robots
from ...stages.placing import FileLines
from ...stages.streams import Replay
from ...uri import patterns
from .codings import Payload, decoded, inflating
from .unit import UNIT_TYPES, WarcUnit, media_type, printable, sniffed

# ISO 28500 §5.3 (WARC 1.1 §5.3): Content-Length is mandatory, "1*DIGIT"
_LENGTH = patterns.compile(r"[0-9]{1,30}")


class State:
    """What the reader remembers across the records of one pass."""

    def __init__(self) -> None:
        self.last: tuple[int, Any] | None = None  # the last record read, and where it starts
        self.reported: set[int] = set()  # records already said to be cut short
        self.payload: Payload | None = None  # the last unit's payload


class Fields:
    """A header block in the shape of warcio's ``StatusAndHeaders``, made
    of fields already split (by FastWARC, or the HTTP header's quick split):
    the fields in order, the first of a name its value, as warcio reads them."""

    __slots__ = ("headers", "statusline", "total_len", "first")

    def __init__(self, headers: Sequence[tuple[str, str]], statusline: str, total_len: int,
                 first: dict[str, str] | None = None) -> None:
        self.headers = headers
        self.statusline = statusline
        self.total_len = total_len  # (its length as read: warcio counts characters, ASCII here)
        if first is None:
            first = {}
            for name, value in headers:
                first.setdefault(name.lower(), value)
        self.first = first

    def get_header(self, name: str, default: str | None = None) -> str | None:
        return self.first.get(name.lower(), default)

    def get_statuscode(self) -> str:
        return self.statusline.split(" ", 1)[0]


def named(offset: int, record: Any) -> str:
    """The record at ``offset`` as a defect names it: its offset, ID (an ARC
    record has none: :func:`~.parsing.archive_iterator` drops the one warcio
    makes up) and target URI when known."""
    fields = ("WARC-Record-ID", "WARC-Target-URI")
    known = [v for v in map(record.rec_headers.get_header, fields) if v]
    return f"the record at byte {offset}" + (f" ({', '.join(printable(v) for v in known)})" if known else "")


def length_problem(record: Any) -> str | None:
    """What is wrong with a record's Content-Length, None when nothing."""
    value = record.rec_headers.get_header("Content-Length")
    if value is None:
        # not one field of the WARC header: what follows "WARC/1.0" is junk, or lost
        return "it has no Content-Length (ISO 28500 §5.3 requires one): where it ends is unknown"
    if _LENGTH.fullmatch(value.strip()) is None:
        return f"its Content-Length {printable(value)!r} is not a number of bytes (ISO 28500 §5.3)"
    return None


def unit_of(record: Any, offset: int, state: State) -> WarcUnit | None:
    """The unit of a ``response``, ``resource`` or ``revisit`` record (None
    for another type), its decoded payload kept in ``state`` for the reader
    to say what broke in it once the scan has read it."""
    record_type = record.rec_type or "unknown"
    if record_type not in UNIT_TYPES:
        return None
    headers = record.rec_headers
    http = record.http_headers
    pairs: tuple[tuple[str, str], ...] = tuple(http.headers) if http is not None else ()
    if http is not None and record_type != "resource":
        media, charset = media_type(http.get_header("Content-Type"))
        status = http.get_statuscode()
    else:
        media, charset = media_type(headers.get_header("Content-Type"))
        status = None
    record_id = headers.get_header("WARC-Record-ID")  # (None for an ARC record: it has none)
    target = headers.get_header("WARC-Target-URI")
    kind: Kind | None = None
    body: Any = None
    inflated = False
    # (else its payload is not read: no reader takes its type; a crawl's images are not read for codes, --qr or not)
    if media is None or kind_of(media) not in (None, Kind.IMAGE):
        stream, unknown = decoded(record)
        inflated = inflating(stream)
        payload = state.payload = Payload(stream)
        if unknown is not None:
            payload.problem = unknown
        head = payload.read(4096) if media is None else b""
        kind = kind_of(media) or sniffed(head)
        if kind is Kind.TEXT and robots(target):
            kind = Kind.ROBOTS
        # the bytes read to sniff the kind are put back in front
        body = io.BufferedReader(Replay(head, cast(BinaryIO, payload)) if head else payload)
    return WarcUnit(record_type, record_id, target, headers.get_header("WARC-Date"), offset,
                    headers.get_header("WARC-Truncated"), status, pairs, media, charset, kind, body, inflated=inflated)


def placed(unit: WarcUnit, record: Any, offset: int, lines: FileLines) -> WarcUnit:
    """``unit`` with where it stands in the plain file: its first line,
    its bytes up to its payload, whether its payload stands as written."""
    http = record.http_headers
    size = record.rec_headers.total_len + (http.total_len if http is not None else 0)
    written = http is None or not (http.get_header("Transfer-Encoding") or http.get_header("Content-Encoding"))
    return replace(unit, line=lines.line_of(offset), head=lines.read(offset, offset + size), as_written=written)
