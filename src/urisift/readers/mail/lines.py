"""Where a message's text stands in its bytes: text output's
``file:line:column`` names the file's line, not a line of the part.

The email package keeps no positions, but a leaf part's payload is kept as
it stood between its heading and the next boundary: found in the message's
bytes (in document order, from where the last part ended), it tells the
line its text starts on.  Then:

- an identity part (``7bit``, ``8bit``, ``binary``, none): a line of its text
  is a line of the file, and so is a column;
- quoted-printable (RFC 2045 §6.7): a line of its text may be several lines
  of the file, joined where a line ends in ``=`` (a soft line break); the
  column is the file's, past the escapes before it (``=3D`` is three);
- ``format=flowed`` (RFC 3676): a line of the rejoined text may be several
  lines of the part, joined where a line ends in a space; its quote markers
  and stuffing stand on each of them.

A part whose text does not stand in the message as written (base64, a file
uuencoded in a part) has no place here, and is named by its part path.  A
heading's reference is found as written in the heading, else the line of
its field (:class:`urisift.stages.placing.Placing`).  Positions count in the
message's data (its first line 1); the message's own first line in the file
is its origin's ``line``.
"""

from __future__ import annotations

import bisect
import codecs
import quopri
from collections.abc import Callable
from typing import NamedTuple

from ...uri import patterns

#: where a (line, column) of a part's text stands in the message: (line, column), 1-based
Place = Callable[[int, int], tuple[int, int]]


class Segment(NamedTuple):
    """A stretch of one line of text that stands on one line of its source:
    from column ``column`` (0-based) of the text, at ``source_line`` (0-based)
    and ``source_column`` (0-based) of the source."""

    column: int
    source_line: int
    source_column: int


#: a text's lines, each the list of its segments (None: each line is the source's line, as it is)
LineMap = list[list[Segment]]


def placed(lines: LineMap | None, line: int, column: int) -> tuple[int, int]:
    """Where (``line``, ``column``) of a text (1-based) stands in its source (1-based)."""
    if lines is None or not 0 < line <= len(lines):
        return line, column
    segments = lines[line - 1]
    at = bisect.bisect_right([s.column for s in segments], column - 1) - 1
    segment = segments[max(0, at)]
    return segment.source_line + 1, segment.source_column + column - segment.column


def part_place(start: int, flow: LineMap | None, body: Place | None,
               in_file: Callable[[int, int], tuple[int, int]] | None = None) -> Place:
    """Where a place of a part's text stands in its message: through the
    rejoining of format=flowed (``flow``), then the soft line breaks of
    quoted-printable (``body``), from the line the part starts on; then
    ``in_file`` (an mbox's unescaped lines)."""

    def place(line: int, column: int) -> tuple[int, int]:
        line, column = placed(flow, line, column)
        if body is not None:
            line, column = body(line, column)
        return (start + line - 1, column) if in_file is None else in_file(start + line - 1, column)

    return place


_SOFT = patterns.compile(rb"=[ \t]*$")


class QuotedPrintable:
    """Where a place of a quoted-printable body's decoded text stands in the
    body: the line a decoded line is joined from (soft line breaks), and the
    column there, past the escapes before it (``=3D`` is three columns of
    the file and one character of the text)."""

    def __init__(self, payload: bytes, charset: str | None) -> None:
        self.codec = _codec(charset)
        self.raw = [line.rstrip(b"\r") for line in payload.split(b"\n")]
        self.lines: LineMap = [[Segment(0, 0, 0)]]
        column = 0
        for index, raw in enumerate(self.raw):
            soft = _SOFT.search(raw)
            if soft is None:
                self.lines.append([Segment(0, index + 1, 0)])
                column = 0
                continue
            column += len(quopri.decodestring(raw[:soft.start()]).decode(self.codec, "replace"))
            self.lines[-1].append(Segment(column, index + 1, 0))

    def __call__(self, line: int, column: int) -> tuple[int, int]:
        if not 0 < line <= len(self.lines):
            return line, column
        segments = self.lines[line - 1]
        segment = segments[max(0, bisect.bisect_right([s.column for s in segments], column - 1) - 1)]
        raw = self.raw[segment.source_line] if segment.source_line < len(self.raw) else b""
        return segment.source_line + 1, _raw_column(raw, column - 1 - segment.column, self.codec) + 1


_ESCAPE = patterns.compile(rb"=([0-9A-Fa-f]{2})")


def _raw_column(raw: bytes, characters: int, codec: str) -> int:
    """The 0-based column of ``raw`` (a quoted-printable line) past which its
    decoded text has ``characters`` characters."""
    decoder = codecs.getincrementaldecoder(codec)("replace")
    count = at = 0
    while at < len(raw) and count < characters:
        escape = _ESCAPE.match(raw, at)
        byte = bytes([int(escape.group(1), 16)]) if escape else raw[at:at + 1]
        at = escape.end() if escape else at + 1
        count += len(decoder.decode(byte))
    return at


def flowed(text: str, delsp: bool) -> LineMap:
    """The lines of a format=flowed text once rejoined (as
    :func:`urisift.readers.mail.flowed.unflow` rejoins them), each the lines of the
    text it is joined from, past their quote markers and stuffing."""
    from .flowed import rejoined

    return [[Segment(column, line, source_column) for column, line, source_column in pieces]
            for pieces in rejoined(text, delsp)]


def _codec(charset: str | None) -> str:
    try:
        return codecs.lookup(charset or "utf-8").name
    except LookupError:
        return "utf-8"


__all__ = ["LineMap", "Place", "QuotedPrintable", "Segment", "flowed", "part_place", "placed"]
