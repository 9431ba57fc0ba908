"""A Jupyter notebook (``.ipynb``, nbformat 4, and 3's worksheets) → its
cells, each handed back to the scan as content of its own kind:

- a markdown cell as Markdown (``attachment:name`` references included);
- a raw cell as text;
- a code cell's source as text with the ``code`` flag (left out with
  ``ScanOptions(code=False)``, as Markdown's code is);
- an output as its richest representation a reader reads, as Jupyter
  shows it: ``text/html``, else ``text/markdown``, else ``text/plain``;
  a stream's text; an error's traceback.

Records name the cell in ``part``: ``3`` is the fourth cell's source,
``3/out/0`` its first output.  Their lines and columns are the cell's (a
cell stands in the file as a JSON string, escaped): text output shows them
as ``FILE:PART/LINE:COLUMN``, as a MIME part's.

Read with the standard library's JSON parser: reading needs none of
nbformat's validation, which refuses a notebook a field short that Jupyter
still opens.  What is not a notebook is a ``broken-document`` defect; so is a
field of the wrong type (``"outputs": true``, nbformat's schema says a list),
and the cells after it are read; a value nested deeper than
:data:`MAX_DEPTH` (which the JSON parser cannot read, and no notebook writes)
is read as ``null``, with a defect, and the rest of the notebook is read.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from ...model import Content, Defect, DefectKind, Flag, Kind, Record, Tally, Unit, nested_content, origin_with
from ...stages.charset import content_text
from ...stages.options import ScanOptions
from ...uri import patterns

_CODE = (Flag.CODE,)
#: an output's representations a reader reads, richest first (what Jupyter shows)
_SHOWN = (("text/html", Kind.HTML), ("text/markdown", Kind.MARKDOWN), ("text/plain", Kind.TEXT))
#: how deep a value of a notebook may be nested (nbformat's own are five deep; the parser's recursion
#: fails near a thousand)
MAX_DEPTH = 200
# what nests in JSON text: a string (whose brackets are characters), an opening or closing bracket
_NESTING = patterns.compile(r'"(?:[^"\\]|\\.)*+"|[\[{]|[\]}]')


def _text(source: Any) -> str:
    """A cell's or output's text: nbformat writes it as a string or a list of lines."""
    if isinstance(source, str):
        return source
    if isinstance(source, list):
        return "".join(line for line in source if isinstance(line, str))
    return ""


def read_notebook(content: Content, options: ScanOptions, tally: Tally) -> Iterator[Record | Defect | Content]:
    text, decoding, defects = content_text(content, options.charset)
    yield from defects
    try:
        try:
            notebook = json.loads(text)
        except RecursionError:
            text, deep = _shallow(text)
            yield Defect(DefectKind.BROKEN_DOCUMENT, f"a value nested more than {MAX_DEPTH} deep (at character "
                         f"{deep}): read as null", content.origin, deep, Unit.CHARACTER)
            notebook = json.loads(text)
    except ValueError as exc:  # (json.JSONDecodeError: where, and what)
        yield Defect(DefectKind.BROKEN_DOCUMENT, f"not a notebook: its JSON does not parse ({exc})", content.origin,
                     getattr(exc, "pos", None))
        return
    if not isinstance(notebook, dict):
        yield Defect(DefectKind.BROKEN_DOCUMENT, "not a notebook: its JSON is not an object", content.origin, None)
        return
    cells = notebook.get("cells")
    if cells is None:  # nbformat 3: cells in worksheets
        cells = []
        yield from _checked(notebook, "worksheets", content, "the notebook")
        for number, sheet in enumerate(_listed(notebook, "worksheets")):
            if isinstance(sheet, dict):
                yield from _checked(sheet, "cells", content, f"worksheet {number}")
                cells.extend(_listed(sheet, "cells"))
    if not isinstance(cells, list):
        yield Defect(DefectKind.BROKEN_DOCUMENT, "not a notebook: no list of cells", content.origin, None)
        return
    for number, cell in enumerate(cells):
        if isinstance(cell, dict):
            yield from _cell(content, options, cell, str(number))


def _listed(value: dict[str, Any], key: str) -> list[Any]:
    """``value[key]``, a list in nbformat's schema: ``[]`` when it is absent or
    null, and when it is something else (whose defect :func:`_checked` gives)."""
    listed = value.get(key)
    return listed if isinstance(listed, list) else []


def _checked(value: dict[str, Any], key: str, content: Content, what: str) -> Iterator[Defect]:
    """The defect of a field that should be a list and is not (``"outputs": true``)."""
    listed = value.get(key)
    if listed is not None and not isinstance(listed, list):
        yield Defect(DefectKind.BROKEN_DOCUMENT, f"{what}'s {key!r} is {type(listed).__name__}, not a list: "
                     "not read", content.origin, None)


def _shallow(text: str) -> tuple[str, int]:
    """``text`` with each value nested deeper than :data:`MAX_DEPTH` made
    ``null``, and where the first was (a character): one pass over its
    strings and brackets."""
    kept: list[str] = []
    depth, upto, cut, first = 0, 0, -1, -1
    for token in _NESTING.finditer(text):
        mark = token.group()
        if mark[0] == '"':
            continue
        if mark in "[{":
            depth += 1
            if depth == MAX_DEPTH + 1 and cut == -1:
                cut = token.start()
                first = cut if first == -1 else first
        else:
            if depth == MAX_DEPTH + 1 and cut != -1:
                kept.append(text[upto:cut])
                kept.append("null")
                upto, cut = token.end(), -1
            depth -= 1
    if cut != -1:  # (never closed: the parser says so)
        kept.append(text[upto:cut])
        upto = len(text)
    kept.append(text[upto:])
    return "".join(kept), max(first, 0)


def _nested(content: Content, body: str, kind: Kind, part: str, flags: tuple[Flag, ...] = ()) -> Content:
    return nested_content(body, kind, origin_with(content.origin, part=part), content, flags)


def _cell(content: Content, options: ScanOptions, cell: dict[str, Any], part: str) -> Iterator[Content | Defect]:
    kind = cell.get("cell_type")
    source = _text(cell.get("source", cell.get("input")))  # ("input": a code cell of nbformat 3)
    if kind == "markdown":
        yield _nested(content, source, Kind.MARKDOWN, part)
    elif kind == "code":
        if options.code:
            yield _nested(content, source, Kind.TEXT, part, _CODE)
        yield from _checked(cell, "outputs", content, f"cell {part}")
        for number, output in enumerate(_listed(cell, "outputs")):
            if isinstance(output, dict):
                yield from _output(content, output, f"{part}/out/{number}")
    elif source:  # a raw cell, a heading cell of nbformat 3
        yield _nested(content, source, Kind.TEXT, part)


def _output(content: Content, output: dict[str, Any], part: str) -> Iterator[Content]:
    data = output.get("data")
    if isinstance(data, dict):
        for media, kind in _SHOWN:
            if media in data:
                yield _nested(content, _text(data[media]), kind, part)
                return
    if "text" in output:  # a stream (stdout, stderr); nbformat 3's pyout
        yield _nested(content, _text(output["text"]), Kind.TEXT, part)
    elif "traceback" in output:
        lines = output["traceback"]
        lines = lines if isinstance(lines, list) else [lines]
        yield _nested(content, "\n".join(_text(line) for line in lines), Kind.TEXT, part)
