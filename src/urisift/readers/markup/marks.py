"""The records of a document whose link syntax a reader found by its own
scanner (reStructuredText, AsciiDoc, Org, LaTeX, BibTeX): the links it
marked and the URLs the text scanner finds in the rest, in document order,
each with its line and column.  Ranges the reader covered are not prose: a
code range's URLs are still found, with the ``code`` flag (left out when
``ScanOptions(code=False)``), the others' are not (a link's text, a
directive's options, a comment).

A reader hands its marks on in batches as it scans (:func:`streamed`), each
batch closed at a place before which it will mark and cover nothing more,
so that what is held does not grow with the document (ARCHITECTURE.md,
Budgets), and the document's time budget is looked at between batches, while
the reader works, not after it."""

from __future__ import annotations

import bisect
from collections.abc import Generator, Iterable, Iterator, Sequence
from operator import itemgetter
from typing import NamedTuple

from ...model import Content, Defect, Flag, Found, Kind, Place, Record, Span, Style
from ...stages.delimit import Scanner
from ...stages.delimit.chars import ordered
from ...stages.found_to_record import Tail
from ...stages.options import ScanOptions

# a Found and a Span with their fields given in order (new_found's step, without its call: a record a link)
_new = tuple.__new__
#: the characters a reader scans between two batches, about
PIECE = 1 << 20


class Mark(NamedTuple):
    """A link the reader found: where its target is written, the target (as
    the format gives it: spaces it drops already dropped), its style and place."""

    start: int
    end: int
    uri: str
    style: Style
    place: Place


class Batch(NamedTuple):
    """What a reader found since its last batch: ``limit``, where every mark
    and range it finds later starts at or after (those of this batch may
    start after it too: they are kept for the next); its marks, the ranges it
    covered ``(start, end, code?)`` and its raw HTML ``(start, end)``."""

    limit: int
    marked: list[Mark]
    covered: list[tuple[int, int, bool]]
    html: list[tuple[int, int]]


_START = itemgetter(0)  # a mark's start


def streamed(content: Content, text: str, tail: Tail, options: ScanOptions, batches: Iterable[Batch],
             prose: Place, code: Place) -> Iterator[Record | Defect | Content]:
    """The records of the reader's ``batches`` (see :class:`Batch`) and of the
    prose between, in document order, each piece of raw HTML as nested content
    where it stands (before the first record after its start: the HTML's
    records come where it is, and ``--unique`` keeps the first in the document);
    a ``bomb`` defect, and the end, once the time budget of ``content`` ran
    out (looked at after each batch)."""
    budget = content.budget
    finds = iter(Scanner(text, abbreviated=options.abbreviated, refang=options.refang))
    pending = next(finds, None)
    starts: list[int] = []  # the disjoint runs of the covered ranges that may still hold a find: their starts
    runs: list[tuple[int, int, bool]] = []
    reach = 0  # where the last run ends (a range inside another is the outer one's)
    kept_marks: list[Mark] = []  # marks and ranges of a batch that start past its limit, for the next
    kept_covered: list[tuple[int, int, bool]] = []
    line, line_start, upto = 1, 0, 0
    html_line, html_upto = 1, 0
    count, rfind = text.count, text.rfind
    end_of_text = len(text) + 1
    for limit, marked, covered, html in batches:
        if kept_marks:
            marked = kept_marks + marked
        if kept_covered:
            covered = kept_covered + covered
        marked.sort(key=_START)
        covered.sort()
        split = bisect.bisect_left(marked, limit, key=_START)
        marked, kept_marks = marked[:split], marked[split:]
        split = bisect.bisect_left(covered, (limit,))
        covered, kept_covered = covered[:split], covered[split:]
        for start, end, is_code in covered:
            if start < reach:
                if end > reach:
                    starts.append(reach)
                    runs.append((reach, end, is_code))
                    reach = end
                continue
            starts.append(start)
            runs.append((start, end, is_code))
            reach = end
        i, marks = 0, len(marked)
        h, pieces = 0, len(html)
        # (the prose's finds before the limit, then the limit itself: the marks before each, and then the rest)
        while True:
            if pending is not None and pending.start < limit:  # type: ignore[operator]
                found: Found | None = pending
                at: int = pending.start  # type: ignore[assignment]
                pending = next(finds, None)
            else:
                found, at = None, limit
            while i < marks and marked[i][0] <= at:
                start, end, uri, style, place = marked[i]
                i += 1
                if start > upto:  # (advance, inline: a document of a million links calls it a million times)
                    newlines = count("\n", upto, start)
                    if newlines:
                        line += newlines
                        line_start = rfind("\n", upto, start) + 1
                    upto = start
                while h < pieces and html[h][0] <= start:
                    html_line, html_upto = yield from _html(content, text, html[h], html_line, html_upto)
                    h += 1
                yield tail(_new(Found, (uri, start, end, style, (), (), None, place)), _new(Span, (start, end)),
                           line, start - line_start + 1)
            if found is None:
                break
            k = bisect.bisect_right(starts, at) - 1
            if k >= 0 and at < runs[k][1]:
                if not runs[k][2] or not options.code:
                    continue
                found = found._replace(flags=ordered({*found.flags, Flag.CODE}), place=code)
            else:
                found = found._replace(place=prose)
            line, line_start, upto = advance(text, at, line, line_start, upto)
            while h < pieces and html[h][0] <= at:
                html_line, html_upto = yield from _html(content, text, html[h], html_line, html_upto)
                h += 1
            yield tail(found, Span(at, found.end if found.end is not None else at), line, at - line_start + 1)
        while h < pieces:  # (the HTML after the batch's last record)
            html_line, html_upto = yield from _html(content, text, html[h], html_line, html_upto)
            h += 1
        # the runs that end before the limit can hold no find to come
        dropped = 0
        while dropped < len(runs) and runs[dropped][1] <= limit:
            dropped += 1
        if dropped:
            del runs[:dropped], starts[:dropped]
        if limit < end_of_text and budget is not None and budget.expired():
            yield from budget.over_time(f"the rest of the document (from character {limit})", content.origin)
            return


def _html(content: Content, text: str, piece: tuple[int, int], line: int, upto: int
          ) -> Generator[Content, None, tuple[int, int]]:
    """A piece of raw HTML as nested content placed where it stands; the line it starts
    on and its start, for the next (lines counted forward only)."""
    start, end = piece
    line += text.count("\n", upto, start)
    yield Content(text[start:end], Kind.HTML, content.origin, content.layer, decoding=content.decoding,
                  budget=content.budget, at=(start, line, start - text.rfind("\n", 0, start)))
    return line, start


def advance(text: str, start: int, line: int, line_start: int, upto: int) -> tuple[int, int, int]:
    """The line and the line's start at ``start``, counted on from ``upto`` (positions come in order)."""
    if start > upto:
        newlines = text.count("\n", upto, start)
        if newlines:
            line += newlines
            line_start = text.rfind("\n", upto, start) + 1
        upto = start
    return line, line_start, upto


class Ahead:
    """A first pass's ranges ``(start, end, frontier, code?)``, in order of
    their start, taken by a second pass as it moves on (the first pass runs
    only as far as the second needs: nothing of the document's length is
    held).  ``frontier`` is where the first pass will look on from: no range
    it gives later starts before it."""

    __slots__ = ("_source", "_next", "frontier")

    def __init__(self, source: Iterator[tuple[int, int, int, bool]]) -> None:
        self._source = source
        self._next = next(source, None)
        self.frontier = len_max if self._next is None else self._next[2]

    def holding(self, at: int) -> tuple[int, int, int, bool] | None:
        """The first range (in order of start) that ends after ``at``, when it
        starts at or before ``at``: the block ``at`` stands in; else None."""
        following = self._next
        while following is not None and following[1] <= at:
            following = self._next = next(self._source, None)
            self.frontier = len_max if following is None else following[2]
        if following is not None and following[0] <= at:
            return following
        return None

    def rest(self) -> Iterator[int]:
        """The first pass run to its end (the second has ended): its frontier after each range."""
        while self._next is not None:
            self._next = next(self._source, None)
            self.frontier = len_max if self._next is None else self._next[2]
            yield self.frontier


def ended(blocks: Ahead, gathered: Gathered, piece_end: int, length: int) -> Iterator[Batch]:
    """The batches of a reader whose second pass has ended: its first pass's
    rest, a batch every :data:`PIECE` characters, then the last."""
    for frontier in blocks.rest():
        if piece_end <= frontier < len_max:
            yield gathered.batch(frontier)
            piece_end = frontier + PIECE
    yield gathered.batch(length + 1)


#: a frontier past any text (the first pass has ended)
len_max = 1 << 62


def in_order(found: Iterable[Record | Defect], contents: Iterable[Content]) -> Iterator[Record | Defect | Content]:
    """A document's records and its raw HTML's nested contents merged in
    document order (both come in order): each content before the first
    record that stands after its start, so that the HTML's records, which
    the scan reads when it meets the content, come where the HTML stands,
    and ``--unique`` keeps the first in the document.  A record with no span
    (not asked for) keeps its place behind the contents before it."""
    pending = iter(contents)
    following = next(pending, None)
    for record in found:
        if type(record) is not Record:
            yield record  # (a defect: the clock stopped the records, and says so where they stop)
            continue
        if following is not None:
            span = record.span
            at = following.at
            while following is not None and span and at is not None and at[0] <= span[0]:
                yield following
                following = next(pending, None)
                at = None if following is None else following.at
        yield record
    if following is not None:
        yield following
        yield from pending


def html_contents(content: Content, text: str, pieces: Iterable[Sequence[int]], first: int = 0,
                  first_line: int = 1) -> Iterator[Content]:
    """A document's raw HTML (``(start, end)`` pieces of ``text``, in order) as
    nested content for the HTML reader, each placed where it stands: its
    records' spans, lines and columns are the document's (``text`` starts at
    character ``first`` and line ``first_line`` of it).  Lines are counted
    forward only, from one piece to the next."""
    line, upto = first_line, 0
    for start, end in pieces:
        line += text.count("\n", upto, start)
        upto = start
        yield Content(text[start:end], Kind.HTML, content.origin, content.layer, decoding=content.decoding,
                      budget=content.budget, at=(first + start, line, start - text.rfind("\n", 0, start)))


class Gathered:
    """What a reader's passes found since its last batch, shared between
    them (a first pass run lazily by the second adds to the same lists)."""

    __slots__ = ("marked", "covered", "html")

    def __init__(self) -> None:
        self.marked: list[Mark] = []
        self.covered: list[tuple[int, int, bool]] = []
        self.html: list[tuple[int, int]] = []

    def batch(self, limit: int) -> Batch:
        """What was found, as a batch closed at ``limit``; the lists start empty again."""
        batch = Batch(limit, self.marked, self.covered, self.html)
        self.marked, self.covered, self.html = [], [], []
        return batch
