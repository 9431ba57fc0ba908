"""Plain text → records: the scanner's hot loop over a text held whole, and
over a text that arrives in decoded pieces cut where no reference can span
the cut (DESIGN §3).  Positions are code-point offsets into the whole text,
with 1-based lines and columns."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from .delimit import Scanner, safe_cut
from .found_to_record import Tail
from .model import Defect, Record, Span

_span = tuple.__new__


def text_records(text: str, tail: Tail, abbreviated: bool, offset: int = 0, first_line: int = 1,
                 context: int = 0, first_column: int = 1) -> Iterator[Record]:
    """The records of one piece of plain text: the hot loop, one record a
    reference.  Lines are counted forward only, from the last reference to
    the next, so the whole text is counted once.  ``offset``,
    ``first_line`` and ``first_column``: where the piece starts in the
    whole text (a piece may start inside a line)."""
    count, rfind = text.count, text.rfind
    line, line_start, upto = first_line, 1 - first_column, 0
    for found in Scanner(text, abbreviated=abbreviated):
        start, end = found.start, found.end
        assert start is not None and end is not None
        if start > upto:
            newlines = count("\n", upto, start)
            if newlines:
                line += newlines
                line_start = rfind("\n", upto, start) + 1
            upto = start
        record = tail(found, _span(Span, (start + offset, end + offset)), line, start - line_start + 1)
        if context:
            record = record._replace(context=text[max(0, start - context):end + context])
        yield record


def chunked_records(pieces: Iterable[tuple[str, list[Defect]]], tail: Tail, abbreviated: bool, *,
                    eager: bool = False, context: int = 0, offset: int = 0, first_line: int = 1
                    ) -> Iterator[Record | Defect]:
    """Scan text that arrives in pieces, cut where no reference can span the
    cut; offsets and lines are for the whole text.  A piece's defects come
    before the records of the text they were found in.  The last piece is
    never cut: what it holds is all there is (a file without a final line
    break ends a reference as surely as one with it).

    ``eager``: scan each piece as soon as it is there, rather than after the
    next one is read to know whether it was the last (a live stream, where
    the next line may be minutes away); the last piece is then the empty one
    that ends the stream.

    ``offset`` and ``first_line``: the text is a range of a larger one that
    has that many characters, and lines, before it."""
    carry = ""
    line = first_line
    column = 1
    iterator = iter(pieces)
    ahead = next(iterator, None)
    while ahead is not None:
        piece, defects = ahead
        if not eager:
            ahead = next(iterator, None)
        yield from defects
        chunk = carry + piece
        last = (not piece) if eager else ahead is None
        cut = len(chunk) if last else safe_cut(chunk, patient=eager)
        head, carry = chunk[:cut], chunk[cut:]
        # (the context of a reference near a cut is cut there too)
        yield from text_records(head, tail, abbreviated, offset, line, context, column)
        offset += len(head)
        newlines = head.count("\n")
        line += newlines
        # a cut at white space inside a line (one longer than a chunk): the
        # next piece's columns go on from the cut
        column = len(head) - head.rfind("\n") if newlines else column + len(head)
        if eager:
            ahead = next(iterator, None)
