"""Where a message's text stands in its bytes (issue 37): text output's
``file:line:column`` names the file's line, not a line of the part.

The email package keeps no positions, but a leaf part's payload is kept as
it stood between its heading and the next boundary: found in the message's
bytes (in document order, from where the last part ended), it tells the
line its text starts on.  Then:

- an identity part (``7bit``, ``8bit``, ``binary``, none): a line of its text
  is a line of the file, and so is a column;
- quoted-printable (RFC 2045 §6.7): a line of its text may be several lines
  of the file, joined where a line ends in ``=`` (a soft line break); the
  column on the file's line counts the text's characters (``=3D`` is one);
- ``format=flowed`` (RFC 3676): a line of the rejoined text may be several
  lines of the part, joined where a line ends in a space; its quote markers
  and stuffing stand on each of them.

A part whose text does not stand in the message as written (base64, a file
uuencoded in a part) has no place here, and is named by its part path.  A
heading's reference is found as written in the heading, else the line of
its field (:class:`urisift.placing.Placing`).  Positions count in the
message's data (its first line 1); the message's own first line in the file
is its origin's ``line``.
"""

from __future__ import annotations

import bisect
import quopri
import re
from collections.abc import Callable
from typing import NamedTuple

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


def part_place(start: int, flow: LineMap | None, body: LineMap | None,
               in_file: Callable[[int, int], tuple[int, int]] | None = None) -> Place:
    """Where a place of a part's text stands in its message: through the
    rejoining of format=flowed (``flow``), then the soft line breaks of
    quoted-printable (``body``), from the line the part starts on; then
    ``in_file`` (an mbox's unescaped lines)."""

    def place(line: int, column: int) -> tuple[int, int]:
        line, column = placed(body, *placed(flow, line, column))
        return (start + line - 1, column) if in_file is None else in_file(start + line - 1, column)

    return place


_SOFT = re.compile(rb"=[ \t]*$")


def quoted_printable(payload: bytes, charset: str | None) -> LineMap:
    """The lines of a quoted-printable body's decoded text, each the lines
    of the body it is joined from (see the module doc)."""
    codec = _codec(charset)
    lines: LineMap = [[Segment(0, 0, 0)]]
    column = 0
    for index, raw in enumerate(payload.split(b"\n")):
        raw = raw.rstrip(b"\r")
        soft = _SOFT.search(raw)
        if soft is None:
            lines.append([Segment(0, index + 1, 0)])
            column = 0
            continue
        column += len(quopri.decodestring(raw[:soft.start()]).decode(codec, "replace"))
        lines[-1].append(Segment(column, index + 1, 0))
    return lines


def flowed(text: str, delsp: bool) -> LineMap:
    """The lines of a format=flowed text once rejoined (as
    :func:`urisift.mail.flowed.unflow` rejoins them), each the lines of the
    text it is joined from, past their quote markers and stuffing."""
    from .flowed import rejoined

    return [[Segment(column, line, source_column) for column, line, source_column in pieces]
            for pieces in rejoined(text, delsp)]


def _codec(charset: str | None) -> str:
    import codecs

    try:
        return codecs.lookup(charset or "utf-8").name
    except LookupError:
        return "utf-8"


__all__ = ["LineMap", "Place", "Segment", "flowed", "part_place", "placed", "quoted_printable"]
