"""Two-dimensional codes drawn without an image, rebuilt as the bitmaps they draw (``--qr``), for the image
reader to decode: phishing draws a QR code in a mail's text or as an HTML table so that a scanner of images
finds none.

- *Block characters in text*: the half blocks ``▀`` (upper), ``▄`` (lower), ``█`` (full) and a space, each
  a column of two modules, top and bottom (as ``qrencode -t UTF8`` writes, and the 2:1 shape of a terminal's
  cell); without a half block, ``█`` (or ``▓``, ``■``) and the space each a module, a pair of characters a
  module where every run's length is even (``██`` is how a square module is drawn in text).  A block is a run
  of lines holding only these characters (a non-breaking space is a space), with :data:`MIN_LINES` lines or
  more of :data:`MIN_CELLS` characters or more; lines of one block may be indented alike.
- *An HTML table of cells*: a ``<table>`` whose ``<td>`` (or ``<th>``) cells are coloured by their ``bgcolor``
  or a ``background``/``background-color`` in their ``style`` (or inherit the row's, then the table's), each
  cell a module (``colspan`` spans modules); dark is a colour below half luminance (ITU-R BT.601 weights).
  Colours given by a class of a style sheet are not followed.

The bitmap is written as a PGM (Netpbm's "P5": a header and a byte a pixel, which Pillow reads), each module
:data:`SCALE` pixels square, with a quiet zone of 4 modules (ISO/IEC 18004 §6.3.8) of the colour of the
drawing's own border (an inverted code keeps its polarity).  Both rebuilds look at each character or tag
once, and are bounded: at most :data:`MAX_MODULES` modules a side and :data:`MAX_DRAWINGS` drawings a
document.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

from ..model import Content, Kind, origin_with
from ..uri import patterns

#: pixels a module is drawn in (the corners in the records count these pixels)
SCALE = 4
#: modules a side at most (a version 40 QR code is 177; a line of text art may draw a module with two characters)
MAX_MODULES = 200
#: drawings rebuilt from one document at most
MAX_DRAWINGS = 16
#: the lines, and the characters a line, a block of text must have (a Micro QR M1 is 11 modules square)
MIN_LINES = 5
MIN_CELLS = 10
QUIET = 4

_HALF = {"█": (1, 1), "▀": (1, 0), "▄": (0, 1), " ": (0, 0), "\u00a0": (0, 0)}
_FULL = {"█": 1, "▓": 1, "■": 1, " ": 0, "\u00a0": 0}
_BLOCKS = frozenset("█▀▄▓■")
#: a line of block characters and spaces only (after what the lines of a block share before them)
_ART = patterns.compile(r"[ \u00a0]*+[█▀▄▓■][█▀▄▓■ \u00a0]*+")
#: a run of one character of a full-block drawing
_RUNS = patterns.compile(r"█+| +|▓+|■+")
#: the quote marks before a quoted line of mail (RFC 3676 §4.5), and the space after them
_QUOTED = patterns.compile(r"(?:[ \t]{0,3}[>|]){1,20}+ ?")
_TAG = patterns.compile(r"<(/?)(table|tr|td|th)\b([^<>]{0,2000}+)>", re.IGNORECASE)
_ATTRIBUTE = patterns.compile(r"""([a-zA-Z-]{1,40})\s*=\s*(?:"([^"]{0,1000}+)"|'([^']{0,1000}+)'|([^\s"'>]{1,200}+))""")
_BACKGROUND = patterns.compile(r"background(?:-color)?\s*:\s*([^;]{1,100}+)", re.IGNORECASE)
_HEX = patterns.compile(r"#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})\b")
_RGB = patterns.compile(r"rgba?\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})")
#: colour names a table is drawn with (CSS Color 4 §6.1), by luminance: dark or light
_NAMED = {"black": True, "white": False, "navy": True, "darkblue": True, "maroon": True, "darkgreen": True,
          "green": True, "purple": True, "indigo": True, "darkslategray": True, "darkslategrey": True,
          "dimgray": True, "dimgrey": True, "gray": False, "grey": False, "silver": False, "yellow": False,
          "transparent": False, "whitesmoke": False, "snow": False, "ivory": False, "red": True, "blue": True}


class Drawing(NamedTuple):
    """A code drawn without an image: what it was drawn with (``text``, ``table``), where it starts (the
    1-based line and column of the document's text), and the bitmap rebuilt from it (a PGM)."""

    form: str
    line: int
    column: int
    bitmap: bytes


def as_images(drawings: Iterator[Drawing], around: Content) -> Iterator[Content]:
    """Each drawing's bitmap as nested content for the image reader, named ``drawn:FORM@LINE:COLUMN`` after
    the part of the content ``around`` it, in that content's document (its budget)."""
    for drawing in drawings:
        name = f"drawn:{drawing.form}@{drawing.line}:{drawing.column}"
        part = name if around.origin.part is None else f"{around.origin.part}!/{name}"
        yield Content(drawing.bitmap, Kind.IMAGE, origin_with(around.origin, part=part), around.layer,
                      budget=around.budget)


def may_hold_drawing(text: str) -> bool:
    """Whether ``text`` may hold a drawn code (a quick look before the rebuild's pass)."""
    return "█" in text or "▀" in text or "▄" in text or "▓" in text or "■" in text


def text_drawings(text: str) -> Iterator[Drawing]:
    """The codes drawn with block characters in ``text`` (see the module doc), one pass over its lines."""
    rows: list[str] = []
    tall = False
    first = column = number = count = 0
    for line in text.splitlines():
        number += 1
        art = _ART.fullmatch(line.rstrip(" \u00a0\t")) if any(c in _BLOCKS for c in line[:MAX_MODULES * 2]) \
            else None
        lead = 0
        if art is None and line[:1] in (">", "|", " ", "\t"):
            # (a line of a block may stand after a mail's quote marks: "> ██")
            quoted = _QUOTED.match(line)
            lead = 0 if quoted is None else quoted.end()
            art = _ART.fullmatch(line[lead:].rstrip(" \u00a0\t")) if lead and any(c in _BLOCKS for c in line) \
                else None
        if art is not None and len(line) - lead <= MAX_MODULES * 2 + 8:
            if tall:
                continue
            if not rows:
                first, column = number, lead + 1
            if len(rows) < MAX_MODULES:
                rows.append(line[lead:].rstrip("\t"))
            else:
                tall, rows = True, []  # (taller than any code: what it holds is not kept, up to its end)
        else:
            tall = False
            if rows:
                drawing = _text_block(rows, first, column)
                if drawing is not None:
                    count += 1
                    yield drawing
                    if count >= MAX_DRAWINGS:
                        return
            rows = []
    if rows:
        drawing = _text_block(rows, first, column)
        if drawing is not None:
            yield drawing


def _text_block(rows: list[str], line: int, column: int) -> Drawing | None:
    cells = max(len(row) for row in rows)
    if len(rows) < MIN_LINES or cells < MIN_CELLS or len(rows) > MAX_MODULES:
        return None
    rows = [row.ljust(cells) for row in rows]
    grid: list[list[int]]
    if any("▀" in row or "▄" in row for row in rows):
        grid = []
        for row in rows:
            pairs = [_HALF.get(c, (1, 1) if c in _BLOCKS else (0, 0)) for c in row]
            grid.append([top for top, _ in pairs])
            grid.append([bottom for _, bottom in pairs])
    else:
        grid = [[_FULL.get(c, 0) for c in row] for row in rows]
        if all(len(run) % 2 == 0 for row in rows for run in _RUNS.findall(row.rstrip())):
            grid = [r[::2] for r in grid]  # "██" a module: each pair of characters one
    return Drawing("text", line, column, bitmap(grid))


class _Cell(NamedTuple):
    dark: bool
    span: int


def table_drawings(html: str) -> Iterator[Drawing]:
    """The codes drawn as tables of coloured cells in the HTML source ``html`` (see the module doc): one
    pass over its table tags (a table inside a table's cell ends the outer one's grid)."""
    grid: list[list[_Cell]] | None = None
    table_dark = row_dark = None
    start = count = width = 0
    for m in _TAG.finditer(html):
        closing, name, attributes = m.group(1), m.group(2).lower(), m.group(3)
        if name == "table":
            if grid is not None:
                drawing = _table(grid, html, start)
                if drawing is not None:
                    count += 1
                    yield drawing
                    if count >= MAX_DRAWINGS:
                        return
            grid = None
            if not closing:
                grid, start, table_dark, row_dark = [], m.start(), _dark(attributes), None
        elif grid is None or closing:
            continue
        elif name == "tr":
            if len(grid) >= MAX_MODULES:
                grid = None
                continue
            grid.append([])
            width = 0
            row_dark = _dark(attributes)
        elif grid:
            dark = _dark(attributes)
            if dark is None:
                dark = row_dark if row_dark is not None else table_dark
            span = _colspan(attributes)
            width += span
            if width > MAX_MODULES:
                grid = None
                continue
            grid[-1].append(_Cell(bool(dark), span))
    if grid is not None:
        drawing = _table(grid, html, start)
        if drawing is not None:
            yield drawing


def _table(grid: list[list[_Cell]], html: str, start: int) -> Drawing | None:
    rows = [[cell.dark for cell in row for _ in range(cell.span)] for row in grid if row]
    if len(rows) < 10 or not rows or max(len(r) for r in rows) < 10:
        return None
    width = max(len(r) for r in rows)
    if not any(any(r) for r in rows) or all(all(r) for r in rows):
        return None
    line = html.count("\n", 0, start) + 1
    column = start - (html.rfind("\n", 0, start) + 1) + 1
    return Drawing("table", line, column, bitmap([[int(v) for v in r] + [0] * (width - len(r)) for r in rows]))


def _colspan(attributes: str) -> int:
    for m in _ATTRIBUTE.finditer(attributes):
        if m.group(1).lower() == "colspan":
            value = (m.group(2) or m.group(3) or m.group(4) or "").strip()
            return max(1, min(int(value), MAX_MODULES)) if value.isdigit() else 1
    return 1


def _dark(attributes: str) -> bool | None:
    """Whether a cell's attributes colour it dark, light (False), or not at all (None)."""
    colour = None
    for m in _ATTRIBUTE.finditer(attributes):
        name, value = m.group(1).lower(), m.group(2) or m.group(3) or m.group(4) or ""
        if name == "bgcolor":
            colour = value
        elif name == "style":
            background = _BACKGROUND.search(value)
            if background is not None:
                colour = background.group(1)
                break  # (a style beats bgcolor, as CSS beats a presentational hint)
    return None if colour is None else _is_dark(colour)


def _is_dark(colour: str) -> bool | None:
    colour = colour.strip().lower()
    hexed = _HEX.search(colour)
    if hexed is not None:
        digits = hexed.group(1)
        if len(digits) == 3:
            digits = "".join(d * 2 for d in digits)
        red, green, blue = (int(digits[i:i + 2], 16) for i in (0, 2, 4))
    elif (rgb := _RGB.search(colour)) is not None:
        red, green, blue = (min(255, int(v)) for v in rgb.groups())
    else:
        word = colour.split()[0] if colour.split() else ""
        return _NAMED.get(word)
    return 0.299 * red + 0.587 * green + 0.114 * blue < 128


def bitmap(grid: list[list[int]]) -> bytes:
    """The PGM of a grid of modules (1 dark), :data:`SCALE` pixels a module, in a quiet zone of the colour
    most of the grid's border has."""
    height, width = len(grid), max(len(r) for r in grid)
    rows = [r + [0] * (width - len(r)) for r in grid]
    border = rows[0] + rows[-1] + [r[0] for r in rows] + [r[-1] for r in rows]
    ground = 1 if sum(border) * 2 > len(border) else 0
    pad = [ground] * (width + 2 * QUIET)
    full = [pad] * QUIET + [[ground] * QUIET + r + [ground] * QUIET for r in rows] + [pad] * QUIET
    pixels = bytearray()
    for r in full:
        line = b"".join(b"\x00" * SCALE if v else b"\xff" * SCALE for v in r)
        pixels += line * SCALE
    return b"P5\n%d %d\n255\n" % ((width + 2 * QUIET) * SCALE, (height + 2 * QUIET) * SCALE) + bytes(pixels)


__all__ = ["MAX_DRAWINGS", "MAX_MODULES", "SCALE", "Drawing", "as_images", "bitmap", "may_hold_drawing",
           "table_drawings",
           "text_drawings"]
