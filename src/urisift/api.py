"""The library's entry points (ARCHITECTURE.md, The front ends): one function a kind of input,
each building the :class:`~urisift.model.Content` that
:func:`~urisift.pipeline.scan.scan_content` routes to its reader, with the retrieval
URI as the bottom layer of its bases.  A retrieval URI that cannot serve is
yielded as a defect first; relative references then resolve against what
the input itself says, or stay unresolved.

Each checks its arguments at the call (:mod:`urisift.uri.arguments`): a wrong
type or value raises ``TypeError`` or ``ValueError`` naming it there, not
when the first record is asked for."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from os import PathLike, fspath, sep
from os.path import relpath
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from .model import Content, Defect, Kind, Origin, Record
from .model.needs import KEYS
from .pipeline.inputs import iter_input
from .pipeline.scan import ScanOptions, scan_content
from .pipeline.sources import Input
from .readers.html import DocumentWalk, tree_of
from .stages.base import retrieval_layers
from .stages.options import refusal
from .uri import arguments as check

if TYPE_CHECKING:  # an annotation only: a run with no mail never loads the email package
    from email.message import Message


def _common(function: str, base: object, file: object, abbreviated: object, browser: object = False,
            fields: object = None) -> frozenset[str] | None:
    """The keyword arguments every entry point takes; ``fields`` as a set."""
    check.text(function, "base", base, none=True)
    check.text(function, "file", file, none=True)
    check.flag(function, "abbreviated", abbreviated)
    check.flag(function, "browser", browser)
    return _fields(function, fields)


def _fields(function: str, fields: object) -> frozenset[str] | None:
    """The record keys asked for (what is not asked for is not
    computed, and reads False on the record), checked against the keys."""
    if fields is None:
        return None
    if isinstance(fields, str) or not isinstance(fields, Iterable) or not all(isinstance(k, str) for k in fields):
        raise TypeError(f"{function}(): fields must be record keys (str), as a list or set, not {fields!r}")
    wanted = frozenset(fields)
    unknown = sorted(wanted - set(KEYS))
    if unknown:
        raise ValueError(f"{function}(): fields: no record key {', '.join(map(repr, unknown))} "
                         f"(the keys: {', '.join(KEYS)})")
    return wanted


def _text_content(body: BinaryIO | bytes | str, base: str | None, file: str | None,
                  declared: str | None = None) -> tuple[Content, list[Defect]]:
    origin = Origin(file=file)
    layer, defects = retrieval_layers(base, origin)
    return Content(body, Kind.TEXT, origin, layer, declared), defects


def scan_text(text: str, *, base: str | None = None, file: str | None = None,
              abbreviated: bool = True, browser: bool = False, fields: Iterable[str] | None = None,
              refang: bool = False) -> Iterator[Record | Defect]:
    """Yield a record for every URI reference in ``text`` (ARCHITECTURE.md, Delimiting running text).

    ``base`` is the retrieval URI (RFC 3986 §5.1.3): relative references,
    which plain text only holds inside ``<URL:...>``, resolve against it; a
    base that cannot serve is yielded as a defect first, and relative
    references then stay unresolved.  ``abbreviated=False`` leaves
    ``www.``/``ftp.`` forms out.  ``browser=True``: records also carry
    ``browser_target``, what the WHATWG URL parser gives (HTML and WARC
    records always do; see :mod:`urisift.uri.browser`).  ``fields``: the
    record keys wanted (every scan function takes it; None, every key):
    what no key asked for is not computed, and reads ``False`` on the record
    (``positions``, ``risks``, ``browser_target``, ``unwrapped`` ...).
    ``refang=True`` (``--refang``): defanged references (``hxxps://evil[.]example``,
    ``198.51.100[.]23``) are read back: ``uri`` as written, ``target`` the URI
    refanged, and the flag ``defanged``.
    """
    check.text("scan_text", "text", text, hint="decode it, or give io.BytesIO(data) to scan_stream, which finds "
               "its charset")
    check.flag("scan_text", "refang", refang)
    wanted = _common("scan_text", base, file, abbreviated, browser, fields)
    return _scan_text(text, base, file, abbreviated, browser, wanted, refang)


def _scan_text(text: str, base: str | None, file: str | None, abbreviated: bool, browser: bool,
               fields: frozenset[str] | None, refang: bool = False) -> Iterator[Record | Defect]:
    content, defects = _text_content(text, base, file)
    yield from defects
    yield from scan_content(content, ScanOptions(kind=Kind.TEXT, abbreviated=abbreviated,
                                                 browser=browser, fields=fields, refang=refang))


def scan_stream(stream: BinaryIO, *, base: str | None = None, file: str | None = None,
                declared: str | None = None, abbreviated: bool = True,
                chunk_size: int = 1 << 20, browser: bool = False, fields: Iterable[str] | None = None
                ) -> Iterator[Record | Defect]:
    """Scan a binary stream of plain text in constant memory.

    Yields records, and a :class:`Defect` for every run of bytes that is not
    in the chosen charset (they are decoded as U+FFFD and the scan goes on).
    """
    check.binary_stream("scan_stream", "stream", stream)
    wanted = _common("scan_stream", base, file, abbreviated, browser, fields)
    check.text("scan_stream", "declared", declared, none=True)
    check.number("scan_stream", "chunk_size", chunk_size, least=1, integer=True)
    return _scan_stream(stream, base, file, declared, abbreviated, chunk_size, browser, wanted)


def _scan_stream(stream: BinaryIO, base: str | None, file: str | None, declared: str | None, abbreviated: bool,
                 chunk_size: int, browser: bool, fields: frozenset[str] | None) -> Iterator[Record | Defect]:
    content, defects = _text_content(stream, base, file, declared)
    yield from defects
    yield from scan_content(content, ScanOptions(kind=Kind.TEXT, abbreviated=abbreviated,
                                                 chunk_size=chunk_size, browser=browser, fields=fields))


def scan_html(document: bytes | str | Any, *, base: str | None = None, file: str | None = None,
              declared: str | None = None, abbreviated: bool = True, comments: bool = False,
              positions: bool = True, fields: Iterable[str] | None = None) -> Iterator[Record | Defect]:
    """Yield a record for every URI reference in an HTML document.

    ``document`` is the page's bytes (decoded by the chain: BOM, then
    ``declared``, the HTTP or MIME charset, then the ``<meta>`` prescan,
    detection, windows-1252), its text, or a BeautifulSoup object already
    parsed (its records have no positions).  ``base`` is the URI it was
    retrieved from: its ``<base href>`` resolves against it, and every
    reference against the document base URL that results.  ``comments``
    scans the text of comments too.  ``positions=False`` leaves ``span``,
    ``line`` and ``column`` out (False: not computed), which saves a fifth
    of the time: the tree keeps no source positions, so they are searched
    for.  ``fields``: the record keys wanted (see :func:`scan_text`).
    """
    if not isinstance(document, (bytes, bytearray, str)):
        check.instance("scan_html", "document", document, _soup_tag(), "bytes, a str or a BeautifulSoup object")
    wanted = _common("scan_html", base, file, abbreviated, fields=fields)
    check.text("scan_html", "declared", declared, none=True)
    check.flag("scan_html", "comments", comments)
    check.flag("scan_html", "positions", positions)
    return _scan_html(document, base, file, declared, abbreviated, comments, positions, wanted)


def _soup_tag() -> type:
    from bs4 import Tag

    return Tag


def _scan_html(document: bytes | str | Any, base: str | None, file: str | None, declared: str | None,
               abbreviated: bool, comments: bool, positions: bool, fields: frozenset[str] | None
               ) -> Iterator[Record | Defect]:
    origin = Origin(file=file)
    layer, defects = retrieval_layers(base, origin)
    yield from defects
    options = ScanOptions(kind=Kind.HTML, abbreviated=abbreviated, comments=comments, positions=positions,
                          fields=fields)
    if isinstance(document, (bytes, bytearray, str)):
        yield from scan_content(Content(bytes(document) if isinstance(document, bytearray) else document,
                                        Kind.HTML, origin, layer, declared), options)
        return
    yield from DocumentWalk(tree_of(document), layer, origin, None, locator=None, abbreviated=abbreviated,
                            comments=comments, needs=options.needs)


def scan_message(message: bytes | str | Message, *, base: str | None = None, file: str | None = None,
                 abbreviated: bool = True, browser: bool = False, fields: Iterable[str] | None = None,
                 qr: bool = False) -> Iterator[Record | Defect]:
    """Yield a record for every URI reference in the text and HTML parts of
    one message (RFC 5322, MIME), each resolved against the base its MIME
    headings set (``Content-Base``, else ``Content-Location``, inherited by
    inner parts), else ``base`` (the retrieval URI).  ``message`` is its
    bytes, its text (taken as UTF-8) or an ``email.message.Message`` already parsed.  ``qr`` reads its
    images (attachments, inline and ``data:`` images) for the codes drawn in them, as ``--qr`` does."""
    if not isinstance(message, (bytes, bytearray, str)):
        from email.message import Message

        check.instance("scan_message", "message", message, Message, "bytes, a str or an email.message.Message")
    wanted = _common("scan_message", base, file, abbreviated, browser, fields)
    check.flag("scan_message", "qr", qr)
    return _scan_message(message, base, file, abbreviated, browser, wanted, qr)


def _scan_message(message: bytes | str | Message, base: str | None, file: str | None, abbreviated: bool,
                  browser: bool, fields: frozenset[str] | None, qr: bool = False) -> Iterator[Record | Defect]:
    origin = Origin(file=file)
    layer, defects = retrieval_layers(base, origin)
    yield from defects
    body = bytes(message) if isinstance(message, bytearray) else message
    yield from scan_content(Content(body, Kind.MAIL, origin, layer),  # type: ignore[arg-type]
                            ScanOptions(kind=Kind.MAIL, abbreviated=abbreviated, browser=browser,
                                        fields=fields, qr=qr))


def scan_mbox(stream: BinaryIO, *, base: str | None = None, file: str | None = None,
              abbreviated: bool = True, browser: bool = False, fields: Iterable[str] | None = None,
              qr: bool = False) -> Iterator[Record | Defect]:
    """Yield the records of every message of an mbox archive read from a
    binary stream, in constant memory; each record names its message's
    number, Message-ID and byte offset in the archive; ``qr`` as for :func:`scan_message`."""
    check.binary_stream("scan_mbox", "stream", stream)
    wanted = _common("scan_mbox", base, file, abbreviated, browser, fields)
    check.flag("scan_mbox", "qr", qr)
    return _scan_mbox(stream, base, file, abbreviated, browser, wanted, qr)


def _scan_mbox(stream: BinaryIO, base: str | None, file: str | None, abbreviated: bool, browser: bool,
               fields: frozenset[str] | None, qr: bool = False) -> Iterator[Record | Defect]:
    origin = Origin(file=file)
    layer, defects = retrieval_layers(base, origin)
    yield from defects
    yield from scan_content(Content(stream, Kind.MBOX, origin, layer),
                            ScanOptions(kind=Kind.MBOX, abbreviated=abbreviated, browser=browser,
                                        fields=fields, qr=qr))


def scan_path(path: str | Path, *, base: str | None = None, root: str | Path | None = None, abbreviated: bool = True,
              browser: bool = False, fields: Iterable[str] | None = None, published_as: str | None = None,
              qr: bool = False) -> Iterator[Record | Defect]:
    """Scan one file (decompressed when it is gzip, bzip2 or xz); ``browser``
    and ``fields`` as for :func:`scan_text`.  ``base`` is the file's
    retrieval URI; with ``root``, a directory holding the file, it is the
    retrieval URI of that directory, and the file's is the base joined with
    the file's path under it (a mirror of a site: ``mirror/a/b/page.html``
    under ``https://site.example/`` is ``https://site.example/a/b/page.html``),
    as the command's ``--base`` gives each file of a directory it walks.
    Without ``base``, a URL's own (after its redirects) is its base.  A
    directory is walked as the command walks it.  ``published_as`` (``"html"``,
    ``"dir"``, ``"bare"``) names a documentation tree's sources and the
    relative links to them as its generator publishes them (``--published-as``).  ``qr`` reads the images
    in it, or the image it is, for the codes drawn in them (``--qr``)."""
    check.instance("scan_path", "path", path, (str, PathLike), "a str or a path (os.PathLike)")
    if root is not None:
        check.instance("scan_path", "root", root, (str, PathLike), "a str or a path (os.PathLike)")
    wanted = _common("scan_path", base, None, abbreviated, browser, fields)
    if published_as is not None:
        check.one_of("scan_path", "published_as", published_as, ["html", "dir", "bare"])
    check.flag("scan_path", "qr", qr)
    name = fspath(path)
    under = None
    if root is not None:
        under = relpath(name, fspath(root)).replace(sep, "/")
        if under == ".." or under.startswith("../"):
            raise ValueError(f"scan_path(): path {name!r} is not under root {fspath(root)!r}")
    return _scan_path(Input(name, under=under), base, abbreviated, browser, wanted, published_as, qr)


def _scan_path(source: Input, base: str | None, abbreviated: bool, browser: bool, wanted: frozenset[str] | None,
               published_as: str | None, qr: bool = False) -> Iterator[Record | Defect]:
    # a base that cannot serve is a defect first, as for the other scan_ functions, and the file is read
    # without it (ScanOptions refuses it: the options of a run are checked before any input is read)
    served = base if base is None or refusal(base, None) is None else None
    if served is None and base is not None:
        yield from retrieval_layers(base, Origin(file=source.name))[1]
    yield from iter_input(source, ScanOptions(base=served, abbreviated=abbreviated, browser=browser, fields=wanted,
                                              published_as=published_as, qr=qr))


__all__ = ["scan_html", "scan_mbox", "scan_message", "scan_path", "scan_stream", "scan_text"]
