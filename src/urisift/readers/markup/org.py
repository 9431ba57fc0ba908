"""An Org document (Emacs Org mode's syntax) → its records.

- a bracket link, ``[[target][description]]`` and ``[[target]]``:
  ``a``/``href``, style ``markup``, at the target; a link with no
  description to an image file is ``img``/``src`` (Org shows it inline).
  ``file:`` is dropped from a file link (``file:a.org`` is the path
  ``a.org``, its ``::search`` option left out); ``#id`` stays a fragment;
  links inside the document (``*Heading``, ``<<target>>`` names, ``id:``,
  ``elisp:``, ``shell:``) are not URIs and are left out;
- ``#+INCLUDE: "file"``: element ``include``, attribute None, a reference
  never followed or read;
- an ``#+BEGIN_EXPORT html`` block handed back to the scan as nested HTML
  content, placed where it stands;
- the text scanner's finds in the prose (plain links, ``<https://x>``).

``#+BEGIN_SRC`` and ``#+BEGIN_EXAMPLE`` blocks and fixed-width lines
(``: ...``) are code: their URLs are found with the ``code`` flag.
Comments (``# ...`` lines, ``#+BEGIN_COMMENT``) and other keywords' lines
are not scanned.  A block never ended is no block, as Org reads it.

Org mode is Emacs Lisp; Python's parsers of it (orgparse) give no positions
for links.  This is a scanner of the link grammar alone, linear in the
document: one search for the lines that open a block or are a keyword or
comment, one search for the lines that end a block (each read once, kept by
name until a block of its name asks for it: n quote blocks before one end,
or n blocks of n names never ended, are read in linear time), and
one search for bracket links outside them, which runs the first only as far
as it needs (:class:`.marks.Ahead`).  The marks are handed on in batches
(:func:`.marks.streamed`), the time budget looked at between them.
"""

from __future__ import annotations

import heapq
import re
from collections import deque
from collections.abc import Iterator

from ...model import Content, Defect, Place, Record, Style, Tally, Where
from ...stages.charset import content_text
from ...stages.found_to_record import Tail
from ...stages.options import ScanOptions
from ...uri import patterns
from .marks import PIECE, Ahead, Batch, Gathered, Mark, ended, streamed

LINK = Place(Where.ORG, "a", "href")
IMAGE = Place(Where.ORG, "img", "src")
INCLUDE = Place(Where.ORG, "include")
IN_CODE = Place(Where.ORG)

# a line that opens a block, a keyword's line, a comment line or a fixed-width line
_LINE = patterns.compile(r"^[ \t]*+(?:#\+begin_(\w++)[^\n]*+|#\+(\w++):[ \t]*+([^\n]*+)|#(?:[ \t][^\n]*+)?|"
                   r"(:(?:[ \t][^\n]*+)?))$", re.MULTILINE | re.IGNORECASE)
# a line that ends a block, any block: its name
_END_LINE = patterns.compile(r"^[ \t]*+#\+end_(\w++)[ \t]*+$", re.MULTILINE | re.IGNORECASE)
_LINK = patterns.compile(r"\[\[((?:[^\[\]\\\n]|\\.)++)\](?:\[([^\[\]\n]*+)\])?\]")
_CODE_BLOCKS = frozenset({"src", "example"})
_IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".tif", ".tiff", ".bmp", ".xpm", ".pbm")
# link types whose target is no URI: Org's own (a heading, a radio target, an id) and commands
_NOT_URIS = ("id:", "elisp:", "shell:", "help:", "info:", "*")
_SCHEME = patterns.compile(r"[A-Za-z][A-Za-z0-9+.-]*+:")
_INCLUDED = patterns.compile(r"\"((?:[^\"\\\n]|\\.)*+)\"|(\S++)")


def read_org(content: Content, options: ScanOptions, tally: Tally) -> Iterator[Record | Defect | Content]:
    """The records of an Org document, and its HTML export blocks as nested content."""
    text, decoding, defects = content_text(content, options.charset)
    yield from defects
    tail = Tail(content.layer, content.origin, decoding, browser=options.browser, needs=options.needs)
    gathered = Gathered()
    yield from streamed(content, text, tail, options, _links(text, gathered, Ahead(_lines(text, gathered))), LINK,
                        IN_CODE)


class _Ends:
    """The lines that end a block, read once, in order: each kept under its
    name (lower case) until the block that asks for it, or one after it,
    is read (the blocks are asked for in order of their start)."""

    __slots__ = ("_lines", "_waiting")

    def __init__(self, text: str) -> None:
        self._lines: Iterator[re.Match[str]] | None = _END_LINE.finditer(text)
        self._waiting: dict[str, deque[tuple[int, int]]] = {}

    def after(self, name: str, at: int) -> tuple[int, int] | None:
        """The first line that ends a block named ``name`` at or after ``at``: ``(start, end)``."""
        waiting = self._waiting.get(name)
        while waiting:
            if waiting[0][0] >= at:
                return waiting[0]
            waiting.popleft()
        while self._lines is not None:
            line = next(self._lines, None)
            if line is None:
                self._lines = None
                break
            if line.start() < at:
                continue  # (every block to come starts after it)
            found = line.group(1).lower()
            span = line.span()
            self._waiting.setdefault(found, deque()).append(span)
            if found == name:
                return span
        return None


def _lines(text: str, gathered: Gathered) -> Iterator[tuple[int, int, int, bool]]:
    """The ranges of the lines and blocks that are not prose (a block, the
    lines that open and end a quote, a keyword's line, a comment, a
    fixed-width line) in order, each ``(start, end, where the search goes
    on, code?)``, added to ``gathered`` with the includes and HTML exports."""
    ends = _Ends(text)
    ahead: list[tuple[int, int, bool]] = []  # the lines that end a quote, a center ...: met before their start
    waiting: set[int] = set()  # their starts (n quotes ended by one line give it once)
    at = 0
    search = _LINE.search
    while (found := search(text, at)) is not None:
        start, line_end = found.start(), found.end()
        at = line_end
        name, keyword = found.group(1), found.group(2)
        ranges: list[tuple[int, int, bool]] = []
        if name is not None:
            name = name.lower()
            inside = min(line_end + 1, len(text))
            closing = ends.after(name, inside)
            if closing is None:
                continue
            if name in _CODE_BLOCKS:
                ranges.append((start, closing[1], True))
            elif name in ("comment", "export"):
                ranges.append((start, closing[1], False))
                if name == "export" and "html" in text[found.end(1):line_end].lower().split() and \
                        inside < closing[0]:
                    gathered.html.append((inside, closing[0]))
            else:
                ranges.append((start, line_end, False))  # a quote, a center ...: its lines are prose
                if closing[0] not in waiting:
                    waiting.add(closing[0])
                    heapq.heappush(ahead, (closing[0], closing[1], False))
                    gathered.covered.append((closing[0], closing[1], False))
            if name in _CODE_BLOCKS or name in ("comment", "export"):
                at = closing[1]
        elif keyword is not None:
            if keyword.lower() == "include":
                ranges.append((start, line_end, False))
                value = _INCLUDED.match(text, found.start(3), line_end)
                if value is not None:
                    group = 1 if value.group(1) is not None else 2
                    gathered.marked.append(Mark(value.start(group), value.end(group), value.group(group),
                                                Style.MARKUP, INCLUDE))
            elif keyword.lower() not in ("title", "caption", "description", "subtitle", "author"):
                ranges.append((start, line_end, False))
            # (a title, caption, description is prose, links and all)
        elif found.group(4) is not None:
            ranges.append((start, line_end, True))  # a fixed-width line
        else:
            ranges.append((start, line_end, False))  # a comment line
        for block in ranges:
            gathered.covered.append(block)
            while ahead and ahead[0] <= block:
                waiting.discard(ahead[0][0])
                first = heapq.heappop(ahead)
                yield first[0], first[1], min(at, ahead[0][0]) if ahead else at, first[2]
            yield block[0], block[1], min(at, ahead[0][0]) if ahead else at, block[2]
    while ahead:
        first = heapq.heappop(ahead)
        yield first[0], first[1], ahead[0][0] if ahead else len(text) + 1, first[2]


def _links(text: str, gathered: Gathered, blocks: Ahead) -> Iterator[Batch]:
    """The bracket links outside the ``blocks``, a batch every :data:`.marks.PIECE` characters."""
    upto = 0
    piece_end = PIECE
    search = _LINK.search
    while (found := search(text, upto)) is not None:
        if upto >= piece_end:
            yield gathered.batch(min(upto, blocks.frontier))
            piece_end = upto + PIECE
        start = found.start()
        block = blocks.holding(start)
        if block is not None and block[3]:
            upto = block[1]  # in code: go on past it
            continue
        upto = found.end()
        if block is not None:
            continue  # in a comment or a keyword's line
        gathered.covered.append((start, upto, False))
        target, at = found.group(1), found.start(1)
        stripped = target.strip()
        at += len(target) - len(target.lstrip())
        uri = stripped.replace("\\[", "[").replace("\\]", "]").replace("\\\\", "\\")
        if uri.startswith(_NOT_URIS) or not uri:
            continue
        if uri.startswith("file:"):
            uri = uri[5:].split("::", 1)[0]
        elif not uri.startswith(("#", ".", "/", "~")) and _SCHEME.match(uri) is None and "/" not in uri \
                and not uri.endswith(_IMAGE_SUFFIXES) and "." not in uri:
            continue  # a fuzzy link to a heading or a target of this document
        place = IMAGE if found.group(2) is None and uri.lower().endswith(_IMAGE_SUFFIXES) else LINK
        gathered.marked.append(Mark(at, at + len(stripped), uri, Style.MARKUP, place))
    yield from ended(blocks, gathered, piece_end, len(text))
