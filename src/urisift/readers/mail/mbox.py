"""Splitting an mbox archive into messages, as a stream (RFC 4155; the mboxo,
mboxrd and mboxcl2 varieties).

A message starts at a line that begins ``From `` and looks like an envelope
line (a sender, then a date that starts with a weekday or a day of the
month), at the start of the archive or anywhere after it.  Body lines that
once began ``From `` were escaped by the writer: ``>From `` in mboxo and
mboxrd, ``>>From `` for one that was already quoted in mboxrd.  One ``>`` is
taken off each such line (the mboxrd rule, which also undoes mboxo's
escaping).  In mboxcl2 nothing is escaped and ``Content-Length`` gives the
body's length: when a message says so, and a valid envelope line (or the end
of the archive) stands where its body ends, ``From `` lines inside the body
are passed over.

The archive is read in chunks and each message is handed on as soon as its
end is seen: memory holds one message and one chunk, whatever the archive's
size.  The blank line before an envelope line belongs to the separator, not
to the message.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import BinaryIO, NamedTuple

from ...uri import patterns

CHUNK_SIZE = 1 << 20
# "From " sender, then a date: "Thu Jan  1 00:00:00 1970", "Mon, 3 Mar 2003 ...", "3 Mar 2003 ..."
_ENVELOPE = patterns.compile(
    rb"From \S{0,400}[ \t]+(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)\b|\d{1,2}[ \t-]+[A-Za-z]{3}\b)")
_ENVELOPE_SPAN = 1 << 16
# most headings end within this: their blank line is looked for here first
_HEADING_WINDOW = 1 << 14
_ESCAPED_FROM = patterns.compile(rb"^>(>*From )", re.MULTILINE)
_CONTENT_LENGTH = patterns.compile(rb"^Content-Length:[ \t]*(\d{1,12})[ \t]*\r?$", re.MULTILINE | re.IGNORECASE)


class MboxMessage(NamedTuple):
    """One message of an archive: its number (0-based), the byte offset of its
    envelope line in the (decompressed) archive, the envelope line, and the
    message's bytes with the ``>From`` escaping undone."""

    message: int
    offset: int
    envelope: bytes
    data: bytes
    # the line (1-based, in the stream) of the message's first line after its envelope
    line: int = 1
    # the lines of ``data`` (1-based) that lost a ">" to the unescaping: one column more in the file
    escaped: frozenset[int] = frozenset()


def is_envelope(line: bytes | bytearray) -> bool:
    """Whether ``line`` (without its line end) is an mbox envelope line."""
    return _ENVELOPE.match(line) is not None


def _escaped_lines(data: bytes) -> frozenset[int]:
    """The lines (1-based) of ``data`` as stored that :func:`_unescaped` takes a ">" from."""
    if b">From " not in data:
        return frozenset()
    return frozenset(data.count(b"\n", 0, m.start()) + 1 for m in _ESCAPED_FROM.finditer(data))


def _unescaped(data: bytes) -> bytes:
    return _ESCAPED_FROM.sub(rb"\1", data) if b">From " in data else data


def _trimmed(data: bytes | bytearray, followed: bool, start: int = 0, stop: int | None = None) -> int:
    """Where the message in ``data[start:stop]`` ends without the blank line
    that separates it from the next (the last message of an archive has one
    only if it ends in a blank line): found in place, so the message is
    copied out once."""
    stop = len(data) if stop is None else stop
    if not followed and not data.endswith((b"\n\n", b"\r\n\r\n"), start, stop):
        return stop
    if data.endswith(b"\r\n", start, stop):
        return stop - 2
    if data.endswith(b"\n", start, stop):
        return stop - 1
    return stop


def _header_end(buffer: bytearray, start: int, limit: int) -> tuple[int, int] | None:
    """Where the header block that starts at ``start`` ends (a blank line
    within ``buffer[start:limit]``), and its body starts."""
    lf = buffer.find(b"\n\n", start, limit)
    crlf = buffer.find(b"\n\r\n", start, limit if lf == -1 else lf)  # only before the LF one
    if crlf != -1 and (lf == -1 or crlf < lf):
        return crlf, crlf + 3
    return (lf, lf + 2) if lf != -1 else None


class _Splitter:
    def __init__(self, stream: BinaryIO, chunk_size: int) -> None:
        self.stream = stream
        self.chunk_size = chunk_size
        # a bytearray grows in place: appending a chunk to bytes copied the
        # whole buffer each time (an 80 MB message took 5 s, 25 times 20 MB's)
        self.buffer = bytearray()
        self.consumed = 0  # archive offset of buffer[0]
        self.eof = False
        self.newlines = 0  # line breaks in the stream before buffer[self.counted]
        self.counted = 0

    def line_of(self, pos: int) -> int:
        """The 1-based line of the stream that buffer position ``pos`` (past the last asked) stands on."""
        self.newlines += self.buffer.count(b"\n", self.counted, pos)
        self.counted = pos
        return self.newlines + 1

    def more(self) -> bool:
        """Read another chunk into the buffer; False at the end of the archive."""
        if self.eof:
            return False
        chunk = self.stream.read(self.chunk_size)
        if not chunk:
            self.eof = True
            return False
        self.buffer += chunk
        return True

    def envelope_at(self, pos: int) -> bool | None:
        """Whether an envelope line starts at ``pos`` of the buffer (None: the
        buffer ends before the line does, read more)."""
        end = self.buffer.find(b"\n", pos)
        if end == -1 and not self.eof and len(self.buffer) - pos < 1024:
            return None
        # an envelope line is short: a long line is looked at no further than this
        stop = min(len(self.buffer) if end == -1 else end, pos + _ENVELOPE_SPAN)
        return is_envelope(self.buffer[pos:stop].rstrip(b"\r"))

    def next_start(self, start: int) -> int | None:
        """The buffer position of the next envelope line after ``start`` (the
        start of the current one), reading more as needed; None at the end."""
        search = start + 1
        while True:
            at = self.buffer.find(b"\nFrom ", search)
            if at == -1:
                search = max(start + 1, len(self.buffer) - 5)
                if not self.more():
                    return None
                continue
            verdict = self.envelope_at(at + 1)
            if verdict is None:
                if not self.more():
                    verdict = self.envelope_at(at + 1)
                continue
            if verdict:
                return at + 1
            search = at + 1

    def header_block(self, start: int) -> tuple[int, int] | None:
        """Where the header block of the message at ``start`` ends and its
        body starts; None when no blank line ends it before the next line
        that begins ``From `` (or the end).  The search stops there -- a
        message without a blank line must not send it through the rest of the
        archive, once a message (quadratic: 20,000 such took 56 s) -- and goes
        on from where it was as more is read."""
        buffer = self.buffer
        found = _header_end(buffer, start, min(len(buffer), start + _HEADING_WINDOW))
        if found is not None:  # the common case: a short heading, looked at once
            return found if buffer.find(b"\nFrom ", start, found[0] + 1) == -1 else None
        searched = start
        while True:
            buffer = self.buffer
            stop = buffer.find(b"\nFrom ", searched)
            found = _header_end(buffer, searched, len(buffer) if stop == -1 else stop + 1)
            if found is not None or stop != -1:
                return found
            searched = max(start, len(buffer) - 5)  # a pattern may straddle the chunk read next
            if not self.more():
                return None

    def body_end_by_length(self, start: int) -> int | None:
        """Where the current message ends by its Content-Length (mboxcl2), when
        it has one and a valid envelope (or the end) stands there."""
        header_end = self.header_block(start)
        if header_end is None:
            return None
        head_stop, body_start = header_end
        # literal screens first: a regex over every header block cost more than the split
        if self.buffer.find(b"ength:", start, head_stop) == -1 and self.buffer.find(b"ENGTH:", start, head_stop) == -1:
            return None
        length = _CONTENT_LENGTH.search(self.buffer, start, head_stop + 1)
        if length is None:
            return None
        end = body_start + int(length.group(1))
        while len(self.buffer) < end + 1024 and self.more():
            pass
        if end > len(self.buffer):
            return None
        for skip in (b"\r\n", b"\n", b""):  # the separating blank line, if any
            if self.buffer.startswith(skip, end):
                at = end + len(skip)
                if at >= len(self.buffer) and self.eof:
                    return at
                if self.buffer.startswith(b"From ", at) and self.envelope_at(at):
                    return at
        return None


def split_mbox(stream: BinaryIO, *, chunk_size: int = CHUNK_SIZE, followed: bool = False,
               lines: list[int] | None = None) -> Iterator[MboxMessage]:
    """The messages of an mbox archive, in order (see the module doc).  Bytes
    before the first envelope line, if any, are a message of their own with
    an empty envelope: nothing is lost.  ``followed`` says the stream is a
    range of a larger archive that goes on after it (its last message is
    trimmed as one followed by another).  ``lines``: its one item is set to
    the line breaks of the whole stream once it is read (a range's lines,
    for the ranges after it)."""
    s = _Splitter(stream, chunk_size)
    s.more()
    if not s.buffer:
        if lines is not None:
            lines[:] = [0]
        return
    index = 0
    start = 0
    opening = s.envelope_at(0)
    while opening is None:  # a first line longer than the chunk read so far
        if not s.more():
            s.eof = True
        opening = s.envelope_at(0)
    if not (s.buffer.startswith(b"From ") and opening):
        first = s.next_start(0) if s.buffer else None
        preamble = bytes(s.buffer if first is None else s.buffer[:first])
        if preamble.strip():
            yield MboxMessage(index, 0, b"", _unescaped(preamble[:_trimmed(preamble, True)]))
            index += 1
        if first is None:
            while s.more():  # (its line breaks counted to the end)
                pass
            if lines is not None:
                lines[:] = [s.line_of(len(s.buffer)) - 1]
            return
        start = first
    while True:
        end = s.next_start(start)
        # mboxcl2: a Content-Length may end the message past that envelope line;
        # a message with no "ength:" in it (the heading's screen) has none
        stop = len(s.buffer) if end is None else end
        if s.buffer.find(b"ength:", start, stop) != -1 or s.buffer.find(b"ENGTH:", start, stop) != -1:
            by_length = s.body_end_by_length(start)
            if by_length is not None:
                end = stop = by_length
        line_end = s.buffer.find(b"\n", start, stop)
        body_stop = stop if line_end == -1 else _trimmed(s.buffer, end is not None or followed, line_end + 1, stop)
        with memoryview(s.buffer) as view:  # one copy of the message, released before the buffer grows
            envelope = bytes(view[start:stop if line_end == -1 else line_end])
            data = b"" if line_end == -1 else bytes(view[line_end + 1 : body_stop])
        yield MboxMessage(index, s.consumed + start, envelope.rstrip(b"\r"), _unescaped(data), s.line_of(start) + 1,
                          _escaped_lines(data))
        index += 1
        if end is None or end >= len(s.buffer) and not s.more():
            if lines is not None:
                lines[:] = [s.line_of(len(s.buffer)) - 1]
            return  # (a Content-Length that ends at the end of the archive: no empty message after it)
        start = end
        if start > s.chunk_size:
            # drop what is done, now and then rather than after each message
            # (a copy of the buffer each time cost more than the splitting)
            s.line_of(start)
            s.consumed += start
            del s.buffer[:start]
            s.counted = 0
            start = 0
