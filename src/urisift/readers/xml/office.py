"""An office file → its records: a ZIP package read with
zipfile, each XML member it may hold links in walked by the XML reader's
walk (:mod:`.walk`: the same safe parser, the same streaming, the
vocabularies of :mod:`.vocabulary`), as it inflates.

- OOXML (ECMA-376): every relationship part (``*.rels``: hyperlinks of
  documents, spreadsheets and presentations, external images, templates,
  external workbooks), the WordprocessingML story parts (document, headers,
  footers, notes, comments: their field codes), the worksheets (their
  ``HYPERLINK`` formulas).  The extended properties' ``HyperlinkBase``
  (``docProps/app.xml``, read first) is the base of the package's relative
  hyperlinks (``base_source`` ``hyperlink-base``).
- ODF (OpenDocument 1.3): ``content.xml``, ``styles.xml`` and ``meta.xml``.
  A relative reference resolves as if the package were a directory
  (OpenDocument Part 2, Packages, §3.7 "IRIs"): ``../draft.odt`` in
  ``notes.odt`` is the file beside it, as LibreOffice writes it.

Each member is a nested reading of its own (:func:`~urisift.stages.containment.contained`):
one that is encrypted, compressed with a method zipfile lacks (implode,
deflate64, AES), lies about its size, inflates past the document's budget
(:class:`~urisift.stages.containment.Budget`) or more than :data:`MAX_RATIO` times
its stored size, or is not XML, is one defect naming it, and the other
members are read.  Records name the member they were found in (``member``).
"""

from __future__ import annotations

import io
import zipfile
import zlib
from collections.abc import Iterator
from typing import IO, Any, BinaryIO

from ...model import BaseSource, Content, Defect, DefectKind, Origin, Record, Tally
from ...model.events import is_message
from ...stages.base import BaseLayer
from ...stages.containment import Budget, contained
from ...stages.options import ScanOptions
from ...uri import patterns
from .decoding import Utf8Feed
from .parsing import Parsed
from .vocabulary import EXTENDED
from .walk import XmlWalk, split

MAX_RATIO = 200  # XML compresses 5-20 times; a bomb, thousands
MAX_MEMBERS = 20_000
#: the compression methods zipfile inflates
_METHODS = frozenset({zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA})
_METHOD_NAMES = {6: "implode", 9: "deflate64", 99: "AES encryption", 97: "WavPack", 98: "PPMd", 95: "xz", 93: "zstd"}
_OOXML_PARTS = patterns.compile(r"(?:word/(?:document|header\d*|footer\d*|footnotes|endnotes|comments)"
                          r"|xl/worksheets/[^/]+)\.xml|.*\.rels")
_ODF_PARTS = frozenset({"content.xml", "styles.xml", "meta.xml"})
_APP = "docProps/app.xml"


class _Inflating(io.RawIOBase):
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


def read_office(content: Content, options: ScanOptions, tally: Tally) -> Iterator[Record | Defect | Content]:
    body = content.body
    if isinstance(body, str) or is_message(body):
        raise TypeError("an office file is bytes")
    origin = content.origin
    try:
        package = zipfile.ZipFile(io.BytesIO(body) if isinstance(body, bytes) else _seekable(body))
        members = package.infolist()
    except (zipfile.BadZipFile, ValueError, OSError, EOFError, NotImplementedError, RuntimeError) as exc:
        yield Defect(DefectKind.BROKEN_DOCUMENT, f"not a ZIP package that can be read: {exc}", origin, None)
        return
    if len(members) > MAX_MEMBERS:
        yield Defect(DefectKind.BOMB, f"the package claims {len(members)} members (bound: {MAX_MEMBERS}): "
                     f"the first {MAX_MEMBERS} are read", origin, None)
        members = members[:MAX_MEMBERS]
    budget = content.budget
    names = {m.filename for m in members}
    odf = "mimetype" in names and "content.xml" in names
    layer = content.layer
    if not odf and _APP in names:
        found, defects = _hyperlink_base(package, package.getinfo(_APP), layer, budget, origin)
        yield from defects
        layer = found
    for member in members:
        name = member.filename
        if not (name in _ODF_PARTS if odf else _OOXML_PARTS.fullmatch(name)):
            continue
        if budget is not None and budget.expired():
            yield from budget.over_time(f"member {name} and those after it", origin)
            return
        member_layer = _in_package(layer, name, origin) if odf else layer
        yield from contained(_member(package, member, member_layer, options, budget, origin),
                             f"member {name}", origin)


def _seekable(stream: BinaryIO) -> BinaryIO:
    try:
        if stream.seekable():
            return stream
    except (AttributeError, OSError, ValueError):
        pass
    return io.BytesIO(stream.read())  # a pipe: a ZIP's directory is at its end


def _refused(member: zipfile.ZipInfo, budget: Budget | None, origin: Origin) -> Defect | None:
    """Why ``member`` is not read, as a defect, or None when it may be."""
    name = member.filename
    if member.flag_bits & 0x1:
        return Defect(DefectKind.BROKEN_DOCUMENT, f"member {name} is encrypted: not read", origin, None)
    if member.compress_type not in _METHODS:
        method = _METHOD_NAMES.get(member.compress_type, "unknown")
        return Defect(DefectKind.BROKEN_DOCUMENT, f"member {name} is compressed with method {member.compress_type} "
                      f"({method}), which this reader lacks: not read", origin, None)
    if member.file_size > MAX_RATIO * max(member.compress_size, 1) and member.file_size > (1 << 20):
        return Defect(DefectKind.BOMB, f"member {name} claims to inflate {member.file_size} bytes from "
                      f"{member.compress_size} (more than {MAX_RATIO} times): not read", origin, None)
    if budget is not None and not budget.inflate(member.file_size):
        return budget.over_inflation(f"member {name}", member.file_size, origin)
    return None


def _member(package: zipfile.ZipFile, member: zipfile.ZipInfo, layer: BaseLayer, options: ScanOptions,
            budget: Budget | None, origin: Origin) -> Iterator[Record | Defect | Content]:
    refused = _refused(member, budget, origin)
    if refused is not None:
        yield refused
        return
    name = member.filename
    try:
        raw = package.open(member)
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError, NotImplementedError, RuntimeError) as exc:
        yield Defect(DefectKind.BROKEN_DOCUMENT, f"member {name} cannot be opened ({type(exc).__name__}: {exc}): "
                     "not read", origin, None)
        return
    with raw:
        stream = _Inflating(raw, member.file_size)
        feed = Utf8Feed(io.BufferedReader(stream), None, origin)
        walk = XmlWalk(layer, origin, options, Parsed(feed, origin, f"member {name}"), None, budget, member=name)
        ended: Defect | None = None  # where the XML ends: the last item, unless the member could not be inflated
        for item in walk.items():
            if ended is not None:
                yield ended
                ended = None
            if type(item) is Defect and item.kind is DefectKind.BROKEN_DOCUMENT and " ends here (" in item.detail:
                ended = item
            else:
                yield item
    if stream.problem is not None:
        # the XML that ends early ends so because of this: one defect, the cause
        yield Defect(DefectKind.BROKEN_DOCUMENT, f"member {name}: {stream.problem}", origin, None)
    elif ended is not None:
        yield ended


def _hyperlink_base(package: zipfile.ZipFile, member: zipfile.ZipInfo, layer: BaseLayer, budget: Budget | None,
                    origin: Origin) -> tuple[BaseLayer, list[Defect]]:
    """The layers with the package's ``HyperlinkBase`` on top (ECMA-376 Part 1
    §22.2.2.9), when its extended properties give one."""
    refused = _refused(member, budget, origin)
    if refused is not None:
        return layer, [refused]
    defects: list[Defect] = []
    value: str | None = None
    try:
        raw = package.open(member)
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError, NotImplementedError, RuntimeError) as exc:
        return layer, [Defect(DefectKind.BROKEN_DOCUMENT, f"member {member.filename} cannot be opened "
                              f"({type(exc).__name__}: {exc}): not read", origin, None)]
    with raw:
        feed = Utf8Feed(io.BufferedReader(_Inflating(raw, member.file_size)), None, origin)
        for item in Parsed(feed, origin, f"member {member.filename}").items():
            if isinstance(item, Defect):
                defects.append(item)
            elif item[0] == "end" and split(item[1].tag) == (EXTENDED, "HyperlinkBase"):
                value = (item[1].text or "").strip() or None
                break
    if value is None:
        return layer, defects
    pushed, defect = layer.push(value, BaseSource.HYPERLINK_BASE, f"HyperlinkBase of {member.filename}",
                                origin=origin)
    return pushed, defects + ([defect] if defect is not None else [])


def _in_package(layer: BaseLayer, member: str, origin: Origin) -> BaseLayer:
    """The layers for a member of an ODF package: its base is the member's
    path inside the package's URI, taken as a directory."""
    current = layer.current
    if current is None:
        return layer
    pushed, _ = layer.push(f"{current.uri}/{member}", BaseSource.RETRIEVAL,
                           f"{member} inside the package (ODF Packages §3.7)", origin=origin)
    return pushed


__all__ = ["read_office"]
