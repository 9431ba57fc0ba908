"""An office file → its records (issue 21): a ZIP package read with
zipfile, its XML parts with lxml (no entities expanded, no DTD, no network).

- OOXML (ECMA-376 Part 2, Open Packaging Conventions §9.3): every
  relationship part's ``Relationship`` with ``TargetMode="External"`` (the
  hyperlinks of ``.docx``, ``.xlsx`` and ``.pptx``, externally linked images
  and templates); and the ``HYPERLINK`` field codes of a WordprocessingML
  document (ECMA-376 Part 1 §17.16.5.25), in ``w:instrText`` runs and
  ``w:fldSimple/@w:instr``.
- ODF (OASIS OpenDocument 1.3): every ``xlink:href`` of ``content.xml`` and
  ``styles.xml`` (``text:a``, linked images and frames).  A relative one
  resolves as if the package were a directory (OpenDocument Part 2,
  Packages, §3.7 "IRIs"): ``../draft.odt`` in ``notes.odt`` is the file
  beside it, as LibreOffice writes it.

Records name the package member they were found in (``member``), the
element and the attribute.  A ZIP bomb is bounded before anything is
inflated: a member that claims to inflate more than :data:`MAX_RATIO`
times its stored size, or a package of more than :data:`MAX_TOTAL` bytes
inflated or :data:`MAX_MEMBERS` members, is a ``bomb`` defect and is not
read; the reads themselves stop at the sizes claimed (a lying header
cannot inflate more than it said).
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Iterator
from typing import Any

from lxml import etree

from ..found_to_record import Tail
from ..model import BaseSource, Content, Defect, DefectKind, Place, Record, Style, Tally, Where, new_found
from ..model.events import is_message
from ..options import ScanOptions

MAX_RATIO = 200  # XML compresses 5-20 times; a bomb, thousands
MAX_TOTAL = 512 << 20
MAX_MEMBERS = 20_000
_RELATIONSHIPS = "http://schemas.openxmlformats.org/package/2006/relationships"
_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
# ECMA-376 Part 1 §17.16.5.25: HYPERLINK "target" [switches]; \l names a bookmark, not a URI
_HYPERLINK = re.compile(r'^\s*HYPERLINK\s+(?:\\[a-km-z]\s+(?:"[^"]*"\s+)?)*"([^"]+)"', re.IGNORECASE)
_ODF_PARTS = ("content.xml", "styles.xml")


def _parser() -> Any:
    return etree.XMLParser(resolve_entities=False, load_dtd=False, no_network=True, huge_tree=False,
                           remove_comments=True, remove_pis=True)


def read_office(content: Content, options: ScanOptions, tally: Tally) -> Iterator[Record | Defect]:
    body = content.body
    if isinstance(body, str) or is_message(body):
        raise TypeError("an office file is bytes")
    data = body if isinstance(body, bytes) else body.read()
    origin = content.origin
    try:
        package = zipfile.ZipFile(io.BytesIO(data))
        members = package.infolist()
    except (zipfile.BadZipFile, ValueError, OSError) as exc:
        yield Defect(DefectKind.BROKEN_DOCUMENT, f"not a ZIP package that can be read: {exc}", origin, None)
        return
    if len(members) > MAX_MEMBERS or sum(m.file_size for m in members) > MAX_TOTAL:
        yield Defect(DefectKind.BOMB, f"the package claims {len(members)} members and "
                     f"{sum(m.file_size for m in members)} bytes inflated (bounds: {MAX_MEMBERS}, {MAX_TOTAL}): "
                     "not read", origin, None)
        return
    tail = Tail(content.layer, origin, None, browser=options.browser)
    names = {m.filename for m in members}
    odf = "mimetype" in names and "content.xml" in names
    for member in members:
        name = member.filename
        wanted = (name in _ODF_PARTS) if odf else (name.endswith(".rels") or name == "word/document.xml")
        if not wanted:
            continue
        if member.file_size > MAX_RATIO * max(member.compress_size, 1) and member.file_size > (1 << 20):
            yield Defect(DefectKind.BOMB, f"{name} claims to inflate {member.file_size} bytes from "
                         f"{member.compress_size} (more than {MAX_RATIO} times): not read", origin, None)
            continue
        try:
            with package.open(member) as stream:
                xml = stream.read(member.file_size + 1)
            if len(xml) > member.file_size:
                raise zipfile.BadZipFile("it inflates past the size its header gives")
            root = etree.fromstring(xml, _parser())
        except (zipfile.BadZipFile, etree.XMLSyntaxError, ValueError, OSError, EOFError) as exc:
            yield Defect(DefectKind.BROKEN_DOCUMENT, f"{name} could not be read: {exc}", origin, None)
            continue
        if odf:
            yield from _odf(root, name, _in_package(content, name, options))
        elif name.endswith(".rels"):
            yield from _relationships(root, name, tail)
        else:
            yield from _fields(root, name, tail)


def _in_package(content: Content, member: str, options: ScanOptions) -> Tail:
    """The tail for a member of an ODF package: its base is the member's
    path inside the package's URI, taken as a directory."""
    current = content.layer.current
    if current is None:
        return Tail(content.layer, content.origin, None, browser=options.browser)
    layer, _ = content.layer.push(f"{current.uri}/{member}", BaseSource.RETRIEVAL,
                                  f"{member} inside the package (ODF Packages §3.7)", origin=content.origin)
    return Tail(layer, content.origin, None, browser=options.browser)


def _record(tail: Tail, value: str, element: str, attribute: str | None, member: str, line: int | None) -> Record:
    place = Place(Where.XML, element, attribute, member=member)
    style = Style.ATTRIBUTE if attribute is not None else Style.ELEMENT
    return tail(new_found(value.strip(), None, None, style, (), (), None, place), None, line, None)


def _relationships(root: Any, member: str, tail: Tail) -> Iterator[Record]:
    for relationship in root.iter(f"{{{_RELATIONSHIPS}}}Relationship"):
        target = relationship.get("Target")
        if target and relationship.get("TargetMode") == "External":
            yield _record(tail, target, "Relationship", "Target", member, relationship.sourceline)


def _fields(root: Any, member: str, tail: Tail) -> Iterator[Record]:
    """HYPERLINK field codes: a simple field's instruction, or the
    instruction text of a complex field (one ``w:instrText`` run here: Word
    writes the whole code in one)."""
    for element in root.iter(f"{{{_W}}}fldSimple", f"{{{_W}}}instrText"):
        simple = element.tag.endswith("fldSimple")
        code = element.get(f"{{{_W}}}instr") if simple else element.text
        m = _HYPERLINK.match(code or "")
        if m is not None:
            yield _record(tail, m.group(1), "w:fldSimple" if simple else "w:instrText",
                          "w:instr" if simple else None, member, element.sourceline)


def _odf(root: Any, member: str, tail: Tail) -> Iterator[Record]:
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        href = element.get(_XLINK_HREF)
        if href:
            prefix = element.prefix
            local = etree.QName(element).localname
            yield _record(tail, href, f"{prefix}:{local}" if prefix else local, "xlink:href", member,
                          element.sourceline)
