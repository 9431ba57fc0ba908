"""A PDF → its records, read with pypdf:

- each link annotation's action (PDF 32000-1 §12.5.6.5, §12.6.4): ``/URI``
  (§12.6.4.7), ``/Launch`` and ``/GoToR`` (§12.6.4.5, §12.6.4.3: a file
  specification, §7.11, as a string or a dictionary's ``/UF``/``/F``), with
  the page it is on and the action in ``attribute``;
- the catalog's URI dictionary ``/Base`` (§12.6.4.7): the base embedded in
  the content, on top of the layers around the file (rfc2396bis-01 §5.1.1), for
  URI actions only: a file specification is relative to the file itself
  (§7.11.2), so ``/Launch`` and ``/GoToR`` resolve against the layers around it;
- the URIs written in each page's text layer, found by the text scanner;
- with ``--qr``, each page's images, handed to the image reader for the codes drawn in them
  (:mod:`~urisift.readers.documents.page_images`).

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
from collections import OrderedDict
from collections.abc import Generator, Iterator
from typing import Any

from ...model import (
    BaseSource,
    Content,
    Defect,
    DefectKind,
    Origin,
    Place,
    Record,
    Span,
    Style,
    Tally,
    Unit,
    Where,
    new_found,
)
from ...model.events import is_message
from ...stages.base import BaseLayer
from ...stages.containment import Budget, contained
from ...stages.delimit import Scanner
from ...stages.found_to_record import Tail
from ...stages.options import ScanOptions
from .page_images import page_images

#: pages read at most (a file that claims more is cut there, with a defect)
MAX_PAGES = 10_000
#: the content one page's text layer is extracted from, at most (pypdf reads
#: about half a megabyte of content a second: a page past this is not text a
#: reader is meant to read, but a bomb of operators)
MAX_PAGE_TEXT = 1 << 20
#: the content a whole document's text layers are extracted from, at most
MAX_DOCUMENT_TEXT = 24 << 20
#: texts of pages kept, to draw the pages that share their content streams
_KEPT_TEXTS = 64
_PAGE, _DOCUMENT, _INFLATE = "page", "document", "inflate"
#: what pypdf raises, besides its own errors, on a file it cannot read (a
#: startxref past any offset is an OverflowError from seek, found by the fuzzer)
UNREADABLE = (ValueError, KeyError, TypeError, AttributeError, IndexError, RecursionError, ArithmeticError,
              EOFError, OSError, AssertionError, NotImplementedError)
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


def read_pdf(content: Content, options: ScanOptions, tally: Tally) -> Iterator[Record | Defect | Content]:
    try:
        from pypdf import PdfReader
        from pypdf.errors import LimitReachedError, PyPdfError
    except ImportError:
        yield Defect(DefectKind.MISSING_EXTRA, "reading PDF needs pypdf: pip install 'urisift[pdf]'",
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
    except (PyPdfError, *UNREADABLE) as exc:
        yield Defect(DefectKind.BROKEN_DOCUMENT, f"not a PDF that can be read: {type(exc).__name__}: {exc}", origin,
                     0, Unit.BYTE)
        return
    if count > MAX_PAGES:
        yield Defect(DefectKind.BOMB, f"the PDF has {count} pages: the first {MAX_PAGES} are read", origin, None)
    pages = _Pages(reader, Tail(layer, origin, None, browser=options.browser, needs=options.needs),
                   Tail(content.layer, origin, None, browser=options.browser, needs=options.needs),
                   options.abbreviated, content.budget,
                   origin, options.refang)
    pages.qr = options.qr
    for number in range(1, min(count, MAX_PAGES) + 1):
        if content.budget is not None and content.budget.expired():
            yield from content.budget.over_time(f"pages {number} to {min(count, MAX_PAGES)}", origin)
            return
        # one page is one nested reading: what trips it costs that page alone (ARCHITECTURE.md, The nesting boundary)
        yield from contained(pages.page(number), f"page {number}", origin)
    yield from pages.unread()


class _Pages:
    """The pages of one PDF, read one at a time: each page's link
    annotations, each one on its own, and its text layer, drawn from the
    content streams that can be read within the document's bounds (a page's
    text shared by other pages, as one content stream drawn on each, is
    extracted once)."""

    def __init__(self, reader: Any, tail: Tail, files: Tail, abbreviated: bool, budget: Budget | None,
                 origin: Origin, refang: bool = False) -> None:
        self.reader = reader
        self.refang = refang  # defanged references in the page's text read back (--refang)
        self.tail = tail
        self.files = files
        self.abbreviated = abbreviated
        self.budget = budget
        self.origin = origin
        self.texts: OrderedDict[tuple[Any, ...], str] = OrderedDict()  # the last texts extracted, by their streams
        self.refused: dict[tuple[Any, ...], str] = {}  # content streams not drawn, and why
        self.unread_pages: dict[str, list[int]] = {}  # why -> the pages whose text layer is not read
        self.spent = False  # the inflate budget is: no more content is inflated
        self.bad_streams: set[Any] = set()  # content streams that could not be inflated, by identity
        self.text_bytes = 0  # content bytes given to the text extractor so far
        self.qr = False  # its pages' images read for codes (--qr)

    def page(self, number: int) -> Iterator[Record | Defect | Content]:
        """The records of one page; what pypdf cannot read of it is a defect
        (one that breaks otherwise is the boundary's: a bug)."""
        from pypdf.errors import LimitReachedError, PyPdfError

        try:
            page = self.reader.pages[number - 1]
            yield from self._annotations(page, number)
            text = yield from self._text(page, number)
        except LimitReachedError as exc:
            yield Defect(DefectKind.BOMB, f"page {number}: past a bound ({exc}): not read", self.origin, None)
            return
        except (PyPdfError, *UNREADABLE) as exc:
            yield Defect(DefectKind.BROKEN_DOCUMENT, f"page {number} could not be read (in full): "
                         f"{type(exc).__name__}: {exc}", self.origin, None)
            return
        if text:
            yield from _text_layer(text, number, self.tail, self.abbreviated, self.refang)
        if self.qr:  # its images, for the codes drawn in them (--qr)
            yield from page_images(page, number, self.origin, self.tail.layer, self.budget)

    def _annotations(self, page: Any, number: int) -> Iterator[Record | Defect]:
        annotations = page.get("/Annots")
        if annotations is None:
            return
        try:
            entries = list(annotations.get_object())
        except (AttributeError, TypeError) as exc:
            yield self._broken(number, f"its /Annots is not an array ({type(exc).__name__})")
            return
        for index, ref in enumerate(entries):
            try:
                record = _annotation(ref, number, self.tail, self.files)
            except ValueError as exc:
                yield self._broken(number, f"annotation {index + 1} cannot be read: {exc}")
                continue
            except Exception as exc:  # noqa: BLE001 - one bad annotation is one defect, the rest are read
                yield self._broken(number, f"annotation {index + 1} cannot be read ({type(exc).__name__}: {exc})")
                continue
            if record is not None:
                yield record

    def _text(self, page: Any, number: int) -> Generator[Defect, None, str]:
        """The page's text layer, from the content streams that can be read
        (a bomb among them is a defect, and the others are still read); ""
        when it is past a bound (told once, for all such pages, by :meth:`unread`)."""
        from pypdf.errors import LimitReachedError
        from pypdf.generic import ArrayObject, NameObject

        contents = page.get("/Contents")
        if contents is None:
            return ""
        refs = list(contents) if isinstance(contents.get_object(), list) else [contents]
        # the streams' object numbers (a stream is always an indirect object,
        # PDF 32000-1 §7.3.8): pages drawn by the same content share its text
        key = tuple(_identity(ref) for ref in refs)
        if key in self.texts:
            self.texts.move_to_end(key)
            return self.texts[key]
        if key in self.refused:
            self._unread(self.refused[key], number)
            return ""
        if self.spent:
            self._unread(_INFLATE, number)
            return ""
        drawn, size = [], 0
        for index, ref in enumerate(refs):
            if key[index] in self.bad_streams:
                continue  # told once, where it was first met
            try:
                stream = ref.get_object()
                length = len(stream.get_data())
            except LimitReachedError as exc:
                self.bad_streams.add(key[index])
                yield Defect(DefectKind.BOMB, f"page {number}: content stream {index + 1} inflates past a bound "
                             f"({exc}): not read, here or on any page it draws; the page's other streams are read",
                             self.origin, None)
                continue
            except Exception as exc:  # noqa: BLE001 - one bad stream is one defect, the rest are read
                self.bad_streams.add(key[index])
                yield self._broken(number, f"content stream {index + 1} cannot be read ({type(exc).__name__}: {exc})")
                continue
            drawn.append(ref)
            size += length
            if self.budget is not None and not self.budget.inflate(length):
                self.spent = True
                reason = _INFLATE
                break
        else:
            reason = _PAGE if size > MAX_PAGE_TEXT else _DOCUMENT if self.text_bytes + size > MAX_DOCUMENT_TEXT else ""
        text = ""
        if not reason and drawn:
            self.text_bytes += size
            if len(drawn) < len(refs):
                page[NameObject("/Contents")] = ArrayObject(drawn)
            text = page.extract_text() or ""
        for ref in drawn:  # what was inflated goes with the page (pypdf would keep it with the object)
            stream = ref.get_object()
            if getattr(stream, "decoded_self", None) is not None:
                stream.decoded_self = None
        if reason:
            self.refused[key] = reason
            self._unread(reason, number)
            return ""
        self.texts[key] = text
        if len(self.texts) > _KEPT_TEXTS:
            self.texts.popitem(last=False)
        return text

    def _unread(self, reason: str, number: int) -> None:
        pages = self.unread_pages.setdefault(reason, [])
        if not pages or pages[-1] != number:
            pages.append(number)

    def unread(self) -> Iterator[Defect]:
        """The text layers left unread, one defect a reason (however many
        pages it holds for)."""
        for reason, pages in self.unread_pages.items():
            shown = ", ".join(map(str, pages[:5])) + (f" and {len(pages) - 5} more" if len(pages) > 5 else "")
            whose = f"page {shown}" if len(pages) == 1 else f"pages {shown}"
            why = {_PAGE: f"its content is past what one page's text layer is read for ({MAX_PAGE_TEXT} bytes)",
                   _DOCUMENT: f"the document's text layers are past what is read for ({MAX_DOCUMENT_TEXT} bytes "
                              "of content)",
                   _INFLATE: "the document's inflate budget (--inflate-budget) is spent"}[reason]
            yield Defect(DefectKind.BOMB, f"the text layer of {whose}: not read, {why}; their link annotations "
                         "are read", self.origin, None)

    def _broken(self, number: int, detail: str) -> Defect:
        return Defect(DefectKind.BROKEN_DOCUMENT, f"page {number}: {detail}; the rest of the page is read",
                      self.origin, None)


def _identity(ref: Any) -> Any:
    """What tells an object apart: its object number when it is indirect."""
    number = getattr(ref, "idnum", None)
    return (number, getattr(ref, "generation", 0)) if number is not None else id(ref)


def _base_layer(reader: Any, layer: BaseLayer, origin: Any) -> tuple[BaseLayer, Defect | None]:
    """The layers around the file with the catalog's /URI /Base on top."""
    catalog = reader.trailer["/Root"].get_object()
    uri = catalog.get("/URI")
    base = None if uri is None else _text(uri.get_object().get("/Base"))
    if base is None:
        return layer, None
    return layer.push(base, BaseSource.PDF_BASE, "the catalog's /URI /Base", origin=origin)


def _annotation(ref: Any, number: int, tail: Tail, files: Tail) -> Record | None:
    """The record of one annotation: a link whose action names a URI or a
    file.  Raises ValueError for an entry that is no annotation."""
    annotation = ref.get_object() if hasattr(ref, "get_object") else ref
    if annotation is None or type(annotation).__name__ == "NullObject":
        raise ValueError("it refers to an object the file does not hold")
    if not isinstance(annotation, dict):
        raise ValueError(f"{ref!r} is not a dictionary")
    if annotation.get("/Subtype") != "/Link":
        return None
    action = annotation.get("/A")
    if action is None:
        return None
    action = action.get_object()
    kind = _ACTIONS.get(str(action.get("/S")))
    if kind is None:
        return None
    if kind == "URI":
        value = _text(action.get("/URI"))
    else:
        spec = action.get("/F")
        if spec is None and kind == "Launch":
            windows = action.get("/Win")
            spec = None if windows is None else windows.get_object().get("/F")
        value = None if spec is None else _file_spec(spec)
    if not value:
        return None
    place = Place(Where.PDF, "Link", kind, page=number)
    found = new_found(value.strip(), None, None, Style.ANNOTATION, (), (), None, place)
    return tail(found) if kind == "URI" else files(found)


def _text_layer(text: str, number: int, tail: Tail, abbreviated: bool, refang: bool = False) -> Iterator[Record]:
    """The URIs written on the page (its extracted text; positions in it)."""
    place = Place(Where.PDF, page=number)
    line, line_start, upto = 1, 0, 0
    for found in Scanner(text, abbreviated=abbreviated, refang=refang):
        start, end = found.start, found.end
        assert start is not None and end is not None
        line += text.count("\n", upto, start)
        newline = text.rfind("\n", upto, start)
        if newline != -1:
            line_start = newline + 1
        upto = start
        yield tail(found._replace(place=place), Span(start, end), line, start - line_start + 1)
