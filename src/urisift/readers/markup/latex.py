"""A LaTeX document and a BibTeX database → their records.

LaTeX:

- ``\\url{...}`` and ``\\href{url}{text}`` (hyperref): ``a``/``href``,
  style ``markup``, at the URL; hyperref's escapes (``\\#``, ``\\%``,
  ``\\_``, ``\\&``, ``\\~``) read as their characters;
- ``\\includegraphics[...]{path}``: ``img``/``src``;
- ``\\input{file}``, ``\\include{file}`` and ``\\subfile{file}``: element
  ``input``/``include``/``subfile``, attribute None, references never
  followed or read;
- the text scanner's finds in the rest (a URL written bare), ``a``/``href``.

The ``verbatim``, ``Verbatim``, ``lstlisting`` and ``minted`` environments
and ``\\verb`` are code: their URLs are found with the ``code`` flag.
Comments (``%`` to the end of the line) and the ``comment`` environment
are not scanned.

BibTeX: an entry's ``url`` field is ``a``/``href`` and its ``doi`` field the
URL ``https://doi.org/<doi>`` (the DOI resolver's, as biblatex links it),
style ``markup``; the rest of a database is read by the text scanner.

Python has no TeX parser that gives positions (pylatexenc reads macros but
was not measured against this; TeX itself cannot be parsed without running
it).  This is a scanner of the link commands alone, linear in the document:
one left-to-right search for a comment, a command or an environment, each
argument read by counting braces to its end (an argument never closed by a
blank line is none, and the search goes on from where the count stopped).
Every search that could run again from the same place keeps its answer while
it lies ahead: the end of the line (``\\verb`` and a quoted field look for
their end on their line), each ``\\verb`` delimiter's next place on it, an
environment's ``\\end``.  Its marks are handed on in batches
(:func:`.marks.streamed`), the time budget looked at between them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...model import Content, Defect, Place, Record, Style, Tally, Where
from ...stages.charset import content_text
from ...stages.found_to_record import Tail
from ...stages.options import ScanOptions
from ...uri import patterns
from .marks import PIECE, Batch, Mark, streamed

LINK = Place(Where.LATEX, "a", "href")
IMAGE = Place(Where.LATEX, "img", "src")
IN_CODE = Place(Where.LATEX)
_PLACES = {"url": LINK, "href": LINK, "includegraphics": IMAGE, "input": Place(Where.LATEX, "input"),
           "include": Place(Where.LATEX, "include"), "subfile": Place(Where.LATEX, "subfile")}
BIB_LINK = Place(Where.BIBTEX, "a", "href")
BIB_IN_CODE = Place(Where.BIBTEX)

# a comment, a link command with its optional argument, a verbatim environment, \verb
_TOKEN = patterns.compile(r"(?<!\\)((?:\\\\)*+)(?:(%)[^\n]*+|"
                    r"\\(url|href|includegraphics|input|include|subfile)\*?+[ \t]*+(?:\[[^\]\n]{0,1000}+\][ \t]*+)?\{|"
                    r"\\begin\{(verbatim|Verbatim|lstlisting|minted|comment)\*?+\}|"
                    r"\\verb\*?+([^\sA-Za-z*]))")
# the end of each environment whose content is not prose: "\end{verbatim}" ("\end{verbatim*}")
_END = {name: patterns.compile(rf"\\end\{{{name}\*?+\}}") for name in ("verbatim", "Verbatim", "lstlisting", "minted",
                                                                    "comment")}
_TEX_ESCAPE = patterns.compile(r"\\([#%&_~$])")
# a BibTeX field that holds a link: its name, "=", the value's opening brace or quote
_FIELD = patterns.compile(r"(?<![\w-])(url|doi)[ \t\r\n]*+=[ \t\r\n]*+([{\"])", re.IGNORECASE)
_DOI_PREFIX = patterns.compile(r"(?i:doi:|https?://(?:dx\.)?doi\.org/)[ \t]*+")


def _argument(text: str, start: int) -> tuple[int, int]:
    """The end of a braced argument whose ``{`` is just before ``start``,
    counting nested braces (``\\{`` and ``\\}`` are characters): ``(end, end)``
    with ``end`` at its ``}``, or ``(-1, stop)`` where it ends unclosed (a
    blank line, the end of the text)."""
    depth = 1
    at = start
    n = len(text)
    while at < n:
        c = text[at]
        if c == "\\":
            at += 2
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return at, at
        elif c == "\n" and text.startswith("\n", at + 1):
            return -1, at
        at += 1
    return -1, n


def read_latex(content: Content, options: ScanOptions, tally: Tally) -> Iterator[Record | Defect | Content]:
    """The records of a LaTeX document."""
    text, decoding, defects = content_text(content, options.charset)
    yield from defects
    tail = Tail(content.layer, content.origin, decoding, browser=options.browser, needs=options.needs)
    yield from streamed(content, text, tail, options, _latex(text), LINK, IN_CODE)


def _latex(text: str) -> Iterator[Batch]:
    """The LaTeX scanner's marks and covered ranges, a batch every :data:`.marks.PIECE` characters."""
    marked: list[Mark] = []
    covered: list[tuple[int, int, bool]] = []
    unended: set[str] = set()  # environments whose \end was looked for and not found
    lines = _Lines(text)
    at = 0
    piece_end = PIECE
    search = _TOKEN.search
    while (found := search(text, at)) is not None:
        if at >= piece_end:  # (every mark and range to come starts at or after ``at``)
            yield Batch(at, marked, covered, [])
            marked, covered = [], []
            piece_end = at + PIECE
        start = found.start() + len(found.group(1))
        at = found.end()
        command, environment = found.group(3), found.group(4)
        if found.group(2) is not None:
            covered.append((start, at, False))
        elif command is not None:
            end, stop = _argument(text, at)
            if end == -1:
                at = max(stop, at)
                continue
            covered.append((start, end + 1, False))
            raw = text[at:end]
            value = raw.strip()
            if value:
                first = at + len(raw) - len(raw.lstrip())
                uri = _TEX_ESCAPE.sub(r"\1", value) if command == "href" or command == "url" else value
                marked.append(Mark(first, first + len(value), uri, Style.MARKUP, _PLACES[command]))
            at = end + 1
        elif environment is not None:
            if environment in unended:
                continue
            closing = _END[environment].search(text, at)
            if closing is None:  # (an "\end{verbatim" with no "}" ends nothing: it once sent the search back to 0)
                unended.add(environment)
                continue
            covered.append((start, closing.end(), environment != "comment"))
            at = closing.end()
        else:
            close = lines.find(found.group(5), at)
            if close != -1:
                covered.append((start, close + 1, True))
                at = close + 1
    yield Batch(len(text) + 1, marked, covered, [])


class _Lines:
    """Searches on the line a place stands on, each answer kept while it is
    still ahead: a line of a million ``\\verb!x!`` (or quoted fields) looks
    for its end once, not once a construct, and for each delimiter's next
    place once from each place it was passed."""

    __slots__ = ("text", "end", "next_of")

    def __init__(self, text: str) -> None:
        self.text = text
        self.end = -1  # the end of the line last looked at (its line break, or the text's end)
        self.next_of: dict[str, int] = {}  # a character -> its next place on that line, -1 for none

    def line_end(self, at: int) -> int:
        """The end of the line ``at`` stands on."""
        if self.end < at:
            end = self.text.find("\n", at)
            self.end = len(self.text) if end == -1 else end
            self.next_of.clear()  # (the places known were those of another line)
        return self.end

    def find(self, character: str, at: int) -> int:
        """Where ``character`` next stands from ``at`` on its line, or -1."""
        line_end = self.line_end(at)
        known = self.next_of.get(character)
        if known is None or -1 < known < at:
            known = self.next_of[character] = self.text.find(character, at, line_end)
        return known


def read_bibtex(content: Content, options: ScanOptions, tally: Tally) -> Iterator[Record | Defect | Content]:
    """The records of a BibTeX database: its ``url`` and ``doi`` fields, and the text scanner's finds."""
    text, decoding, defects = content_text(content, options.charset)
    yield from defects
    tail = Tail(content.layer, content.origin, decoding, browser=options.browser, needs=options.needs)
    yield from streamed(content, text, tail, options, _bibtex(text), BIB_LINK, BIB_IN_CODE)


def _bibtex(text: str) -> Iterator[Batch]:
    """The BibTeX fields' marks and covered ranges, a batch every :data:`.marks.PIECE` characters."""
    marked: list[Mark] = []
    covered: list[tuple[int, int, bool]] = []
    lines = _Lines(text)
    at = 0
    piece_end = PIECE
    search = _FIELD.search
    while (found := search(text, at)) is not None:
        if at >= piece_end:
            yield Batch(at, marked, covered, [])
            marked, covered = [], []
            piece_end = at + PIECE
        at = found.end()
        if found.group(2) == "{":
            end, stop = _argument(text, at)
        else:
            quote = lines.find('"', at)
            end, stop = (quote, quote) if quote != -1 else (-1, at)
        if end == -1:
            at = max(stop, at)
            continue
        covered.append((found.start(), end + 1, False))
        raw = text[at:end]
        value = raw.strip()
        first = at + len(raw) - len(raw.lstrip())
        at = end + 1
        if not value:
            continue
        if found.group(1).lower() == "doi":
            prefix = _DOI_PREFIX.match(value)
            doi = value[prefix.end():] if prefix is not None else value
            uri = "https://doi.org/" + doi
        else:
            uri = _TEX_ESCAPE.sub(r"\1", value)
        marked.append(Mark(first, first + len(value), uri, Style.MARKUP, BIB_LINK))
    yield Batch(len(text) + 1, marked, covered, [])
