"""Where text stands in bytes as written (text output's
``file:line:column`` names the file's line): the places a reader looks up
in a message's or a WARC record's bytes, and the line of an offset of a
plain file.  Used by the mail and WARC readers alike; no reader's own."""

from __future__ import annotations

import re
from typing import BinaryIO


class Placing:
    """Places in ``raw`` (a message's data, a record's head), 1-based lines
    and columns, found in document order: :meth:`after` moves on past a
    body found, :meth:`header` looks from there."""

    def __init__(self, raw: bytes, shifted: frozenset[int] = frozenset()) -> None:
        self.raw = raw
        self.shifted = shifted  # lines (1-based) that stand one column further in the file (an mbox's ">From")
        self.cursor = 0
        self._counted = (0, 1)  # (an offset, the line it stands on): lines are counted forward from there

    def in_file(self, line: int, column: int) -> tuple[int, int]:
        """(``line``, ``column``) of ``raw`` as it stands in the file."""
        return line, column + 1 if line in self.shifted else column

    def line_at(self, offset: int) -> int:
        """The 1-based line of ``offset``."""
        at, line = self._counted
        if offset < at:
            at, line = 0, 1
        line += self.raw.count(b"\n", at, offset)
        self._counted = (offset, line)
        return line

    def column_at(self, offset: int) -> int:
        return offset - (self.raw.rfind(b"\n", 0, offset) + 1) + 1

    def after(self, body: bytes) -> int | None:
        """The line ``body`` (as it stands in the bytes) starts on, looked for
        past the last one found; None when it is not there."""
        if not body:
            return None
        at = self.raw.find(body, self.cursor)
        if at == -1:
            return None
        self.cursor = at + len(body)
        return self.line_at(at)

    def header(self, text: str, field: str | None) -> tuple[int, int] | None:
        """Where a header's reference ``text`` stands as written (past the
        last body found, within 64 KB), else the line of its ``field``; None
        when neither is found (a folded or encoded value's field is)."""
        window = self.raw[self.cursor:self.cursor + (1 << 16)]
        at = window.find(text.encode("utf-8", "surrogateescape"))
        if at == -1 and field is not None:
            m = re.search(rb"(?im)^" + re.escape(field.encode("ascii", "replace")) + rb"[ \t]*:", window)
            at = -1 if m is None else m.start()
        if at == -1:
            return None
        offset = self.cursor + at
        return self.in_file(self.line_at(offset), self.column_at(offset))


class FileLines:
    """The line of an offset of a plain file, counted forward from the last
    one asked (the file read once more in all, a megabyte at a time); the
    file's position is left where it was (its reader's)."""

    def __init__(self, file: BinaryIO) -> None:
        self.file = file
        self.at = 0
        self.line = 1

    def line_of(self, offset: int) -> int:
        if offset < self.at:
            self.at, self.line = 0, 1
        here = self.file.tell()
        try:
            self.file.seek(self.at)
            left = offset - self.at
            while left > 0:
                chunk = self.file.read(min(left, 1 << 20))
                if not chunk:
                    break
                self.line += chunk.count(b"\n")
                left -= len(chunk)
        finally:
            self.file.seek(here)
        self.at = offset
        return self.line

    def read(self, start: int, end: int) -> bytes:
        """The file's bytes ``[start, end)``, its position left where it was."""
        here = self.file.tell()
        try:
            self.file.seek(start)
            return self.file.read(max(0, end - start))
        finally:
            self.file.seek(here)


__all__ = ["FileLines", "Placing"]
