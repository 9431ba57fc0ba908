"""A ZIP file's members read safely, for every reader of ZIP packages (office files,
archives): what zipfile can inflate, a member stopped at the size its header gives,
and the members that are not to be read (encrypted, a method zipfile lacks, a ratio
no real file has, past the document's inflate budget), each as a defect that names it
(APPNOTE.TXT 6.3: the general purpose bit flag, the compression methods)."""

from __future__ import annotations

import io
import zipfile
import zlib
from collections.abc import Generator
from typing import IO, Any, BinaryIO

from ..model import Defect, DefectKind, Origin
from .containment import Budget
from .streams import replayed_file

MAX_RATIO = 200  # XML compresses 5-20 times; a bomb, thousands
#: the compression methods zipfile inflates
METHODS = frozenset({zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA})
_METHOD_NAMES = {6: "implode", 9: "deflate64", 99: "AES encryption", 97: "WavPack", 98: "PPMd", 95: "xz", 93: "zstd"}


class Inflating(io.RawIOBase):
    """A member as it inflates, stopped at the size its header gives (a lying
    header cannot inflate more than it said) and at any read error, which
    is kept to be told once the member is read."""

    def __init__(self, stream: IO[bytes], size: int) -> None:
        self.stream = stream
        self.left = size
        self.problem: str | None = None

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self.problem is not None:
            return 0
        try:
            data = self.stream.read(min(len(buffer), self.left + 1))
        except (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError) as exc:
            self.problem = f"it cannot be inflated ({type(exc).__name__}: {exc}): read as far as it went"
            return 0
        if len(data) > self.left:
            self.problem = "it inflates past the size its header gives: read as far as that size"
            data = data[:self.left]
        self.left -= len(data)
        buffer[:len(data)] = data
        return len(data)


class TooLarge(Exception):
    """A ZIP that cannot be sought in and is larger than may be held."""


def seekable(stream: BinaryIO, limit: int | None = None) -> BinaryIO:
    """``stream`` itself when it can be sought in, else its bytes held (a pipe: a ZIP's directory is at
    its end), at most ``limit`` of them (:class:`TooLarge` past it)."""
    try:
        if stream.seekable():
            return stream
    except (AttributeError, OSError, ValueError):
        pass
    file = replayed_file(stream)  # (an input named, whose first bytes were read to sniff it: the file itself)
    if file is not None:
        return file
    data = stream.read() if limit is None else stream.read(limit + 1)
    if limit is not None and len(data) > limit:
        raise TooLarge(f"it comes through a pipe and holds more than {limit} bytes, which must be held to "
                       "reach its directory at its end (APPNOTE.TXT 4.3.6): not read")
    return io.BytesIO(data)


#: what zipfile raises on a file it cannot read as a ZIP
ZIP_ERRORS = (zipfile.BadZipFile, ValueError, OSError, EOFError, NotImplementedError, RuntimeError)


def opened(body: bytes | BinaryIO, origin: Origin, *, what: str, max_members: int, limit: int | None
           ) -> Generator[Defect, None, tuple[zipfile.ZipFile, list[zipfile.ZipInfo]] | None]:
    """A ZIP package and its members (directories left out), the first ``max_members`` of them, with the
    defects of one that cannot be read (None then) or claims more (``what``: "archive", "package")."""
    try:
        package = zipfile.ZipFile(io.BytesIO(body) if isinstance(body, bytes) else seekable(body, limit))
        members = [m for m in package.infolist() if not m.filename.endswith("/")]  # (is_dir fails on an empty name)
    except TooLarge as exc:
        yield Defect(DefectKind.BOMB, f"a ZIP {what}: {exc}", origin, None)
        return None
    except ZIP_ERRORS as exc:
        yield Defect(DefectKind.BROKEN_DOCUMENT, f"not a ZIP {what} that can be read: {exc}", origin, None)
        return None
    if len(members) > max_members:
        yield Defect(DefectKind.BOMB, f"the {what} claims {len(members)} members (bound: {max_members}): the first "
                     f"{max_members} are read", origin, None)
        members = members[:max_members]
    return package, members


def unread_member(member: zipfile.ZipInfo, budget: Budget | None, origin: Origin) -> Defect | None:
    """Why ``member`` is not read, as a defect, or None when it may be."""
    name = member.filename
    if member.flag_bits & 0x1:
        return Defect(DefectKind.BROKEN_DOCUMENT, f"member {name} is encrypted: not read", origin, None)
    if member.compress_type not in METHODS:
        method = _METHOD_NAMES.get(member.compress_type, "unknown")
        return Defect(DefectKind.BROKEN_DOCUMENT, f"member {name} is compressed with method {member.compress_type} "
                      f"({method}), which this reader lacks: not read", origin, None)
    if member.file_size > MAX_RATIO * max(member.compress_size, 1) and member.file_size > (1 << 20):
        return Defect(DefectKind.BOMB, f"member {name} claims to inflate {member.file_size} bytes from "
                      f"{member.compress_size} (more than {MAX_RATIO} times): not read", origin, None)
    if budget is not None and not budget.inflate(member.file_size):
        return budget.over_inflation(f"member {name}", member.file_size, origin)
    return None
