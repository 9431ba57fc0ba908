"""Where the bytes come from: paths, standard input, directories, compressed
files, and what kind of content each input holds.

- :func:`~urisift.pipeline.walking.walk` turns the command line's paths into
  :class:`Input` objects: directories are walked in sorted order; hidden
  files and directories (``.git``, ``.venv``) are skipped unless asked for;
  a FIFO, socket or device met while walking is skipped with a defect
  (reading one would block forever); a directory that cannot be listed is a
  defect; a binary file is passed over.  A path named explicitly is read
  whatever it is (``urisift <(cmd)`` is a FIFO on purpose).
- :func:`open_input` opens one, reading gzip, bzip2 and xz transparently
  (recognized by their magic bytes, whatever the name), and tells its kind.
- :func:`~urisift.stages.sniff.sniff` decides the kind from the first bytes and
  the name: unmistakable content (WARC and ARC magic, an RFC 4155 envelope
  line, RFC 5322 headers, ``%PDF-`` ...) before the name, the name before
  weaker signs (the HTML signatures of WHATWG MIME sniffing §7.1, a style
  sheet's first rule ...).
"""

from __future__ import annotations

import io
import os
import stat
import sys
from dataclasses import dataclass
from typing import BinaryIO

from ..model import Defect, DefectKind, Kind, Origin
from ..stages.sniff import SAMPLE, sniff, sniff_kind  # noqa: F401 - sniff_kind: read here by callers
from ..stages.streams import Replay
from .compressed import MAGIC, Guarded, gzip_warc
from .remote import is_remote, open_remote, retrieved, shown
from .remote import size as remote_size

#: how many leading bytes the sniffer reads
SNIFF_SIZE = SAMPLE
#: the kinds this version reads; the others are recognized, and reported
BUILT_KINDS = frozenset({Kind.TEXT, Kind.HTML, Kind.MAIL, Kind.MBOX, Kind.WARC, Kind.CSS, Kind.XML, Kind.ROBOTS,
                         Kind.PDF, Kind.OFFICE, Kind.MARKDOWN, Kind.NOTEBOOK, Kind.RST,
                         Kind.ASCIIDOC, Kind.ORG, Kind.LATEX, Kind.BIBTEX,
                         Kind.WIKITEXT, Kind.ARCHIVE, Kind.EMLX, Kind.CALENDAR, Kind.VCARD,
                         Kind.MSG, Kind.TNEF, Kind.PST, Kind.EPUB, Kind.IMAGE, Kind.CSV})


@dataclass(frozen=True, slots=True)
class Input:
    """One input to scan: a file path, or ``-`` for standard input; ``kind``
    is what the walk knows it holds (a message in a Maildir), else None;
    ``under`` is the file's path under the directory the walk found it in
    ("/" between segments), None for an input named itself: the retrieval
    URI (:func:`~urisift.stages.base.retrieval_uri`) of a file of a mirror walked under
    ``--base`` is that base joined with it."""

    path: str
    kind: Kind | None = None
    under: str | None = None

    @property
    def name(self) -> str:
        """The name records and messages give it (a URL without its userinfo)."""
        return printable_name(shown(self.path))


def file_size(path: str) -> int:
    """The size of the file at ``path`` in bytes; 0 for standard input or
    what cannot be looked at (its reading reports why)."""
    if path == "-":
        return 0
    try:
        return remote_size(path) if is_remote(path) else os.path.getsize(path)
    except (OSError, RuntimeError, ValueError):
        return 0


def open_binary(path: str) -> BinaryIO:
    """A local file or a remote one (:mod:`urisift.pipeline.remote`: streaming,
    range requests, retries), opened for reading bytes."""
    return open_remote(path) if is_remote(path) else open(path, "rb")  # noqa: SIM115 - the caller closes it


def printable_name(path: str) -> str:
    """A path as records and messages show it: a name whose bytes are not
    UTF-8 (Python holds them as surrogates) gets ``\\xNN`` for each such byte,
    the same in every output format, and writable to any of them."""
    try:
        path.encode("utf-8")
        return path
    except UnicodeEncodeError:
        return path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def unreadable(path: str, error: OSError) -> Defect:
    """The defect of an input that cannot be opened or listed."""
    return Defect(DefectKind.UNREADABLE, error.strerror or str(error), Origin(file=printable_name(path)))


@dataclass
class Opened:
    """An input opened for reading: its (decompressed) byte stream, its kind,
    the name it is known by, and the defects reading it has met so far."""

    stream: BinaryIO
    kind: Kind
    origin: Origin
    compression: str | None = None
    guard: Guarded | None = None
    live: bool = False  # a pipe or terminal: read a line at a time, not a chunk
    doubt: str | None = None  # why the kind sniffed is a guess worth saying (:func:`~urisift.stages.sniff.sniff`)
    # the URL the bytes came from (a web input's after its redirects), None for a local file
    fetched: str | None = None
    failure: Defect | None = None  # the sniffer failed on its first bytes: read as text

    @property
    def defects(self) -> list[Defect]:
        return self.guard.defects if self.guard is not None else []

    def decoded(self, stored: int) -> int | None:
        """The bytes read after decompression, of ``stored`` bytes read as
        stored (None: not known, a WARC file read record by record, which
        may be compressed member by member)."""
        if self.guard is not None:
            return self.guard.done
        return None if self.kind is Kind.WARC else stored


#: the bytes of a document read in one call by :func:`read_small`, at most (far under every budget's)
SMALL_DOCUMENT = 256 << 10


def read_small(stream: BinaryIO, whole: int) -> BinaryIO | bytes:
    """A document's stream, as bytes when it is small (under
    :data:`SMALL_DOCUMENT` and ``whole``, the bytes a budget lets a reader
    hold whole): read in one call, not through the layers of streams a
    large one is metered by (a tree of small files spent a third of its
    time there).  A longer one streams on, its first bytes replayed."""
    small = min(SMALL_DOCUMENT, whole)
    data = stream.read(small + 1)
    return data if len(data) <= small else io.BufferedReader(Replay(data, stream, from_start=True))


def open_input(source: Input, *, kind: Kind = Kind.AUTO, stdin: BinaryIO | None = None) -> Opened:
    """Open ``source`` (raises OSError when it cannot be opened): decompressed
    when it is gzip, bzip2 or xz, its kind sniffed unless ``kind`` forces one.
    ``stdin``: the stream to read rather than opening the path (standard
    input's, or one the caller opened).  The caller closes ``opened.stream``."""
    origin = Origin(file=source.name)
    if stdin is not None:  # standard input, or a stream the caller opened (to count its bytes)
        raw = stdin
    elif source.path == "-":
        raw = standard_input()
    else:
        raw = open_binary(source.path)
    live = source.path == "-" and interactive(raw)
    try:
        # a pipe or a terminal gives what it has: sniff that, rather than wait for 4 KB
        head = raw.read1(SNIFF_SIZE) if live and hasattr(raw, "read1") else raw.read(SNIFF_SIZE)
    except OSError:
        if source.path != "-":
            raw.close()
        raise
    name = source.path
    fetched = retrieved(raw)
    method = next(((method, suffix) for magic, method, suffix in MAGIC if head.startswith(magic)), None)
    if method is not None and method[0] == "gzip" and (kind is Kind.WARC or kind is Kind.AUTO and source.kind is None):
        head, warc = gzip_warc(head, raw, name)
        if kind is Kind.WARC or warc:
            # A .warc.gz is a gzip member a record: the WARC reader reads the
            # compressed bytes itself, so that each record's offset is where its
            # member starts in the file (where a reader seeks to), and a corrupt
            # member costs one record.
            return _warc(raw, head, live, origin, fetched)
    doubt, failure = None, None
    if method is None:
        if kind is Kind.AUTO:
            kind, doubt, failure = _kind(source, head, name, origin)
        if kind is Kind.WARC:
            # a plain WARC too: the reader seeks back to the record after a broken one
            return _warc(raw, head, live, origin, fetched)
        return Opened(io.BufferedReader(Replay(head, raw, live)), kind, origin, live=live, doubt=doubt,
                      fetched=fetched, failure=failure)
    compression, suffix = method
    # closed with the stream that wraps it; the caller closes that one
    guard = Guarded(io.BufferedReader(Replay(head, raw, live)), compression, origin)
    stream = io.BufferedReader(guard)
    head = stream.peek(SNIFF_SIZE)[:SNIFF_SIZE]
    if name.lower().endswith(suffix):
        name = name[: -len(suffix)]
    if kind is Kind.AUTO:
        kind, doubt, failure = _kind(source, head, name, origin)
    return Opened(stream, kind, origin, compression, guard, doubt=doubt, fetched=fetched, failure=failure)


def _kind(source: Input, head: bytes, name: str, origin: Origin) -> tuple[Kind, str | None, Defect | None]:
    """The kind of an input, as the walk knows it or as sniffed from ``head``:
    a sniffer that fails is a defect, and the input read as plain text."""
    if source.kind:
        return source.kind, None, None
    try:
        kind, doubt = sniff(head, name)
    except Exception as exc:  # noqa: BLE001 - untrusted bytes: one input that trips the sniffer must not cost it
        return Kind.TEXT, None, Defect(DefectKind.SCAN_FAILED, f"telling its kind from its first bytes failed "
                                       f"({type(exc).__name__}: {exc}); read as plain text; please report it",
                                       origin, 0)
    return kind, doubt, None


def _warc(raw: BinaryIO, head: bytes, live: bool, origin: Origin, fetched: str | None) -> Opened:
    """A WARC or ARC input, for the WARC reader: the file itself when it can
    seek (to go on at the next record after a broken one), else the bytes as
    they come, the sniffed ones first."""
    if raw.seekable():
        raw.seek(0)
        return Opened(raw, Kind.WARC, origin, fetched=fetched)
    return Opened(io.BufferedReader(Replay(head, raw, live)), Kind.WARC, origin, fetched=fetched)


def standard_input() -> BinaryIO:
    """Standard input's bytes; OSError when it is closed (``urisift <&-``)."""
    if sys.stdin is None:
        raise OSError(9, "standard input is closed")
    return sys.stdin.buffer


def interactive(stream: BinaryIO) -> bool:
    """Whether ``stream`` is a pipe or a terminal (its bytes arrive as they
    are written: read them as they come), rather than a file."""
    try:
        mode = os.fstat(stream.fileno()).st_mode
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISCHR(mode) or stat.S_ISSOCK(mode)


def read_once(path: str) -> bool:
    """Whether ``path`` can be read only once: standard input, a FIFO, a
    socket or a device (its bytes are gone once read)."""
    if path == "-":
        return True
    if is_remote(path):
        return False
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISCHR(mode) or stat.S_ISSOCK(mode)


def read_too_often(paths: list[str], twice: str | None = None) -> str | None:
    """The usage error of a run that would read an input more often than it
    can be read (:func:`read_once`): one named twice, or any at all when
    ``twice`` says why the run reads every input twice; None when none."""
    seen: set[str] = set()
    for path in paths:
        if not read_once(path):
            continue
        name = "standard input ('-')" if path == "-" else f"{path} (a FIFO, socket or device)"
        if twice is not None:
            return f"{name} can be read only once, and {twice}: name a file"
        if path in seen:
            return f"{name} is named twice, and can be read only once"
        seen.add(path)
    return None


# -- cutting a large file for parallel work ------------------------------------------------
