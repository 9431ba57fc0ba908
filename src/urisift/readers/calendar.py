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
from ..stages.delimit import Scanner, may_hold_reference
from ..stages.found_to_record import Tail
from ..stages.media import kind_of
from ..stages.options import ScanOptions
from ..uri import patterns

#: the properties whose value is a URI (RFC 5545 §3.8, RFC 7986 §5, RFC 6350 §6)
URI_PROPERTIES = frozenset({
    "URL", "ATTACH", "ORGANIZER", "ATTENDEE", "CONFERENCE", "IMAGE", "TZURL", "SOURCE",
    "PHOTO", "LOGO", "SOUND", "KEY", "IMPP", "MEMBER", "RELATED", "CALURI", "CALADRURI", "FBURL",
})
#: the TEXT properties read as prose
TEXT_PROPERTIES = frozenset({"DESCRIPTION", "SUMMARY", "LOCATION", "COMMENT", "NOTE"})


def _head(unless: str) -> str:
    """A content line's name and parameters, up to the colon before its value, as groups 1 and 2 (quoted
    parameter values may hold ':' and ';', RFC 5545 §3.1), no class matching a character of ``unless``.

    It matches a line one way at most: each run stops only where the next part starts ("." ";" "=" "," ":" or
    a quote, none of them a character of the run), so it can be read possessively, nothing given back (and a
    line whose first physical line holds its head has that head unfolded too)."""
    value = f'(?:"[^"{unless}]*+"|[^";:,{unless}]*+)'
    return rf"([A-Za-z0-9-]++(?:\.[A-Za-z0-9-]++)?)((?>(?:;[A-Za-z0-9-]++(?:={value}(?>(?:,{value})*))?)*)):"


_HEAD = patterns.compile(_head(""))  # (vCard 2.1's parameters may be bare: URL;WORK:)
_PARAM = re.compile(r';([A-Za-z0-9-]+)=("[^"]*"|[^";:]*)')
_UNESCAPE = re.compile(r"\\([nN,;\\])")
_BREAKS = re.compile(r"(\r\n|\n|\r)")  # (split on, the breaks kept: their lengths place the pieces)
_FOLD = re.compile(r"(?:\r\n|\n|\r)[ \t]")  # (a fold: in a content line's folds, each break starts one)
#: any character but CR and LF, [^\r\n], spelt as the ranges of the others: the engine tests a character against
#: ranges by one table look-up, against a negated pair literal by literal (2.6 times as long: most of a calendar's
#: characters are read by it)
_IN_LINE = r"[\x00-\x09\x0b\x0c\x0e-\U0010ffff]"
#: a content line: its name and parameters when its first physical line starts with them (as _HEAD, no class
#: crossing a line break), the rest of that line, the folded lines after it (each a break and a space or a tab:
#: RFC 5545 §3.1), and the break that ends it (none at the text's end).  One match a line; the folds repeated
#: atomically, so that a line folded 130,000 times keeps no mark a fold (uri/patterns.py)
_CONTENT_LINE = patterns.compile(
    "(?:" + _head(r"\r\n") + rf")?({_IN_LINE}*+)((?>(?:(?:\r\n|\n|\r)[ \t]{_IN_LINE}*+)*))(?:\r\n|\n|\r|\Z)")
#: the properties read at all
_READ = URI_PROPERTIES | TEXT_PROPERTIES | {"EMAIL", "X-ALT-DESC"}
_NO_PARAMS: dict[str, str] = {}
#: a parameter the reader looks at may stand in a line's parameters (a screen: a quoted value may say it too)
_MAY_MATTER = re.compile(r";(?:ENCODING|VALUE|FMTTYPE)=", re.IGNORECASE)
_ABBREVIATED = re.compile(r"(www|ftp)\.[^\s/]+\.[^\s]", re.IGNORECASE)


def _unescaped(text: str) -> str:
    """A TEXT value unescaped (RFC 5545 §3.3.11)."""
    if "\\" not in text:
        return text
    if "\\\\" not in text:
        # (no escaped backslash: no backslash is another escape's second character, so one escape after the
        # other, in C, reads as the pattern does; most descriptions escape "," and line breaks alone)
        return text.replace("\\n", "\n").replace("\\N", "\n").replace("\\,", ",").replace("\\;", ";")
    return _UNESCAPE.sub(lambda m: "\n" if m.group(1) in "nN" else m.group(1), text)


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
    places: dict[str, Place] = {}  # (one a property: a Place is a frozen value, and costs a microsecond to make)
    # (a text with no ":" and no www./ftp. holds nothing the scanner finds; a defanged one may, read back)
    screened = not options.refang
    abbreviating, refang = options.abbreviated, options.refang
    header, abbreviation = Style.HEADER, Style.ABBREVIATED  # (looked up once: each Style.X costs 0.1 µs)
    number = 0  # the line number in the file where the line starts (RFC 5545 §3.1: its first physical line)
    for match in _CONTENT_LINE.finditer(text):
        number += 1
        number_here = number
        name, raw, value, folds = match.groups()
        pieces: list[tuple[int, int]] | None = None  # (None: one physical line, whose offsets are the text's, shifted)
        if name is not None:
            # its name and parameters stand on its first physical line, and a fold after them changes neither
            # (see _head): the line is unfolded only when its property is read, and its head is not read again
            value_at = len(name) + len(raw) + 1  # (the head, from the line's start: its name, parameters and ":")
            if name not in _READ:  # (the names as most writers write them: upper case, no group)
                name = name.rpartition(".")[2].upper()  # (vCard's group prefix: item1.URL)
                if name not in _READ:
                    if folds:
                        number += _breaks(folds)
                    continue
            if folds and (name in URI_PROPERTIES or name == "EMAIL"):  # (where its value stands is needed)
                line, pieces = _unfolded(match)
                number += len(pieces) - 1
                value = line[value_at:]
            elif folds:
                unfolded, count = _unfold(folds)
                number += count
                value += unfolded
        elif folds:  # a fold in its name or parameters: the line unfolded, and its name and parameters read in it
            line, pieces = _unfolded(match)
            number += len(pieces) - 1
            head = _HEAD.match(line)
            if head is None:
                continue
            name, raw = head.group(1, 2)
            value, value_at = line[head.end():], head.end()
            name = name.rpartition(".")[2].upper()
            if name not in _READ:
                continue
        else:
            continue
        stripped = value.strip()
        if not stripped:
            continue
        # (only ENCODING, VALUE and FMTTYPE are read: an ATTENDEE's CN or RSVP is not parsed for nothing)
        params = _params(raw) if raw and _MAY_MATTER.search(raw) is not None else _NO_PARAMS
        if name in URI_PROPERTIES:
            if params is _NO_PARAMS:
                value_type, inline = "", False
            else:
                value_type = params.get("VALUE", "").upper()
                inline = value_type == "BINARY" or params.get("ENCODING", "").upper() in ("BASE64", "B")
            if not inline and value_type != "TEXT":
                reference = stripped
                # (where it starts in the line: past the white space before it, if any)
                start = value_at if len(reference) == len(value) else value_at + (len(value) - len(value.lstrip()))
                at = match.start() + start if pieces is None else _in_text(pieces, start)
                row, column = line_starts.place(at)
                # (vCard 2.1's writers put a bare www. name in URL: the abbreviated form, RFC 3986 Appendix F)
                abbreviated = _ABBREVIATED.match(reference) if reference[:1] in "wWfF" else None
                expanded = None if abbreviated is None else ("ftp://" if abbreviated.group(1).lower() == "ftp"
                                                             else "http://") + reference
                place = places.get(name) or places.setdefault(name, Place(where, header=name))
                found = new_found(reference, at, at + len(reference), header if expanded is None else abbreviation,
                                  (), (), expanded, place)
                end = at + len(reference) if pieces is None else _in_text(pieces, start + len(reference) - 1) + 1
                yield tail(found, Span(at, end), row, column)
            elif name == "ATTACH" and inline:
                yield from _attached(value, params, content, number_here)
        elif name == "EMAIL":
            if "@" in value:
                yield _email(value, value_at, pieces or [(0, match.start())], line_starts, tail)
        elif name in TEXT_PROPERTIES:
            unescaped = _unescaped(value)
            if screened and not may_hold_reference(unescaped):
                continue
            place = places.get(name) or places.setdefault(name, Place(where, header=name))
            for found in Scanner(unescaped, abbreviated=abbreviating, refang=refang):
                # (on the property's line: the unescaped text's columns are not the file's)
                reference, _, _, style, flags, alternatives, expanded, _ = found
                yield tail(new_found(reference, None, None, style, flags, alternatives, expanded, place), None,
                           number_here, None)
        elif params.get("FMTTYPE", "").lower() == "text/html":  # (X-ALT-DESC: Outlook's HTML description)
            yield Content(_unescaped(value), Kind.HTML, content.origin, content.layer, decoding=decoding,
                          budget=content.budget, held=number_here)


def _params(raw: str) -> dict[str, str]:
    """A content line's parameters (RFC 5545 §3.2), by their names in upper case, unquoted."""
    return {k.upper(): v.strip('"') for k, v in _PARAM.findall(raw)}


def _breaks(folds: str) -> int:
    """How many folds (a line break, CRLF, LF or CR, and a space or a tab) ``folds`` holds: its line breaks."""
    return folds.count("\n") + folds.count("\r") - folds.count("\r\n")


def _unfold(folds: str) -> tuple[str, int]:
    """The folded lines after a content line's first (RFC 5545 §3.1: each line break and the space or tab after
    it removed), and how many there were: :func:`_unfolded`'s pieces after the first, joined."""
    return _FOLD.subn("", folds)


def _unfolded(match: re.Match[str]) -> tuple[str, list[tuple[int, int]]]:
    """A folded content line (a :data:`_CONTENT_LINE` match) unfolded (RFC 5545 §3.1: each line break and the
    space or tab after it removed), and its pieces as (offset in the line, offset in the text)."""
    start, at = match.start(), match.start(4)
    first = match.string[start:at]  # (the whole first physical line: its name and parameters too)
    pieces, where, length = [first], [(0, start)], len(first)
    folds = match.group(4)
    rest, count = _FOLD.subn("", folds)
    if count == 1:  # (folded once, the commonest: its one piece after the break and the space or tab)
        return first + rest, [*where, (length, at + (3 if folds.startswith("\r\n") else 2))]
    parts = _BREAKS.split(folds)  # "", then each break and the physical line after it
    for i in range(1, len(parts), 2):
        at += len(parts[i]) + 1  # (past the break and the space or tab)
        piece = parts[i + 1][1:]
        pieces.append(piece)
        where.append((length, at))
        length += len(piece)
        at += len(piece)
    return "".join(pieces), where


def _email(value: str, value_at: int, pieces: list[tuple[int, int]], line_starts: _LineStarts, tail: Tail) -> Record:
    """vCard's ``EMAIL`` (RFC 6350 §6.4.2): an address, whose URI is ``mailto:``'s (RFC 6068)."""
    address = value.strip()
    offset = value_at + (len(value) - len(value.lstrip()))  # (in the line unfolded)
    start = _in_text(pieces, offset)
    row, column = line_starts.place(start)
    found = new_found(address, start, start + len(address), Style.HEADER, (), (), None,
                      Place(Where.TEXT, header="EMAIL"))
    # its span ends where its last character stands in the file: past the folds inside it, as a URL's does
    record = tail(found, Span(start, _in_text(pieces, offset + len(address) - 1) + 1), row, column)
    browser = record.browser_target
    return record._replace(target="mailto:" + address,
                           browser_target="mailto:" + address if isinstance(browser, str) else browser)


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

    __slots__ = ("text", "line", "start", "upto", "lone_cr")  # (a record each: its attributes read in slots)

    def __init__(self, text: str) -> None:
        self.text = text
        self.line, self.start, self.upto = 1, 0, 0
        # a CR alone ends a line too (RFC 5545 §3.1 asks for CRLF; old Mac writers end lines with CR), as the
        # reader's own count of lines has it
        self.lone_cr = "\r" in text and text.count("\r") != text.count("\r\n")

    def place(self, offset: int) -> tuple[int, int]:
        text, upto = self.text, self.upto
        if offset < upto:  # (never, as the lines are read in order; kept right all the same)
            self.line, self.start, upto = 1, 0, 0
        passed = text.count("\n", upto, offset)  # (counted in C: most properties are many lines apart)
        if self.lone_cr:
            passed += text.count("\r", upto, offset) - text.count("\r\n", upto, offset)
            if offset > upto and text[offset - 1] == "\r" and text.startswith("\n", offset):
                passed -= 1  # (a CRLF cut at ``offset``: its LF, still to come, is where the break is counted)
            if passed:
                self.line += passed
                self.start = max(text.rfind("\n", upto, offset), text.rfind("\r", upto, offset)) + 1
        elif passed:
            self.line += passed
            self.start = text.rfind("\n", upto, offset) + 1
        self.upto = offset
        return self.line, offset - self.start + 1


__all__ = ["TEXT_PROPERTIES", "URI_PROPERTIES", "read_calendar"]
