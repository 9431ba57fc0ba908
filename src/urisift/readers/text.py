"""Plain text's front door and its hot loop (ARCHITECTURE.md, Delimiting running text): bytes decoded
by the charset chain, scanned whole or as they arrive in decoded pieces cut
where no reference can span the cut (and a range of a large file, cut the
same way).  Positions are code-point offsets into the whole text, with
1-based lines and columns."""

from __future__ import annotations

import io
from collections.abc import Iterable, Iterator
from typing import BinaryIO

from ..model import Charset, Content, Defect, DefectKind, Origin, Record, Span, Tally
from ..model.events import is_message
from ..stages.base import BaseLayer
from ..stages.charset import decode, decode_lines, decode_stream
from ..stages.containment import Budget, Metered, metered
from ..stages.delimit import Scanner, safe_cut
from ..stages.drawn import MAX_DRAWINGS, Drawing, as_images, may_hold_drawing, text_drawings
from ..stages.found_to_record import Tail
from ..stages.options import ScanOptions

_span = tuple.__new__


def text_records(text: str, tail: Tail, abbreviated: bool, offset: int = 0, first_line: int = 1,
                 context: int = 0, first_column: int = 1, refang: bool = False) -> Iterator[Record]:
    """The records of one piece of plain text: the hot loop, one record a
    reference.  Lines are counted forward only, from the last reference to
    the next, so the whole text is counted once.  ``offset``,
    ``first_line`` and ``first_column``: where the piece starts in the
    whole text (a piece may start inside a line).  ``refang``: defanged
    references read back (:mod:`urisift.stages.delimit.refang`)."""
    count, rfind = text.count, text.rfind
    line, line_start, upto = first_line, 1 - first_column, 0
    for found in Scanner(text, abbreviated=abbreviated, refang=refang):
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
                    eager: bool = False, context: int = 0, offset: int = 0, first_line: int = 1,
                    refang: bool = False) -> Iterator[Record | Defect]:
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
        yield from text_records(head, tail, abbreviated, offset, line, context, column, refang)
        offset += len(head)
        newlines = head.count("\n")
        line += newlines
        # a cut at white space inside a line (one longer than a chunk): the
        # next piece's columns go on from the cut
        column = len(head) - head.rfind("\n") if newlines else column + len(head)
        if eager:
            ahead = next(iterator, None)


def read_text(content: Content, options: ScanOptions, tally: Tally) -> Iterator[Record | Defect | Content]:
    """Plain text: decoded by the charset chain, streamed through the
    scanner in pieces cut where no reference can span the cut; with ``--qr``,
    a text held whole (a mail part, a file of one piece) hands the codes drawn
    in it with block characters to the image reader (:mod:`urisift.stages.drawn`)."""
    body = content.body
    declared = content.declared or options.charset
    if is_message(body):
        raise TypeError("a parsed message is content of kind mail only")
    if isinstance(body, str):
        tail = Tail(content.layer, content.origin, content.decoding, browser=options.browser, needs=options.needs)
        yield from text_records(body, tail, options.abbreviated,
                                context=options.context, refang=options.refang)
        if options.qr and may_hold_drawing(body):
            yield from as_images(text_drawings(body), content)  # codes drawn with block characters (--qr)
        return
    if isinstance(body, bytes) and len(body) <= options.chunk_size:
        # a body held whole already (a mail part): decoded in one step, no stream machinery
        text, choice, defects = decode(body, declared=declared, origin=content.origin)
        yield from defects
        tail = Tail(content.layer, content.origin, Charset(choice.name, choice.source), browser=options.browser,
                    needs=options.needs)
        yield from text_records(text, tail,
                                options.abbreviated, context=options.context, refang=options.refang)
        if options.qr and may_hold_drawing(text):
            yield from as_images(text_drawings(text), content)
        return
    stream = io.BytesIO(body) if isinstance(body, bytes) else body
    if content.live:
        choice, pieces = decode_lines(stream, declared=declared, origin=content.origin)
    else:
        choice, pieces = decode_stream(stream, declared=declared, origin=content.origin,
                                       chunk_size=options.chunk_size)
    tail = Tail(content.layer, content.origin, Charset(choice.name, choice.source), browser=options.browser,
                needs=options.needs)
    drawings: list[Drawing] = []
    if options.qr:
        pieces = _watched(pieces, drawings)
    yield from chunked_records(pieces, tail, options.abbreviated, eager=content.live, context=options.context,
                               refang=options.refang)
    yield from as_images(iter(drawings), content)


def _watched(pieces: Iterable[tuple[str, list[Defect]]], drawings: list[Drawing]
             ) -> Iterator[tuple[str, list[Defect]]]:
    """The pieces of a streamed text as they go by, the codes drawn in each with block characters kept
    (:mod:`urisift.stages.drawn`; a drawing cut by a piece's end is not rebuilt), :data:`MAX_DRAWINGS` at most."""
    lines = 0
    for piece, defects in pieces:
        if len(drawings) < MAX_DRAWINGS and may_hold_drawing(piece):
            drawings.extend(d._replace(line=d.line + lines) for d in text_drawings(piece))
            del drawings[MAX_DRAWINGS:]
        lines += piece.count("\n")
        yield piece, defects


class _RangeAccount:
    """The budget of the text file whose ranges this process scans: the file
    is one document, however many ranges the plan cut it into, so its ranges
    share one account (this process's, from the first of them it scans);
    once it is spent, the file's other ranges here are skipped, said once."""

    source: str | None = None
    budget: Budget | None = None
    told = False


def read_text_range(stream: BinaryIO, start: int, characters: int, lines: int, chosen: Charset | None,
                    layer: BaseLayer, origin: Origin, options: ScanOptions, source: str | None = None
                    ) -> Iterator[Record | Defect]:
    """The range of a plain text file that starts at byte ``start``
    (:mod:`urisift.pipeline.plan`), with ``characters`` and ``lines`` before it:
    decoded in the charset ``chosen`` from the input's first bytes (None
    for the first range, which chooses it), its positions counted on from
    there, its defects at the file's byte offsets.  The ranges of the file
    ``source`` spend one time budget, metered as the scan meters a
    document's (:mod:`urisift.stages.containment`)."""
    account = _RangeAccount
    if account.source != source or account.budget is None or not start:
        account.source, account.budget, account.told = source, options.limits.budget(), False
    budget = account.budget
    if account.told:
        return  # said once, in the range it ran out in
    if budget.expired():
        account.told = True
        yield from budget.over_time(f"the rest of the text from byte {start} on", origin)
        return
    meter = Metered(stream, budget, origin, False)
    items = _range(io.BufferedReader(meter), start, characters, lines, chosen, layer, origin, options)
    for item in metered(items, budget, origin, lambda: None if meter.timed_out else
                        f"the rest of the text (it was read up to byte {meter.done})"):
        if type(item) is Defect and item.kind is DefectKind.BOMB:
            account.told = True
        yield item
    if meter.defect is not None:
        account.told = True
        yield meter.defect


def _range(stream: BinaryIO, start: int, characters: int, lines: int, chosen: Charset | None,
           layer: BaseLayer, origin: Origin, options: ScanOptions) -> Iterator[Record | Defect]:
    choice, pieces = decode_stream(stream, declared=options.charset, origin=origin, chunk_size=options.chunk_size,
                                   chosen=chosen if start else None, at=start)
    tail = Tail(layer, origin, Charset(choice.name, choice.source), browser=options.browser, needs=options.needs)
    yield from chunked_records(pieces, tail, options.abbreviated, context=options.context, refang=options.refang,
                               offset=characters,
                               first_line=lines + 1)
