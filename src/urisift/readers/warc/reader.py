"""The reader: the units of a WARC or ARC stream, and a defect naming each
broken record, the scan going on at the next record."""

from __future__ import annotations

import collections
import gzip
import logging
import sys
from collections.abc import Iterator
from dataclasses import replace
from typing import Any, BinaryIO, cast

from ...model import Defect, DefectKind, Origin
from ...stages.placing import FileLines
from . import fast
from .making import State, length_problem, named, placed, unit_of
from .parsing import archive_iterator, quiet, readable
from .resync import (
    Growing,
    Rewind,
    block_end,
    end_of,
    member_cut_short,
    plain_at,
    record_here,
    record_start,
    rewound,
    seekable,
)
from .unit import WarcUnit, printable

# warcio logs a warning for each target URI with spaces: the record already
# says what it holds; a library must not print on its own (the stdlib advice)
logging.getLogger("warcio").addHandler(logging.NullHandler())


def _head(stream: BinaryIO) -> bytes | None:
    """The first bytes of the stream, read without moving it (None: they cannot be)."""
    try:
        if hasattr(stream, "peek"):
            return bytes(stream.peek(4096)[:4096])
        if stream.seekable():
            where = stream.tell()
            head = stream.read(4096)
            stream.seek(where)
            return head
    except (OSError, ValueError):
        pass
    return None


def _archive_start(head: bytes) -> bool:
    """Whether a WARC or ARC file may start with ``head``: a gzip member, a
    ``WARC/`` header, or an ARC record's header line (``URL IP-address
    date type length``: the ``filedesc://`` one, or another)."""
    if head.startswith((b"\x1f\x8b", b"WARC/", b"filedesc://")):
        return True
    fields = head.lstrip(b"\r\n").split(b"\n", 1)[0].split()
    return len(fields) >= 5 and fields[-1].isdigit() and b":" in fields[0]


#: how far before a plain record that could not be parsed the next one is looked for
#: (a Content-Length too long ended the last record inside the next one's header)
_BACK = 1 << 16


class WarcReader:
    """The units of one WARC or ARC stream; ``types`` counts every record
    read by its type, those skipped included.

    A broken record is a ``broken-warc`` defect that names it, and the
    reader goes on at the next record start (:func:`record_start`): after a
    corrupt gzip member, the next member; in a plain WARC or ARC, the next
    record header (any version the reader takes) after the last record read
    (a Content-Length a little too long had the reader parse from inside the
    next record's header), and after a record not followed by its blank line,
    where its block ends (warcio took the next record's first line for that
    blank line).  A forward-only stream (a pipe) is read through :class:`Rewind`,
    so standard input resumes as a file does.

    A clean file's records are read by FastWARC where it applies (``fast``
    and :mod:`.fast`), warcio reading on from the first that is not clean;
    ``fast_records`` counts the records FastWARC read."""

    def __init__(self, stream: BinaryIO, origin: Origin, *, locations: bool = False, fast: bool = True) -> None:
        self.stream = stream
        self.origin = origin
        # with locations, each record of a plain file says where it stands in it (text output's location)
        self.lines = FileLines(stream) if locations and seekable(stream) else None
        self.types: collections.Counter[str] = collections.Counter()
        # the bytes read after decompression (a .warc.gz's members inflated; a plain file's as they are)
        self.decompressed = 0
        self.use_fast = fast
        self.fast_records = 0  # (the records FastWARC read)

    def __iter__(self) -> Iterator[WarcUnit | Defect]:
        pipe = None if seekable(self.stream) else Rewind(self.stream)
        file = self.stream if pipe is None else cast(BinaryIO, pipe)
        stream = file  # what warcio reads: the file, or one gzip stream around it all
        size = end_of(file) if pipe is None else None
        state = State()
        skip = 0  # records already read, when the file is read again from its start
        floor = 0  # a search for the next record starts here at least: it only goes forward
        head = _head(self.stream)
        if not head:
            # an input read as a crawl (--kind warc, the audit) that holds nothing: not read, as one of text is
            yield Defect(DefectKind.UNREADABLE, "not a WARC or ARC file: it is empty", self.origin, None)
            return
        if not _archive_start(head):
            # not a WARC or ARC file (--kind warc, a .warc name) but for records further on, if any
            begins = printable(head[:40].decode("latin-1"))
            found = self._resync(file, 0)
            if found is None:  # no record anywhere: the input could not be read as asked (exit status 1)
                yield Defect(DefectKind.UNREADABLE, f"not a WARC or ARC file: it begins {begins!r}", self.origin, 0)
                return
            yield Defect(DefectKind.BROKEN_WARC, f"not a WARC or ARC record at byte 0 (it begins {begins!r}); "
                         f"resumed at byte {found}", self.origin, 0)
            file.seek(found)
            floor = found + 1
        elif pipe is None and self.use_fast and fast.applies(file, head):
            handover = yield from fast.read(self, file, head)
            if handover.offset is None:  # (read to the end: what the loop says there of the last record)
                yield from self._after(handover.state, file, end=True)
                return
            file.seek(handover.offset)
            floor, state = handover.floor, handover.state
        iterator: Any = None
        try:
            while True:
                if iterator is not None:  # (the bytes the pass before read)
                    self.decompressed += iterator.counted.num_read
                iterator = archive_iterator(stream)
                direct = stream is file  # offsets are the file's, and the reader may seek in it
                errors = seen = 0
                offset = stream.tell()
                resume: int | None = None
                try:
                    for record in quiet(iterator):
                        # where this record starts, in the file: warcio counts from the
                        # stream's position (get_record_offset() would read the record first)
                        offset = iterator.offset
                        seen += 1
                        if seen <= skip:
                            continue
                        yield from self._after(state, file if direct else None)
                        if iterator.err_count > errors:
                            errors = iterator.err_count
                            before = "the record before" if state.last is None else named(*state.last)
                            yield Defect(DefectKind.BROKEN_WARC, f"{before} was not followed by a blank line: its "
                                         f"Content-Length is likely wrong; the next record was found at byte {offset}",
                                         self.origin, offset if state.last is None else state.last[0])
                        state.last = (offset, record)
                        floor = max(floor, offset + 1)
                        self.types[record.rec_type or "unknown"] += 1
                        problem = length_problem(record)
                        if problem is not None and direct:
                            # read on, and warcio takes the rest of the file (or a wrong
                            # stretch of it) for this record: look for the next one instead
                            state.last = None
                            resume = self._resync(file, offset + 1)
                            tail = f"; resumed at byte {resume}" if resume is not None else ""
                            yield Defect(DefectKind.BROKEN_WARC, f"{named(offset, record)}: {problem}; "
                                         f"its payload is not read{tail}", self.origin, offset)
                            break
                        if direct and size is not None and iterator.reader.decompressor is None:
                            yield from self._within(file, iterator, record, offset, size, state)
                        unit = unit_of(record, offset, state)
                        if isinstance(unit, WarcUnit) and self.lines is not None and direct \
                                and plain_at(file, offset):
                            unit = placed(unit, record, offset, self.lines)
                        if unit is not None:
                            yield unit
                    else:
                        last = state.last
                        ending = list(self._after(state, file if direct else None, end=True))
                        if last is not None and last[0] in state.reported and pipe is not None \
                                and plain_at(file, last[0]):
                            # a pipe (a file is measured first: see _within): a Content-Length
                            # past the end took in whatever followed, scanned as its payload
                            resume = self._resync(file, last[0] + 1)
                        if resume is not None and ending and last is not None:
                            ending[-1] = replace(ending[-1], detail=(
                                f"{named(last[0], last[1])}: its Content-Length runs past the end of the "
                                f"input, and a record starts inside it, at byte {resume}: what it took in of the "
                                "records after it was scanned as its payload too; resumed there"))
                        yield from ending
                except Exception as exc:  # noqa: BLE001 - whatever warcio or zlib raise on a broken record
                    offset = iterator.offset or offset  # where the record that failed starts
                    detail = readable(exc)
                    if "non-chunked gzip" in detail and skip == 0 and direct and rewound(file):
                        # one gzip stream around many records (not a member a record):
                        # read again through a decompressor, past the records already read
                        yield Defect(DefectKind.BROKEN_WARC, "the file is one gzip stream, not a gzip member a record; "
                                     "read whole, and offsets count in the decompressed data", self.origin, None)
                        stream = gzip.GzipFile(fileobj=file)  # type: ignore[assignment]
                        skip = seen
                        state = State()
                        continue
                    if state.payload is not None and state.payload.problem is not None and state.last is not None \
                            and state.last[0] == offset:
                        detail = state.payload.problem  # the record whose payload broke: said once
                    state.payload = None
                    # warcio took the first line after the last record for the blank line it looks
                    # for there: when a record's head stands there, that record is whole
                    after = (block_end(file, state.last[0]) if iterator.err_count > errors and state.last is not None
                             and direct and plain_at(file, state.last[0]) else None)
                    swallowed = after is not None and after <= offset and record_here(file, after)
                    if swallowed:
                        assert state.last is not None and after is not None
                        resume = after
                        yield Defect(DefectKind.BROKEN_WARC, f"{named(*state.last)} was not followed by a blank "
                                     f"line; the next record starts right after its block, at byte {after}",
                                     self.origin, state.last[0])
                    elif direct:
                        # after a corrupt gzip member, the next member; in a plain file, a
                        # record header a little before where warcio looked for one, too
                        gzipped = plain_at(file, offset) is False
                        start = max(floor, offset + 1 if gzipped else offset - _BACK, pipe.low if pipe else 0)
                        resume = self._resync(file, start)
                        if resume == offset:  # the record that failed starts there: the next one, then
                            resume = self._resync(file, offset + 1)
                    if not swallowed:
                        tail = (f"; resumed at byte {resume}" if resume is not None
                                else "; nothing after it could be read")
                        if resume is not None and resume < offset and state.last is not None:
                            # the next record starts before where warcio looked for it
                            tail += (f" ({named(*state.last)} ran on into it: its Content-Length is likely "
                                     "too long)")
                        yield Defect(DefectKind.BROKEN_WARC, f"a record could not be read ({detail}){tail}",
                                     self.origin, offset)
                if resume is None:
                    return
                skip = 0
                floor = resume + 1
                state = State()
                file.seek(resume)
                stream = file
        finally:
            if iterator is not None:
                self.decompressed += iterator.counted.num_read

    @staticmethod
    def _resync(file: BinaryIO, start: int) -> int | None:
        """The offset of the next record at or after ``start`` (see
        :func:`record_start`); None when there is none, or it cannot be looked for."""
        try:
            return record_start(cast(BinaryIO, Growing(file)), start, sys.maxsize)
        except (OSError, ValueError):
            return None

    def _after(self, state: State, file: BinaryIO | None, end: bool = False) -> Iterator[Defect]:
        """The defects of the last record, now that warcio has read past it:
        its payload could not be decoded, or it ended before its Content-Length
        did.  ``file`` is the file it was read from (None when that was through
        one gzip stream around the whole file)."""
        payload, state.payload = state.payload, None
        if state.last is None:
            return
        offset, record = state.last
        if payload is not None and payload.problem is not None:
            yield Defect(DefectKind.BROKEN_WARC, f"{named(offset, record)}: {payload.problem}",
                         self.origin, offset)
        if offset in state.reported or file is None:
            return
        missing = getattr(record.raw_stream, "limit", 0)
        if missing <= 0 and not end:
            return
        gzipped = plain_at(file, offset) is False
        declared = record.rec_headers.get_header("Content-Length")
        if end and gzipped and member_cut_short(file, offset):
            detail = "the file ends inside its gzip member (a truncated download?)"
        elif missing > 0 and gzipped:
            detail = f"its Content-Length ({declared}) is {missing} bytes more than its gzip member holds"
        elif missing > 0:
            detail = (f"the file ends {missing} bytes before the end its Content-Length ({declared}) gives "
                      "(a truncated download?)")
        else:
            return
        state.reported.add(offset)
        yield Defect(DefectKind.BROKEN_WARC, f"{named(offset, record)} is cut short: {detail}",
                     self.origin, offset)

    def _within(self, file: BinaryIO, iterator: Any, record: Any, offset: int, size: int, state: State
                ) -> Iterator[Defect]:
        """In a plain WARC file, a record whose Content-Length runs past the
        end of the file: read up to the next record start inside that
        stretch, if there is one (the length is wrong, not the file cut)."""
        reader = iterator.reader
        limited = record.raw_stream
        missing = getattr(limited, "limit", None)
        if reader is None or not isinstance(missing, int):
            return
        here = file.tell()
        position = here - reader.rem_length()  # the next byte warcio gives, in the file
        if position + missing <= size:
            return
        state.reported.add(offset)
        try:
            after = record_start(cast(BinaryIO, Growing(file)), offset + 1, size)
            blank = 0
            if after is not None:
                file.seek(max(0, after - 4))
                before = file.read(4)
                blank = 4 if before == b"\r\n\r\n" else 2
        finally:
            file.seek(here)
        declared = record.rec_headers.get_header("Content-Length")
        if after is None or after - blank < position:
            yield Defect(DefectKind.BROKEN_WARC, f"{named(offset, record)} is cut short: the file ends "
                         f"{position + missing - size} bytes before the end its Content-Length ({declared}) "
                         "gives (a truncated download?)", self.origin, offset)
            return
        limited.limit = after - blank - position
        yield Defect(DefectKind.BROKEN_WARC, f"{named(offset, record)}: its Content-Length ({declared}) "
                     f"runs past the end of the file ({size} bytes); read up to the next record, at byte {after}",
                     self.origin, offset)
