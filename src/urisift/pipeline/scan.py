"""Orchestration (ARCHITECTURE.md, How one input flows): the one module that knows the whole pipeline.

    bytes ─ decode ─▶ text ─ find ─▶ Found ─ base ─▶ Base ─ resolve ─▶ target ─ record ─▶ Record

- :func:`scan_unit` turns the unit of work (:class:`~urisift.pipeline.units.WorkUnit`: an input, or a byte
  range of one, planned by :mod:`urisift.pipeline.plan`) into an iterator of records and defects, lazily,
  ending with the unit's :class:`~urisift.model.Tally`; nothing here builds a list of a unit's records.
- :func:`scan_content` routes one piece of :class:`~urisift.model.Content` to its reader by kind, through
  one table (:data:`READERS`): each reader's front door (:func:`~urisift.readers.text.read_text`,
  :func:`~urisift.readers.html_reading.read_html`, :func:`~urisift.readers.mail.reader.read_message` and
  ``read_mbox``, :func:`~urisift.readers.warc.records.read_warc`) yields records, defects, and content
  nested in its own (a MIME part, a WARC payload), which comes back here to be routed in turn.  The HTML
  door has a module of its own, not in :mod:`urisift.readers.html`, because it is where the decoder and the
  ``<meta>`` prescan meet (the two never import each other).  An image is read only with ``--qr``.

Lenient by default: a defect is yielded and the scan goes on.  With
``strict=True`` the first defect raises :class:`~urisift.uri.errors.InputError`.
"""

from __future__ import annotations

import importlib
import io
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from typing import BinaryIO, cast

from ..model import Content, Defect, DefectKind, Flag, Kind, Origin, Record, Span, Tally, origin_with, with_flags
from ..model.events import is_message
from ..readers.html_reading import read_html
from ..readers.text import read_text, read_text_range
from ..stages.base import retrieval_layers, retrieval_uri, unresolved
from ..stages.containment import EVERY, Metered, contained, failed
from ..stages.delimit.chars import ordered
from ..stages.options import DEFAULTS, ScanOptions, checked
from ..stages.publishing import is_source, published_record, published_uri
from ..uri.errors import InputError, RunError
from .remote import configure, is_remote, retrieved
from .sources import BUILT_KINDS, Opened, open_binary, open_input, read_small, standard_input, unreadable
from .units import Counted, Renumbering, Task, Window, WorkUnit

Items = Iterator[Record | Defect]
#: a reader: content in, records and defects out, and content nested in it for the scan to route
Reader = Callable[[Content, ScanOptions, Tally], Iterator[Record | Defect | Content]]


# -- routing ------------------------------------------------------------------------------

def scan_content(content: Content, options: ScanOptions, tally: Tally | None = None) -> Items:
    """Records and defects of one piece of content, by its kind (and of those nested in it, routed alike)."""
    tally = tally if tally is not None else Tally()
    kind = content.kind
    if kind not in READERS:
        if not content.sniffed:
            raise InputError(f"{content.origin.file or '<input>'}: reading {kind} input is not built yet")
        yield Defect(DefectKind.UNSUPPORTED_KIND,
                     f"this looks like {kind} content, which this version does not read yet; scanned as plain text",
                     content.origin, None)
        kind = Kind.TEXT
    if kind is Kind.IMAGE and not options.qr:
        kind = Kind.TEXT  # an image file named without --qr: read as before images were read (a binary-content defect)
    tally.kinds.add(kind._value_)  # (not .value: a property's call, on every nested content)
    budget = content.budget
    fresh = budget is None and kind not in ARCHIVES
    if fresh:  # each document its own account (ARCHITECTURE.md, Budgets); an archive is many documents
        budget = options.limits.budget()
    meter = None
    metering = budget is not None and kind not in ARCHIVES
    if metering:
        # the pipeline, not the reader, keeps the budget: the bytes are metered
        # as the reader takes them, and its items as it gives them
        body = content.body
        if not isinstance(body, (bytes, str)) and not is_message(body):
            whole = options.limits.whole if kind in HELD_WHOLE else None
            meter = Metered(body, budget, content.origin, content.inflated, whole)  # type: ignore[arg-type]
            content = replace(content, body=io.BufferedReader(meter), budget=budget)  # (one copy: each costs 10 µs)
        elif fresh:
            content = replace(content, budget=budget)
    items = READERS[kind](content, options, tally)
    # a crawl's records all carry what a browser fetches, whatever the payload
    inner = replace(options, browser=True) if kind is Kind.WARC and not options.browser else options
    count = 0  # items since the clock was last looked at (containment.metered's steps, in this loop)
    for item in items:
        if type(item) is Content:
            assert isinstance(item, Content)
            yield from _nested(item, inner, tally)
        else:
            yield item  # type: ignore[misc]
            if type(item) is Record and item.target is None and item.base_layer is not None:  # type: ignore[union-attr]
                yield unresolved(item)  # type: ignore[arg-type]  # (an opaque base: a fragment alone resolves)
        if metering:
            count += 1
            if count >= EVERY:
                count = 0
                if budget.expired():  # type: ignore[union-attr]
                    unread = _unread(kind, meter)
                    if unread is not None:
                        yield from budget.over_time(unread, content.origin)  # type: ignore[union-attr]
                    break
    if meter is not None and meter.defect is not None:
        yield meter.defect


def _unread(kind: Kind, meter: Metered | None) -> str | None:
    """What a reading stopped by the time budget leaves unread (None: its stream said so already)."""
    if meter is not None and meter.timed_out:
        return None
    read = "" if meter is None else f" (its bytes were read up to byte {meter.done})"
    return f"the rest of its {kind} content{read}"


def _nested(content: Content, options: ScanOptions, tally: Tally) -> Items:
    """The records of content found inside other content: a part's charset is
    its own container's to declare, never the command line's; its flags and
    the part it points to are added to its records.  Its reader's failure
    ends its reading only (:func:`~urisift.stages.containment.contained`): the
    container's reading goes on (ARCHITECTURE.md, The nesting boundary)."""
    if content.kind is Kind.IMAGE and not options.qr:
        return  # an image met inside other content is read only with --qr: passed over, as before images were read
    scanned = scan_content(content, options if options.charset is None else replace(options, charset=None), tally)
    flags, points_to, placed, at, held = content.flags, content.points_to, content.placed, content.at, content.held
    if not flags and points_to is None and placed is None and at is None and held is None:
        # contained's steps, without its generator (a notebook's cells are a hundred thousand contents)
        try:
            yield from scanned
        except RunError:
            raise
        except Exception as exc:  # noqa: BLE001 - the boundary: one inner failure must not cost the rest
            yield failed(f"its {content.kind} content", exc, content.origin)
        return
    items = contained(scanned, f"its {content.kind} content", content.origin)
    added = ordered({*flags})  # a record's flags when it has none of its own (the commonest case: sorted once)
    for item in items:
        if type(item) is Record:
            assert isinstance(item, Record)
            if at is not None:
                item = _moved(item, *at)
            if held is not None and item.line is not None:
                # a document in an element's text: where it stands is the element's line; a line and column
                # of its unescaped text would be read as the file's
                item = item._replace(line=held, column=None, span=None, in_file=None)
            if placed is not None and item.line is not None and Flag.SRCDOC not in item.found.flags:
                line, column = placed(item.line, item.column or 1)
                item = item._replace(in_file=(line, None if item.column is None else column))
            if flags:
                own = item.found.flags
                item = with_flags(item, ordered({*own, *flags}) if own else added)
            if points_to is not None:
                path = points_to(item.target or item.uri)
                if path is not None:
                    item = item._replace(points_to=path)
        yield item


def _moved(record: Record, offset: int, line: int, column: int) -> Record:
    """A record of content whose text starts at ``offset``, ``line`` and
    ``column`` of the text around it, placed in that text."""
    span, at_line, at_column = record.span, record.line, record.column
    if span:
        span = Span(span[0] + offset, span[1] + offset)
    if at_line:
        if at_line == 1 and at_column:
            at_column += column - 1
        at_line += line - 1
    return record._replace(span=span, line=at_line, column=at_column)


# -- the readers' front doors ----------------------------------------------------------------

def _reader(module: str, name: str) -> Reader:
    """The reader ``name`` of ``module``, imported when it first reads: a run imports only the readers of
    the kinds it meets (a text file's run starts a tenth of a second sooner without the others' libraries)."""
    loaded: list[Reader] = []  # the reader, once imported

    def read(content: Content, options: ScanOptions, tally: Tally) -> Iterator[Record | Defect | Content]:
        if not loaded:
            loaded.append(getattr(importlib.import_module(module, __package__), name))
        return loaded[0](content, options, tally)
    return read


_MAPI = "..readers.mail.mapi.reading"  # (.msg and TNEF: one model, one reader of it; media type -> reader below)
READERS: dict[Kind, Reader] = {  # the one table (ARCHITECTURE.md, Adding a reader)
    Kind.TEXT: read_text,  # type: ignore[dict-item]
    Kind.HTML: read_html,  # type: ignore[dict-item]
    Kind.MAIL: _reader("..readers.mail.reader", "read_message"),
    Kind.MBOX: _reader("..readers.mail.reader", "read_mbox"),
    Kind.WARC: _reader("..readers.warc.records", "read_warc"),
    Kind.CSS: _reader("..readers.css.reader", "read_css"),
    Kind.XML: _reader("..readers.xml", "read_xml"),
    Kind.ROBOTS: _reader("..readers.xml", "read_robots"),
    Kind.PDF: _reader("..readers.documents", "read_pdf"),
    Kind.OFFICE: _reader("..readers.xml", "read_office"),
    Kind.MARKDOWN: _reader("..readers.markup", "read_markdown"),
    Kind.NOTEBOOK: _reader("..readers.markup", "read_notebook"),
    Kind.RST: _reader("..readers.markup", "read_rst"),
    Kind.ASCIIDOC: _reader("..readers.markup", "read_asciidoc"),
    Kind.ORG: _reader("..readers.markup", "read_org"),
    Kind.LATEX: _reader("..readers.markup", "read_latex"),
    Kind.BIBTEX: _reader("..readers.markup", "read_bibtex"),
    Kind.WIKITEXT: _reader("..readers.markup", "read_wikitext"),
    Kind.ARCHIVE: _reader("..readers.archive", "read_archive"), Kind.EPUB: _reader("..readers.archive", "read_epub"),
    Kind.EMLX: _reader("..readers.mail.emlx", "read_emlx"), Kind.IMAGE: _reader("..readers.image", "read_image"),
    Kind.CALENDAR: _reader("..readers.calendar", "read_calendar"),
    Kind.VCARD: _reader("..readers.calendar", "read_calendar"),
    Kind.MSG: _reader(_MAPI, "read_msg"), Kind.TNEF: _reader(_MAPI, "read_tnef_stream"),
    Kind.PST: _reader("..readers.mail.mapi.pst", "read_pst"), Kind.CSV: _reader("..readers.table", "read_table"),
}
assert frozenset(READERS) == BUILT_KINDS
#: the kinds that hold many documents, each given its own budget, rather than one
ARCHIVES = frozenset({Kind.MBOX, Kind.WARC, Kind.ARCHIVE, Kind.PST, Kind.EPUB})
#: the kinds whose readers hold a document's bytes whole, and can use a part of one (the others stream
#: them, or seek in a file; a PDF cut short cannot be read at all, its cross-reference table is at its end):
#: their bytes are bounded by Limits.whole
HELD_WHOLE = frozenset({Kind.HTML, Kind.CSS, Kind.MAIL, Kind.ROBOTS, Kind.MARKDOWN, Kind.NOTEBOOK, Kind.RST,
                        Kind.ASCIIDOC, Kind.ORG, Kind.LATEX, Kind.BIBTEX, Kind.WIKITEXT, Kind.EMLX,
                        Kind.CALENDAR, Kind.VCARD, Kind.MSG, Kind.TNEF, Kind.IMAGE})
#: the kinds whose small files are read in one call (:func:`~urisift.pipeline.sources.read_small`): the markup kinds
_READ_AT_ONCE = HELD_WHOLE - {Kind.HTML, Kind.CSS, Kind.MAIL, Kind.ROBOTS, Kind.IMAGE}


# -- units ---------------------------------------------------------------------------

def _policed(items: Iterable[Record | Defect | Tally]) -> Iterator[Record | Defect | Tally]:
    """The strict policy: the first defect ends the scan."""
    for item in items:
        if type(item) is Defect:
            raise InputError(f"urisift: {item} (--strict)")
        yield item


def scan_unit(unit: WorkUnit, options: ScanOptions = DEFAULTS, *, stdin: BinaryIO | None = None
              ) -> Iterator[Record | Defect | Tally]:
    """Records and defects of one unit of work, streamed, and last its
    :class:`~urisift.model.Tally`.  An input that cannot be opened or read
    is an ``unreadable`` defect, never an exception (but see ``strict``).
    A range's messages are numbered from 0 (:class:`~urisift.pipeline.units.Renumbering` numbers
    them on) and its offsets are the file's."""
    items = _scan_unit(unit, options, stdin)
    if options.published_as is not None:
        items = _published(items, options.published_as)
    return _policed(items) if options.strict else items  # (no generator around each record for nothing)


def _published(items: Iterator[Record | Defect | Tally], mode: str) -> Iterator[Record | Defect | Tally]:
    """--published-as: each record's target named as the tree is published (stages/publishing.py)."""
    for item in items:
        yield published_record(item, mode) if type(item) is Record else item


def _scan_unit(unit: WorkUnit, options: ScanOptions, stdin: BinaryIO | None) -> Iterator[Record | Defect | Tally]:
    configure(options.timeout)  # (a worker's or a Spark task's process too)
    source = unit.source
    origin = Origin(file=source.name)
    tally = Tally(inputs=1 if unit.opens_input else 0, size=unit.size)
    opened: Opened | None = None
    counted: Counted | None = None
    fetched: str | None = None  # the URL the bytes come from (RFC 3986 §5.1.3)
    try:
        if unit.start is None:
            if source.path == "-":  # its bytes are counted as they come: no size to look up
                counted = Counted(stdin if stdin is not None else standard_input())
            elif not is_remote(source.path) and not os.path.isfile(source.path):  # a FIFO, a device: the same
                counted = Counted(open(source.path, "rb"))  # noqa: SIM115 - closed with the stream
            opened = open_input(source, kind=options.kind, stdin=cast(BinaryIO, counted))
            kind = opened.kind
            stream: BinaryIO = opened.stream
            fetched = opened.fetched
        else:
            raw = open_binary(source.path)
            fetched = retrieved(raw)
            stream = io.BufferedReader(Window(raw, unit.start, unit.end))  # noqa: SIM115
            kind = unit.kind or Kind.MBOX
    except OSError as exc:
        yield unreadable(source.name, exc)
        yield tally
        return
    retrieval, detail = retrieval_uri(source.under, options.base, fetched)
    layer, defects = retrieval_layers(retrieval, origin, detail=detail)
    if layer.current is not None:  # (the retrieval layer's, as the default layer is not asked for here)
        # (the page a source of a tree is published as: where its edges start; its references are resolved
        # against the source's own place, as the generators resolve them)
        page = layer.current.uri if options.published_as is None or not is_source(source.path) else published_uri(
            layer.current.uri, options.published_as)
        origin = origin_with(origin, retrieval=page)
    if unit.opens_input:
        yield from defects
    if opened is not None and opened.doubt is not None:
        yield Defect(DefectKind.UNCERTAIN_KIND, opened.doubt, origin)
    if opened is not None and opened.failure is not None:
        yield opened.failure
    try:
        if unit.start is not None and kind is Kind.MBOX:
            from ..readers.mail.mbox import split_mbox
            from ..readers.mail.reader import mbox_messages
            # a range of an mbox: its messages numbered from 0, its offsets the file's
            lines = [0]
            items: Iterator[Record | Defect | Content] = mbox_messages(
                split_mbox(stream, followed=unit.end is not None, lines=lines), layer, origin, unit.start, tally,
                browser=options.browser, locations=options.locations, needs=options.needs, images=options.qr)
            for item in items:
                if type(item) is Content:
                    yield from _nested(item, options, tally)  # type: ignore[arg-type]
                else:
                    yield item  # type: ignore[misc]
                    if type(item) is Record and item.target is None and item.base_layer is not None:  # type: ignore
                        yield unresolved(item)  # type: ignore[arg-type]  # (as scan_content does: an opaque base)
            tally.lines = lines[0]  # (the ranges after it number their lines on)
        elif unit.start is not None and kind is Kind.TEXT:
            yield from read_text_range(stream, unit.start, unit.characters, unit.lines, unit.charset, layer, origin,
                                       options, source.path)
        else:
            # a message file's text stands in the file from its first line (text output's location)
            where = origin_with(origin, line=1) if kind is Kind.MAIL and options.locations else origin
            body: BinaryIO | bytes = stream
            if opened is not None and kind in _READ_AT_ONCE and opened.compression is None and not opened.live:
                body = read_small(stream, options.limits.whole)  # (a small document its reader holds whole)
            content = Content(body, kind, where, layer, sniffed=options.kind is Kind.AUTO and unit.start is None,
                              live=opened is not None and opened.live, documents=unit.documents,
                              inflated=opened is not None and opened.compression is not None)
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
    tally.stored = counted.count if counted is not None else tally.size  # (a size is a stat: taken once)
    if opened is not None:
        yield from opened.defects
    # bytes after decompression: the WARC reader counts its own (a .warc.gz is inflated member by member)
    if kind is not Kind.WARC:
        decoded = opened.decoded(tally.stored) if opened is not None else None
        tally.decoded = decoded if decoded is not None else tally.stored
    yield tally


def scan_task(task: Task, options: ScanOptions = DEFAULTS) -> Iterator[Record | Defect | Tally]:
    """What a worker of the pool is handed, scanned: a unit, as
    :func:`scan_unit`; a group of small inputs, the units one after another
    with one tally for them all (a unit of the group that trips the
    scanner is its scan-failed defect, and the next goes on)."""
    if isinstance(task, WorkUnit):
        yield from scan_unit(task, options)
        return
    total = Tally()
    for unit in task.units:
        try:
            for item in scan_unit(unit, options):
                if type(item) is Tally:
                    total.add(item)
                else:
                    yield item
        except Exception as exc:  # noqa: BLE001 - one input that trips the scanner must not cost the run
            yield scan_failed(unit, exc)
            total.add(Tally(size=unit.size))
    yield total


def scan_failed(unit: WorkUnit, exc: BaseException) -> Defect:
    """The defect of a unit the scanner failed on (a bug): the other units go on."""
    return Defect(DefectKind.SCAN_FAILED, f"the scan of this input failed ({type(exc).__name__}: {exc}); "
                  "the records before it were written; please report it", Origin(file=unit.source.name))


def scan_serial(units: Iterable[WorkUnit | Defect], options: ScanOptions = DEFAULTS, *,
                stdin: BinaryIO | None = None) -> Iterator[Record | Defect | Tally]:
    """The records, defects and tallies of planned ``units`` (and the plan's
    own defects), scanned in this process: what ``--jobs N`` gives, in the
    same order and numbering (an mbox range's messages numbered on)."""
    numbering = Renumbering()
    for unit in units:
        if isinstance(unit, Defect):
            yield unit
            continue
        numbering.begin(unit)
        renumber = unit.mbox_range
        for item in scan_unit(unit, options, stdin=stdin):
            if type(item) is Tally:
                numbering.end(item)
                yield item
            else:
                yield numbering(item) if renumber else item  # type: ignore[arg-type]


def messages_in(unit: WorkUnit) -> int:
    """How many messages an mbox range holds (what the Spark job's first
    stage counts, to number each range's messages as a serial run does)."""
    from ..readers.mail.mbox import split_mbox

    with io.BufferedReader(Window(open_binary(unit.source.path), unit.start or 0, unit.end)) as stream:  # noqa: SIM115
        return sum(1 for _ in split_mbox(stream, followed=unit.end is not None))


__all__ = ["READERS", "ScanOptions", "checked", "messages_in", "read_html", "scan_content",
           "scan_failed", "scan_serial", "scan_task", "scan_unit"]
