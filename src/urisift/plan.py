"""Planning: inputs -> units of work (DESIGN §1).

Each input is one :class:`~urisift.sources.WorkUnit`, except a large file
that can be cut where no record spans the cut, so that one big archive
keeps every core busy:

- an mbox read as it is, at envelope lines (``From `` lines that
  :func:`~urisift.mail.mbox.split_mbox` would split at), in ranges of about
  :data:`MBOX_RANGE_SIZE` bytes;
- a WARC or ARC file (a gzip member a record, or plain), at record starts
  (:func:`~urisift.warc.record_start`), in ranges of :data:`WARC_RANGE_SIZE`.

Planning is lazy: the units of a file come out as its cuts are found, so a
scan starts before a large file has been looked through.  The serial run,
the process pool and the Spark job all scan the units planned here.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import BinaryIO

from .mail.mbox import is_envelope
from .model import Defect, Kind
from .sources import Input, file_size, first_cut, open_input
from .units import WorkUnit
from .warc import record_start

#: the size of the ranges a large mbox is cut into
MBOX_RANGE_SIZE = 8 << 20
#: the size of the ranges of a WARC file (compressed, it holds five times as much to scan)
WARC_RANGE_SIZE = 2 << 20
_FROM = b"\nFrom "


def mbox_cut(f: BinaryIO, near: int, size: int) -> int | None:
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


def plan(sources: Iterable[Input | Defect], kind: Kind = Kind.AUTO, *, cut: bool = True
         ) -> Iterator[WorkUnit | Defect]:
    """The units of work for ``sources``, in output order (``cut=False``:
    one unit an input, whatever its size)."""
    smallest = 2 * min(MBOX_RANGE_SIZE, WARC_RANGE_SIZE)
    for source in sources:
        if isinstance(source, Defect):
            yield source
        elif not cut or source.path == "-" or file_size(source.path) < smallest:
            yield WorkUnit(source)
        else:
            yield from _ranges(source, kind)


def _ranges(source: Input, kind: Kind) -> Iterator[WorkUnit]:
    size = file_size(source.path)
    try:
        opened = open_input(source, kind=kind)
        opened.stream.close()
    except OSError:
        yield WorkUnit(source)  # its scan reports why it cannot be read
        return
    # an mbox read as it is, and a WARC file (the WARC reader reads a
    # compressed one member by member from the file itself) are cut
    cutters = {Kind.MBOX: (MBOX_RANGE_SIZE, mbox_cut), Kind.WARC: (WARC_RANGE_SIZE, record_start)}
    cutter = cutters.get(opened.kind) if opened.guard is None else None
    if cutter is None or size < 2 * cutter[0]:
        yield WorkUnit(source)
        return
    step, find = cutter
    start = 0
    try:
        with open(source.path, "rb") as f:
            while (cut := find(f, start + step, size)) is not None:
                yield WorkUnit(source, start, cut, opened.kind)
                start = cut
    except OSError:
        pass  # the rest is one range: its scan reports what cannot be read
    yield WorkUnit(source, start, None, opened.kind)


__all__ = ["MBOX_RANGE_SIZE", "WARC_RANGE_SIZE", "mbox_cut", "plan"]
