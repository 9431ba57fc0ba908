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
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...model import Content, Defect, Place, Record, Style, Tally, Where
from ...stages.charset import content_text
from ...stages.found_to_record import Tail
from ...stages.options import ScanOptions
from ...uri import patterns
from .marks import Mark, records

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
_END = {name: patterns.compile(r"\\end\{%s\*?+\}" % name) for name in ("verbatim", "Verbatim", "lstlisting", "minted",
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
    marked: list[Mark] = []
    covered: list[tuple[int, int, bool]] = []
    unended: set[str] = set()  # environments whose \end was looked for and not found
    at = 0
    search = _TOKEN.search
    while (found := search(text, at)) is not None:
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
            delimiter = found.group(5)
            close = text.find(delimiter, at, _line_end(text, at))
            if close != -1:
                covered.append((start, close + 1, True))
                at = close + 1
    yield from records(text, tail, options, marked, covered, LINK, IN_CODE)


def _line_end(text: str, at: int) -> int:
    end = text.find("\n", at)
    return len(text) if end == -1 else end


def read_bibtex(content: Content, options: ScanOptions, tally: Tally) -> Iterator[Record | Defect | Content]:
    """The records of a BibTeX database: its ``url`` and ``doi`` fields, and the text scanner's finds."""
    text, decoding, defects = content_text(content, options.charset)
    yield from defects
    tail = Tail(content.layer, content.origin, decoding, browser=options.browser, needs=options.needs)
    marked: list[Mark] = []
    covered: list[tuple[int, int, bool]] = []
    at = 0
    search = _FIELD.search
    while (found := search(text, at)) is not None:
        at = found.end()
        if found.group(2) == "{":
            end, stop = _argument(text, at)
        else:
            quote = text.find('"', at, _line_end(text, at))
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
    yield from records(text, tail, options, marked, covered, BIB_LINK, BIB_IN_CODE)
