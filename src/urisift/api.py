"""The library's entry points (DESIGN §1): one function a kind of input,
each building the :class:`~urisift.model.Content` that
:func:`~urisift.scan.scan_content` routes to its reader, with the retrieval
URI as the bottom layer of its bases.  A retrieval URI that cannot serve is
yielded as a defect first; relative references then resolve against what
the input itself says, or stay unresolved."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from .base import retrieval_layers
from .html import DocumentWalk, tree_of
from .model import Content, Defect, Kind, Origin, Record
from .options import checked
from .scan import ScanOptions, iter_input, scan_content
from .sources import Input

if TYPE_CHECKING:  # an annotation only: a run with no mail never loads the email package
    from email.message import Message


def _text_content(body: BinaryIO | bytes | str, base: str | None, file: str | None,
                  declared: str | None = None) -> tuple[Content, list[Defect]]:
    origin = Origin(file=file)
    layer, defects = retrieval_layers(base, origin)
    return Content(body, Kind.TEXT, origin, layer, declared), defects


def scan_text(text: str, *, base: str | None = None, file: str | None = None,
              abbreviated: bool = True, browser: bool = False) -> Iterator[Record | Defect]:
    """Yield a record for every URI reference in ``text`` (DESIGN §2, §3).

    ``base`` is the retrieval URI (RFC 3986 §5.1.3): relative references,
    which plain text only holds inside ``<URL:...>``, resolve against it; a
    base that cannot serve is yielded as a defect first, and relative
    references then stay unresolved.  ``abbreviated=False`` leaves
    ``www.``/``ftp.`` forms out.  ``browser=True``: records also carry
    ``browser_target``, what the WHATWG URL parser gives (HTML and WARC
    records always do; see :mod:`urisift.browser`).
    """
    content, defects = _text_content(text, base, file)
    yield from defects
    yield from scan_content(content, ScanOptions(base=base, kind=Kind.TEXT, abbreviated=abbreviated,
                                                 browser=browser))


def scan_stream(stream: BinaryIO, *, base: str | None = None, file: str | None = None,
                declared: str | None = None, abbreviated: bool = True,
                chunk_size: int = 1 << 20, browser: bool = False) -> Iterator[Record | Defect]:
    """Scan a binary stream of plain text in constant memory.

    Yields records, and a :class:`Defect` for every run of bytes that is not
    in the chosen charset (they are decoded as U+FFFD and the scan goes on).
    """
    content, defects = _text_content(stream, base, file, declared)
    yield from defects
    yield from scan_content(content, ScanOptions(base=base, kind=Kind.TEXT, abbreviated=abbreviated,
                                                 chunk_size=chunk_size, browser=browser))


def scan_html(document: bytes | str | Any, *, base: str | None = None, file: str | None = None,
              declared: str | None = None, abbreviated: bool = True, comments: bool = False,
              positions: bool = True, fields: Iterable[str] | None = None) -> Iterator[Record | Defect]:
    """Yield a record for every URI reference in an HTML document (issue 9).

    ``document`` is the page's bytes (decoded by the chain: BOM, then
    ``declared``, the HTTP or MIME charset, then the ``<meta>`` prescan,
    detection, windows-1252), its text, or a BeautifulSoup object already
    parsed (its records have no positions).  ``base`` is the URI it was
    retrieved from: its ``<base href>`` resolves against it, and every
    reference against the document base URL that results.  ``comments``
    scans the text of comments too.  ``positions=False`` leaves ``span``,
    ``line`` and ``column`` out (None), which saves a fifth of the time:
    the tree keeps no source positions, so they are searched for.
    ``fields``: the record keys the caller reads (None: every key); what
    no key asks for is not computed, and reads False (``region`` costs a
    walk of the whole page, issue 39; see :data:`urisift.needs.KEY_NEEDS`).
    """
    options = ScanOptions(base=base, kind=Kind.HTML, abbreviated=abbreviated, comments=comments,
                          positions=positions, fields=None if fields is None else frozenset(fields))
    checked(ScanOptions(fields=options.fields))  # a key that is not one: UsageError (the base is a defect below)
    origin = Origin(file=file)
    layer, defects = retrieval_layers(base, origin)
    yield from defects
    if isinstance(document, (bytes, bytearray, str)):
        yield from scan_content(Content(bytes(document) if isinstance(document, bytearray) else document,
                                        Kind.HTML, origin, layer, declared), options)
        return
    yield from DocumentWalk(tree_of(document), layer, origin, None, locator=None, abbreviated=abbreviated,
                            comments=comments, needs=options.needs)


def scan_message(message: bytes | Message, *, base: str | None = None, file: str | None = None,
                 abbreviated: bool = True, browser: bool = False) -> Iterator[Record | Defect]:
    """Yield a record for every URI reference in the text and HTML parts of
    one message (RFC 5322, MIME), each resolved against the base its MIME
    headings set (``Content-Base``, else ``Content-Location``, inherited by
    inner parts), else ``base`` (the retrieval URI).  ``message`` is its
    bytes or an ``email.message.Message`` already parsed."""
    origin = Origin(file=file)
    layer, defects = retrieval_layers(base, origin)
    yield from defects
    body = bytes(message) if isinstance(message, bytearray) else message
    yield from scan_content(Content(body, Kind.MAIL, origin, layer),  # type: ignore[arg-type]
                            ScanOptions(base=base, kind=Kind.MAIL, abbreviated=abbreviated, browser=browser))


def scan_mbox(stream: BinaryIO, *, base: str | None = None, file: str | None = None,
              abbreviated: bool = True, browser: bool = False) -> Iterator[Record | Defect]:
    """Yield the records of every message of an mbox archive read from a
    binary stream, in constant memory; each record names its message's
    number, Message-ID and byte offset in the archive."""
    origin = Origin(file=file)
    layer, defects = retrieval_layers(base, origin)
    yield from defects
    yield from scan_content(Content(stream, Kind.MBOX, origin, layer),
                            ScanOptions(base=base, kind=Kind.MBOX, abbreviated=abbreviated, browser=browser))


def scan_path(path: str | Path, *, base: str | None = None, abbreviated: bool = True, browser: bool = False
              ) -> Iterator[Record | Defect]:
    """Scan one file (decompressed when it is gzip, bzip2 or xz); ``browser``
    as for :func:`scan_text` (text and mail; HTML and WARC always)."""
    return iter_input(Input(str(path)), ScanOptions(base=base, abbreviated=abbreviated, browser=browser))


__all__ = ["scan_html", "scan_mbox", "scan_message", "scan_path", "scan_stream", "scan_text"]
