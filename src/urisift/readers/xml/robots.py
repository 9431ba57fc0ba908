"""robots.txt (RFC 9309): its ``Sitemap`` lines, each a URL (§2.2.4 leaves
them to the crawler; sitemaps.org says they are absolute), resolved against
the robots.txt's own URL when one is relative.  ``Allow`` and ``Disallow``
values are path patterns, not links: left out."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...model import Content, Defect, Place, Record, Span, Style, Tally, Where, new_found
from ...stages.charset import content_text
from ...stages.found_to_record import Tail
from ...stages.options import ScanOptions
from ...uri import patterns

# RFC 9309 §2.2: a field name, optional white space, ":", the value to a "#" comment or the line's end
_SITEMAP = patterns.compile(r"^[ \t]*(sitemap)[ \t]*:[ \t]*([^\s#]+)", re.IGNORECASE | re.MULTILINE)
_PLACE = Place(Where.TEXT, header="Sitemap")


def read_robots(content: Content, options: ScanOptions, tally: Tally) -> Iterator[Record | Defect]:
    text, decoding, defects = content_text(content, options.charset)
    yield from defects
    tail = Tail(content.layer, content.origin, decoding, browser=options.browser, needs=options.needs)
    line, upto = 1, 0  # counted forward only: linear however many lines there are
    for m in _SITEMAP.finditer(text):
        start, end = m.span(2)
        line += text.count("\n", upto, start)
        upto = start
        line_start = text.rfind("\n", 0, start) + 1
        yield tail(new_found(m.group(2), start, end, Style.HEADER, (), (), None, _PLACE), Span(start, end), line,
                   start - line_start + 1)
