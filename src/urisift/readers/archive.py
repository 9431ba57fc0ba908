"""An archive → its members, each read as the kind it is (ARCHITECTURE.md, readers/: the readers).

ZIP (APPNOTE.TXT) and tar (POSIX.1-2001 pax, ustar and GNU tar; gzip, bzip2 and xz
around it are undone before, as for any input) hold files, not one document: each
member is routed by its name and its first bytes (:mod:`urisift.stages.sniff`) and
handed back as nested content, a document of its own with its own budgets; a
member that is an archive is read in turn.  The member's path stands in ``part``
(``a/b.html``; inside a member that is itself an archive, ``inner.zip!/a/b.html``,
and after a mail part's path, ``2!/a/b.html``).  Nothing is extracted to disk.

Guarded as bombs are: the bytes all the members of an archive and of the archives
nested in it inflate are counted against one ``--inflate-budget``; archives nest
:data:`MAX_DEPTH` deep at most; a ZIP member whose bytes overlap another's (the
shape of a zip bomb of overlapping entries) is not read, nor is one encrypted,
compressed with a method zipfile lacks, or claiming a ratio no real file has
(:mod:`urisift.stages.zip_members`).  A tar whose member's header claims more bytes
than follow is a defect where it ends.  Binary members (images, fonts, programs)
are passed over, as a directory walk passes over them (an image is read for the codes drawn in it with
``--qr``, :mod:`urisift.readers.image`); a 7z or RAR member, which
this reader cannot open, is an ``unsupported-kind`` defect that names it.

An EPUB (EPUB 3.3 §4: a ZIP whose first member, ``mimetype``, says ``application/epub+zip``) is
read as an archive whose members are a book's files: each has the retrieval URI of its path in the
package (OCF §4.2.4: the container's root is the root of the book's paths), so that a link from
one chapter to another resolves inside the book.  The book is taken as a directory: with ``--base``,
its files map onto the base as a walked tree's do; without, onto the book file's own ``file:`` URI
(``file:///home/ann/book.epub/OEBPS/ch2.xhtml``).  Its XHTML is read as XML (a browser's XML
parser reads it, EPUB 3.3 §6.1.2), its package document's and NCX's links by their vocabularies.
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import re
import tarfile
import zipfile
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, BinaryIO, cast

from ..model import Content, Defect, DefectKind, Kind, Origin, Record, Tally
from ..model.build import origin_with
from ..model.events import is_message
from ..stages.base import directory_base, retrieval_layers
from ..stages.containment import Budget
from ..stages.options import ScanOptions
from ..stages.sniff import SAMPLE, binary, sniff
from ..stages.zip_members import Inflating, opened, unread_member
from ..uri.errors import UriError

#: how many archives deep a member may stand (42.zip is six)
MAX_DEPTH = 8
#: the members of one archive read at most
MAX_MEMBERS = 100_000
#: what a tar starts with at its 257th byte (POSIX ustar and GNU tar)
TAR_MAGIC = b"ustar"
#: archives this reader cannot open, by their first bytes
_UNOPENED = ((b"7z\xbc\xaf\x27\x1c", "a 7z archive"), (b"Rar!\x1a\x07", "a RAR archive"))
#: where a member's path is joined to the path of the archive it stands in
NESTED = "!/"
#: compressed members: their first bytes, how to read them inflated, their names' suffixes (RFC 1952, bzip2, xz)
_COMPRESSED: tuple[tuple[bytes, Callable[[BinaryIO], io.BufferedIOBase], str], ...] = (
    (b"\x1f\x8b", lambda f: gzip.GzipFile(fileobj=f), ".gz"),
    (b"BZh", lambda f: bz2.BZ2File(f), ".bz2"),
    (b"\xfd7zXZ\x00", lambda f: lzma.LZMAFile(f), ".xz"))  # noqa: SIM115 - returned open: the member is read through it
#: the names of compressed tars, which tarfile reads inflating
_TARRED = re.compile(r"\.(?:tar\.(?:gz|bz2|xz)|tgz|tbz2?|txz)$")


def is_tar(head: bytes) -> bool:
    """Whether ``head`` is the start of a tar (its first header's magic)."""
    return head[257:262] == TAR_MAGIC


class _Nested(Budget):
    """The account of an archive inside another: its own clock, and the inflated bytes
    of the outermost archive's account, so that nesting cannot multiply them."""

    __slots__ = ("depth", "root")

    def __init__(self, root: Budget, depth: int) -> None:
        super().__init__(root.limits)
        self.root = root
        self.depth = depth

    def inflate(self, size: int) -> bool:
        return self.root.inflate(size)

    def over_inflation(self, what: str, size: int, origin: Origin) -> Defect:
        return self.root.over_inflation(what, size, origin)


def read_archive(content: Content, options: ScanOptions, tally: Tally) -> Iterator[Record | Defect | Content]:
    body = content.body
    if isinstance(body, str) or is_message(body):
        raise TypeError("an archive is bytes")
    stream: BinaryIO = io.BufferedReader(io.BytesIO(body)) if isinstance(body, bytes) else body
    budget = content.budget
    depth = budget.depth if isinstance(budget, _Nested) else 1
    root = budget.root if isinstance(budget, _Nested) else budget if budget is not None else options.limits.budget()
    origin = content.origin
    if depth > MAX_DEPTH:
        yield Defect(DefectKind.BOMB, f"an archive nested {depth} deep (bound: {MAX_DEPTH}): not opened", origin, None)
        return
    if not hasattr(stream, "peek"):
        stream = io.BufferedReader(cast(io.RawIOBase, stream))  # (a stream without peek: read raw, by its readinto)
    head = stream.peek(SAMPLE)[:SAMPLE]  # type: ignore[attr-defined]
    read = _zip if head.startswith(b"PK") else _tar
    yield from read(stream, content, depth, root, options.limits.whole)


def read_epub(content: Content, options: ScanOptions, tally: Tally) -> Iterator[Record | Defect | Content]:
    """An EPUB: an archive whose members have the retrieval URIs of their paths in the book (see the module doc)."""
    yield from read_archive(content, options, tally)


def _book(content: Content) -> str | None:
    """The retrieval URI of an EPUB taken as a directory: its own, else its file's ``file:`` URI; None on
    standard input without ``--base``."""
    origin = content.origin
    if origin.retrieval is not None:
        return origin.retrieval
    if origin.file in (None, "", "-") or origin.part is not None:
        return None
    return Path(origin.file).resolve().as_uri()  # type: ignore[arg-type]


def _member(name: str, stream: io.BufferedReader, content: Content, depth: int, root: Budget
            ) -> Iterator[Defect | Content]:
    """One member as the nested content it is, or the defect that says why it is not read."""
    name = name.removeprefix("./")
    where = origin_with(content.origin, part=_part(content.origin, name))
    layer = content.layer
    book = _book(content) if content.kind is Kind.EPUB else None
    if book is not None:
        try:
            retrieval: str | None = directory_base(book, name)
        except UriError:
            retrieval = None
        if retrieval is not None:
            where = origin_with(where, retrieval=retrieval)
            layer, defects = retrieval_layers(retrieval, where, detail="the book's retrieval URI joined with the "
                                              "member's path in it")
            yield from defects
    head = stream.peek(SAMPLE)[:SAMPLE]
    opener = next((opener for magic, opener, _ in _COMPRESSED if head.startswith(magic)), None)
    if opener is not None and not _TARRED.search(name.lower()):
        # a compressed member (page.html.gz): read as what it inflates to, its bytes counted as inflated
        named = next((name[: -len(suffix)] for _, _, suffix in _COMPRESSED if name.lower().endswith(suffix)), name)
        stream = io.BufferedReader(opener(stream))
        name, head = named, stream.peek(SAMPLE)[:SAMPLE]
    for magic, what in _UNOPENED:
        if head.startswith(magic):
            yield Defect(DefectKind.UNSUPPORTED_KIND, f"member {name} is {what}, which this version does not "
                         "open: not read", where, None)
            return
    if head.startswith(b"PK\x03\x04") or is_tar(head) or opener is not None and _TARRED.search(name.lower()):
        sniffed = sniff(head, name).kind
        kind: Kind = sniffed if sniffed in (Kind.OFFICE, Kind.EPUB) else Kind.ARCHIVE
    elif sniff(head, name).kind is Kind.IMAGE:
        kind = Kind.IMAGE  # for the codes drawn in it (--qr); the scan passes it over without
    elif binary(head, name):
        return  # a font, a program: nothing a text scanner can read (as a walk passes it over)
    else:
        kind = sniff(head, name).kind
    nested = _Nested(root, depth + 1) if kind in (Kind.ARCHIVE, Kind.EPUB) else None
    yield Content(stream, kind, where, layer, sniffed=True, budget=nested, inflated=True)


def _part(origin: Origin, name: str) -> str:
    return name if origin.part is None else f"{origin.part}{NESTED}{name}"


def _zip(stream: BinaryIO, content: Content, depth: int, root: Budget, limit: int
         ) -> Iterator[Defect | Content]:
    origin = content.origin
    found = yield from opened(stream, origin, what="archive", max_members=MAX_MEMBERS, limit=limit)
    if found is None:
        return
    package, members = found
    overlapping = _overlapping(members)
    for member in members:
        name = member.filename
        if name in overlapping:
            yield Defect(DefectKind.BOMB, f"member {name}'s bytes overlap member {overlapping[name]}'s (the shape "
                         "of a zip bomb): not read", origin, None)
            continue
        refused = unread_member(member, root, origin)
        if refused is not None:
            yield refused
            continue
        try:
            raw = package.open(member)
        except (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError, NotImplementedError,
                RuntimeError) as exc:
            yield Defect(DefectKind.BROKEN_DOCUMENT, f"member {name} cannot be opened ({type(exc).__name__}: "
                         f"{exc}): not read", origin, None)
            continue
        with raw:
            inflating = Inflating(raw, member.file_size)
            yield from _member(name, io.BufferedReader(inflating), content, depth, root)
        if inflating.problem is not None:
            yield Defect(DefectKind.BROKEN_DOCUMENT, f"member {name}: {inflating.problem}", origin, None)


def _overlapping(members: list[zipfile.ZipInfo]) -> dict[str, str]:
    """The members whose bytes (local header, name, data) overlap those of the member
    before them in the file: name → the member overlapped."""
    overlapped: dict[str, str] = {}
    end, last = -1, ""
    for member in sorted(members, key=lambda m: m.header_offset):
        if member.header_offset < end:
            overlapped[member.filename] = last
            continue
        end = member.header_offset + 30 + len(member.orig_filename.encode("utf-8")) + member.compress_size
        last = member.filename
    return overlapped


class _TarMember(io.RawIOBase):
    """A tar member's bytes as they are read: what cannot be read (a tar cut short, a
    header whose size lies) ends the member and is kept to be told once it is read."""

    def __init__(self, stream: BinaryIO, size: int) -> None:
        self.stream = stream
        self.size = size
        self.got = 0
        self.problem: str | None = None

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        # a block (512 bytes) at a time: tarfile's stream refuses a read past what is left, and
        # what a tar cut short still holds is read to its last block
        filled = 0
        while filled < len(buffer) and self.problem is None:
            try:
                data = self.stream.read(min(512, len(buffer) - filled))
            except (tarfile.TarError, OSError, EOFError, ValueError, zlib.error) as exc:
                self.problem = f"it cannot be read on ({type(exc).__name__}: {exc})"
                break
            if not data:
                if self.got < self.size:
                    self.problem = "the archive ends inside it"
                break
            buffer[filled:filled + len(data)] = data
            filled += len(data)
            self.got += len(data)
        return filled


def _tar(stream: BinaryIO, content: Content, depth: int, root: Budget, limit: int) -> Iterator[Defect | Content]:
    origin = content.origin
    try:
        # a stream: each member read once, in order; a compressed tar (a .tgz attached) inflated as it goes
        archive = tarfile.open(fileobj=stream, mode="r|*")  # noqa: SIM115 - read in the loop below, after this try
    except (tarfile.TarError, OSError, EOFError, ValueError) as exc:
        yield Defect(DefectKind.BROKEN_DOCUMENT, f"not a tar archive that can be read: {exc}", origin, None)
        return
    count, name = 0, ""
    try:
        for member in archive:
            if not member.isfile():
                continue
            count += 1
            name = member.name
            if count > MAX_MEMBERS:
                yield Defect(DefectKind.BOMB, f"the archive holds more than {MAX_MEMBERS} members: the first "
                             f"{MAX_MEMBERS} are read", origin, None)
                return
            if not root.inflate(member.size):
                yield root.over_inflation(f"member {name} and those after it", member.size, origin)
                return
            extracted = archive.extractfile(member)
            if extracted is None:
                continue
            # (its raw file, not tarfile's buffer around it, which asks for the whole member at once)
            reading = _TarMember(cast(BinaryIO, getattr(extracted, "raw", extracted)), member.size)
            yield from _member(name, io.BufferedReader(reading), content, depth, root)
            if reading.problem is not None:
                yield Defect(DefectKind.BROKEN_DOCUMENT, f"member {name}'s header says {member.size} bytes, and "
                             f"{reading.problem} after {reading.got}: read as far as it went", origin, None)
                return
    except (tarfile.TarError, OSError, EOFError, ValueError, zlib.error) as exc:
        after = f" after member {name}" if name else ""
        yield Defect(DefectKind.BROKEN_DOCUMENT, f"the archive cannot be read on{after} ({type(exc).__name__}: "
                     f"{exc}): the members before it are read", origin, None)


__all__ = ["MAX_DEPTH", "MAX_MEMBERS", "NESTED", "is_tar", "read_archive", "read_epub"]
