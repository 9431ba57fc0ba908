"""Orchestration (DESIGN §1): the one module that knows the whole pipeline.

    bytes ─ decode ─▶ text ─ find ─▶ Found ─ base ─▶ Base ─ resolve ─▶ target ─ record ─▶ Record

- :func:`scan_unit` turns the unit of work (:class:`~urisift.units.WorkUnit`:
  an input, or a byte range of one, planned by :mod:`urisift.plan`) into an
  iterator of records and defects, lazily, ending with the unit's
  :class:`~urisift.model.Tally`; nothing here builds a list of a unit's
  records.
- :func:`scan_content` routes one piece of :class:`~urisift.model.Content`
  to its reader by kind, through one table (:data:`READERS`); the readers
  yield records, defects, and content nested in theirs (a MIME part, a WARC
  payload), which comes back here to be routed in turn.

Lenient by default: a defect is yielded and the scan goes on.  With
``strict=True`` the first defect raises :class:`~urisift.errors.InputError`.
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from email.message import Message
from typing import BinaryIO, cast

from .base import BaseLayer, retrieval_layers
from .charset import decode, decode_lines, decode_stream
from .delimit.chars import ordered
from .errors import InputError, RunError
from .found_to_record import Tail
from .html import DocumentWalk, Locator, parse, prescan
from .mail.mbox import MboxMessage, split_mbox
from .mail.nesting import checked_parse
from .mail.parts import HeaderReference, message_pieces
from .mail.pointers import PartIndex, index_parts
from .model import (
    BaseSource,
    Charset,
    Content,
    Defect,
    DefectKind,
    Flag,
    Kind,
    Origin,
    Record,
    Style,
    Tally,
    Where,
    new_found,
    new_place,
    origin_with,
)
from .options import DEFAULTS, ScanOptions, checked
from .sources import BUILT_KINDS, Input, Opened, open_input, standard_input, unreadable
from .text import chunked_records, text_records
from .units import Counted, Window, WorkUnit
from .warc import WarcReader, content_location, http_references

Items = Iterator[Record | Defect]
#: a reader: content in, records and defects out, and content nested in it for the scan to route
Reader = Callable[[Content, ScanOptions, Tally], Iterator[Record | Defect | Content]]


# -- routing ------------------------------------------------------------------------------

def scan_content(content: Content, options: ScanOptions, tally: Tally | None = None) -> Items:
    """Records and defects of one piece of content, by its kind (and of the
    content nested in it, routed the same way)."""
    tally = tally if tally is not None else Tally()
    kind = content.kind
    if kind not in READERS:
        if not content.sniffed:
            raise InputError(f"{content.origin.file or '<input>'}: reading {kind} input is not built yet")
        yield Defect(DefectKind.UNSUPPORTED_KIND,
                     f"this looks like {kind} content, which this version does not read yet; scanned as plain text",
                     content.origin, None)
        kind = Kind.TEXT
    for item in READERS[kind](content, options, tally):
        if type(item) is Content:
            assert isinstance(item, Content)
            yield from _nested(item, options, tally)
        else:
            yield item  # type: ignore[misc]


def _nested(content: Content, options: ScanOptions, tally: Tally) -> Items:
    """The records of content found inside other content: a part's charset is
    its own container's to declare, never the command line's; its flags and
    the part it points to are added to its records."""
    items = scan_content(content, options if options.charset is None else replace(options, charset=None), tally)
    flags, points_to = content.flags, content.points_to
    if not flags and points_to is None:
        yield from items
        return
    for item in items:
        if type(item) is Record:
            assert isinstance(item, Record)
            if flags:
                found = item.found
                item = item._replace(found=found._replace(flags=ordered({*found.flags, *flags})))
            if points_to is not None:
                path = points_to(item.target or item.uri)
                if path is not None:
                    item = item._replace(points_to=path)
        yield item


def _as_stream(body: BinaryIO | bytes | str | Message) -> BinaryIO:
    """Mail and archives are bytes: a body handed in as text is taken as its UTF-8."""
    if isinstance(body, Message):
        raise TypeError("a parsed message is content of kind mail only")
    if isinstance(body, str):
        body = body.encode("utf-8")
    return io.BytesIO(body) if isinstance(body, bytes) else body


# -- the readers' front doors ----------------------------------------------------------------

def read_text(content: Content, options: ScanOptions, tally: Tally) -> Items:
    """Plain text: decoded by the charset chain, streamed through the
    scanner in pieces cut where no reference can span the cut."""
    body = content.body
    declared = content.declared or options.charset
    if isinstance(body, Message):
        raise TypeError("a parsed message is content of kind mail only")
    if isinstance(body, str):
        yield from text_records(body, Tail(content.layer, content.origin, content.decoding), options.abbreviated,
                                context=options.context)
        return
    if isinstance(body, bytes) and len(body) <= options.chunk_size:
        # a body held whole already (a mail part): decoded in one step, no stream machinery
        text, choice, defects = decode(body, declared=declared, origin=content.origin)
        yield from defects
        yield from text_records(text, Tail(content.layer, content.origin, Charset(choice.name, choice.source)),
                                options.abbreviated, context=options.context)
        return
    stream = io.BytesIO(body) if isinstance(body, bytes) else body
    if content.live:
        choice, pieces = decode_lines(stream, declared=declared, origin=content.origin)
    else:
        choice, pieces = decode_stream(stream, declared=declared, origin=content.origin,
                                       chunk_size=options.chunk_size)
    tail = Tail(content.layer, content.origin, Charset(choice.name, choice.source))
    yield from chunked_records(pieces, tail, options.abbreviated, eager=content.live, context=options.context)


def read_text_range(stream: BinaryIO, unit: WorkUnit, layer: BaseLayer, origin: Origin, options: ScanOptions
                    ) -> Items:
    """A range of a plain text file (:mod:`urisift.plan`): decoded in the
    charset the input's first bytes chose, its positions counted on from
    the characters and lines before it, its defects at the file's offsets."""
    assert unit.start is not None
    chosen = unit.charset if unit.start else None
    choice, pieces = decode_stream(stream, declared=options.charset, origin=origin, chunk_size=options.chunk_size,
                                   chosen=chosen, at=unit.start)
    tail = Tail(layer, origin, Charset(choice.name, choice.source))
    yield from chunked_records(pieces, tail, options.abbreviated, context=options.context, offset=unit.characters,
                               first_line=unit.lines + 1)


def read_html(content: Content, options: ScanOptions, tally: Tally) -> Items:
    """A whole HTML document: decoded by the chain with the <meta> prescan
    (DESIGN §1), parsed, walked.  A page is held whole, as any parser holds it."""
    body = content.body
    decoding = None
    markup: str | bytes
    if isinstance(body, Message):
        raise TypeError("a parsed message is content of kind mail only")
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
    tree, capped = parse(markup)
    if capped is not None:  # what the guard capped before the parser saw it (issue 20)
        yield Defect(DefectKind.DEEP_NESTING, capped, content.origin, None)
    records = DocumentWalk(tree, content.layer, content.origin, decoding,
                           locator=Locator(text) if options.positions else None,
                           abbreviated=options.abbreviated, comments=options.comments)
    yield from (_with_context(records, text, options.context) if options.context else records)


def _with_context(items: Iterable[Record | Defect], text: str, context: int) -> Items:
    """Records with the text around their span (those without a span have none)."""
    for item in items:
        if type(item) is Record and item.span is not None:  # type: ignore[union-attr]
            start, end = item.span  # type: ignore[union-attr]
            item = item._replace(context=text[max(0, start - context):end + context])  # type: ignore[union-attr]
        yield item


def read_message(content: Content, options: ScanOptions, tally: Tally) -> Iterator[Record | Defect | Content]:
    """One message (RFC 5322, MIME): its headings' references as records, its
    text parts as nested content with the bases of the headings around
    them; in a multipart message, what a target points to among its parts
    (:mod:`urisift.mail.pointers`)."""
    body = content.body
    if isinstance(body, Message):
        message = body
    else:
        # checked before the email package's recursive parser sees it (a
        # message nested a thousand deep is a defect, not a RecursionError)
        message, defects = checked_parse(_as_stream(body).read(), content.origin)
        yield from defects
    yield from message_items(message, content.layer, content.origin, tally)


def message_items(message: Message, layer: BaseLayer, origin: Origin, tally: Tally
                  ) -> Iterator[Record | Defect | Content]:
    """What :func:`read_message` yields, for a message already parsed."""
    points_to = _part_pointer(message, layer, origin)
    for piece in message_pieces(message, layer, origin):
        if isinstance(piece, Defect):
            yield piece
        elif isinstance(piece, HeaderReference):
            record = Tail(piece.layer, piece.origin, None)(piece.found)
            path = points_to(record.target or record.uri)
            yield record if path is None else record._replace(points_to=path)
        else:
            tally.parts += 1
            yield Content(piece.body, piece.kind, piece.origin, piece.layer, piece.declared, piece.decoding,
                          flags=(Flag.UUENCODED,) if piece.uuencoded else (), points_to=points_to)


def _part_pointer(message: Message, layer: BaseLayer, origin: Origin) -> Callable[[str], str | None]:
    """What a target points to among the parts of ``message``
    (:mod:`urisift.mail.pointers`), the same in a single-part message as in
    a multipart one (a ``mid:`` naming the message itself is ``""``); its
    parts are indexed when the first record asks.  A single part with no
    Content-Location can only be named by ``cid:`` or ``mid:``: other
    targets are not looked up (most messages of an archive)."""
    index: list[PartIndex] = []
    located = message.is_multipart() or message.get("Content-Location") is not None

    def points_to(target: str) -> str | None:
        if not located and target[:4].lower() not in ("cid:", "mid:"):
            return None
        if not index:
            index.append(index_parts(message, layer, origin))
        return index[0].points_to(target)

    return points_to


def read_mbox(content: Content, options: ScanOptions, tally: Tally) -> Iterator[Record | Defect | Content]:
    """Each message of an mbox archive in turn, as it is split off the stream."""
    yield from _mbox_messages(split_mbox(_as_stream(content.body)), content.layer, content.origin, 0, tally)


def _mbox_messages(messages: Iterable[MboxMessage], layer: BaseLayer, origin: Origin, offset: int, tally: Tally
                   ) -> Iterator[Record | Defect | Content]:
    for item in messages:
        tally.messages += 1
        where = origin_with(origin, message=item.message, offset=offset + item.offset)
        message, defects = checked_parse(item.data, where)
        yield from defects
        yield from message_items(message, layer, where, tally)


def read_warc(content: Content, options: ScanOptions, tally: Tally) -> Iterator[Record | Defect | Content]:
    """The records of every ``response``, ``resource`` and ``revisit`` of a
    WARC or ARC stream (:mod:`urisift.warc`): its HTTP ``Location`` and
    ``Link`` targets against its ``WARC-Target-URI`` alone, its payload
    (nested content) against that URI under whatever base the payload sets."""
    reader = WarcReader(_as_stream(content.body), content.origin)
    origin = content.origin
    try:
        for unit in reader:
            if isinstance(unit, Defect):
                yield unit
                continue
            where = origin_with(origin, offset=unit.offset, warc_record_id=unit.record_id,
                                warc_target_uri=unit.target_uri, warc_date=unit.date)
            layer, defect = content.layer.push(unit.target_uri, BaseSource.RETRIEVAL, "WARC-Target-URI", origin=where)
            if defect is not None:
                yield defect
            tail = Tail(layer, where, None)
            flags = (Flag.TRUNCATED,) if unit.truncated else ()
            for name, reference, rel in http_references(unit):
                place = new_place(Where.HEADER, None, None, name, rel, None)
                record = tail(new_found(reference, None, None, Style.HEADER, (), (), None, place))
                if flags:
                    found = record.found
                    record = record._replace(found=found._replace(flags=ordered({*found.flags, *flags})))
                yield record
            if unit.kind is None or unit.payload is None:
                continue
            # RFC 2616 §14.14 made Content-Location a base for the body; RFC 7231
            # §3.1.4.2 took that back: only on request
            location = content_location(unit) if options.content_location else None
            layer, defect = layer.push(location, BaseSource.CONTENT_LOCATION, "HTTP Content-Location", origin=where)
            if defect is not None:
                yield defect
            yield Content(unit.payload, unit.kind, where, layer, unit.charset, flags=flags)
    finally:
        tally.warc_types.update(reader.types)


#: media type -> reader: the one table (DESIGN §1)
READERS: dict[Kind, Reader] = {
    Kind.TEXT: read_text,  # type: ignore[dict-item]
    Kind.HTML: read_html,  # type: ignore[dict-item]
    Kind.MAIL: read_message,
    Kind.MBOX: read_mbox,
    Kind.WARC: read_warc,
}
assert frozenset(READERS) == BUILT_KINDS


# -- units ---------------------------------------------------------------------------

def _policed(items: Iterable[Record | Defect | Tally], strict: bool) -> Iterator[Record | Defect | Tally]:
    """The strict policy: the first defect ends the scan."""
    for item in items:
        if strict and type(item) is Defect:
            raise InputError(f"urisift: {item} (--strict)")
        yield item


def scan_unit(unit: WorkUnit, options: ScanOptions = DEFAULTS, *, stdin: BinaryIO | None = None
              ) -> Iterator[Record | Defect | Tally]:
    """Records and defects of one unit of work, streamed, and last its
    :class:`~urisift.model.Tally`.  An input that cannot be opened or read
    is an ``unreadable`` defect, never an exception (but see ``strict``).
    A range's messages are numbered from 0 (:class:`~urisift.units.Renumbering` numbers
    them on) and its offsets are the file's."""
    return _policed(_scan_unit(unit, options, stdin), options.strict)


def _scan_unit(unit: WorkUnit, options: ScanOptions, stdin: BinaryIO | None) -> Iterator[Record | Defect | Tally]:
    source = unit.source
    origin = Origin(file=source.name)
    tally = Tally(inputs=1 if not unit.start else 0, size=unit.size)
    opened: Opened | None = None
    counted: Counted | None = None
    try:
        if unit.start is None:
            if source.path == "-":  # its bytes are counted as they come: no size to look up
                counted = Counted(stdin if stdin is not None else standard_input())
            elif not os.path.isfile(source.path):  # a FIFO, a device: the same
                counted = Counted(open(source.path, "rb"))  # noqa: SIM115 - closed with the stream
            opened = open_input(source, kind=options.kind, stdin=cast(BinaryIO, counted))
            kind = opened.kind
            stream: BinaryIO = opened.stream
        else:
            stream = io.BufferedReader(Window(open(source.path, "rb"), unit.start, unit.end))  # noqa: SIM115
            kind = unit.kind or Kind.MBOX
    except OSError as exc:
        yield unreadable(source.name, exc)
        yield tally
        return
    layer, defects = retrieval_layers(options.base, origin)
    if not unit.start:
        yield from defects
    try:
        if unit.start is not None and kind is Kind.MBOX:
            # a range of an mbox: its messages numbered from 0, its offsets the file's
            items: Iterator[Record | Defect | Content] = _mbox_messages(
                split_mbox(stream, followed=unit.end is not None), layer, origin, unit.start, tally)
            for item in items:
                if type(item) is Content:
                    yield from _nested(item, options, tally)  # type: ignore[arg-type]
                else:
                    yield item  # type: ignore[misc]
        elif unit.start is not None and kind is Kind.TEXT:
            yield from read_text_range(stream, unit, layer, origin, options)
        else:
            content = Content(stream, kind, origin, layer, sniffed=options.kind is Kind.AUTO and unit.start is None,
                              live=opened is not None and opened.live)
            yield from scan_content(content, options, tally)
    except OSError as exc:
        yield Defect(DefectKind.UNREADABLE, f"reading stopped: {exc.strerror or exc}", origin)
    except RunError:
        raise  # the run is to end (a kind asked for that this version does not read)
    except Exception as exc:  # noqa: BLE001 - one input that trips the scanner must not cost the others
        yield scan_failed(unit, exc)
    finally:
        if source.path != "-":
            stream.close()
    tally.stored = counted.count if counted is not None else unit.size
    if opened is not None:
        yield from opened.defects
        tally.decoded = opened.decoded(tally.stored)
    else:
        tally.decoded = tally.stored
    yield tally


def scan_failed(unit: WorkUnit, exc: BaseException) -> Defect:
    """The defect of a unit the scanner failed on (a bug): the other units go on."""
    return Defect(DefectKind.SCAN_FAILED, f"the scan of this input failed ({type(exc).__name__}: {exc}); "
                  "the records before it were written; please report it", Origin(file=unit.source.name))


def iter_input(source: Input | str, options: ScanOptions = DEFAULTS, *, stdin: BinaryIO | None = None
               ) -> Items:
    """Records and defects of one input, streamed, in constant memory."""
    source = Input(source) if isinstance(source, str) else source
    for item in scan_unit(WorkUnit(source), options, stdin=stdin):
        if type(item) is not Tally:
            yield item  # type: ignore[misc]


def messages_in(unit: WorkUnit) -> int:
    """How many messages an mbox range holds (what the Spark job's first
    stage counts, to number each range's messages as a serial run does)."""
    with io.BufferedReader(Window(open(unit.source.path, "rb"), unit.start or 0, unit.end)) as stream:  # noqa: SIM115
        return sum(1 for _ in split_mbox(stream, followed=unit.end is not None))


__all__ = ["READERS", "ScanOptions", "checked", "iter_input", "messages_in", "read_html", "read_mbox",
           "read_message", "read_text", "read_text_range", "read_warc", "scan_content", "scan_failed", "scan_unit"]
