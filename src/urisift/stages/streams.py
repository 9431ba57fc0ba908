"""Byte streams that the readers and the planner share: a stream whose first
bytes were read to sniff it, replayed (a WARC record's payload, an input whose
kind was told), and the first place at or after an offset where a file may be
cut (an mbox envelope line, a WARC record's start), looked for a window at a
time so that no search holds the file."""

from __future__ import annotations

import contextlib
import io
from collections.abc import Callable
from typing import BinaryIO, cast

#: what a search for a cut finds in a window of the file: the cut's offset in
#: the window (or None), and where in the window to keep reading from
Finder = Callable[[bytes, int], tuple[int | None, int]]


class Replay(io.RawIOBase):
    """A stream whose first bytes were already read (to sniff them): they are
    read again first, then the rest of the stream."""

    def __init__(self, head: bytes, rest: BinaryIO, live: bool = False, *, from_start: bool = False) -> None:
        self._head = head
        self._rest = rest
        # ``from_start``: the head was read from ``rest``'s first byte, and ``rest`` replays a file of its own
        # (a small document's replay of an input's): the file is what ``rest`` rewinds to
        self._through = from_start
        # a pipe or terminal: one read gives what has arrived, not a full buffer
        self._read = getattr(rest, "read1", rest.read) if live else rest.read
        self._from_start = False  # the head is the first bytes of a stream that can seek (a file)
        if not live:
            with contextlib.suppress(OSError, AttributeError, ValueError):
                self._from_start = rest.seekable() and rest.tell() == len(head)

    def rewound(self) -> BinaryIO | None:
        """The stream replayed, seeked back to its first byte, when it can seek (a file): for a reader
        that seeks in a file too large to hold (a PST), and reads it from there itself, not through this
        replay (which is done with); None when it cannot (a pipe, a decompressed stream)."""
        if self.closed or not (self._from_start or self._through):
            return None
        if self._from_start:
            self._rest.seek(0)
            self._head = b""
            return self._rest
        file = replayed_file(self._rest)
        if file is not None:
            self._head = b""
        return file

    def readable(self) -> bool:
        return True

    def close(self) -> None:
        if not self.closed:
            self._rest.close()
        super().close()

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        if self._head:
            n = min(len(buffer), len(self._head))
            buffer[:n] = self._head[:n]
            self._head = self._head[n:]
            return n
        data = self._read(len(buffer))
        n = len(data)
        buffer[:n] = data
        return n


def replayed_file(stream: object) -> BinaryIO | None:
    """The file ``stream`` replays from its first byte (an input's own, opened by the pipeline), rewound
    to that byte, looked for through the buffers and the meter that show it whole (never through a
    stream of a part of another: a WARC record's payload, an archive's member): for a reader that seeks
    in a file larger than may be held (a ZIP's directory is at its end, a PST's nodes anywhere).  None
    when there is none (a pipe, decompressed bytes, a member, a payload)."""
    while isinstance(stream, io.BufferedReader):
        stream = stream.raw
    rewound = getattr(stream, "rewound", None)
    return cast(BinaryIO | None, rewound()) if rewound is not None else None


def first_cut(f: BinaryIO, near: int, size: int, find: Finder) -> int | None:
    """The offset of the first place at or after ``near`` where ``find``
    says a file may be cut (an mbox envelope line, a WARC record's start),
    read a megabyte at a time; None when there is none.  ``find(window,
    offset)`` gets the bytes and their offset in the file."""
    position = near
    f.seek(near)
    carry = b""
    while position < size:
        chunk = f.read(1 << 20)
        if not chunk:
            return None
        window = carry + chunk
        base = position - len(carry)
        at, keep = find(window, base)
        if at is not None:
            return base + at
        carry = window[keep:]
        position += len(chunk)
    return None
