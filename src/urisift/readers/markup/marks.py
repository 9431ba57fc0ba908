"""The records of a document whose link syntax a reader found by its own
scanner (reStructuredText, AsciiDoc, Org, LaTeX): the links it marked and
the URLs the text scanner finds in the rest, in document order, each with
its line and column.  Ranges the reader covered are not prose: a code
range's URLs are still found, with the ``code`` flag (left out when
``ScanOptions(code=False)``), the others' are not (a link's text, a
directive's options, a comment)."""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Iterator, Sequence
from itertools import chain
from operator import itemgetter
from typing import NamedTuple

from ...model import Content, Flag, Found, Kind, Place, Record, Span, Style
from ...stages.delimit import Scanner
from ...stages.delimit.chars import ordered
from ...stages.found_to_record import Tail
from ...stages.options import ScanOptions

# a Found and a Span with their fields given in order (new_found's step, without its call: a record a link)
_new = tuple.__new__


class Mark(NamedTuple):
    """A link the reader found: where its target is written, the target (as
    the format gives it: spaces it drops already dropped), its style and place."""

    start: int
    end: int
    uri: str
    style: Style
    place: Place


_START = itemgetter(0)  # a mark's start


def records(text: str, tail: Tail, options: ScanOptions, marked: list[Mark],
            covered: list[tuple[int, int, bool]], prose: Place, code: Place) -> Iterator[Record]:
    """``marked`` and the text scanner's finds outside ``covered`` (each
    ``(start, end, code?)``), placed at ``prose``; those in a code range
    flagged ``code`` and placed at ``code``."""
    marked.sort(key=_START)
    covered.sort()
    # the covered ranges as disjoint runs (a range inside another is the outer one's)
    starts: list[int] = []
    runs: list[tuple[int, int, bool]] = []
    for start, end, is_code in covered:
        if runs and start < runs[-1][1]:
            if end > runs[-1][1]:
                starts.append(runs[-1][1])
                runs.append((runs[-1][1], end, is_code))
            continue
        starts.append(start)
        runs.append((start, end, is_code))
    line, line_start, upto = 1, 0, 0
    i, count, rfind = 0, text.count, text.rfind
    marks = len(marked)
    # (the prose's finds, then an end past every mark: the marks before each find, and then the rest)
    for found in chain(_finds(text, options, starts, runs, prose, code), (None,)):
        at = len(text) + 1 if found is None else found.start
        assert at is not None
        while i < marks and marked[i][0] <= at:
            start, end, uri, style, place = marked[i]
            i += 1
            if start > upto:  # (advance, inline: a document of a million links calls it a million times)
                newlines = count("\n", upto, start)
                if newlines:
                    line += newlines
                    line_start = rfind("\n", upto, start) + 1
                upto = start
            yield tail(_new(Found, (uri, start, end, style, (), (), None, place)), _new(Span, (start, end)), line,
                       start - line_start + 1)
        if found is not None:
            line, line_start, upto = advance(text, at, line, line_start, upto)
            yield tail(found, Span(at, found.end if found.end is not None else at), line, at - line_start + 1)


def advance(text: str, start: int, line: int, line_start: int, upto: int) -> tuple[int, int, int]:
    """The line and the line's start at ``start``, counted on from ``upto`` (positions come in order)."""
    if start > upto:
        newlines = text.count("\n", upto, start)
        if newlines:
            line += newlines
            line_start = text.rfind("\n", upto, start) + 1
        upto = start
    return line, line_start, upto


def _finds(text: str, options: ScanOptions, starts: list[int], runs: list[tuple[int, int, bool]], prose: Place,
           code: Place) -> Iterator[Found]:
    """The text scanner's finds, one at a time (none held: a document of a
    million URLs is not a million finds in memory)."""
    for found in Scanner(text, abbreviated=options.abbreviated):
        at = found.start
        assert at is not None
        k = bisect.bisect_right(starts, at) - 1
        if k >= 0 and at < runs[k][1]:
            if not runs[k][2] or not options.code:
                continue
            yield found._replace(flags=ordered({*found.flags, Flag.CODE}), place=code)
        else:
            yield found._replace(place=prose)


def in_order(found: Iterable[Record], contents: Iterable[Content]) -> Iterator[Record | Content]:
    """A document's records and its raw HTML's nested contents merged in
    document order (both come in order): each content before the first
    record that stands after its start, so that the HTML's records, which
    the scan reads when it meets the content, come where the HTML stands,
    and ``--unique`` keeps the first in the document.  A record with no span
    (not asked for) keeps its place behind the contents before it."""
    pending = iter(contents)
    following = next(pending, None)
    for record in found:
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
