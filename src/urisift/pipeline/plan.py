"""Planning: inputs -> units of work (ARCHITECTURE.md, How one input flows).

Each input is one :class:`~urisift.pipeline.sources.WorkUnit`, except a large file
that can be cut where no record spans the cut, so that one big archive
keeps every core busy:

- an mbox read as it is, at envelope lines (``From `` lines that
  :func:`~urisift.readers.mail.mbox.split_mbox` would split at), in ranges of about
  :data:`MBOX_RANGE_SIZE` bytes;
- a WARC or ARC file (a gzip member a record, or plain), at record starts
  (:func:`~urisift.readers.warc.record_start`), in ranges of :data:`WARC_RANGE_SIZE`;
- plain text, read as it is in a charset where a line feed byte is one
  (UTF-8, the ISO 8859 and Windows code pages, the CJK multi-byte sets),
  where the scanner's own chunks may be cut (:func:`text_cut`: a blank
  line, else a line start with no "<" open and no "-" or "//" at the end
  of the line before; ARCHITECTURE.md, Delimiting running text), in
  ranges of :data:`TEXT_RANGE_SIZE`.  Each range says how many characters
  and lines come before it and which charset the input's first bytes
  chose, so a worker gives the records (spans, lines, columns) of a serial
  run.  A range whose bytes are not all in the charset ends the cutting:
  the rest of the input is one range, whose undecodable bytes are then
  reported as a serial run reports them;
- a PST (with the ``pst`` extra), which is read by its messages' places in its folder tree, not by
  bytes: in shares of messages (:attr:`~urisift.pipeline.units.WorkUnit.items`), one about every
  :data:`PST_RANGE_SIZE` bytes of the file, counted by the reader's own walk
  (:func:`~urisift.readers.mail.mapi.pst.message_count`).

Planning is lazy: the units of a file come out as its cuts are found, so a
scan starts before a large file has been looked through.  The serial run,
the process pool and the Spark job all scan the units planned here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import BinaryIO

from ..model import Charset, Defect, Kind
from ..stages.charset import SAMPLE_SIZE, Choice, choose
from ..stages.delimit import safe_line_start
from ..stages.options import DEFAULTS, ScanOptions
from ..stages.streams import first_cut
from .remote import configure
from .sources import Input, file_size, open_binary, open_input
from .units import WorkUnit

#: the size of the ranges a large mbox is cut into
MBOX_RANGE_SIZE = 8 << 20
#: the size of the ranges of a WARC file (compressed, it holds five times as much to scan)
WARC_RANGE_SIZE = 2 << 20
#: a PST gets a share of its messages for about each this many bytes of it
PST_RANGE_SIZE = 16 << 20
#: the size of the ranges of a plain text file (small: its records can be
#: dense, and a range's output waits in its worker's bounded buffer for its
#: turn: a 512 KB range of link lines renders to about 8 MB of JSON lines,
#: within urisift.pool.turns.KEPT_BYTES; 2 MB rendered to 32 MB, past it, and
#: --jobs 2 was no faster than --jobs 1 on such a file)
TEXT_RANGE_SIZE = 512 << 10
_FROM = b"\nFrom "


def mbox_cut(f: BinaryIO, near: int, size: int) -> int | None:
    """The start of the first envelope line at or after ``near``."""
    return first_cut(f, near, size, _envelope)


def _envelope(window: bytes, base: int) -> tuple[int | None, int]:
    from ..readers.mail.mbox import is_envelope  # (the mail reader is imported by runs that meet mail)

    at = window.find(_FROM)
    while at != -1:
        end = window.find(b"\n", at + 1)
        if end == -1:
            return None, at  # the line goes on past the window: read on from it
        if is_envelope(window[at + 1:end].rstrip(b"\r")):
            return at + 1, 0
        at = window.find(_FROM, at + 1)
    return None, max(0, len(window) - len(_FROM))


def text_cut(f: BinaryIO, near: int, size: int) -> int | None:
    """Where a text may be cut at or after ``near``, by the rules of
    :func:`~urisift.stages.delimit.safe_cut`: just after the first line feed of a
    blank line within a megabyte; failing that, the first line start where
    no "<" is open (in the megabyte before it) and the line before does
    not end in "-" or "//"; None when there is neither in that megabyte
    (the rest is then one range)."""
    blank = first_cut(f, near, min(size, near + _LOOK), _blank)
    if blank is not None:
        return blank
    begin = max(0, near - _LOOK)
    f.seek(begin)
    window = f.read(near - begin + _LOOK)
    at = window.find(b"\n", near - begin - 1)
    while at != -1 and at + 1 < len(window):
        if safe_line_start(window[:at + 1]):
            return begin + at + 1
        at = window.find(b"\n", at + 1)
    return None


#: how far the text cut looks (ahead for a cut, back for an open "<")
_LOOK = 1 << 20


def _blank(window: bytes, base: int) -> tuple[int | None, int]:
    at = window.find(b"\n\n")
    crlf = window.find(b"\n\r\n")
    found = [i for i in (at, crlf) if i != -1]
    if found:
        return min(found) + 1, 0
    return None, max(0, len(window) - 2)


def plan(sources: Iterable[Input | Defect], options: ScanOptions = DEFAULTS, *, cut: bool = True
         ) -> Iterator[WorkUnit | Defect]:
    """The units of work for ``sources``, in output order (``cut=False``:
    one unit an input, whatever its size)."""
    smallest = 2 * min(MBOX_RANGE_SIZE, WARC_RANGE_SIZE, TEXT_RANGE_SIZE)
    configure(options.timeout)  # remote inputs are looked at here first
    for source in sources:
        if isinstance(source, Defect):
            yield source
        elif not cut or source.path == "-" or file_size(source.path) < smallest:
            yield WorkUnit(source)
        else:
            yield from _ranges(source, options)


def _ranges(source: Input, options: ScanOptions) -> Iterator[WorkUnit]:
    size = file_size(source.path)
    try:
        opened = open_input(source, kind=options.kind)
        opened.stream.close()
    except OSError:
        yield WorkUnit(source)  # its scan reports why it cannot be read
        return
    if opened.kind is Kind.TEXT and opened.guard is None:
        yield from _text_ranges(source, size, options)
        return
    if opened.kind is Kind.PST and opened.guard is None and size >= 2 * PST_RANGE_SIZE:
        yield from _pst_shares(source, size)
        return
    # an mbox read as it is, and a WARC file (the WARC reader reads a
    # compressed one member by member from the file itself) are cut
    cutter: tuple[int, Callable[[BinaryIO, int, int], int | None]] | None = None
    if opened.guard is None and opened.kind is Kind.MBOX:
        cutter = (MBOX_RANGE_SIZE, mbox_cut)
    elif opened.guard is None and opened.kind is Kind.WARC and not (options.locations and _plain(source)):
        # (a plain WARC's records are placed by their line in the file with locations: it is one unit then,
        # as its line count before a range would be known only by reading all that comes before it)
        from ..readers.warc import record_start  # (the WARC reader is imported by runs that meet WARC)

        cutter = (WARC_RANGE_SIZE, record_start)
    if cutter is None or size < 2 * cutter[0]:
        yield WorkUnit(source)
        return
    step, find = cutter
    start = 0
    try:
        with open_binary(source.path) as f:
            while (cut := find(f, start + step, size)) is not None:
                yield WorkUnit(source, start, cut, opened.kind)
                start = cut
    except OSError:
        pass  # the rest is one range: its scan reports what cannot be read
    yield WorkUnit(source, start, None, opened.kind)


def _pst_shares(source: Input, size: int) -> Iterator[WorkUnit]:
    """A PST's units: shares of its messages, each about :data:`PST_RANGE_SIZE` bytes' worth."""
    from ..readers.mail.mapi.pst import message_count  # (imported by runs that meet a PST)

    total = message_count(source.path)
    if not total:
        yield WorkUnit(source)  # (no extra, or a file libpff cannot open: its scan says so)
        return
    per = -(-total // max(1, size // PST_RANGE_SIZE))
    for first in range(0, total, per):
        yield WorkUnit(source, kind=Kind.PST, items=(first, min(first + per, total), total))


def _plain(source: Input) -> bool:
    """Whether a WARC input is plain, not a gzip member a record."""
    try:
        with open_binary(source.path) as f:
            return f.read(2) != b"\x1f\x8b"
    except OSError:
        return False


def _text_ranges(source: Input, size: int, options: ScanOptions) -> Iterator[WorkUnit]:
    """A text file's ranges (see the module doc), found as they are needed."""
    start = characters = lines = 0
    charset: Charset | None = None
    try:
        with open_binary(source.path) as f:
            choice = stream_choice(f.read(SAMPLE_SIZE), options.charset)
            if choice is None or options.context or size < 2 * TEXT_RANGE_SIZE:
                # (with --context, a serial run's context is cut where its chunks are)
                yield WorkUnit(source)
                return
            charset = Charset(choice.name, choice.source)
            while (cut := text_cut(f, start + TEXT_RANGE_SIZE, size)) is not None:
                f.seek(start + (choice.bom_length if start == 0 else 0))
                data = f.read(cut - f.tell())
                length = clean_length(data, choice.codec)
                if length is None:
                    break  # bytes not in the charset: the rest is one range
                yield WorkUnit(source, start, cut, Kind.TEXT, characters, lines, charset)
                start, characters, lines = cut, characters + length, lines + data.count(b"\n")
    except OSError:
        pass  # the rest is one range: its scan reports what cannot be read
    if start == 0:
        yield WorkUnit(source)
    else:
        yield WorkUnit(source, start, None, Kind.TEXT, characters, lines, charset)


#: codecs in which a line feed byte is a line feed and nothing else, with no
#: state across lines: a text in one of them can be cut after a line break
_STATEFUL = ("utf_16", "utf_32", "utf_7", "iso2022", "hz")


def stream_choice(sample: bytes, declared: str | None) -> Choice | None:
    """The charset :func:`decode_stream` chooses for a large input starting
    with ``sample`` (its first :data:`SAMPLE_SIZE` bytes), when the input
    can be cut into ranges decoded apart: an ASCII-compatible charset
    without state, and no NUL byte (binary content is reported as a whole).
    None otherwise."""
    choice = choose(sample, declared=declared)  # as decode_stream chooses for the first range
    codec = choice.codec
    if codec.startswith(_STATEFUL) or "\n\n".encode(codec) != b"\n\n" or b"\x00" in sample:
        return None
    return choice


def clean_length(data: bytes, codec: str) -> int | None:
    """How many characters ``data`` decodes to in ``codec``, or None when
    some of its bytes are not in it (their defects depend on what came
    before them in the input: such a stretch is not decoded apart)."""
    try:
        return len(data.decode(codec))
    except UnicodeDecodeError:
        return None


__all__ = ["MBOX_RANGE_SIZE", "PST_RANGE_SIZE", "TEXT_RANGE_SIZE", "WARC_RANGE_SIZE", "mbox_cut", "plan", "text_cut"]
