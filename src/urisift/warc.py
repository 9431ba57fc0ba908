"""WARC and ARC records as units to scan (issue 11; DESIGN §1).

Read with warcio, which reads WARC (ISO 28500) and ARC, record-by-record
gzip or plain, strips the ``<…>`` that WARC 1.0 writers put around
``WARC-Target-URI``, and parses the HTTP status line and headers leniently
(through a reader and a header parser of ours that stay linear on hostile
header lines).  The payload's codings are undone here (RFC 9112 §6.1,
RFC 9110 §8.4): every Transfer-Encoding coding, last first (``gzip,
chunked``), then the Content-Encoding's.

- ``response``, ``resource`` and ``revisit`` records are units: their
  retrieval URI is the record's own ``WARC-Target-URI``.  ``request``,
  ``metadata``, ``warcinfo`` (and ARC's file header) are counted and skipped.
- A unit's payload is scanned by its media type (the HTTP ``Content-Type``;
  for a ``resource``, the record's own): HTML and plain text, with the HTTP
  charset as the declared one; anything else is counted and skipped unread.
- A broken record (issue 20) is a ``broken-warc`` defect naming it (its
  offset, record ID and target URI): a corrupt gzip member, a missing or
  malformed Content-Length, one that runs past the end of the file or
  short of it, a payload whose coding breaks.  The scan goes on at the next
  record (the next gzip member, or the next ``WARC/`` header at a line
  start), in a file or on standard input alike, so nothing after a broken
  record is lost.
"""

from __future__ import annotations

import collections
import contextlib
import functools
import gzip
import io
import logging
import re
import sys
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any, BinaryIO, cast

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


#: how many of the last bytes read a forward-only stream (a pipe) keeps, to
#: seek back in for the next record after a broken one (the finder reads a
#: megabyte at a time, and warcio reads ahead of the record it parses)
_HISTORY = 1 << 23


class _Rewind(io.RawIOBase):
    """A forward-only stream (standard input) that can seek back within the
    last :data:`_HISTORY` bytes it gave, and forward by reading on: enough
    for the reader to go on at the next record after a broken one, as it
    does in a file, in bounded memory.  Positions count from its start."""

    def __init__(self, inner: BinaryIO) -> None:
        self.inner = inner
        self._read = getattr(inner, "read1", inner.read)  # what a pipe has, not a full buffer
        self.kept = bytearray()
        self.low = 0  # the position of kept[0]
        self.position = 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self.position

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        if whence == io.SEEK_CUR:
            offset += self.position
        elif whence != io.SEEK_SET:
            raise OSError("a pipe has no known end to seek from")
        if offset < self.low:
            raise OSError(f"byte {offset} of the pipe was read and is no longer kept")
        while offset > self.low + len(self.kept) and self._more():
            pass
        self.position = min(offset, self.low + len(self.kept))
        return self.position

    def _more(self) -> bool:
        data = self._read(1 << 16)
        self.kept += data
        if len(self.kept) > 2 * _HISTORY:  # dropped in large steps: linear
            drop = min(len(self.kept) - _HISTORY, self.position - self.low)
            del self.kept[:drop]
            self.low += drop
        return bool(data)

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        if self.position == self.low + len(self.kept) and not self._more():
            return 0
        at = self.position - self.low
        n = min(len(buffer), len(self.kept) - at)
        buffer[:n] = self.kept[at: at + n]
        self.position += n
        return n


class _NoTarget(Exception):
    """A record of a type that must name its target has none."""


@functools.cache
def _iterator_class() -> Any:
    """warcio's ``ArchiveIterator``, linear in the length of header lines
    and their number: warcio's reader grows a line with ``+=`` a 16 kB block
    at a time (a header line of 40 MB took 47 s, 10 MB 0.8 s), and its header
    parser a folded field with ``+=`` a line at a time.  Built on first use:
    warcio is a heavy import, needed only for WARC input."""
    from warcio.archiveiterator import ArchiveIterator
    from warcio.bufferedreaders import DecompressingBufferedReader
    from warcio.statusandheaders import StatusAndHeaders, StatusAndHeadersParser, StatusAndHeadersParserException
    from warcio.utils import BUFF_SIZE

    class LineReader(DecompressingBufferedReader):  # type: ignore[misc]
        def readline(self, length: int | None = None) -> bytes:
            if length == 0:
                return b""
            self._fillbuff()
            if self.empty():
                return b""
            parts = [self.buff.readline(length)]
            while not parts[-1].endswith(b"\n"):  # at the end of a block: the line goes on in the next
                if length:
                    length -= len(parts[-1])
                    if length <= 0:
                        break
                self._fillbuff()
                if self.empty():
                    break
                parts.append(self.buff.readline(length))
            return b"".join(parts)

    class HeaderParser(StatusAndHeadersParser):  # type: ignore[misc]
        """warcio's parser of a status line and its header fields, with
        continuation lines (RFC 9112 §5.2 obs-fold) joined once, not with
        ``+=`` each: 10 MB of them took ten minutes."""

        def parse(self, stream: Any, full_statusline: bytes | None = None) -> Any:
            total = 0  # what was read, counted as warcio counts it (decoded characters)

            def line(raw: bytes) -> str:
                nonlocal total
                text: str = self.decode_header(raw)
                total += len(text)
                return text.rstrip()

            first: str = self.decode_header(stream.readline() if full_statusline is None else full_statusline)
            statusline = first.rstrip()
            total = len(first)
            if total == 0:
                raise EOFError()
            if not statusline:
                return StatusAndHeaders(statusline=statusline, headers=[], protocol="", total_len=total)
            if self.verify:
                protocol_status = self.split_prefix(statusline, self.statuslist)
                if not protocol_status:
                    raise StatusAndHeadersParserException(
                        f"Expected Status Line starting with {self.statuslist} - Found: {statusline}", first)
            else:
                protocol_status = statusline.split(" ", 1)
            headers = []
            current = line(stream.readline())
            while current:
                name, colon, value = current.partition(":")
                parts = [value.lstrip()] if colon else None
                following = line(stream.readline())
                while following and following.startswith((" ", "\t")):
                    if parts is not None:
                        parts.append(following)
                    following = line(stream.readline())
                if parts is not None:  # a line without a colon is no field: left out
                    headers.append((name.rstrip(" \t"), "".join(parts)))
                current = following
            return StatusAndHeaders(statusline=protocol_status[1].strip() if len(protocol_status) > 1 else "",
                                    headers=headers, protocol=protocol_status[0], total_len=total)

    class Iterator(ArchiveIterator):  # type: ignore[misc]
        def __init__(self, stream: BinaryIO) -> None:
            super().__init__(stream, arc2warc=True)
            self.reader = LineReader(self.fh, block_size=BUFF_SIZE)  # warcio's own: nothing read yet
            loader = self.loader
            for name in ("warc_parser", "http_parser", "http_req_parser"):
                parser = getattr(loader, name)
                setattr(loader, name, HeaderParser(parser.statuslist, parser.verify))
            http_headers = loader.load_http_headers

            def load_http_headers(rec_type: str, uri: str | None, stream: Any, length: int | None) -> Any:
                # warcio fails with an AttributeError on a record without a target URI
                if uri is None and length and rec_type in loader.HTTP_RECORDS:
                    raise _NoTarget(f"a {rec_type} record without a WARC-Target-URI, which ISO 28500 §5.14 "
                                    "requires of it")
                return http_headers(rec_type, uri, stream, length)

            loader.load_http_headers = load_http_headers

    return Iterator


def _archive_iterator(stream: BinaryIO) -> Any:
    return _iterator_class()(stream)


def _end(stream: BinaryIO) -> int | None:
    """The size of a file: where a Content-Length may reach."""
    try:
        here = stream.tell()
        end = stream.seek(0, io.SEEK_END)
        stream.seek(here)
        return end
    except (OSError, ValueError):
        return None


def _named(offset: int, record: Any, arc: bool) -> str:
    """The record at ``offset`` as a defect names it: its offset, ID (an ARC
    record has none: not the one warcio makes up) and target URI when known."""
    fields = ("WARC-Target-URI",) if arc else ("WARC-Record-ID", "WARC-Target-URI")
    known = [v for v in map(record.rec_headers.get_header, fields) if v]
    return f"the record at byte {offset}" + (f" ({', '.join(_printable(v) for v in known)})" if known else "")


def _printable(text: str) -> str:
    text = "".join(c if c.isprintable() else "?" for c in text)
    return text if len(text) <= 200 else text[:200] + "..."


# ISO 28500 §5.3 (WARC 1.1 §5.3): Content-Length is mandatory, "1*DIGIT"
_LENGTH = re.compile(r"[0-9]{1,30}")


def _length_problem(record: Any) -> str | None:
    """What is wrong with a record's Content-Length, None when nothing."""
    value = record.rec_headers.get_header("Content-Length")
    if value is None:
        # not one field of the WARC header: what follows "WARC/1.0" is junk, or lost
        return "it has no Content-Length (ISO 28500 §5.3 requires one): where it ends is unknown"
    if _LENGTH.fullmatch(value.strip()) is None:
        return f"its Content-Length {_printable(value)!r} is not a number of bytes (ISO 28500 §5.3)"
    return None


class _State:
    """What the reader remembers across the records of one pass."""

    def __init__(self) -> None:
        self.last: tuple[int, Any] | None = None  # the last record read, and where it starts
        self.reported: set[int] = set()  # records already said to be cut short
        self.payload: _Payload | None = None  # the last unit's payload


class WarcReader:
    """The units of one WARC or ARC stream; ``types`` counts every record
    read by its type, those skipped included.

    A broken record is a ``broken-warc`` defect that names it, and the
    reader goes on at the next record start (:func:`record_start`): after a
    corrupt gzip member, the next member; in a plain WARC, the next
    ``WARC/1.x`` header after the last record read (a Content-Length a
    little too long had the reader parse from inside the next record's
    header).  A forward-only stream (a pipe) is read through :class:`_Rewind`,
    so standard input resumes as a file does."""

    def __init__(self, stream: BinaryIO, origin: Origin) -> None:
        self.stream = stream
        self.origin = origin
        self.types: collections.Counter[str] = collections.Counter()
        # ARC records have no record ID (warcio makes up a random one when it
        # converts them): theirs is None, so that every run gives the same records
        self.arc = _is_arc(stream)

    def __iter__(self) -> Iterator[WarcUnit | Defect]:
        pipe = None if _seekable(self.stream) else _Rewind(self.stream)
        file = self.stream if pipe is None else cast(BinaryIO, pipe)
        stream = file  # what warcio reads: the file, or one gzip stream around it all
        size = _end(file) if pipe is None else None
        state = _State()
        skip = 0  # records already read, when the file is read again from its start
        floor = 0  # a search for the next record starts here at least: it only goes forward
        while True:
            iterator = _archive_iterator(stream)
            direct = stream is file  # offsets are the file's, and the reader may seek in it
            errors = seen = 0
            offset = stream.tell()
            resume: int | None = None
            try:
                for record in _quiet(iterator):
                    # where this record starts, in the file: warcio counts from the
                    # stream's position (get_record_offset() would read the record first)
                    offset = iterator.offset
                    seen += 1
                    if seen <= skip:
                        continue
                    yield from self._after(state, file if direct else None)
                    if iterator.err_count > errors:
                        errors = iterator.err_count
                        before = "the record before" if state.last is None else _named(*state.last, self.arc)
                        yield Defect(DefectKind.BROKEN_WARC, f"{before} was not followed by a blank line: its "
                                     f"Content-Length is likely wrong; the next record was found at byte {offset}",
                                     self.origin, offset if state.last is None else state.last[0])
                    state.last = (offset, record)
                    floor = max(floor, offset + 1)
                    self.types[record.rec_type or "unknown"] += 1
                    problem = _length_problem(record)
                    if problem is not None and direct:
                        # read on, and warcio takes the rest of the file (or a wrong
                        # stretch of it) for this record: look for the next one instead
                        state.last = None
                        resume = self._resync(file, offset + 1)
                        tail = f"; resumed at byte {resume}" if resume is not None else ""
                        yield Defect(DefectKind.BROKEN_WARC, f"{_named(offset, record, self.arc)}: {problem}; "
                                     f"its payload is not read{tail}", self.origin, offset)
                        break
                    if direct and size is not None and iterator.reader.decompressor is None:
                        yield from self._within(file, iterator, record, offset, size, state)
                    unit = self._unit(record, offset, state)
                    if unit is not None:
                        yield unit
                else:
                    last = state.last
                    ending = list(self._after(state, file if direct else None, end=True))
                    if last is not None and last[0] in state.reported and pipe is not None \
                            and _plain(file, last[0]):
                        # a pipe (a file is measured first: see _within): a Content-Length
                        # past the end took in whatever followed, scanned as its payload
                        resume = self._resync(file, last[0] + 1)
                    if resume is not None and ending and last is not None:
                        ending[-1] = replace(ending[-1], detail=(
                            f"{_named(last[0], last[1], self.arc)}: its Content-Length runs past the end of the "
                            f"input, and a record starts inside it, at byte {resume}: what it took in of the records "
                            "after it was scanned as its payload too; resumed there"))
                    yield from ending
            except Exception as exc:  # noqa: BLE001 - whatever warcio or zlib raise on a broken record
                offset = iterator.offset or offset  # where the record that failed starts
                detail = _readable(exc)
                if "non-chunked gzip" in detail and skip == 0 and direct and _rewound(file):
                    # one gzip stream around many records (not a member a record):
                    # read again through a decompressor, past the records already read
                    yield Defect(DefectKind.BROKEN_WARC, "the file is one gzip stream, not a gzip member a record; "
                                 "read whole, and offsets count in the decompressed data", self.origin, None)
                    stream = gzip.GzipFile(fileobj=file)  # type: ignore[assignment]
                    skip = seen
                    state = _State()
                    continue
                if state.payload is not None and state.payload.problem is not None and state.last is not None \
                        and state.last[0] == offset:
                    detail = state.payload.problem  # the record whose payload broke: said once
                state.payload = None
                if direct:
                    # after a corrupt gzip member, the next member; in a plain file, a
                    # record header a little before where warcio looked for one, too
                    gzipped = _plain(file, offset) is False
                    start = max(floor, offset + 1 if gzipped else offset - _BACK, pipe.low if pipe else 0)
                    resume = self._resync(file, start)
                    if resume == offset:  # the record that failed starts there: the next one, then
                        resume = self._resync(file, offset + 1)
                tail = (f"; resumed at byte {resume}" if resume is not None
                        else "; nothing after it could be read")
                if resume is not None and resume < offset and state.last is not None:
                    # the next record starts before where warcio looked for it
                    tail += (f" ({_named(*state.last, self.arc)} ran on into it: its Content-Length is likely "
                             "too long)")
                yield Defect(DefectKind.BROKEN_WARC, f"a record could not be read ({detail}){tail}",
                             self.origin, offset)
            if resume is None:
                return
            skip = 0
            floor = resume + 1
            state = _State()
            file.seek(resume)
            stream = file

    @staticmethod
    def _resync(file: BinaryIO, start: int) -> int | None:
        """The offset of the next record at or after ``start`` (see
        :func:`record_start`); None when there is none, or it cannot be looked for."""
        try:
            return record_start(cast(BinaryIO, _Growing(file)), start, sys.maxsize)
        except (OSError, ValueError):
            return None

    def _after(self, state: _State, file: BinaryIO | None, end: bool = False) -> Iterator[Defect]:
        """The defects of the last record, now that warcio has read past it:
        its payload could not be decoded, or it ended before its Content-Length
        did.  ``file`` is the file it was read from (None when that was through
        one gzip stream around the whole file)."""
        payload, state.payload = state.payload, None
        if state.last is None:
            return
        offset, record = state.last
        if payload is not None and payload.problem is not None:
            yield Defect(DefectKind.BROKEN_WARC, f"{_named(offset, record, self.arc)}: {payload.problem}",
                         self.origin, offset)
        if offset in state.reported or file is None:
            return
        missing = getattr(record.raw_stream, "limit", 0)
        if missing <= 0 and not end:
            return
        gzipped = _plain(file, offset) is False
        declared = record.rec_headers.get_header("Content-Length")
        if end and gzipped and _member_cut_short(file, offset):
            detail = "the file ends inside its gzip member (a truncated download?)"
        elif missing > 0 and gzipped:
            detail = f"its Content-Length ({declared}) is {missing} bytes more than its gzip member holds"
        elif missing > 0:
            detail = (f"the file ends {missing} bytes before the end its Content-Length ({declared}) gives "
                      "(a truncated download?)")
        else:
            return
        state.reported.add(offset)
        yield Defect(DefectKind.BROKEN_WARC, f"{_named(offset, record, self.arc)} is cut short: {detail}",
                     self.origin, offset)

    def _within(self, file: BinaryIO, iterator: Any, record: Any, offset: int, size: int, state: _State
                ) -> Iterator[Defect]:
        """In a plain WARC file, a record whose Content-Length runs past the
        end of the file: read up to the next record start inside that
        stretch, if there is one (the length is wrong, not the file cut)."""
        reader = iterator.reader
        limited = record.raw_stream
        missing = getattr(limited, "limit", None)
        if reader is None or not isinstance(missing, int):
            return
        here = file.tell()
        position = here - reader.rem_length()  # the next byte warcio gives, in the file
        if position + missing <= size:
            return
        state.reported.add(offset)
        try:
            after = record_start(cast(BinaryIO, _Growing(file)), offset + 1, size)
            blank = 0
            if after is not None:
                file.seek(max(0, after - 4))
                before = file.read(4)
                blank = 4 if before == b"\r\n\r\n" else 2
        finally:
            file.seek(here)
        declared = record.rec_headers.get_header("Content-Length")
        if after is None or after - blank < position:
            yield Defect(DefectKind.BROKEN_WARC, f"{_named(offset, record, self.arc)} is cut short: the file ends "
                         f"{position + missing - size} bytes before the end its Content-Length ({declared}) "
                         "gives (a truncated download?)", self.origin, offset)
            return
        limited.limit = after - blank - position
        yield Defect(DefectKind.BROKEN_WARC, f"{_named(offset, record, self.arc)}: its Content-Length ({declared}) "
                     f"runs past the end of the file ({size} bytes); read up to the next record, at byte {after}",
                     self.origin, offset)

    def _unit(self, record: Any, offset: int, state: _State) -> WarcUnit | Defect | None:
        record_type = record.rec_type or "unknown"
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
        decoded, unknown = _decoded(record)
        payload = state.payload = _Payload(decoded)
        if unknown is not None:
            payload.problem = unknown
        head = payload.read(4096) if media is None else b""
        kind = Kind.HTML if media in HTML_TYPES else Kind.TEXT if media in TEXT_TYPES else _sniffed(head)
        # the bytes read to sniff the kind are put back in front
        body: Any = io.BufferedReader(Replay(head, cast(BinaryIO, payload)) if head else payload)
        return replace(unit, kind=kind, payload=body)


#: how far before a plain record that could not be parsed the next one is looked for
#: (a Content-Length too long ended the last record inside the next one's header)
_BACK = 1 << 16


class _Growing:
    """A file read a little at first, then more and more (4 kB, doubling up
    to what is asked): the finder reads a megabyte at a time, which is right
    for cutting a large file, but a resync usually finds the next record
    within a few hundred bytes, and one after each of a million tiny broken
    records read a megabyte each time (a 16 MB file took a minute)."""

    def __init__(self, f: BinaryIO) -> None:
        self.f = f
        self.step = 1 << 12

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        return self.f.seek(offset, whence)

    def tell(self) -> int:
        return self.f.tell()

    def read(self, size: int = -1) -> bytes:
        if size < 0 or size > self.step:
            size = self.step
            self.step *= 2
        return self.f.read(size)


def _seekable(stream: BinaryIO) -> bool:
    try:
        return bool(stream.seekable())
    except (OSError, ValueError):
        return False


def _rewound(file: BinaryIO) -> bool:
    """Whether the file could be sought back to its start."""
    try:
        file.seek(0)
    except (OSError, ValueError):
        return False
    return True


def _plain(file: BinaryIO, offset: int) -> bool | None:
    """Whether the record at ``offset`` is plain (False: a gzip member; None: unknown)."""
    try:
        here = file.tell()
        file.seek(offset)
        magic = file.read(2)
        file.seek(here)
    except (OSError, ValueError):
        return None
    return magic != b"\x1f\x8b"


# RFC 9110 §8.4.1: the content codings undone here (x-gzip is gzip, §8.4.1.3)
_CODINGS = {"gzip": "gzip", "x-gzip": "gzip", "deflate": "deflate", "br": "br"}


def _codings(value: str | None) -> list[str]:
    """The codings a Transfer-Encoding or Content-Encoding lists, in the order applied."""
    if not value:
        return []
    return [c for c in (part.strip().lower() for part in value.split(",")) if c and c != "identity"]


def _decoded(record: Any) -> tuple[BinaryIO, str | None]:
    """The record's payload with its codings undone, and what could not be.

    RFC 9112 §6.1: a Transfer-Encoding lists the codings applied to the
    content in order (``gzip, chunked``); undo each, last first, then the
    Content-Encoding's (RFC 9110 §8.4), last first too.  An unknown coding
    stops there: the payload is left as it is from that coding on."""
    stream: Any = record.raw_stream
    http = record.http_headers
    if http is None:
        return stream, None
    from warcio.bufferedreaders import ChunkedDataReader

    steps = ([("Transfer-Encoding", c) for c in reversed(_codings(http.get_header("Transfer-Encoding")))]
             + [("Content-Encoding", c) for c in reversed(_codings(http.get_header("Content-Encoding")))])
    for name, coding in steps:
        if name == "Transfer-Encoding" and coding == "chunked":
            stream = ChunkedDataReader(stream)  # a body not chunked after all is read as it is (warcio)
        elif coding in _CODINGS and (coding != "br" or _brotli() is not None):
            stream = _Decoding(stream, _CODINGS[coding], name)
        else:
            return stream, (f"its {name} {_printable(coding)!r} is not a coding this reader knows: "
                            "the payload is scanned as it is from there")
    return stream, None


def _brotli() -> Any:
    try:
        import brotli
    except ImportError:  # a dependency; without it, br is a coding this reader does not know
        return None
    return brotli


class _Broken(Exception):
    """A payload's coding is broken past the bytes already given."""


class _Decoding(io.RawIOBase):
    """One content or transfer coding undone (gzip RFC 1952, deflate RFC
    1950 — or the raw RFC 1951 some servers send —, br RFC 7932), every byte
    decoded given before a problem is raised as :class:`_Broken`: a corrupt
    or truncated body keeps what came before the break.  A body that is not
    in its coding at all (the label is wrong) is read as it is, as browsers do."""

    def __init__(self, inner: Any, coding: str, header: str) -> None:
        self.inner = inner
        self.coding = coding
        self.header = header
        self.decoder: Any = None
        self.pending = b""
        self.out = b""
        self.ended = False
        self.error: str | None = None
        self.plain = False  # not in its coding: passed through
        self.fed = 0  # coded bytes given to the decoder

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        while not self.out and not self.ended:
            self.out = self._step()
        if not self.out and self.error is not None:
            error, self.error = self.error, None
            raise _Broken(error)
        n = min(len(buffer), len(self.out))
        buffer[:n] = self.out[:n]
        self.out = self.out[n:]
        return n

    def _step(self) -> bytes:
        data = self.pending or self.inner.read(1 << 14)
        self.pending = b""
        if self.plain:
            self.ended = not data
            return bytes(data)
        if self.decoder is None:
            if not data:
                self.ended = True
                return b""
            self.decoder = self._new(data)
        if self.decoder.eof if self.coding != "br" else self.decoder.is_finished():
            self.ended = True  # what follows the end of the coded data is not content
            return b""
        if not data:
            rest = b"" if self.coding == "br" else self.decoder.flush()
            if self.coding != "br" and self.decoder.eof:
                return bytes(rest)
            return self._fail(f"its {self.coding} data ends before its end: truncated", rest)
        first = not self.fed
        self.fed += len(data)
        if self.coding == "br":
            try:
                return bytes(self.decoder.process(data))
            except Exception as exc:  # noqa: BLE001 - brotli.error, whatever the binding calls it
                return self._broken(first, data, b"", str(exc) or type(exc).__name__)
        saved = self.decoder.copy()
        try:
            out: bytes = self.decoder.decompress(data, 1 << 16)
        except zlib.error as exc:
            # the call's output is lost with the error: replay it a byte at a
            # time from the state before it, to give every byte before the error
            good = []
            try:
                for i in range(len(data)):
                    good.append(saved.decompress(data[i: i + 1]))
            except zlib.error:
                pass
            return self._broken(first, data, b"".join(good), str(exc))
        self.pending = self.decoder.unconsumed_tail
        return out

    def _new(self, data: bytes) -> Any:
        if self.coding == "br":
            return _brotli().Decompressor()
        if self.coding == "gzip":
            return zlib.decompressobj(31)
        # RFC 9110 §8.4.1.2: deflate is the zlib format; a raw deflate stream
        # has no zlib header (CMF 8, and CMF·256+FLG a multiple of 31)
        zlib_header = len(data) >= 2 and data[0] & 0x0F == 8 and (data[0] << 8 | data[1]) % 31 == 0
        return zlib.decompressobj(15 if zlib_header else -15)

    def _broken(self, first: bool, data: bytes, good: bytes, reason: str) -> bytes:
        if first and not good:
            self.plain = True  # not in its coding from its first byte: the label is wrong
            return bytes(data)
        return self._fail(reason, good)

    def _fail(self, reason: str, good: bytes) -> bytes:
        """``good`` is given, then the problem raised."""
        self.ended = True
        self.error = f"its {self.header} {self.coding} could not be undone: {reason}"
        return bytes(good)


class _Payload(io.RawIOBase):
    """A record's decoded payload that ends, instead of raising, where it
    cannot be decoded (a broken chunk, a corrupt gzip body): the problem is
    kept for the reader to report, and what came before is scanned."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.problem: str | None = None
        self.done = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        if self.problem is not None and self.inner is None:
            return 0
        try:
            data = self.inner.read(len(buffer))
        except Exception as exc:  # noqa: BLE001 - whatever a broken body makes warcio or zlib raise
            reason = str(exc) if isinstance(exc, _Broken) else f"{type(exc).__name__}: {exc}"
            self.problem = (f"the payload could not be decoded past byte {self.done} ({_printable(reason)}); "
                            "what came before was scanned")
            self.inner = None
            return 0
        n = len(data)
        buffer[:n] = data
        self.done += n
        return n


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
    if isinstance(exc, _NoTarget):
        return text  # our own words
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

# RFC 8288 §3: Link = #link-value
#   link-value = "<" URI-Reference ">" *( OWS ";" OWS link-param )
#   link-param = token BWS [ "=" BWS ( token / quoted-string ) ]
# RFC 9110 §5.6.2 token; §5.6.4 quoted-string = DQUOTE *( qdtext / quoted-pair ) DQUOTE.
# Each pattern is anchored where the parser stands and has no nested
# repetition: one pass over the value, linear.
_LINK_TARGET = re.compile(r"<([^<>]*)>")
_OWS = re.compile(r"[ \t]*")
_TOKEN = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
_QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"', re.DOTALL)
_QUOTED_PAIR = re.compile(r"\\(.)", re.DOTALL)
# a value the grammar does not allow: skipped up to the next ";" or ","
_JUNK = re.compile(r'[^;,"]+|"(?:[^"\\]|\\.)*"?', re.DOTALL)


def link_values(value: str) -> Iterator[tuple[str, tuple[str, ...] | None]]:
    """The link-values of a ``Link`` header field (RFC 8288 §3): each target
    (whitespace removed, as in a folded header) and its ``rel`` tokens in
    lower case (None without one; a second ``rel`` is ignored, §3.3).  A
    comma inside a quoted parameter does not end a link-value."""
    at = 0
    end = len(value)
    while at < end:
        start = value.find("<", at)
        if start == -1:
            return
        m = _LINK_TARGET.match(value, start)
        if m is None:
            at = start + 1  # a "<" without its ">": not a link-value
            continue
        target = "".join(m.group(1).split())
        at = m.end()
        rel: tuple[str, ...] | None = None
        while True:
            at = _OWS.match(value, at).end()  # type: ignore[union-attr]
            if at >= end or value[at] != ";":
                break
            at = _OWS.match(value, at + 1).end()  # type: ignore[union-attr]
            name = _TOKEN.match(value, at)
            param = name.group().lower() if name else ""
            at = name.end() if name else at
            at = _OWS.match(value, at).end()  # type: ignore[union-attr]
            found: str | None = None
            if at < end and value[at] == "=":
                at = _OWS.match(value, at + 1).end()  # type: ignore[union-attr]
                quoted = _QUOTED.match(value, at)
                token = None if quoted else _TOKEN.match(value, at)
                if quoted:
                    found, at = _QUOTED_PAIR.sub(r"\1", quoted.group(1)), quoted.end()
                elif token:
                    found, at = token.group(), token.end()
            if param == "rel" and rel is None and found is not None:
                rel = tuple(found.lower().split())
            junk = _JUNK.match(value, at)
            while junk is not None and junk.end() > at:  # what does not fit, up to the next ";" or ","
                at = junk.end()
                junk = _JUNK.match(value, at)
        yield target, rel  # the next link-value starts at the next "<" (after a ",", or none left out)


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
            for target, rel in link_values(value):
                yield name, target, rel


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
