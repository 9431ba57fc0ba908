"""A Markdown document's records in document order: the links the parser marked, and the text
scanner's finds in its prose and code (:mod:`urisift.readers.markup.markdown`), merged by their
places, each given its line and column; the clock of the document's budget looked at as they are
found, so that a piece the parser read whole stops within a look of the budget's end."""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Iterator
from operator import itemgetter

from ...model import Content, Defect, Flag, Found, Place, Record, Span, Style, Where, new_found
from ...stages.delimit.chars import ordered
from ...stages.found_to_record import Tail
from ...stages.options import ScanOptions
from .gfm import LINK, gfm_end, within_runs
from .marks import advance
from .wikilinks import with_wikilinks

#: the place of a URL found in code
IN_CODE = Place(Where.MARKDOWN)
#: how many finds (less one) between two looks at the clock: a look is a system call, a find a few microseconds
_LOOK = (1 << 12) - 1


_START = itemgetter(0)  # a marked link's start
_span = tuple.__new__  # a Span with its fields given (a record a link)


def records(text: str, tail: Tail, options: ScanOptions, marked: list[tuple[int, int, str | None, Style, Place]],
             covered: list[tuple[int, int, bool]], first: int, first_line: int,
             finds: Iterable[Found] | None = None, clocked: Content | None = None) -> Iterator[Record | Defect]:
    """The links the parser marked and the prose's URLs, in document order,
    each with its line and column; the clock of ``clocked``'s budget looked at every
    :data:`_LOOK` finds, while the prose is scanned (a piece that cannot be cut, an HTML block
    left open over 30 MB, was scanned whole before the budget was looked at again)."""
    budget = clocked.budget if clocked is not None else None
    stopped: int | None = None
    marked.sort(key=_START)
    covered.sort()
    # the covered ranges as disjoint runs: a link inside a code block's range is still code
    starts: list[int] = []
    runs: list[tuple[int, int, bool]] = []
    for start, end, code in covered:
        if runs and start < runs[-1][1]:
            last = runs[-1]
            if end > last[1]:
                runs.append((last[1], end, code))
                starts.append(last[1])
            continue
        runs.append((start, end, code))
        starts.append(start)
    placed: list[tuple[int, Found]] = []
    finds = with_wikilinks(text, options) if finds is None else finds
    for count, found in enumerate(within_runs(text, finds, starts, runs, options.abbreviated, options.refang)):
        at = found.start
        assert at is not None
        if budget is not None and not count & _LOOK and count and budget.expired():
            stopped = at
            marked = [mark for mark in marked if mark[0] < at]  # (the parser's links past it: not read either)
            break
        k = bisect.bisect_right(starts, at) - 1
        if k >= 0 and at < runs[k][1]:
            if not runs[k][2] or not options.code or found.style is Style.MARKUP:
                continue  # (an e-mail address is a link in GFM's prose only: in code it is text, no URI)
            placed.append((at, found._replace(flags=ordered({*found.flags, Flag.CODE}), place=IN_CODE)))
        else:
            if found.style is not Style.MARKUP:  # (an e-mail autolink is GFM's alone: not in code)
                found = gfm_end(text, found)
            placed.append((at, found if Flag.WIKILINK in found.flags else found._replace(place=LINK)))
    line, line_start, upto = first_line, 0, 0
    i = j = 0
    while i < len(marked) or j < len(placed):
        if j == len(placed) or i < len(marked) and marked[i][0] <= placed[j][0]:
            start, end, url, style, place = marked[i]
            i += 1
            found = new_found(url or "", start, end, style, (), (), None, place)
        else:
            start, found = placed[j]
            end = found.end if found.end is not None else start
            j += 1
        line, line_start, upto = advance(text, start, line, line_start, upto)
        if first:
            found = found._replace(start=start + first, end=end + first)
        yield tail(found, _span(Span, (start + first, end + first)), line, start - line_start + 1)
    if stopped is not None and budget is not None and clocked is not None:
        yield from budget.over_time(f"the rest of the document (from character {first + stopped})", clocked.origin)
