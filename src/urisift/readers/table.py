"""CSV and TSV tables (RFC 4180; IANA's text/tab-separated-values): each cell read as text.

- A cell is read by the text scanner on its own, so that no reference crosses
  a cell's end: ``1,https://x.example/a.html,Template`` gives
  ``https://x.example/a.html`` (RFC 4180 §2.4: fields are separated by the
  delimiter; the scanner would otherwise read ``,Template`` into the path).
- A quoted cell (RFC 4180 §2.5-§2.7) may hold the delimiter and line breaks, and
  ``""`` stands for one quote; its positions are the file's.  A quote that never
  closes is a ``broken-document`` defect, and what follows it is read as that
  cell's text (nothing is lost).  Text after a closing quote, before the
  delimiter, is the cell's too (as Python's csv module reads it).
- Records have ``where`` ``csv``, ``element`` the cell in the R1C1 notation
  of spreadsheets (``R3C2``: row 3, column 2, both counted from 1, the header
  row being row 1), and ``header`` the header row's name for the column where
  the first row is a header row (RFC 4180 §2.3: names, not data; told as
  Python's csv.Sniffer tells it, by their being no data: none empty, none a
  number, none holding a URI or a path); their span, line and column are
  where the reference stands in the file.
- The delimiter is sniffed from the first lines (at most :data:`SNIFF` characters):
  comma, semicolon, tab or bar, whichever splits them into the same number of
  cells; a name ending in ``.tsv`` or ``.tab`` prefers the tab.

Streaming, in linear time and bounded memory: the text arrives in decoded
pieces, a cell is scanned in pieces of :data:`PIECE` characters cut where no
reference can span the cut (a 100 MB cell costs no more than a 1 MiB one),
and no row is held: only the header's names, of the first
:data:`MAX_COLUMNS` columns.  A row of more columns than that (a million
commas) is a ``bomb`` defect, said once, and its cells past the bound are
passed over.
"""

from __future__ import annotations

import io
import re
from bisect import bisect_right
from collections.abc import Iterator

from ..model import Charset, Content, Defect, DefectKind, Place, Record, Span, Tally, Where
from ..model.events import is_message
from ..stages.charset import decode_stream
from ..stages.delimit import Scanner, may_hold_reference, safe_cut
from ..stages.found_to_record import Tail
from ..stages.options import ScanOptions

#: the columns a row is read in (Excel's bound: 16,384); past it, a row's cells are passed over
MAX_COLUMNS = 1 << 14
#: a cell's text is scanned in pieces of about this many characters
PIECE = 1 << 20
#: the characters the delimiter is sniffed from
SNIFF = 1 << 16
_DELIMITERS = (",", ";", "\t", "|")
_NUMBER = re.compile(r"[-+]?[0-9.,]+%?")
_NOT_A_NAME = re.compile(r"[:/@\\]")
_LONGEST_NAME = 128


def sniff_delimiter(sample: str, tab_first: bool = False) -> str:
    """The delimiter of a table whose first characters are ``sample``: the
    candidate that splits its first complete lines (up to 20, quotes
    skipped) into the same number of cells, more than one, in most lines."""
    lines = _QUOTED.sub("", sample[:SNIFF]).split("\n")
    if len(lines) > 1:
        lines = lines[:-1]  # (the last may be cut short)
    lines = [line for line in lines[:20] if line.strip()]
    order = ("\t", ",", ";", "|") if tab_first else _DELIMITERS
    best, score = order[0] if tab_first else ",", 0
    for candidate in order:
        counts = [line.count(candidate) for line in lines]
        if not counts or counts[0] == 0:
            continue
        agree = sum(1 for count in counts if count == counts[0])
        if agree > score:
            best, score = candidate, agree
    return best


_QUOTED = re.compile(r'"[^"]*+"')


class _Cell:
    """The text of the cell being read, as (offset in the cell's text, offset
    in the file) segments: a quote doubled inside a quoted cell is one
    character of its text, which then stands one character further on."""

    __slots__ = ("at", "texts", "offsets", "length", "line", "line_start")

    def __init__(self, line: int, line_start: int) -> None:
        # the line the cell's text starts on, and the file offset that line starts at
        self.line, self.line_start = line, line_start
        self.texts: list[str] = []
        self.at: list[int] = []  # each segment's offset in the cell's text
        self.offsets: list[int] = []  # each segment's offset in the file
        self.length = 0

    def add(self, text: str, offset: int) -> None:
        if text:
            self.texts.append(text)
            self.at.append(self.length)
            self.offsets.append(offset)
            self.length += len(text)

    def file_offset(self, at: int) -> int:
        k = bisect_right(self.at, at) - 1
        return self.offsets[k] + at - self.at[k]

    def cut(self, keep_from: int) -> None:
        """Drop the cell's text before ``keep_from`` (it was scanned)."""
        whole = "".join(self.texts)
        newlines = whole.count("\n", 0, keep_from)
        if newlines:
            self.line += newlines
            self.line_start = self.file_offset(whole.rfind("\n", 0, keep_from) + 1)
        text = whole[keep_from:]
        offset = self.file_offset(keep_from) if keep_from < self.length else 0
        self.texts, self.at, self.offsets, self.length = [], [], [], 0
        self.add(text, offset)


class _Reading:
    """One table read: the parse of RFC 4180 §2 over decoded pieces, and each
    cell's text scanned."""

    def __init__(self, pieces: Iterator[tuple[str, list[Defect]]], tail: Tail, options: ScanOptions,
                 content: Content) -> None:
        self.pieces = pieces
        self.tail = tail
        self.options = options
        self.origin = content.origin
        self.buf, self.pos, self.base = "", 0, 0  # the text at hand, where the parse is in it, its file offset
        self.ended = False
        self.defects: list[Defect] = []
        self.line, self.line_start = 1, 0  # the line the parse is on, and the file offset it starts at
        self.row, self.col = 1, 1
        self.header: list[str] | None = None
        self.first_row: list[str] | None = []
        self.wide_told = False
        self.places: dict[tuple[int, int], Place] = {}

    def _more(self) -> bool:
        """Read the next piece onto the text at hand; False at the end."""
        if self.ended:
            return False
        item = next(self.pieces, None)
        if item is None:
            self.ended = True
            return False
        piece, defects = item
        self.defects.extend(defects)
        self.base += self.pos
        self.buf, self.pos = self.buf[self.pos:] + piece, 0
        return True

    def _at_end(self) -> bool:
        """Whether the text is all parsed (pieces are read until one holds more, or there are none)."""
        while self.pos >= len(self.buf):
            if not self._more():
                return True
        return False

    def _passed(self, start: int, end: int) -> None:
        """The text at hand from ``start`` to ``end`` was parsed: count its lines."""
        newlines = self.buf.count("\n", start, end)
        if newlines:
            self.line += newlines
            self.line_start = self.base + self.buf.rfind("\n", start, end) + 1

    def read(self, delimiter: str) -> Iterator[Record | Defect]:
        stops = re.compile("[" + re.escape(delimiter) + "\r\n]")
        while True:
            if self.defects:
                yield from self.defects
                self.defects = []
            if self._at_end():
                return
            cell = _Cell(self.line, self.line_start)
            if self.buf[self.pos] == '"':
                yield from self._quoted(cell)
            yield from self._unquoted(cell, stops)
            yield from self._flush(cell, last=True)
            if self._at_end():
                self._row_end()
                return
            stop = self.buf[self.pos]
            self._passed(self.pos, self.pos + 1)
            self.pos += 1
            if stop == delimiter:
                self.col += 1
                if self.col > MAX_COLUMNS and not self.wide_told:
                    self.wide_told = True
                    yield Defect(DefectKind.BOMB, f"row {self.row} has more than {MAX_COLUMNS} columns: the cells "
                                 f"past column {MAX_COLUMNS} are not read, in it and in the rows after it",
                                 self.origin, None)
                continue
            if stop == "\r" and not self._at_end() and self.buf[self.pos] == "\n":  # CR LF (RFC 4180 §2.1)
                self._passed(self.pos, self.pos + 1)
                self.pos += 1
            self._row_end()

    def _row_end(self) -> None:
        if self.first_row is not None:
            names = self.first_row
            self.first_row = None
            if all(name.strip() and len(name) <= _LONGEST_NAME and _NUMBER.fullmatch(name.strip()) is None
                   and _NOT_A_NAME.search(name) is None for name in names):
                self.header = [name.strip() for name in names]
        self.row += 1
        self.col = 1

    def _quoted(self, cell: _Cell) -> Iterator[Record | Defect]:
        """A quoted cell (RFC 4180 §2.5-§2.7), from its opening quote to its closing one."""
        opened_row, opened_col = self.row, self.col
        self.pos += 1
        while True:
            close = self.buf.find('"', self.pos)
            if close == -1:
                cell.add(self.buf[self.pos:], self.base + self.pos)
                self._passed(self.pos, len(self.buf))
                self.pos = len(self.buf)
                if cell.length >= 2 * PIECE:
                    yield from self._flush(cell, last=False)
                if not self._more():
                    yield Defect(DefectKind.BROKEN_DOCUMENT, f"row {opened_row}, column {opened_col}: a quote that "
                                 "never closes: the rest of the table is read as the text of that cell",
                                 self.origin, None)
                    return
                continue
            cell.add(self.buf[self.pos:close], self.base + self.pos)
            self._passed(self.pos, close)
            if close + 1 >= len(self.buf):
                self.pos = close
                if self._more():
                    continue  # (the quote is looked at again with what follows it)
                self.pos = close + 1
                return
            if self.buf[close + 1] == '"':  # "" is one quote, the second of the two standing for it
                self.pos = close + 1
                cell.add('"', self.base + self.pos)
                self.pos += 1
                continue
            self.pos = close + 1
            return

    def _unquoted(self, cell: _Cell, stops: re.Pattern[str]) -> Iterator[Record | Defect]:
        """Text up to the delimiter or the row's end (the whole of an unquoted cell; what follows a closing quote)."""
        while True:
            stop = stops.search(self.buf, self.pos)
            end = len(self.buf) if stop is None else stop.start()
            cell.add(self.buf[self.pos:end], self.base + self.pos)
            self._passed(self.pos, end)
            self.pos = end
            if stop is not None:
                return
            if cell.length >= 2 * PIECE:
                yield from self._flush(cell, last=False)
            if not self._more():
                return

    def _place(self) -> Place:
        key = (self.row, self.col)
        place = self.places.get(key)
        if place is None:
            if len(self.places) > 4096:
                self.places.clear()
            header = self.header
            name = header[self.col - 1] if header is not None and self.col <= len(header) else None
            place = self.places[key] = Place(Where.CSV, element=f"R{self.row}C{self.col}", header=name)
        return place

    def _flush(self, cell: _Cell, *, last: bool) -> Iterator[Record]:
        """Scan the cell's text (``last``: all of it; else up to a safe cut, the rest kept)."""
        if self.col > MAX_COLUMNS:
            cell.cut(cell.length)
            return
        text = "".join(cell.texts)
        if self.first_row is not None and last and self.col <= MAX_COLUMNS:
            self.first_row.append(text[:_LONGEST_NAME + 1])
        cut = len(text) if last else safe_cut(text)
        body = text[:cut]
        if body and (self.options.refang or may_hold_reference(body)):
            place = self._place()
            upto, row_line, row_start = 0, cell.line, cell.line_start
            for found in Scanner(body, abbreviated=self.options.abbreviated, refang=self.options.refang):
                start, end = found.start, found.end
                assert start is not None and end is not None
                newlines = body.count("\n", upto, start)
                if newlines:
                    row_line += newlines
                    row_start = cell.file_offset(body.rfind("\n", upto, start) + 1)
                upto = start
                at = cell.file_offset(start)
                span = Span(at, cell.file_offset(end - 1) + 1)
                yield self.tail(found._replace(start=span[0], end=span[1], place=place), span, row_line,
                                at - row_start + 1)
        if not last:
            cell.cut(cut)  # (the cell's next piece counts its lines from the cut)


def read_table(content: Content, options: ScanOptions, tally: Tally) -> Iterator[Record | Defect]:
    """A CSV or TSV table: each cell's text scanned on its own (see the module's doc)."""
    body = content.body
    if is_message(body):
        raise TypeError("a parsed message is content of kind mail only")
    pieces: Iterator[tuple[str, list[Defect]]]
    decoding: Charset | None
    if isinstance(body, str):
        pieces, decoding = iter([(body, [])]), content.decoding
    else:
        stream = io.BytesIO(body) if isinstance(body, bytes) else body
        choice, pieces = decode_stream(stream, declared=content.declared or options.charset, origin=content.origin,
                                       chunk_size=options.chunk_size)
        decoding = Charset(choice.name, choice.source)
    tail = Tail(content.layer, content.origin, decoding, browser=options.browser, needs=options.needs)
    reading = _Reading(pieces, tail, options, content)
    first = reading._more()
    if not first:
        yield from reading.defects
        return
    name = (content.origin.file or "").lower()
    delimiter = sniff_delimiter(reading.buf, name.endswith((".tsv", ".tab", ".tsv.gz")))
    yield from reading.read(delimiter)
