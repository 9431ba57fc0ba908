"""Where records start (gzip members, ``WARC/`` headers, ARC header lines):
to go on after a broken record, in a file or on a pipe, and to cut a large
file for parallel work.  One finder, :func:`record_start`, serves both.

Every version the reader accepts is a record start: WARC/1.0 and 1.1 (ISO
28500), WARC/0.17 and 0.18 (the drafts Heritrix wrote), and ARC's record
header line (URL, IP address, 14-digit date, media type, then in version 2
a status, checksum, location, offset and file name, and last the length of
what follows), whether plain or the head of a gzip member."""

from __future__ import annotations

import io
import zlib
from typing import BinaryIO

from ...stages.streams import first_cut
from ...uri import patterns

#: the WARC versions warcio reads (its ArcWarcRecordLoader.WARC_TYPES)
_VERSION = rb"WARC/(?:1\.[01]|0\.1[78])\r?\n"
# an ARC record's header line: a URL (with a scheme: filedesc://, http:, dns: ...), an IP
# address, the 14-digit date, the media type, up to five fields more (version 2), the length
_ARC_LINE = rb"[A-Za-z][A-Za-z0-9+.-]{0,30}:[^ \r\n]{1,8192} [0-9A-Fa-f.:-]{1,64} [0-9]{14} [^ \r\n]{1,256}" \
    rb"(?: [^ \r\n]{1,1024}){0,5} [0-9]{1,20}\r?\n"
# a record starts here: a gzip member, or a WARC/ARC header line
_RESYNC = patterns.compile(rb"\x1f\x8b\x08|(?:^|\n)(?:" + _VERSION + rb"|" + _ARC_LINE + rb")")
#: the longest head a record start is told by (an ARC line, a WARC line and its first fields)
_LONGEST = 12288
# the head of a record, where one is known to start (a gzip member's data inflated, or the
# bytes after a record whose blank lines are missing)
_HEAD = patterns.compile(_VERSION + rb"|" + _ARC_LINE)


def record_start(f: BinaryIO, near: int, size: int) -> int | None:
    """The offset of the first record that starts at or after ``near`` in a
    WARC or ARC file (a gzip member a record, or plain): a gzip member whose
    data begins with a record's head, a ``WARC/`` version line followed by a
    ``WARC-`` header at the start of a line after a blank one, or an ARC
    record's header line at the start of a line.  None when there is none."""

    def find(window: bytes, base: int) -> tuple[int | None, int]:
        for m in _RESYNC.finditer(window):
            at = m.start() if window[m.start()] != 0x0A else m.start() + 1
            if _record_at(window, at, f, base + at):
                return at, 0
        return None, max(0, len(window) - _LONGEST)  # a head the window cut is looked at again

    return first_cut(f, near, size, find)


def _record_at(window: bytes, at: int, f: BinaryIO, offset: int) -> bool:
    if window.startswith(b"\x1f\x8b", at):
        f_position = f.tell()
        f.seek(offset)
        head = f.read(1 << 14)
        f.seek(f_position)
        try:
            data = zlib.decompressobj(31).decompress(head, _LONGEST)  # (an ARC line, whole)
        except zlib.error:
            return False
        return _HEAD.match(data) is not None
    if window.startswith(b"WARC/", at):
        # a plain WARC record: its version line after a blank line, then a named WARC header
        after_blank = at == 0 or window[max(0, at - 4):at] == b"\r\n\r\n" or window[max(0, at - 2):at] == b"\n\n"
        return after_blank and _PLAIN_RECORD.match(window, at, at + 4096) is not None
    # an ARC record: its header line (at a line's start: ARC puts one line break or none
    # between records), whole in the window
    # (at 0, the window's first byte: the one before it is the file's)
    line_start = window[at - 1] == 0x0A if at > 0 else offset == 0 or _byte_before(f, offset) == b"\n"
    return line_start and _ARC_RECORD.match(window, at, at + _LONGEST) is not None


def _byte_before(f: BinaryIO, offset: int) -> bytes:
    here = f.tell()
    f.seek(offset - 1)
    byte = f.read(1)
    f.seek(here)
    return byte


# a WARC header line, then (within its first twenty fields) a WARC- named one
_PLAIN_RECORD = patterns.compile(_VERSION + rb"(?:[A-Za-z-]{1,64}:[^\n]{0,4096}\n){0,20}?WARC-")
_ARC_RECORD = patterns.compile(_ARC_LINE)


_CONTENT_LENGTH = patterns.compile(rb"(?im)^Content-Length:[ \t]*([0-9]{1,20})[ \t]*\r?$")


def block_end(f: BinaryIO, offset: int) -> int | None:
    """Where the block of the plain record at ``offset`` ends, by its own head: a WARC
    record's header ends at its blank line, and its Content-Length more bytes follow; an
    ARC record's header line ends at its line break, and the length it ends with follows
    (None: no such head there)."""
    try:
        here = f.tell()
        f.seek(offset)
        head = f.read(1 << 16)
        f.seek(here)
    except (OSError, ValueError):
        return None
    if head.startswith(b"WARC/"):
        ends = [at + len(mark) for mark in (b"\r\n\r\n", b"\n\n") if (at := head.find(mark)) >= 0]
        if not ends:
            return None
        length = _CONTENT_LENGTH.search(head, 0, min(ends))
        return None if length is None else offset + min(ends) + int(length.group(1))
    line = _ARC_RECORD.match(head)
    if line is None:
        return None
    return offset + line.end() + int(line.group().split()[-1])


def record_here(f: BinaryIO, offset: int) -> bool:
    """Whether a record's head (a version line, an ARC header line, a gzip member) is at
    ``offset``: where the record before ends without the blank lines after it."""
    try:
        here = f.tell()
        f.seek(offset)
        head = f.read(_LONGEST)
        f.seek(here)
    except (OSError, ValueError):
        return False
    return head.startswith(b"\x1f\x8b") or _HEAD.match(head) is not None


class Growing:
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


#: how many of the last bytes read a forward-only stream (a pipe) keeps, to
#: seek back in for the next record after a broken one (the finder reads a
#: megabyte at a time, and warcio reads ahead of the record it parses)
_HISTORY = 1 << 23


class Rewind(io.RawIOBase):
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


def end_of(stream: BinaryIO) -> int | None:
    """The size of a file: where a Content-Length may reach."""
    try:
        here = stream.tell()
        end = stream.seek(0, io.SEEK_END)
        stream.seek(here)
        return end
    except (OSError, ValueError):
        return None


def seekable(stream: BinaryIO) -> bool:
    try:
        return bool(stream.seekable())
    except (OSError, ValueError):
        return False


def rewound(file: BinaryIO) -> bool:
    """Whether the file could be sought back to its start."""
    try:
        file.seek(0)
    except (OSError, ValueError):
        return False
    return True


def plain_at(file: BinaryIO, offset: int) -> bool | None:
    """Whether the record at ``offset`` is plain (False: a gzip member; None: unknown)."""
    try:
        here = file.tell()
        file.seek(offset)
        magic = file.read(2)
        file.seek(here)
    except (OSError, ValueError):
        return None
    return magic != b"\x1f\x8b"


def member_cut_short(stream: BinaryIO, offset: int) -> bool:
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
