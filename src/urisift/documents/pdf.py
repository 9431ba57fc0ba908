"""A PDF → its records (issue 21), read with pypdf:

- each link annotation's action (PDF 32000-1 §12.5.6.5, §12.6.4): ``/URI``
  (§12.6.4.7), ``/Launch`` and ``/GoToR`` (§12.6.4.5, §12.6.4.3: a file
  specification, §7.11, as a string or a dictionary's ``/UF``/``/F``), with
  the page it is on and the action in ``attribute``;
- the catalog's URI dictionary ``/Base`` (§12.6.4.7): the base embedded in
  the content, on top of the layers around the file (seed 002 §5.1.1), for
  URI actions only: a file specification is relative to the file itself
  (§7.11.2), so ``/Launch`` and ``/GoToR`` resolve against the layers around it;
- the URIs written in each page's text layer, found by the text scanner.

A PDF is random access: the file is held whole (as any PDF reader holds
it).  What cannot be read is a defect, never a crash: a malformed file, an
encrypted one (the empty user password is tried first, as viewers do), a
page that fails.  A bomb is bounded: pypdf stops a stream that inflates past
75 MB (``LimitReachedError``: a ``bomb`` defect), and at most
:data:`MAX_PAGES` pages are read.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator
from typing import Any

from ..base import BaseLayer
from ..delimit import Scanner
from ..found_to_record import Tail
from ..model import (
    BaseSource,
    Content,
    Defect,
    DefectKind,
    Place,
    Record,
    Span,
    Style,
    Tally,
    Unit,
    Where,
    new_found,
)
from ..model.events import is_message
from ..options import ScanOptions

#: pages read at most (a file that claims more is cut there, with a defect)
MAX_PAGES = 10_000
_ACTIONS = {"/URI": "URI", "/Launch": "Launch", "/GoToR": "GoToR"}


def _text(value: Any) -> str | None:
    """A PDF string as text: pypdf gives text strings decoded (§7.9.2.2);
    a byte string (a /URI is 7-bit ASCII, §12.6.4.7) is decoded as Latin-1."""
    if value is None:
        return None
    if isinstance(value, bytes):
        return value.decode("latin-1")
    return str(value)


def _file_spec(spec: Any) -> str | None:
    """The file a file specification names (§7.11.2, §7.11.3): the string
    itself, or a dictionary's /UF (Unicode) else /F, else /Unix, /DOS, /Mac."""
    spec = spec.get_object() if hasattr(spec, "get_object") else spec
    if isinstance(spec, dict):
        for key in ("/UF", "/F", "/Unix", "/DOS", "/Mac"):
            if key in spec:
                return _text(spec[key].get_object() if hasattr(spec[key], "get_object") else spec[key])
        return None
    return _text(spec)


def read_pdf(content: Content, options: ScanOptions, tally: Tally) -> Iterator[Record | Defect]:
    try:
        from pypdf import PdfReader
        from pypdf.errors import LimitReachedError, PyPdfError
    except ImportError:
        yield Defect(DefectKind.UNSUPPORTED_KIND, "reading PDF needs pypdf: pip install 'urisift[pdf]'",
                     content.origin, None)
        return
    body = content.body
    if isinstance(body, str) or is_message(body):
        raise TypeError("a PDF is bytes")
    data = body if isinstance(body, bytes) else body.read()
    origin = content.origin
    logging.getLogger("pypdf").setLevel(logging.ERROR)  # its warnings are ours to report, as defects
    try:
        reader = PdfReader(io.BytesIO(data), strict=False)
        if reader.is_encrypted and not reader.decrypt(""):
            yield Defect(DefectKind.BROKEN_DOCUMENT, "the PDF is encrypted with a password: its links cannot be read",
                         origin, None)
            return
        layer, base_defect = _base_layer(reader, content.layer, origin)
        if base_defect is not None:
            yield base_defect
        count = len(reader.pages)
    except LimitReachedError as exc:
        yield Defect(DefectKind.BOMB, f"the PDF's structure is past a bound ({exc}): not read", origin, None)
        return
    except (PyPdfError, ValueError, KeyError, TypeError, AttributeError, RecursionError) as exc:
        yield Defect(DefectKind.BROKEN_DOCUMENT, f"not a PDF that can be read: {type(exc).__name__}: {exc}", origin,
                     0, Unit.BYTE)
        return
    tail = Tail(layer, origin, None, browser=options.browser)
    files = Tail(content.layer, origin, None, browser=options.browser)
    if count > MAX_PAGES:
        yield Defect(DefectKind.BOMB, f"the PDF has {count} pages: the first {MAX_PAGES} are read", origin, None)
    for number in range(1, min(count, MAX_PAGES) + 1):
        try:
            page = reader.pages[number - 1]
            yield from _annotations(page, number, tail, files)
            yield from _text_layer(page.extract_text() or "", number, tail, options.abbreviated)
        except LimitReachedError as exc:
            yield Defect(DefectKind.BOMB, f"page {number}: a stream past a bound ({exc}): the rest is not read",
                         origin, None)
            return
        except (PyPdfError, ValueError, KeyError, TypeError, AttributeError, RecursionError) as exc:
            yield Defect(DefectKind.BROKEN_DOCUMENT, f"page {number} could not be read: {type(exc).__name__}: {exc}",
                         origin, None)


def _base_layer(reader: Any, layer: BaseLayer, origin: Any) -> tuple[BaseLayer, Defect | None]:
    """The layers around the file with the catalog's /URI /Base on top."""
    catalog = reader.trailer["/Root"].get_object()
    uri = catalog.get("/URI")
    base = None if uri is None else _text(uri.get_object().get("/Base"))
    if base is None:
        return layer, None
    return layer.push(base, BaseSource.PDF_BASE, "the catalog's /URI /Base", origin=origin)


def _annotations(page: Any, number: int, tail: Tail, files: Tail) -> Iterator[Record]:
    annotations = page.get("/Annots")
    if annotations is None:
        return
    for ref in annotations.get_object():
        annotation = ref.get_object()
        if annotation.get("/Subtype") != "/Link":
            continue
        action = annotation.get("/A")
        if action is None:
            continue
        action = action.get_object()
        kind = _ACTIONS.get(str(action.get("/S")))
        if kind is None:
            continue
        if kind == "URI":
            value = _text(action.get("/URI"))
        else:
            spec = action.get("/F")
            if spec is None and kind == "Launch":
                windows = action.get("/Win")
                spec = None if windows is None else windows.get_object().get("/F")
            value = None if spec is None else _file_spec(spec)
        if value:
            place = Place(Where.PDF, "Link", kind, page=number)
            found = new_found(value.strip(), None, None, Style.ANNOTATION, (), (), None, place)
            yield tail(found) if kind == "URI" else files(found)


def _text_layer(text: str, number: int, tail: Tail, abbreviated: bool) -> Iterator[Record]:
    """The URIs written on the page (its extracted text; positions in it)."""
    place = Place(Where.PDF, page=number)
    line, line_start, upto = 1, 0, 0
    for found in Scanner(text, abbreviated=abbreviated):
        start, end = found.start, found.end
        assert start is not None and end is not None
        line += text.count("\n", upto, start)
        newline = text.rfind("\n", upto, start)
        if newline != -1:
            line_start = newline + 1
        upto = start
        yield tail(found._replace(place=place), Span(start, end), line, start - line_start + 1)
