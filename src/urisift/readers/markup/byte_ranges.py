"""Where pulldown-cmark's events stand in a Markdown document's text: its
ranges are UTF-8 byte offsets, a record's positions are the text's
characters; and where a link's destination is written within its range
(a record's position is its destination's, as in the other kinds)."""

from __future__ import annotations

import bisect
from collections.abc import Callable

from ...uri import patterns

_CONTINUATION = patterns.compile(rb"[\x80-\xbf]")


def byte_offsets(text: str) -> Callable[[int], int]:
    """UTF-8 byte offsets (pyromark's ranges) → code-point offsets into the
    text: a code point is its bytes less its continuation bytes (10xxxxxx),
    so an offset less the continuation bytes before it is the code points
    before it.  A document that is all ASCII maps each to itself."""
    if text.isascii():
        return same_offset
    continuation = [m.start() for m in _CONTINUATION.finditer(text.encode("utf-8"))]
    # (the search and the list as the function's own locals: it is called for each event's ends)
    def offset(at: int, before: Callable[[list[int], int], int] = bisect.bisect_left,
               positions: list[int] = continuation) -> int:
        return at - before(positions, at)

    return offset


def same_offset(at: int) -> int:
    return at


def destination_at(text: str, start: int, end: int, marker: str) -> int:
    """Where a destination stands in ``text[start:end]``: after the last
    ``marker`` (``](`` of an inline link, ``]:`` of a definition) and the
    white space and ``<`` after it; ``start`` when there is no marker."""
    at = text.rfind(marker, start, end) if marker == "](" else text.find(marker, start, end)
    if at == -1:
        return start
    at += len(marker)
    while at < end and text[at] in " \t\r\n<":
        at += 1
    return at
