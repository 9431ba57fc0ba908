"""Orchestration (DESIGN §1): the one module that knows the whole pipeline.

    bytes ─ decode ─▶ text ─ find ─▶ Found ─ base ─▶ Base ─ resolve ─▶ target ─ record ─▶ Record

- :class:`~urisift.tail.Tail` is the one found-to-record step every input
  kind ends in: the base in force, RFC 3986 §5.2 resolution, the §7 risk
  flags, the record.
- :func:`scan_content` scans one piece of content by its kind: plain text
  (:mod:`urisift.plain`), HTML, a mail message (each text part scanned by
  its own kind, with the MIME bases around it), an mbox.
- :func:`scan_input` scans one input named by path, picklable, so that a
  process pool or a Spark job can map it over many inputs and get the same
  records as a serial run; :func:`iter_input` is its streaming twin.
- The library's entry points (``scan_text``, ``scan_html``, ``scan_message``
  ...) are in :mod:`urisift.api`.

Lenient by default: a defect is yielded and the scan goes on.  With
``strict=True`` the first defect raises :class:`~urisift.errors.InputError`.
"""

from __future__ import annotations

import email
import io
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from email.message import Message
from email.policy import compat32
from typing import BinaryIO

from .base import BaseStack, retrieval_stack
from .charset import decode, decode_lines, decode_stream
from .construct import new_found, new_place, origin_with
from .delimit.chars import ordered
from .errors import InputError, RunError
from .html import DocumentWalk, Locator, parse, prescan
from .mail.mbox import split_mbox
from .mail.parts import HeaderReference, message_pieces
from .mail.pointers import index_parts
from .model import BaseSource, Charset, Defect, DefectKind, Flag, Kind, Origin, Record, Style, Where
from .plain import chunked_records, text_records
from .sources import BUILT_KINDS, Input, open_input, unreadable
from .tail import Tail
from .warc import WarcReader, content_location, http_references


@dataclass(frozen=True, slots=True)
class ScanOptions:
    """What a scan of one input needs besides the input: picklable, so that
    worker processes get the same options as a serial run."""

    base: str | None = None  # the retrieval URI (RFC 3986 §5.1.3)
    kind: Kind = Kind.AUTO  # AUTO sniffs the content, then the name
    abbreviated: bool = True  # www./ftp. forms (seed 002 Appendix F)
    charset: str | None = None  # a declared charset, below a BOM and above everything else
    strict: bool = False  # the first defect ends the scan (InputError)
    chunk_size: int = 1 << 20  # text streams through in pieces of this many bytes
    comments: bool = False  # HTML: scan the text of comments too
    # HTML: find where each attribute value stands in the source (span, line,
    # column); the tree keeps no positions, so this is a search, ~20% of the scan
    positions: bool = True
    # WARC: an HTTP response's Content-Location as the base of its body (RFC 2616
    # had it, RFC 7231 removed it): off unless asked for
    content_location: bool = False
    context: int = 0  # records carry this many characters either side of them (their span's text)


# -- content --------------------------------------------------------------------------

@dataclass
class Content:
    """One piece of content to scan: its bytes (a stream) or its text, its
    kind, where it came from, and the bases in force around it."""

    body: BinaryIO | bytes | str
    kind: Kind
    origin: Origin
    stack: BaseStack
    declared: str | None = None  # the charset its container declares
    sniffed: bool = field(default=False)  # whether ``kind`` was sniffed rather than asked for
    decoding: Charset | None = None  # how a text body was decoded, when it was decoded before
    live: bool = False  # a stream from a pipe or terminal: scanned line by line as it arrives


def scan_content(content: Content, options: ScanOptions) -> Iterator[Record | Defect]:
    """Records and defects of one piece of content, by its kind."""
    kind = content.kind
    if kind not in BUILT_KINDS:
        if not content.sniffed:
            raise InputError(f"{content.origin.file or '<input>'}: reading {kind} input is not built yet")
        yield Defect(DefectKind.UNSUPPORTED_KIND,
                     f"this looks like {kind} content, which this version does not read yet; scanned as plain text",
                     content.origin, None)
    elif kind is Kind.HTML:
        yield from _scan_html(content, options)
        return
    elif kind is Kind.MAIL:
        message = email.message_from_bytes(_as_stream(content.body).read(), policy=compat32)
        yield from message_records(message, content.stack, content.origin, options)
        return
    elif kind is Kind.MBOX:
        yield from mbox_records(_as_stream(content.body), content.stack, content.origin, options)
        return
    elif kind is Kind.WARC:
        yield from warc_records(_as_stream(content.body), content.stack, content.origin, options)
        return
    yield from _scan_plain(content, options)


def _as_stream(body: BinaryIO | bytes | str) -> BinaryIO:
    """Mail is bytes: a body handed in as text is taken as its UTF-8."""
    if isinstance(body, str):
        body = body.encode("utf-8")
    return io.BytesIO(body) if isinstance(body, bytes) else body


def _scan_html(content: Content, options: ScanOptions) -> Iterator[Record | Defect]:
    """A whole HTML document: decoded by the chain with the <meta> prescan
    (DESIGN §1), parsed, walked.  A page is held whole, as any parser holds it."""
    body = content.body
    decoding = None
    markup: str | bytes
    if isinstance(body, str):
        text = markup = body
    else:
        data = body if isinstance(body, bytes) else body.read()
        text, choice, defects = decode(data, declared=content.declared or options.charset, sniff=prescan,
                                       origin=content.origin)
        decoding = Charset(choice.name, choice.source)
        # clean UTF-8 goes to the parser as it is: it reads the same text, and
        # is spared encoding it again (measured: a third of the parse time)
        markup = data if choice.codec == "utf-8" and not defects else text
        yield from defects
    tree, fallback = parse(markup)
    if fallback is not None:
        yield Defect(DefectKind.DEEP_NESTING, fallback, content.origin, None)
    records = DocumentWalk(tree, content.stack, content.origin, decoding,
                           locator=Locator(text) if options.positions else None,
                           abbreviated=options.abbreviated, comments=options.comments)
    yield from (_with_context(records, text, options.context) if options.context else records)


def _with_context(items: Iterable[Record | Defect], text: str, context: int) -> Iterator[Record | Defect]:
    """Records with the text around their span (those without a span have none)."""
    for item in items:
        if isinstance(item, Record) and item.span is not None:
            start, end = item.span
            item = replace(item, context=text[max(0, start - context):end + context])
        yield item


def _scan_plain(content: Content, options: ScanOptions) -> Iterator[Record | Defect]:
    body = content.body
    if isinstance(body, str):
        tail = Tail(content.stack, content.origin, content.decoding)
        yield from text_records(body, tail, options.abbreviated, context=options.context)
        return
    if isinstance(body, bytes) and len(body) <= options.chunk_size:
        # a body held whole already (a mail part): decoded in one step, no stream machinery
        text, choice, defects = decode(body, declared=content.declared or options.charset, origin=content.origin)
        yield from defects
        yield from text_records(text, Tail(content.stack, content.origin, Charset(choice.name, choice.source)),
                                options.abbreviated, context=options.context)
        return
    stream = io.BytesIO(body) if isinstance(body, bytes) else body
    if content.live:
        choice, pieces = decode_lines(stream, declared=content.declared or options.charset, origin=content.origin)
    else:
        choice, pieces = decode_stream(stream, declared=content.declared or options.charset, origin=content.origin,
                                       chunk_size=options.chunk_size)
    tail = Tail(content.stack, content.origin, Charset(choice.name, choice.source))
    yield from chunked_records(pieces, tail, options.abbreviated, eager=content.live, context=options.context)


def _policed(items: Iterable[Record | Defect], strict: bool) -> Iterator[Record | Defect]:
    """The strict policy: the first defect ends the scan."""
    for item in items:
        if strict and isinstance(item, Defect):
            raise InputError(f"urisift: {item} (--strict)")
        yield item


# -- inputs ---------------------------------------------------------------------------

def iter_input(source: Input | str, options: ScanOptions = ScanOptions(), *, stdin: BinaryIO | None = None
               ) -> Iterator[Record | Defect]:
    """Records and defects of one input, streamed: what :func:`scan_input`
    returns, in constant memory.  An input that cannot be opened or read
    is an ``unreadable`` defect, never an exception (but see ``strict``)."""
    source = Input(source) if isinstance(source, str) else source
    return _policed(_iter_input(source, options, stdin), options.strict)


def _iter_input(source: Input, options: ScanOptions, stdin: BinaryIO | None) -> Iterator[Record | Defect]:
    origin = Origin(file=source.name)
    try:
        opened = open_input(source, kind=options.kind, stdin=stdin)
    except OSError as exc:
        yield unreadable(source.name, exc)
        return
    stack, defects = retrieval_stack(options.base, origin)
    yield from defects
    content = Content(opened.stream, opened.kind, origin, stack, sniffed=options.kind is Kind.AUTO, live=opened.live)
    try:
        yield from scan_content(content, options)
    except OSError as exc:
        yield Defect(DefectKind.UNREADABLE, f"reading stopped: {exc.strerror or exc}", origin)
    except RunError:
        raise  # the run is to end (a kind asked for that this version does not read)
    except Exception as exc:  # noqa: BLE001 - one input that trips the scanner must not cost the others
        yield Defect(DefectKind.SCAN_FAILED, f"the scan of this input failed ({type(exc).__name__}: {exc}); "
                     "the records before it were written; please report it", origin)
    finally:
        if source.path != "-":
            opened.stream.close()
    yield from opened.defects


def scan_input(source: Input | str, options: ScanOptions = ScanOptions()) -> list[Record | Defect]:
    """Every record and defect of one input, as a list: the unit of work the
    parallel CLI and the Spark job map over (module-level and picklable, as
    are its arguments and its results)."""
    return list(iter_input(source, options))


# -- mail: one message, its MIME walk and bases; an mbox, message by message ----------------------

def message_records(message: Message, stack: BaseStack, origin: Origin, options: ScanOptions
                     ) -> Iterator[Record | Defect]:
    """The records of one parsed message: its headings' references, and each
    text part through the scanner of its kind, with the bases of the
    headings around it in force (:mod:`urisift.mail.parts`).  In a
    multipart message, a record naming one of its parts says which
    (:mod:`urisift.mail.pointers`)."""
    pieces = _message_items(message, stack, origin, options)
    index = index_parts(message, stack, origin) if message.is_multipart() else None
    if not index:
        yield from pieces
        return
    points_to = index.points_to
    for item in pieces:
        if isinstance(item, Record):
            path = points_to(item.target or item.uri)
            if path is not None:
                item = replace(item, points_to=path)
        yield item


def _message_items(message: Message, stack: BaseStack, origin: Origin, options: ScanOptions
                   ) -> Iterator[Record | Defect]:
    # a part's charset is its own heading's to declare, never the command line's
    part_options = options if options.charset is None else replace(options, charset=None)
    for piece in message_pieces(message, stack, origin):
        if isinstance(piece, Defect):
            yield piece
        elif isinstance(piece, HeaderReference):
            yield Tail(stack, piece.origin, None)(piece.found)
        else:
            content = Content(piece.body, piece.kind, piece.origin, stack, piece.declared, decoding=piece.decoding)
            items = scan_content(content, part_options)
            yield from (_flagged(items, Flag.UUENCODED) if piece.uuencoded else items)


def _flagged(items: Iterable[Record | Defect], flag: Flag) -> Iterator[Record | Defect]:
    """The records of ``items`` with ``flag`` added (a file uuencoded in a
    text part, a WARC record the crawler cut short)."""
    for item in items:
        if isinstance(item, Record):
            found = item.found
            item = replace(item, found=found._replace(flags=ordered({*found.flags, flag})))
        yield item


def mbox_records(stream: BinaryIO, stack: BaseStack, origin: Origin, options: ScanOptions
                  ) -> Iterator[Record | Defect]:
    """Each message of the archive in turn, on the same stack (the walk of
    each pushes and pops its own layers)."""
    for item in split_mbox(stream):
        where = origin_with(origin, message=item.message, offset=item.offset)
        message = email.message_from_bytes(item.data, policy=compat32)
        yield from message_records(message, stack, where, options)


# -- WARC: each record against its own retrieval URI -------------------------------------

def warc_records(stream: BinaryIO, stack: BaseStack, origin: Origin, options: ScanOptions
                 ) -> Iterator[Record | Defect]:
    """The records of every ``response``, ``resource`` and ``revisit`` of a
    WARC or ARC stream (:mod:`urisift.warc`): its HTTP ``Location`` and
    ``Link`` targets against its ``WARC-Target-URI`` alone, its payload
    against that URI under whatever base the payload sets."""
    part_options = options if options.charset is None else replace(options, charset=None)
    for unit in WarcReader(stream, origin):
        if isinstance(unit, Defect):
            yield unit
            continue
        where = origin_with(origin, offset=unit.offset, warc_record_id=unit.record_id,
                            warc_target_uri=unit.target_uri, warc_date=unit.date)
        with stack.layer(unit.target_uri, BaseSource.RETRIEVAL, "WARC-Target-URI") as defect:
            if defect is not None:
                yield replace(defect, origin=where)
            tail = Tail(stack, where, None)
            for name, reference, rel in http_references(unit):
                place = new_place(Where.HEADER, None, None, name, rel, None)
                record = tail(new_found(reference, None, None, Style.HEADER, (), (), None, place))
                yield from (_flagged((record,), Flag.TRUNCATED) if unit.truncated else (record,))
            if unit.kind is None or unit.payload is None:
                continue
            # RFC 2616 §14.14 made Content-Location a base for the body; RFC 7231
            # §3.1.4.2 took that back: only on request
            location = content_location(unit) if options.content_location else None
            with stack.layer(location, BaseSource.CONTENT_LOCATION, "HTTP Content-Location") as defect:
                if defect is not None:
                    yield replace(defect, origin=where)
                items = scan_content(Content(unit.payload, unit.kind, where, stack, unit.charset), part_options)
                yield from (_flagged(items, Flag.TRUNCATED) if unit.truncated else items)


__all__ = ["Content", "ScanOptions", "iter_input", "mbox_records", "message_records", "scan_content",
           "scan_input", "warc_records"]
