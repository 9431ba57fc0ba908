"""WARC and ARC records as units to scan (issue 11; DESIGN §1).

Read with warcio, which reads WARC (ISO 28500) and ARC, record-by-record
gzip or plain, strips the ``<…>`` that WARC 1.0 writers put around
``WARC-Target-URI``, parses the HTTP status line and headers leniently, and
undoes ``Transfer-Encoding: chunked`` and ``Content-Encoding`` (gzip,
deflate, br) in ``content_stream()``.

- ``response``, ``resource`` and ``revisit`` records are units: their
  retrieval URI is the record's own ``WARC-Target-URI``.  ``request``,
  ``metadata``, ``warcinfo`` (and ARC's file header) are counted and skipped.
- A unit's payload is scanned by its media type (the HTTP ``Content-Type``;
  for a ``resource``, the record's own): HTML and plain text, with the HTTP
  charset as the declared one; anything else is counted and skipped unread.
- A record that cannot be read is a defect; on a file the reader can seek
  in, the scan resumes at the next record (the next gzip member, or the next
  ``WARC/`` line), so nothing after a corrupt record is lost.
"""

from __future__ import annotations

import collections
import contextlib
import gzip
import io
import logging
import re
import sys
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any, BinaryIO

from .model import Defect, DefectKind, Kind, Origin
from .sources import Replay, first_cut

# warcio logs a warning for each target URI with spaces: the record already
# says what it holds; a library must not print on its own (the stdlib advice)
logging.getLogger("warcio").addHandler(logging.NullHandler())

UNIT_TYPES = frozenset({"response", "resource", "revisit"})
HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})
TEXT_TYPES = frozenset({"text/plain"})
# a record starts here: a gzip member, or a WARC/ARC header line
_RESYNC = re.compile(rb"\x1f\x8b\x08|(?:^|\n)WARC/1\.[01]\r?\n")


@dataclass(frozen=True, slots=True)
class WarcUnit:
    """One record to scan, and what the scan needs to know of it."""

    record_type: str
    record_id: str | None
    target_uri: str | None
    date: str | None
    offset: int
    truncated: str | None  # the WARC-Truncated reason ("length", "time" ...), None when whole
    status: str | None  # the HTTP status code, None without HTTP headers
    headers: tuple[tuple[str, str], ...]  # the HTTP headers, as written
    media_type: str | None
    charset: str | None  # the charset the HTTP (or record) Content-Type declares
    kind: Kind | None  # HTML or TEXT: scanned; None: counted and skipped
    payload: BinaryIO | None  # the decoded payload, readable until the next unit is asked for


def _media_type(value: str | None) -> tuple[str | None, str | None]:
    """The media type (lower case) and the charset parameter of a Content-Type value."""
    if not value:
        return None, None
    media, _, rest = value.partition(";")
    m = re.search(r'(?i)\bcharset\s*=\s*"?([^";\s]+)', rest)
    return media.strip().lower() or None, (m.group(1) if m else None)


def _sniffed(head: bytes) -> Kind:
    start = head.lstrip()[:64].lower()
    return Kind.HTML if start.startswith((b"<!doctype html", b"<html", b"<head", b"<body")) else Kind.TEXT


class _Brotli:
    """The decompressor interface warcio expects (``decompress``, ``unused_data``)
    over the brotli package's ``Decompressor`` (whose method is ``process``):
    warcio registers one for ``Content-Encoding: br`` that the current brotli
    package cannot serve, and the body would then be left encoded."""

    def __init__(self) -> None:
        import brotli

        self._inner = brotli.Decompressor()
        self.unused_data: bytes | None = None

    def decompress(self, data: bytes) -> bytes:
        return bytes(self._inner.process(data))


def _register_brotli() -> None:
    try:
        import brotli  # noqa: F401
        from warcio.bufferedreaders import BufferedReader
    except ImportError:  # brotli is a dependency; without it br bodies stay encoded
        return
    BufferedReader.DECOMPRESSORS["br"] = _Brotli


def _is_arc(stream: BinaryIO) -> bool:
    """Whether the stream is an ARC file (its first record, gzipped or not,
    is the ``filedesc://`` header); read without moving the stream."""
    head: bytes
    try:
        if hasattr(stream, "peek"):
            head = bytes(stream.peek(4096)[:4096])
        elif stream.seekable():
            where = stream.tell()
            head = stream.read(4096)
            stream.seek(where)
        else:
            return False
    except (OSError, ValueError):
        return False
    if head.startswith(b"\x1f\x8b"):
        try:
            head = zlib.decompressobj(31).decompress(head, 64)
        except zlib.error:
            return False
    return bool(head.lstrip().startswith(b"filedesc://"))


class WarcReader:
    """The units of one WARC or ARC stream; ``types`` counts every record
    read by its type, those skipped included."""

    def __init__(self, stream: BinaryIO, origin: Origin) -> None:
        self.stream = stream
        self.origin = origin
        self.types: collections.Counter[str] = collections.Counter()
        # ARC records have no record ID (warcio makes up a random one when it
        # converts them): theirs is None, so that every run gives the same records
        self.arc = _is_arc(stream)

    def __iter__(self) -> Iterator[WarcUnit | Defect]:
        from warcio.archiveiterator import ArchiveIterator  # a heavy import, needed only for WARC input

        _register_brotli()

        stream = self.stream
        skip = 0  # records already read, when the file is read again from its start
        while True:
            iterator = ArchiveIterator(stream, arc2warc=True)
            errors = seen = 0
            offset = stream.tell() if stream.seekable() else 0
            try:
                for record in _quiet(iterator):
                    # where this record starts, in the file: warcio counts from the
                    # stream's position (get_record_offset() would read the record first)
                    offset = iterator.offset
                    seen += 1
                    if seen <= skip:
                        continue
                    if iterator.err_count > errors:
                        errors = iterator.err_count
                        yield Defect(DefectKind.BROKEN_WARC, "the record before this one was not followed by a "
                                     "blank line: its Content-Length is likely wrong", self.origin, offset)
                    unit = self._unit(record, offset)
                    if unit is not None:
                        yield unit
                if seen and stream is self.stream and _member_cut_short(stream, offset):
                    yield Defect(DefectKind.BROKEN_WARC, "the file ends inside the gzip member of its last record: "
                                 "the record is cut short (a truncated download?)", self.origin, offset)
                return
            except Exception as exc:  # noqa: BLE001 - whatever warcio or zlib raise on a broken record
                offset = iterator.offset or offset  # where the record that failed starts
                detail = _readable(exc)
                if "non-chunked gzip" in detail and skip == 0 and stream is self.stream and stream.seekable():
                    # one gzip stream around many records (not a member a record):
                    # read again through a decompressor, past the records already read
                    yield Defect(DefectKind.BROKEN_WARC, "the file is one gzip stream, not a gzip member a record; "
                                 "read whole, and offsets count in the decompressed data", self.origin, None)
                    stream.seek(0)
                    stream = gzip.GzipFile(fileobj=stream)  # type: ignore[assignment]
                    skip = seen
                    continue
                resume = self._resync(offset + 1) if stream is self.stream else None
                tail = (f"; resumed at byte {resume}" if resume is not None
                        else "; nothing after it could be read")
                yield Defect(DefectKind.BROKEN_WARC, f"a record could not be read ({detail}){tail}",
                             self.origin, offset)
                if resume is None:
                    return
                skip = 0
                stream.seek(resume)

    def _resync(self, start: int) -> int | None:
        """The offset of the next record at or after ``start`` (see
        :func:`record_start`); None when the stream cannot seek or there is none."""
        stream = self.stream
        try:
            if not stream.seekable():
                return None
            return record_start(stream, start, sys.maxsize)
        except (OSError, ValueError):
            return None

    def _unit(self, record: Any, offset: int) -> WarcUnit | Defect | None:
        record_type = record.rec_type or "unknown"
        self.types[record_type] += 1
        if record_type not in UNIT_TYPES:
            return None
        headers = record.rec_headers
        http = record.http_headers
        pairs: tuple[tuple[str, str], ...] = tuple(http.headers) if http is not None else ()
        if http is not None and record_type != "resource":
            media, charset = _media_type(http.get_header("Content-Type"))
            status = http.get_statuscode()
        else:
            media, charset = _media_type(headers.get_header("Content-Type"))
            status = None
        record_id = None if self.arc else headers.get_header("WARC-Record-ID")
        unit = WarcUnit(record_type, record_id, headers.get_header("WARC-Target-URI"),
                        headers.get_header("WARC-Date"), offset, headers.get_header("WARC-Truncated"), status,
                        pairs, media, charset, None, None)
        if media is not None and media not in HTML_TYPES and media not in TEXT_TYPES:
            return unit  # its payload is not read
        try:
            payload = record.content_stream()
            head = payload.read(4096) if media is None else b""
        except Exception as exc:  # noqa: BLE001 - a bad chunk size, a broken gzip body ...
            return Defect(DefectKind.BROKEN_WARC, f"the payload could not be decoded ({type(exc).__name__}: "
                          f"{exc}); its headers were still read", self.origin, offset)
        kind = Kind.HTML if media in HTML_TYPES else Kind.TEXT if media in TEXT_TYPES else _sniffed(head)
        # the bytes read to sniff the kind are put back in front
        body: Any = io.BufferedReader(Replay(head, payload)) if head else payload
        return replace(unit, kind=kind, payload=body)


def _member_cut_short(stream: BinaryIO, offset: int) -> bool:
    """Whether the gzip member at ``offset`` (the last record's) ends before
    its end: warcio reads a truncated last member as far as it goes, silently."""
    try:
        if not stream.seekable():
            return False
        stream.seek(offset)
        head = stream.read(2)
        if head != b"\x1f\x8b":
            return False
        decompressor = zlib.decompressobj(31)
        decompressor.decompress(head)
        while chunk := stream.read(1 << 20):
            decompressor.decompress(chunk, 1 << 16)
            while decompressor.unconsumed_tail and not decompressor.eof:
                decompressor.decompress(decompressor.unconsumed_tail, 1 << 16)
            if decompressor.eof:
                return False
        return not decompressor.eof
    except (OSError, ValueError, zlib.error):
        return False


def _readable(exc: Exception) -> str:
    """What went wrong, in one printable line of reasonable length."""
    text = " ".join(str(exc).split())
    if text.startswith("Unknown archive format"):
        text = "not a WARC or ARC record here: a corrupt gzip member or a wrong Content-Length before it"
    text = "".join(c if c.isprintable() else "?" for c in text)
    return f"{type(exc).__name__}: {text[:200]}" if text else type(exc).__name__


def _quiet(iterator: Any) -> Iterator[Any]:
    """The records of a warcio iterator, without the warnings it writes to
    standard error itself (each becomes a defect of ours instead)."""
    records = iter(iterator)
    while True:
        with contextlib.redirect_stderr(io.StringIO()):
            record = next(records, None)
        if record is None:
            return
        yield record


# -- URIs in the HTTP headers --------------------------------------------------------------

# RFC 8288 §3: Link = #link-value; link-value = "<" URI-Reference ">" *( OWS ";" OWS link-param )
_LINK_TARGET = re.compile(r"<([^<>]*)>")
_REL = re.compile(r'(?i);\s*rel\s*=\s*(?:"([^"]*)"|([^;,\s]+))')


def http_references(unit: WarcUnit) -> Iterator[tuple[str, str, tuple[str, ...] | None]]:
    """The URI references in a unit's HTTP headers: (header name, reference,
    rel tokens).  ``Location`` of a 3xx response (RFC 9110 §10.2.2) and every
    ``Link`` target (RFC 8288 §3), with its ``rel`` tokens."""
    redirect = unit.status is not None and unit.status.startswith("3")
    for name, value in unit.headers:
        lower = name.lower()
        if lower == "location" and redirect:
            reference = "".join(value.split())
            if reference:
                yield name, reference, None
        elif lower == "link":
            matches = list(_LINK_TARGET.finditer(value))
            for i, m in enumerate(matches):
                params = value[m.end(): matches[i + 1].start() if i + 1 < len(matches) else len(value)]
                rel = _REL.search(params)
                tokens = None if rel is None else tuple((rel.group(1) or rel.group(2) or "").lower().split())
                yield name, "".join(m.group(1).split()), tokens


def content_location(unit: WarcUnit) -> str | None:
    """The response's ``Content-Location`` (RFC 7231 §3.1.4.2), for the opt-in base."""
    for name, value in unit.headers:
        if name.lower() == "content-location":
            return "".join(value.split()) or None
    return None


# -- where records start: safe places to cut a large file for parallel work -----------

def record_start(f: BinaryIO, near: int, size: int) -> int | None:
    """The offset of the first record that starts at or after ``near`` in a
    WARC file (a gzip member a record, or plain): a gzip member whose data
    begins ``WARC/``, or a ``WARC/1.x`` line followed by a ``WARC-`` header
    at the start of a line after a blank one.  None when there is none."""

    def find(window: bytes, base: int) -> tuple[int | None, int]:
        for m in _RESYNC.finditer(window):
            at = m.start() if window[m.start()] != 0x0A else m.start() + 1
            if _record_at(window, at, f, base + at):
                return at, 0
        return None, max(0, len(window) - 64)

    return first_cut(f, near, size, find)


def _record_at(window: bytes, at: int, f: BinaryIO, offset: int) -> bool:
    if window.startswith(b"\x1f\x8b", at):
        f_position = f.tell()
        f.seek(offset)
        head = f.read(1 << 14)
        f.seek(f_position)
        try:
            data = zlib.decompressobj(31).decompress(head, 64)
        except zlib.error:
            return False
        return data.startswith((b"WARC/1.0\r\n", b"WARC/1.1\r\n", b"WARC/1.0\n", b"WARC/1.1\n"))
    # a plain record: "WARC/1.x" after a blank line, then a named WARC header
    after_blank = at == 0 or window[max(0, at - 4):at] == b"\r\n\r\n" or window[max(0, at - 2):at] == b"\n\n"
    return after_blank and _PLAIN_RECORD.match(window, at, at + 4096) is not None


# a WARC header line, then (within its first twenty fields) a WARC- named one
_PLAIN_RECORD = re.compile(rb"WARC/1\.[01]\r?\n(?:[A-Za-z-]{1,64}:[^\n]{0,4096}\n){0,20}?WARC-")
