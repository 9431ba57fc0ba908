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
(:class:`~urisift.stages.containment.Budget`) or more than :data:`~urisift.stages.zip_members.MAX_RATIO` times
its stored size, or is not XML, is one defect naming it, and the other
members are read.  Records name the member they were found in (``member``).
"""

from __future__ import annotations

import io
import zipfile
import zlib
from collections.abc import Iterator

from ...model import BaseSource, Content, Defect, DefectKind, Origin, Record, Tally
from ...model.events import is_message
from ...stages.base import BaseLayer
from ...stages.containment import Budget, contained
from ...stages.options import ScanOptions
from ...stages.zip_members import Inflating, opened, unread_member
from ...uri import patterns
from .decoding import Utf8Feed
from .parsing import Parsed
from .vocabulary import EXTENDED
from .walk import XmlWalk, split

MAX_MEMBERS = 20_000
_OOXML_PARTS = patterns.compile(r"(?:word/(?:document|header\d*|footer\d*|footnotes|endnotes|comments)"
                          r"|xl/worksheets/[^/]+)\.xml|.*\.rels")
_ODF_PARTS = frozenset({"content.xml", "styles.xml", "meta.xml"})
_APP = "docProps/app.xml"


def read_office(content: Content, options: ScanOptions, tally: Tally) -> Iterator[Record | Defect | Content]:
    body = content.body
    if isinstance(body, str) or is_message(body):
        raise TypeError("an office file is bytes")
    origin = content.origin
    found = yield from opened(body, origin, what="package", max_members=MAX_MEMBERS, limit=options.limits.whole)
    if found is None:
        return
    package, members = found
    budget = content.budget
    names = {m.filename for m in members}
    odf = "mimetype" in names and "content.xml" in names
    layer = content.layer
    if not odf and _APP in names:
        based, defects = _hyperlink_base(package, package.getinfo(_APP), layer, budget, origin)
        yield from defects
        layer = based
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


def _member(package: zipfile.ZipFile, member: zipfile.ZipInfo, layer: BaseLayer, options: ScanOptions,
            budget: Budget | None, origin: Origin) -> Iterator[Record | Defect | Content]:
    refused = unread_member(member, budget, origin)
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
        stream = Inflating(raw, member.file_size)
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
    refused = unread_member(member, budget, origin)
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
        feed = Utf8Feed(io.BufferedReader(Inflating(raw, member.file_size)), None, origin)
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
