"""The unit of work (ARCHITECTURE.md, How one input flows): an input, or a byte range of one,
and what reading a range needs -- a window on the file with the file's own
offsets, a counter of the bytes read -- the renumbering of an mbox
range's messages after those of the ranges before it, and the groups of
small inputs the pool hands out as one task.

Small picklable values only: the serial run, the process pool and the Spark
job map the same units, and only offsets travel, never bytes.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from typing import BinaryIO, cast

from ..model import Charset, Defect, Kind, Origin, Record, Tally, origin_with
from .sources import Input, file_size


@dataclass(frozen=True, slots=True)
class WorkUnit:
    """One unit of work: an input, or the byte range ``[start, end)`` of one
    (``end`` None: to its end), cut where no record can span the cut (an
    mbox envelope line, a WARC record's start, a blank line in plain text:
    :mod:`urisift.pipeline.plan`); ``kind`` is what a range holds.  Small and picklable: only offsets
    travel to a worker process or a Spark task, never bytes."""

    source: Input
    start: int | None = None
    end: int | None = None
    kind: Kind | None = None
    # a range of plain text past the first: the characters and lines before
    # it, and the charset chosen from the input's first bytes
    characters: int = 0
    lines: int = 0
    charset: Charset | None = None
    # a share of an input that holds many documents read by their index, not by bytes (a PST's messages):
    # the first document, the one past the last, and how many the input holds
    items: tuple[int, int, int] | None = None

    @property
    def opens_input(self) -> bool:
        """Whether the unit is its input's first (or all of it): its defects of opening, and its count."""
        return not self.start and not (self.items and self.items[0])

    @property
    def documents(self) -> tuple[int, int] | None:
        """The documents of a share (:attr:`items`), first and one past the last; None for all."""
        return None if self.items is None else self.items[:2]

    @property
    def mbox_range(self) -> bool:
        """Whether the unit is a byte range of an mbox, whose messages are
        numbered on after those of the ranges before it (:class:`Renumbering`)."""
        return self.start is not None and self.kind is Kind.MBOX

    @property
    def size(self) -> int:
        """The bytes the unit covers (0 when unknown: standard input); a share of documents, its part of them."""
        if self.items is not None:
            first, end, total = self.items
            return file_size(self.source.path) * (end - first) // max(total, 1)
        if self.start is None:
            return file_size(self.source.path)
        end = self.end if self.end is not None else file_size(self.source.path)
        return max(0, end - self.start)


#: a whole input under this many bytes goes to a worker with its small
#: neighbours in the input order, as one task of the pool ...
GROUP_BYTES = 128 << 10
#: ... of at most this many inputs
GROUP_INPUTS = 64


@dataclass(frozen=True, slots=True)
class UnitGroup:
    """Whole inputs, consecutive in the input order and each small, that the
    pool hands a worker as one task: one message there, one
    back, one turn at the output and one tally for them all, so that a
    directory of small files (a Maildir) costs the pool a message a task,
    not a round trip a file.  ``size`` is their bytes, as planned."""

    units: tuple[WorkUnit, ...]
    size: int

    @property
    def mbox_range(self) -> bool:
        """Never: a group holds whole inputs."""
        return False


#: what a worker of the pool is handed
Task = WorkUnit | UnitGroup


def grouped(units: Iterable[WorkUnit | Defect]) -> Iterator[WorkUnit | UnitGroup | Defect]:
    """``units`` with each run of small whole inputs (under :data:`GROUP_BYTES`
    each and together, at most :data:`GROUP_INPUTS`) made one
    :class:`UnitGroup`, in the same order.  A defect of the plan, a range,
    standard input or a larger input ends a run; a run of one stays a unit."""
    run: list[WorkUnit] = []
    total = 0

    def cut() -> Iterator[WorkUnit | UnitGroup]:
        nonlocal total
        if len(run) == 1:
            yield run[0]
        elif run:
            yield UnitGroup(tuple(run), total)
        run.clear()
        total = 0

    for unit in units:
        size = unit.size if isinstance(unit, WorkUnit) and unit.start is None and unit.source.path != "-" \
            else GROUP_BYTES
        if size >= GROUP_BYTES:
            yield from cut()
            yield unit
            continue
        if total + size > GROUP_BYTES:
            yield from cut()
        run.append(cast(WorkUnit, unit))
        total += size
        if len(run) >= GROUP_INPUTS:
            yield from cut()
    yield from cut()


class Window(io.RawIOBase):
    """The byte range ``[start, end)`` of a file (``end`` None: to its end),
    read with the file's own positions, so that every offset a reader
    reports (records, defects, where a resync resumed) is the file's."""

    def __init__(self, f: BinaryIO, start: int, end: int | None) -> None:
        self.f = f
        self.start = start
        self.end = end
        f.seek(start)

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def fileno(self) -> int:
        # the file's own: the WARC reader's fast path reads a range's record heads with
        # os.pread, at the file's offsets, without moving it (a remote file has none)
        return self.f.fileno()

    def close(self) -> None:
        if not self.closed:
            self.f.close()
        super().close()

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


class Counted(io.RawIOBase):
    """A stream that counts the bytes read through it (``--stats``: the bytes
    of an input as stored, before any decompression)."""

    def __init__(self, inner: BinaryIO) -> None:
        self.inner = inner
        self.count = 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return self.inner.seekable()

    def fileno(self) -> int:
        return self.inner.fileno()

    def tell(self) -> int:
        return self.inner.tell()

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        return self.inner.seek(offset, whence)

    def close(self) -> None:
        if not self.closed:
            self.inner.close()
        super().close()

    def read1(self, size: int = -1) -> bytes:
        # a pipe gives what has arrived (a raw stream's read does that already)
        data: bytes = getattr(self.inner, "read1", self.inner.read)(size)
        self.count += len(data)
        return data

    def read(self, size: int = -1) -> bytes:
        data = self.inner.read(size)
        self.count += len(data)
        return data

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        data = self.inner.read(len(buffer))
        n = len(data)
        buffer[:n] = data
        self.count += n
        return n


class Renumbering:
    """Numbers the messages of an mbox range after those of the ranges of
    the same file before it, in file order (a range at 0, or a whole input,
    starts afresh): the serial run, the pool and the Spark job alike.

    :meth:`begin` a unit, pass its items through, :meth:`end` it with its
    tally (which says how many messages it held)."""

    def __init__(self) -> None:
        self.next = 0
        self.first = 0
        self.next_line = 0  # the line breaks of the ranges before (text output's locations)
        self.lines = 0
        self._moved: dict[int, tuple[Origin, Origin]] = {}

    def begin(self, unit: WorkUnit) -> int:
        """The number of the first message of ``unit``."""
        if not unit.start:
            self.next = self.next_line = 0
        ranged = unit.start is not None and unit.kind is Kind.MBOX
        self.first = self.next if ranged else 0
        self.lines = self.next_line if ranged else 0
        self._moved.clear()
        return self.first

    def end(self, tally: Tally) -> None:
        self.next += tally.messages
        self.next_line += tally.lines

    def __call__(self, item: Record | Defect) -> Record | Defect:
        first = self.first
        origin = item.origin
        if not first or origin.message is None:
            return item
        # the records of one message share their origin: one new origin for
        # them.  The old origin is kept with it, alive: an id is only unique
        # among live objects, and records stream by (their origins are freed)
        moved = self._moved
        seen = moved.get(id(origin))
        if seen is not None and seen[0] is origin:
            new = seen[1]
        else:
            if len(moved) > 1024:
                moved.clear()
            line = origin.line
            new = origin_with(origin, message=origin.message + first,
                              line=None if line is None else line + self.lines)
            moved[id(origin)] = (origin, new)
        return item._replace(origin=new) if type(item) is Record else replace(item, origin=new)  # type: ignore[union-attr,type-var]
