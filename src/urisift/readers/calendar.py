"""Calendars and contacts: iCalendar (RFC 5545, with RFC 7986's properties) and vCard
(RFC 6350, and vCard 3's RFC 2426), which share one content-line grammar
(RFC 5545 §3.1, RFC 6350 §3.2).

- Lines are unfolded first (a line break followed by a space or a tab is no break:
  a URL folded at 75 octets is one URL), and positions map back to the folded file:
  a record's line and column are where its value starts in the file.
- The properties whose value is a URI are references (``header`` names the
  property): iCalendar's ``URL``, ``ATTACH``, ``ORGANIZER`` and ``ATTENDEE``
  (``mailto:``), ``CONFERENCE``, ``IMAGE``, ``TZURL``, ``SOURCE``; vCard's ``URL``,
  ``SOURCE``, ``PHOTO``, ``LOGO``, ``SOUND``, ``KEY``, ``IMPP``, ``MEMBER``,
  ``RELATED``, ``CALURI``, ``CALADRURI``, ``FBURL``, and ``EMAIL``, whose address is a
  ``mailto:`` target.  A value given inline (``ENCODING=BASE64``, ``VALUE=BINARY``,
  vCard 3's ``ENCODING=b``) is no reference: an ``ATTACH`` so given is handed back as
  nested content of its ``FMTTYPE``; an image is not read.
- ``DESCRIPTION``, ``SUMMARY``, ``LOCATION``, ``COMMENT`` (and vCard's ``NOTE``) are
  TEXT, unescaped (``\\n``, ``\\,``, ``\\;``, ``\\\\``: RFC 5545 §3.3.11) and read as
  text; ``X-ALT-DESC;FMTTYPE=text/html`` (Outlook's HTML description) as HTML.  Their
  records stand on the property's line (the text is unescaped: its columns are not
  the file's).
"""

from __future__ import annotations

import base64
import binascii
import re
from bisect import bisect_right
from collections.abc import Iterator

from ..model import Content, Defect, DefectKind, Kind, Place, Record, Span, Style, Tally, Where, new_found
from ..stages.charset import content_text
from ..stages.delimit import Scanner
from ..stages.found_to_record import Tail
from ..stages.media import kind_of
from ..stages.options import ScanOptions

#: the properties whose value is a URI (RFC 5545 §3.8, RFC 7986 §5, RFC 6350 §6)
URI_PROPERTIES = frozenset({
    "URL", "ATTACH", "ORGANIZER", "ATTENDEE", "CONFERENCE", "IMAGE", "TZURL", "SOURCE",
    "PHOTO", "LOGO", "SOUND", "KEY", "IMPP", "MEMBER", "RELATED", "CALURI", "CALADRURI", "FBURL",
})
#: the TEXT properties read as prose
TEXT_PROPERTIES = frozenset({"DESCRIPTION", "SUMMARY", "LOCATION", "COMMENT", "NOTE"})
#: a content line's name and parameters, up to the colon before its value (quoted parameter values may
#: hold ':' and ';', RFC 5545 §3.1)
_HEAD = re.compile(r'(?P<name>[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)?)(?P<params>(?:;[A-Za-z0-9-]+(?:=(?:"[^"]*"|[^";:,]*)'
                   r'(?:,(?:"[^"]*"|[^";:,]*))*)?)*):')  # (vCard 2.1's parameters may be bare: URL;WORK:)
_PARAM = re.compile(r';([A-Za-z0-9-]+)=("[^"]*"|[^";:]*)')
_UNESCAPE = re.compile(r"\\([nN,;\\])")
_BREAK = re.compile(r"\r\n|\n|\r")
_ABBREVIATED = re.compile(r"(www|ftp)\.[^\s/]+\.[^\s]", re.IGNORECASE)


def _unescaped(text: str) -> str:
    return _UNESCAPE.sub(lambda m: "\n" if m.group(1) in "nN" else m.group(1), text)


def _logical_lines(text: str) -> Iterator[tuple[str, list[tuple[int, int]], int]]:
    """The unfolded content lines: (the line, its pieces as (offset in the line, offset in
    the text), the line number in the file where it starts).  Linear: each physical
    line is looked at once."""
    pieces: list[str] = []
    where: list[tuple[int, int]] = []
    length, first, number, at = 0, 1, 0, 0
    for match in _BREAK.finditer(text + "\n"):
        number += 1
        physical = text[at:match.start()]
        start = at
        at = match.end()
        if physical[:1] in (" ", "\t") and pieces:  # a fold: the rest of the line before it
            pieces.append(physical[1:])
            where.append((length, start + 1))
            length += len(physical) - 1
            continue
        if pieces:
            yield "".join(pieces), where, first
        pieces, where, length, first = [physical], [(0, start)], len(physical), number
    if pieces and pieces != [""]:
        yield "".join(pieces), where, first


def _in_text(where: list[tuple[int, int]], offset: int) -> int:
    """The offset in the file's text of ``offset`` in an unfolded line: the piece it falls in found by
    bisection (a 10 MB line folded 130,000 times, its every URL placed, was quadratic)."""
    index = bisect_right(where, (offset, _PAST)) - 1
    piece_start, text_start = where[max(index, 0)]
    return text_start + offset - piece_start


_PAST = 1 << 62  # (sorts after every offset in the text: a piece that starts at ``offset`` is its own)


def read_calendar(content: Content, options: ScanOptions, tally: Tally) -> Iterator[Record | Defect | Content]:
    text, decoding, defects = content_text(content, options.charset)
    yield from defects
    tail = Tail(content.layer, content.origin, decoding, browser=options.browser, needs=options.needs)
    where = Where.TEXT
    line_starts = _LineStarts(text)
    for line, pieces, number in _logical_lines(text):
        head = _HEAD.match(line)
        if head is None:
            continue
        name = head.group("name").rpartition(".")[2].upper()  # (vCard's group prefix: item1.URL)
        value = line[head.end():]
        if not value.strip():
            continue
        params = {k.upper(): v.strip('"') for k, v in _PARAM.findall(head.group("params"))}
        inline = params.get("ENCODING", "").upper() in ("BASE64", "B") or params.get("VALUE", "").upper() == "BINARY"
        if name in URI_PROPERTIES and not inline and params.get("VALUE", "").upper() != "TEXT":
            reference = value.strip()
            start = head.end() + (len(value) - len(value.lstrip()))
            at = _in_text(pieces, start)
            row, column = line_starts.place(at)
            # (vCard 2.1's writers put a bare www. name in URL: the abbreviated form, RFC 3986 Appendix F)
            abbreviated = _ABBREVIATED.match(reference)
            expanded = None if abbreviated is None else ("ftp://" if abbreviated.group(1).lower() == "ftp"
                                                         else "http://") + reference
            found = new_found(reference, at, at + len(reference), Style.HEADER if expanded is None else
                              Style.ABBREVIATED, (), (), expanded, Place(where, header=name))
            yield tail(found, Span(at, _in_text(pieces, start + len(reference) - 1) + 1), row, column)
        elif name == "EMAIL" and "@" in value:
            address = value.strip()
            start = _in_text(pieces, head.end() + (len(value) - len(value.lstrip())))
            row, column = line_starts.place(start)
            found = new_found(address, start, start + len(address), Style.HEADER, (), (), None,
                              Place(where, header=name))
            record = tail(found, Span(start, start + len(address)), row, column)
            # (an address, whose URI is mailto:'s, RFC 6068)
            browser = record.browser_target
            yield record._replace(target="mailto:" + address,
                                  browser_target="mailto:" + address if isinstance(browser, str) else browser)
        elif name == "ATTACH" and inline:
            yield from _attached(value, params, content, number)
        elif name in TEXT_PROPERTIES:
            place = Place(where, header=name)
            for found in Scanner(_unescaped(value), abbreviated=options.abbreviated, refang=options.refang):
                # (on the property's line: the unescaped text's columns are not the file's)
                yield tail(found._replace(start=None, end=None, place=place), None, number, None)
        elif name == "X-ALT-DESC" and params.get("FMTTYPE", "").lower() == "text/html":
            yield Content(_unescaped(value), Kind.HTML, content.origin, content.layer, decoding=decoding,
                          budget=content.budget, held=number)


def _attached(value: str, params: dict[str, str], content: Content, number: int) -> Iterator[Defect | Content]:
    """An ``ATTACH`` given inline (RFC 5545 §3.8.1.1): its bytes as nested content of its FMTTYPE."""
    try:
        data = base64.b64decode("".join(value.split()), validate=False)
    except (binascii.Error, ValueError) as exc:
        yield Defect(DefectKind.BROKEN_DOCUMENT, f"line {number}: an inline ATTACH that is not base64 ({exc}): "
                     "not read", content.origin, None)
        return
    kind = kind_of(params.get("FMTTYPE", "").lower())
    if kind is not None:
        yield Content(data, kind, content.origin, content.layer, budget=content.budget, held=number)


class _LineStarts:
    """The (line, column) of an offset in the text, looked up forward: offsets come in order."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.line, self.start, self.upto = 1, 0, 0

    def place(self, offset: int) -> tuple[int, int]:
        text = self.text
        if offset < self.upto:  # (never, as the lines are read in order; kept right all the same)
            self.line, self.start, self.upto = 1, 0, 0
        at = text.find("\n", self.upto, offset)
        while at != -1:
            self.line += 1
            self.start = at + 1
            at = text.find("\n", at + 1, offset)
        self.upto = offset
        return self.line, offset - self.start + 1


__all__ = ["TEXT_PROPERTIES", "URI_PROPERTIES", "read_calendar"]
