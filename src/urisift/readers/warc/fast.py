"""The fast path: the clean records of a WARC file read by
FastWARC, and warcio from the first record that is not clean.

Why both.  FastWARC (Rust) iterates and inflates a WARC two to four times
as fast as warcio (bench/bench_warc_readers.py, every payload read): the
520 pages, 0.085 s of CPU against 0.178 s; 60,000 small records of the
Common Crawl shape, 0.32 s against 1.45 s.  But what this
reader says of a broken record (its defect, its offset, where it resumes,
what is still read of it) is warcio's reading, which the tests hold, and
FastWARC reads broken records by rules of its own: it reads a
Content-Length too long into the next gzip member, takes a record with no
blank line after it, skips junk lines warcio stops at, trims other
characters from header values.  So FastWARC reads only what warcio would
read the same way, and hands the rest over (:class:`Handover`).

Where: a seekable file of gzip members or plain records, whose first
record is ``WARC/1.0`` or ``WARC/1.1``, read where it is (a file
descriptor, or bytes in memory), with fastwarc importable.  ARC, a pipe,
one gzip stream around the whole file: warcio, as before.

A record is given only once FastWARC has read the record after it, and
only when each of these holds (anything else hands over at its start):

- its WARC header is the fields FastWARC parsed, each written ``Name:
  value`` CRLF in printable ASCII after ``WARC/1.0`` or ``WARC/1.1``,
  byte for byte (in a .warc.gz, its member's head inflated): warcio's
  parser reads those bytes as those fields;
- its Content-Length is digits (ISO 28500 §5.3), FastWARC's length too;
- it ends where the next starts: in a plain file, its block, CRLF CRLF,
  then the next record; in a .warc.gz, its member holds its header, block
  and four bytes (the gzip trailer's ISIZE, RFC 1952 §2.3.1), and FastWARC
  found no fault in the member (it checks the CRC);
- a unit's block read whole (up to :data:`HELD` bytes) and its HTTP header
  parsed from it by warcio's parser (:func:`~.parsing.http_parser`).

The last record is given only when the file ends with it, whole (a plain
file: CRLF CRLF, then nothing; a .warc.gz: its member inflates to its end,
then nothing); else it is warcio's to judge.  At a hand-over the warcio loop
starts at the record with the state it would have had there (the record
before it, whose payload's problem is not said yet), so the output is the
warcio-only reader's, byte for byte (tests/test_warc_fast_path.py)."""

from __future__ import annotations

import functools
import io
import os
import zlib
from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, BinaryIO

from ...model import Defect, DefectKind, Kind
from ...stages.media import kind_of
from ...uri import patterns
from .making import Fields, State, named, placed, unit_of
from .parsing import http_header
from .unit import UNIT_TYPES, WarcUnit, media_type

if TYPE_CHECKING:
    from .reader import WarcReader

#: the most of a unit's block held in memory while the record after it is read (a larger one is warcio's)
HELD = 32 << 20
#: what of a block is read for its HTTP header when its payload is not wanted (a longer header is warcio's)
HEADER_READ = 1 << 20

# a WARC header as written from its fields: warcio reads these bytes as those fields
# (a line of printable ASCII, no field folded, no blank line but the last)
_WRITTEN = patterns.compile(rb"WARC/1\.[01]\r\n(?:[ -9;-~]*: [ -~]*\r\n)*\r\n")
_DIGITS = patterns.compile(r"[0-9]{1,30}")
# warcio's ArcWarcRecordLoader.HTTP_RECORDS and HTTP_SCHEMES: the records whose HTTP header it parses
_HTTP_RECORDS = ("response", "request", "revisit")
_HTTP_SCHEMES = ("http:", "https:")


@functools.cache
def _archive_iterator() -> Any:
    try:
        from fastwarc.warc import ArchiveIterator
    except ImportError:  # a dependency; without it (a platform with no wheel), warcio reads every record
        return None
    return ArchiveIterator


@dataclass(frozen=True)
class Handover:
    """Where the warcio loop goes on, and with what it would have had there."""

    offset: int | None  # the start of the first record not given; None: every record was
    floor: int  # a search for a record start begins here at least
    state: State


def applies(file: BinaryIO, head: bytes) -> bool:
    """Whether the fast path may read ``file``, whose first bytes are ``head``."""
    if _archive_iterator() is None or _peeker(file) is None:
        return False
    if head.startswith(b"\x1f\x8b"):
        try:
            head = zlib.decompressobj(31).decompress(head, 16)
        except zlib.error:
            return False
    return head.startswith((b"WARC/1.0\r\n", b"WARC/1.1\r\n"))


def _peeker(file: BinaryIO) -> Callable[[int, int], bytes] | None:
    """A function giving the file's bytes at an offset without moving the
    position FastWARC reads on; None where that costs more than a read."""
    try:
        descriptor = file.fileno()
        os.pread(descriptor, 1, 0)
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        if not isinstance(file, io.BytesIO):
            return None  # (a remote file: each seek there drops its buffer, each read past it a request)

        def peek(offset: int, size: int) -> bytes:
            here = file.tell()
            file.seek(offset)
            data = file.read(size)
            file.seek(here)
            return data

        return peek
    return lambda offset, size: os.pread(descriptor, size, offset)


class _Record:
    """A record FastWARC read, in the shape of warcio's ``ArcWarcRecord``."""

    __slots__ = ("rec_type", "rec_headers", "http_headers", "raw_stream")

    def __init__(self, rec_type: str | None, rec_headers: Fields, http_headers: Any, raw_stream: Any) -> None:
        self.rec_type = rec_type
        self.rec_headers = rec_headers
        self.http_headers = http_headers
        self.raw_stream = raw_stream


class _Read:
    """A record read, not given yet."""

    __slots__ = ("offset", "record", "block", "size")

    def __init__(self, offset: int, record: _Record, block: int, size: int) -> None:
        self.offset = offset
        self.record = record
        self.block = block  # where its block starts, from its offset (its header's length)
        self.size = size  # its length: header, block, and the four bytes after them


def read(reader: WarcReader, file: BinaryIO, head: bytes) -> Generator[WarcUnit | Defect, None, Handover]:
    """The units of ``file`` as far as its records are clean (see the
    module's docstring), and where the warcio loop goes on."""
    return _Pass(reader, file, head.startswith(b"\x1f\x8b")).run()


class _Pass:
    def __init__(self, reader: WarcReader, file: BinaryIO, gzipped: bool) -> None:
        self.reader = reader
        self.file = file
        self.gzipped = gzipped
        peek = _peeker(file)
        assert peek is not None  # (applies() said so)
        self.peek = peek
        self.state = State()
        self.floor = 0

    def run(self) -> Generator[WarcUnit | Defect, None, Handover]:
        base = self.file.tell()
        records = iter(_archive_iterator()(self.file, parse_http=False))
        pending: _Read | None = None
        while True:
            try:
                record = next(records, None)
            except Exception:  # noqa: BLE001 - FastWARC's error on what it cannot read: warcio says what is wrong
                break
            if record is None:
                if pending is not None and self._ends_the_file(pending):
                    yield from self._give(pending)
                    return Handover(None, self.floor, self.state)
                break
            offset = record.stream_pos
            if pending is not None:
                if not self._ends_at(pending, offset):
                    break
                yield from self._give(pending)
            try:
                pending = self._take(record, offset)
            except Exception:  # noqa: BLE001 - what FastWARC raises on a block it cannot read
                pending = None
            if pending is None:
                return Handover(offset, self.floor, self.state)
        return Handover(base if pending is None else pending.offset, self.floor, self.state)

    def _give(self, done: _Read) -> Generator[WarcUnit | Defect, None, None]:
        """The unit of a record found clean, after what is to be said of the
        one before it (warcio's reader says it once it has read this one)."""
        state = self.state
        payload, state.payload = state.payload, None
        if payload is not None and payload.problem is not None and state.last is not None:
            yield Defect(DefectKind.BROKEN_WARC, f"{named(*state.last)}: {payload.problem}", self.reader.origin,
                         state.last[0])
        state.last = (done.offset, done.record)
        self.floor = done.offset + 1
        reader = self.reader
        reader.types[done.record.rec_type or "unknown"] += 1
        reader.decompressed += done.size
        reader.fast_records += 1
        unit = unit_of(done.record, done.offset, state)
        if unit is not None and reader.lines is not None and not self.gzipped:
            unit = placed(unit, done.record, done.offset, reader.lines)
        if unit is not None:
            yield unit

    def _ends_at(self, done: _Read, offset: int) -> bool:
        """Whether the record ``done`` ends where the next one, at ``offset``, starts."""
        if self.gzipped:  # (in one gzip stream around many records, the stream's ISIZE is all of them)
            isize = int.from_bytes(self.peek(offset - 4, 4), "little")
            return isize == done.size & 0xFFFFFFFF
        # (FastWARC 2 takes only blank lines there, as warcio does; this does not lean on it)
        trailer = self.peek(done.offset + done.size - 4, 4)
        return offset == done.offset + done.size and trailer == b"\r\n\r\n"

    def _ends_the_file(self, done: _Read) -> bool:
        """Whether the file ends with the record ``done``, whole: in a
        .warc.gz, its member inflated to its end (FastWARC reads a member cut
        short in its trailer as if it were whole) and nothing after it."""
        if not self.gzipped:
            return self.peek(done.offset + done.size - 4, 5) == b"\r\n\r\n"
        inflater = zlib.decompressobj(31)
        at, size = done.offset, 0
        while not inflater.eof:
            data = self.peek(at, 1 << 20)
            if not data:
                return False
            at += len(data)
            try:
                size += len(inflater.decompress(data))
            except zlib.error:
                return False
        return size == done.size and not inflater.unused_data and not self.peek(at, 1)

    def _take(self, record: Any, offset: int) -> _Read | None:
        """The record FastWARC has just read at ``offset``, if it is clean so far."""
        headers = record.headers
        pairs = headers.items()
        try:
            written = (f"{headers.status_line}\r\n" + "".join([f"{k}: {v}\r\n" for k, v in pairs])
                       + "\r\n").encode("ascii")
        except UnicodeEncodeError:
            return None
        if _WRITTEN.fullmatch(written) is None or self._head(offset, len(written)) != written:
            return None
        first: dict[str, str] = {}
        for name, value in pairs:
            key = name.lower()
            if key not in first:
                first[key] = value
            elif key == "warc-target-uri":
                return None  # (warcio mends the last one, and then reads the first)
        length = first.get("content-length")
        # (FastWARC 2 reads the first Content-Length, as warcio does; this does not lean on it)
        if length is None or _DIGITS.fullmatch(length) is None or int(length) != record.content_length:
            return None
        block = int(length)
        rec_type = first.get("warc-type")
        uri = first.get("warc-target-uri")
        if uri is not None:
            # warcio's _ensure_target_uri_format: Wget 1.19's brackets, spaces
            uri = uri[1:-1] if uri.startswith("<") and uri.endswith(">") else uri
            if " " in uri:
                uri = uri.replace(" ", "%20")
            first["warc-target-uri"] = uri
        if uri is None and block and rec_type in _HTTP_RECORDS:
            return None  # (warcio's reader says it lacks one: parsing.NoTarget)
        fields = Fields(pairs, headers.status_line, len(written), first)
        done = _Read(offset, _Record(rec_type, fields, None, None), len(written), len(written) + block + 4)
        if (rec_type or "unknown") not in UNIT_TYPES:
            return done
        return self._block(record, done, rec_type in ("response", "revisit") and uri is not None
                           and uri.startswith(_HTTP_SCHEMES) and block != 0)

    def _block(self, record: Any, done: _Read, http: bool) -> _Read | None:
        """``done`` with its HTTP header and, when the unit reads it, its block."""
        block = done.size - done.block - 4
        data = _exactly(record.reader, min(block, HEADER_READ) if http else 0)
        if data is None:
            return None
        headers, where = None, 0
        if http:
            try:
                headers, where = http_header(data)
            except EOFError:  # (an empty revisit: no HTTP header, warcio says nothing of it)
                if done.record.rec_type != "revisit":
                    return None
            if where == len(data) < block:
                return None  # (the header may go on past what was read)
        content_type = (headers.get_header("Content-Type") if headers is not None and done.record.rec_type != "resource"
                        else done.record.rec_headers.get_header("Content-Type"))
        media = media_type(content_type)[0]
        if media is None or kind_of(media) not in (None, Kind.IMAGE):  # the unit reads its payload (not an image's)
            if block > HELD:
                return None
            rest = _exactly(record.reader, block - len(data))
            if rest is None:
                return None
            done.record.raw_stream = io.BytesIO(data + rest)
            done.record.raw_stream.seek(where)
        done.record.http_headers = headers
        return done

    def _head(self, offset: int, size: int) -> bytes:
        """The first ``size`` bytes of the record at ``offset``, as written
        (in a .warc.gz, its member's head inflated)."""
        if not self.gzipped:
            return bytes(self.peek(offset, size))
        inflater = zlib.decompressobj(31)
        got: list[bytes] = []
        want, step = size, size + 512
        while want > 0 and step <= 1 << 22 and not inflater.eof:
            data = self.peek(offset, step)
            if not data:
                break
            offset += len(data)
            step *= 2
            try:
                out = inflater.decompress(data, want)
            except zlib.error:
                break
            got.append(out)
            want -= len(out)
        return b"".join(got)


def _exactly(stream: Any, size: int) -> bytes | None:
    """``size`` bytes of ``stream``, None when it ends before them."""
    parts = []
    while size > 0:
        data = stream.read(min(size, 1 << 20))
        if not data:
            return None
        parts.append(data)
        size -= len(data)
    return b"".join(parts)
