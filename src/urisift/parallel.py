"""``--jobs N``: inputs scanned by a pool of worker processes, the records
written in the order a serial run writes them (issue 12; DESIGN §1).

The work is cut into units: each input is one, except a large mbox, cut at
envelope lines (``From `` lines that :func:`split_mbox` would split at) into
ranges of about :data:`RANGE_SIZE` bytes, and a large WARC file, cut at
record starts into ranges of :data:`WARC_RANGE_SIZE`, so that one big
archive keeps every core busy.  A worker reads its range from the file
itself (only the range's offsets travel, never its bytes) and returns the
records; :class:`Numbering` numbers the messages of an mbox range after
those of the ranges before it, so the output is the serial run's, byte for
byte.  The Spark job plans and runs the same units.
"""

from __future__ import annotations

import email
import gc
import io
import multiprocessing
import os
import signal
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from email.policy import compat32
from multiprocessing.pool import AsyncResult
from typing import IO, BinaryIO

from .base import retrieval_stack
from .construct import origin_with
from .mail.mbox import MboxMessage, is_envelope, split_mbox
from .model import Defect, DefectKind, Kind, Origin, Record
from .scan import ScanOptions, iter_input, message_records, warc_records
from .sources import Input, file_size, first_cut, open_input, unreadable
from .warc import record_start
from .writers import Writer

#: the size of the ranges a large mbox is cut into
RANGE_SIZE = 8 << 20
#: the size of the ranges of a WARC file (compressed, it holds five times as much to scan)
WARC_RANGE_SIZE = 2 << 20
_FROM = b"\nFrom "


@dataclass(frozen=True, slots=True)
class Unit:
    """One piece of work: an input, or a byte range of an mbox (``start`` at
    an envelope line) or of a WARC file (at a record); ``end`` None for the
    rest of the file."""

    source: Input
    start: int | None = None
    end: int | None = None
    kind: Kind = Kind.MBOX  # what a range holds


def _boundary(f: BinaryIO, near: int, size: int) -> int | None:
    """The start of the first envelope line at or after ``near``."""
    return first_cut(f, near, size, _envelope)


def _envelope(window: bytes, base: int) -> tuple[int | None, int]:
    at = window.find(_FROM)
    while at != -1:
        end = window.find(b"\n", at + 1)
        if end == -1:
            return None, at  # the line goes on past the window: read on from it
        if is_envelope(window[at + 1:end].rstrip(b"\r")):
            return at + 1, 0
        at = window.find(_FROM, at + 1)
    return None, max(0, len(window) - len(_FROM))


def units(sources: Iterable[Input | Defect], options: ScanOptions) -> Iterator[Unit | Defect]:
    """The units of work for ``sources``, in output order."""
    for source in sources:
        if isinstance(source, Defect):
            yield source
            continue
        yield from _split(source, options)


def _split(source: Input, options: ScanOptions) -> Iterator[Unit]:
    if source.path == "-":
        yield Unit(source)
        return
    try:
        size = os.path.getsize(source.path)
        if size < 2 * min(RANGE_SIZE, WARC_RANGE_SIZE):
            yield Unit(source)
            return
        opened = open_input(source, kind=options.kind)
        opened.stream.close()
        # an mbox read as it is, and a WARC file (a gzip member a record, or
        # plain: the WARC reader reads either from the file itself) are cut
        if opened.kind is Kind.MBOX and opened.compression is None:
            boundary, step = _boundary, RANGE_SIZE
        elif opened.kind is Kind.WARC and opened.compression is None:
            boundary, step = record_start, WARC_RANGE_SIZE
        else:
            step = 0
        if not step or size < 2 * step:
            yield Unit(source)
            return
        cuts = [0]
        with open(source.path, "rb") as f:
            while (cut := boundary(f, cuts[-1] + step, size)) is not None:
                cuts.append(cut)
    except OSError:
        yield Unit(source)  # the worker reports why it cannot be read
        return
    for start, end in zip(cuts, cuts[1:] + [None], strict=True):
        yield Unit(source, start, end, opened.kind)


def work(unit: Unit, options: ScanOptions) -> tuple[list[Record | Defect], int]:
    """What a worker does with a unit: its records and defects, and (for an
    mbox range) how many messages the range held.  A range's messages are
    numbered from 0 and its offsets are the file's: the parent renumbers."""
    counter = [0]
    items = list(_items(unit, options, counter))
    return items, counter[0]


def _items(unit: Unit, options: ScanOptions, counter: list[int]) -> Iterator[Record | Defect]:
    """The records and defects of a unit, streamed; ``counter[0]`` counts an
    mbox range's messages."""
    if unit.start is None:
        yield from iter_input(unit.source, options)
        return
    origin = Origin(file=unit.source.name)
    stack, defects = retrieval_stack(options.base, origin)
    if unit.start == 0:
        yield from defects
    try:
        if unit.kind is Kind.WARC:
            with open(unit.source.path, "rb") as f:
                # read through a window on the file, so that every offset (records,
                # defects, where a resync resumed) is the file's, as in a serial run
                yield from warc_records(io.BufferedReader(_Window(f, unit.start, unit.end)), stack, origin,
                                        options)
            return
        messages = range_messages(unit)
    except OSError as exc:
        yield unreadable(unit.source.path, exc)
        return
    for message in messages:
        counter[0] += 1
        where = origin_with(origin, message=message.message, offset=unit.start + message.offset)
        parsed = email.message_from_bytes(message.data, policy=compat32)
        yield from message_records(parsed, stack, where, options)


def range_messages(unit: Unit) -> Iterator[MboxMessage]:
    """The messages of an mbox range, numbered from 0, offsets within the
    range (the range is read now: OSError here, not while iterating)."""
    assert unit.start is not None
    with open(unit.source.path, "rb") as f:
        f.seek(unit.start)
        data = f.read(-1 if unit.end is None else unit.end - unit.start)
    return split_mbox(io.BytesIO(data), followed=unit.end is not None)


class _Window(io.RawIOBase):
    """A byte range of a file, ``[start, end)``, with the file's own positions."""

    def __init__(self, f: BinaryIO, start: int, end: int | None) -> None:
        self.f = f
        self.start = start
        self.end = end
        f.seek(start)

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self.f.tell()

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        if whence == io.SEEK_CUR:
            offset += self.f.tell()
        elif whence == io.SEEK_END:
            offset += self.end if self.end is not None else self.f.seek(0, io.SEEK_END)
        return self.f.seek(max(self.start, offset))

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        size = len(buffer)
        if self.end is not None:
            size = max(0, min(size, self.end - self.f.tell()))
        data = self.f.read(size)
        buffer[:len(data)] = data
        return len(data)


class Numbering:
    """The number of the first message of each range of an mbox: the
    messages of the ranges before it, in file order (a range at 0 starts a
    new archive)."""

    def __init__(self) -> None:
        self.next = 0

    def first(self, unit: Unit, count: int) -> int:
        """The first message number of ``unit``, a range of ``count`` messages."""
        if unit.start == 0:
            self.next = 0
        first = self.next
        self.next += count
        return first


def renumbered(items: list[Record | Defect], first: int) -> list[Record | Defect]:
    """The items of a range with its messages numbered from ``first``."""
    if not first:
        return items
    moved: dict[int, Origin] = {}  # the records of one message share their origin
    out: list[Record | Defect] = []
    for item in items:
        origin = item.origin
        if origin.message is not None:
            new = moved.get(id(origin))
            if new is None:
                new = moved[id(origin)] = origin_with(origin, message=origin.message + first)
            item = replace(item, origin=new)
        out.append(item)
    return out


@dataclass(frozen=True, slots=True)
class Rendered:
    """A unit's output already written out by the worker (its records as
    the output format writes them, its defects' lines included), and its
    defects again, for standard error and the exit status."""

    text: str
    defects: list[Defect]


@dataclass(frozen=True, slots=True)
class Done:
    """A unit finished: its size in bytes (for the progress bar)."""

    size: int


#: makes a writer for a worker to render a unit's output with: (format, options)
Render = Callable[[IO[str]], Writer]


def size_of(unit: Unit) -> int:
    """The bytes a unit covers (0 when unknown: standard input)."""
    if unit.start is not None:
        end = unit.end if unit.end is not None else file_size(unit.source.path)
        return max(0, end - unit.start)
    return file_size(unit.source.path)


def _work(job: tuple[Unit | Defect, ScanOptions, Render | None]
          ) -> tuple[list[Record | Defect] | Rendered, int, int | None]:
    unit, options, render = job
    if isinstance(unit, Defect):
        return [unit], 0, None
    try:
        return _done(unit, options, render)
    except Exception as exc:  # noqa: BLE001 - one unit that trips the scanner must not cost the run
        return [scan_failed(unit, exc)], 0, None


def scan_failed(unit: Unit, exc: Exception) -> Defect:
    """The defect of a unit the scanner failed on (a bug): the other units go on."""
    return Defect(DefectKind.SCAN_FAILED, f"the scan of this input failed ({type(exc).__name__}: {exc}); "
                  "please report it", Origin(file=unit.source.name))


def _done(unit: Unit, options: ScanOptions, render: Render | None
          ) -> tuple[list[Record | Defect] | Rendered, int, int | None]:
    if render is None or (unit.start is not None and unit.kind is Kind.MBOX):
        items, count = work(unit, options)
        return items, count, unit.start  # an mbox range is numbered by the parent: written there
    out = io.StringIO()
    writer = render(out)
    defects = []
    for item in _items(unit, options, [0]):  # written as they come: a unit's records are never all held
        if isinstance(item, Record):
            writer.record(item)
        else:
            writer.defect(item)
            defects.append(item)
    return Rendered(out.getvalue(), defects), 0, None


def _ignore_interrupts() -> None:
    """Workers leave Ctrl-C to the parent, which ends the pool: one clean
    exit (status 130) rather than a traceback from every process."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def scan_serial(sources: Iterable[Input | Defect], options: ScanOptions) -> Iterator[Record | Defect | Done]:
    """What :func:`scan_parallel` gives, in this process (for the progress
    bar: a large mbox is read a range at a time, so that it moves)."""
    numbering = Numbering()
    for unit in units(sources, options):
        if isinstance(unit, Defect):
            yield unit
            continue
        if unit.start is None:
            yield from iter_input(unit.source, options)  # streamed: constant memory on any input
        else:
            items, count = work(unit, options)
            yield from renumbered(items, numbering.first(unit, count))
        yield Done(size_of(unit))


def scan_parallel(sources: Iterable[Input | Defect], options: ScanOptions, jobs: int, render: Render | None = None
                  ) -> Iterator[Record | Defect | Rendered | Done]:
    """The records and defects of ``sources``, scanned by ``jobs`` worker
    processes, in the order (and numbering) of a serial run.  With
    ``render`` (a picklable writer factory), whole inputs come back written
    out (:class:`Rendered`): formatting is half the work on link-dense pages,
    and text is cheaper to send between processes than records."""
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    # the parent's objects stay where they are in the workers' copies of its
    # memory: a collection there would write to them (and copy their pages)
    gc.freeze()
    with context.Pool(jobs, initializer=_ignore_interrupts) as pool:
        numbering = Numbering()
        for batch in _batches(units(sources, options), BATCH):
            # the largest units first, so that no worker is left with a big one
            # at the end while the other idles; the results are taken in order
            sizes = [0 if isinstance(unit, Defect) else size_of(unit) for unit in batch]
            pending: dict[int, AsyncResult[tuple[list[Record | Defect] | Rendered, int, int | None]]] = {}
            for index in sorted(range(len(batch)), key=lambda i: -sizes[i]):
                pending[index] = pool.apply_async(_work, ((batch[index], options, render),))
            for index, unit in enumerate(batch):
                items, count, start = pending.pop(index).get()
                if isinstance(items, Rendered):
                    yield items
                else:
                    if start is not None and isinstance(unit, Unit):
                        items = renumbered(items, numbering.first(unit, count))
                    yield from items
                yield Done(sizes[index])


#: units handed to the pool at a time (the memory their results may take is bounded by it)
BATCH = 256


def _batches(items: Iterable[Unit | Defect], size: int) -> Iterator[list[Unit | Defect]]:
    batch: list[Unit | Defect] = []
    for item in items:
        batch.append(item)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch
