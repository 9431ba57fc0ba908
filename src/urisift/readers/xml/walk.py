"""The walk of one XML document's events → records.

Each element's base is its own ``xml:base`` resolved against its parent's,
the document's layers below them all (XML Base §4.2; RFC 3986 §5.1.1,
§5.1.2).  A base lives as long as its element: the walk keeps one frame an
open element, and a frame's tail (the resolver of the records under it) is
made when the first record asks and dropped with it, so a million entries
each with its own ``xml:base`` cost what one does.  Records stream out as
the events come; an element is let go once nothing more can be read from
it (its end, and for text, the start of what follows it), so memory holds
the open elements only, however many links a document has.

What is read, by vocabulary (:mod:`.vocabulary`): URI attributes, elements
whose text is a URI, escaped HTML (nested content, read by the HTML reader
against the base in force there), XHTML elements wherever they stand (an
XHTML document, Atom ``type="xhtml"`` content, an ``xhtml:body``), read
with HTML's own table (:mod:`.xhtml`), and the office formats' field codes
and formulas (:mod:`.fields`).

A document of a vocabulary urisift does not know (its root element's
namespace is none of :data:`~.vocabulary.KNOWN_ROOTS`) is not passed over:
the URIs of its text are found by the text scanner, named by the element
they stand in, and its attributes whose whole value is an absolute URI
(RFC 3986 §4.3) are records, each resolved against the ``xml:base`` in
force there.  A MediaWiki export dump (:mod:`.dump`) is read page by page,
each revision's text as wikitext.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...model import BaseSource, Charset, Content, Defect, Kind, Origin, Place, Record, Style, Where, new_found
from ...stages.base import BaseLayer
from ...stages.containment import Budget
from ...stages.found_to_record import Tail
from ...stages.options import ScanOptions
from .dump import DUMP_ROOT, Dump
from .fields import FieldCodes, formula_urls, simple_field
from .parsing import Parsed
from .unknown import absolute_records, prose_records
from .vocabulary import (
    ANY_ELEMENT,
    ATOM,
    ATOM_TYPED,
    ATTRIBUTES,
    HREF_ANYWHERE,
    HTML_TEXT,
    KNOWN_ROOTS,
    ODF_TABLE,
    RELATIONSHIPS,
    SPREADSHEETML,
    TEXT,
    UNNAMESPACED_ROOTS,
    WORDML,
    XHTML,
    XML_BASE,
)
from .xhtml import XhtmlReading

_SPACE = " \t\r\n"
#: how many events pass between two looks at the document's clock
_CLOCK_EVERY = 4096


def split(tag: str) -> tuple[str, str]:
    """``{namespace}local`` → (namespace, local); no namespace is ""."""
    if tag[:1] == "{":
        namespace, _, local = tag[1:].partition("}")
        return namespace, local
    return "", tag


def qualified(element: Any, local: str) -> str:
    return f"{element.prefix}:{local}" if element.prefix else local


class Frame:
    """An open element: its base chain, its tail once one is made, and what
    reading it is in."""

    __slots__ = ("layer", "tail", "xhtml", "texted", "element", "entity", "prose")

    def __init__(self, layer: BaseLayer, tail: Tail | None, xhtml: bool, element: Any = None,
                 entity: bool = False, prose: bool = False) -> None:
        self.layer = layer
        self.tail = tail
        self.xhtml = xhtml  # its text is XHTML text (scanned for URIs)
        self.texted = False  # its .text was read (at its first child, or its end)
        self.element = element
        # an element of an internal entity's replacement text (XML 1.0 §4.4.2): libxml2 parses
        # it apart from the document (no parent, no namespace in scope), where the reference stands
        self.entity = entity
        # an element of an unknown vocabulary: its text is prose, scanned for URIs (``xhtml`` is then set too,
        # so that its text runs are read as the walk meets them)
        self.prose = prose


class XmlWalk:
    """The records of one document's events (see the module doc).
    ``member``: the package member the document is (office files)."""

    def __init__(self, layer: BaseLayer, origin: Origin, options: ScanOptions, parsed: Parsed,
                 decoding: Charset | None, budget: Budget | None, member: str | None = None) -> None:
        self.layer = layer
        self.options = options
        self.parsed = parsed
        self.origin = origin
        self.decoding = decoding
        self.budget = budget
        self.member = member
        self.places: dict[tuple[str, str | None], Place] = {}
        self.frames: list[Frame] = []
        self.root: str | None = None
        self.fields = FieldCodes()
        self.xhtml: XhtmlReading | None = None  # an XHTML document or island being read
        self.unread: str | None = None  # what the budget left unread, once it ran out
        self.unknown = False  # a document of a vocabulary not known: its text and absolute attributes are read
        self.dump: Dump | None = None  # a MediaWiki export dump being read

    # -- records --------------------------------------------------------------------------------

    def tail(self, frame: Frame) -> Tail:
        if frame.tail is None:
            frame.tail = Tail(frame.layer, self.origin, self.decoding, browser=self.options.browser,
                              needs=self.options.needs)
        return frame.tail

    def place(self, element: str, attribute: str | None, where: Where = Where.XML) -> Place:
        key = (element, attribute)
        place = self.places.get(key)
        if place is None:
            place = self.places[key] = Place(where, element, attribute, member=self.member)
        return place

    def record(self, frame: Frame, value: str, element: str, attribute: str | None, line: int | None,
               style: Style | None = None) -> Record:
        style = style or (Style.ATTRIBUTE if attribute is not None else Style.ELEMENT)
        found = new_found(value.strip(_SPACE), None, None, style, (), (), None, self.place(element, attribute))
        return self.tail(frame)(found, None, line, None)

    # -- the walk -------------------------------------------------------------------------------

    def items(self) -> Iterator[Record | Defect | Content]:
        budget, count = self.budget, 0
        for item in self.parsed.items():
            if type(item) is Defect:
                yield item
                continue
            event, element = item  # type: ignore[misc]
            count += 1
            if budget is not None and count % _CLOCK_EVERY == 0 and budget.expired():
                yield from budget.over_time(f"the rest of the document (after line {element.sourceline})", self.origin)
                return
            yield from (self._start(element) if event == "start" else self._end(element))

    def _start(self, element: Any) -> Iterator[Record | Defect | Content]:
        tag = element.tag
        namespace, local = split(tag)
        frames = self.frames
        parent = frames[-1] if frames else None
        entity = False
        if parent is None:
            self.root = local if namespace == "" else ""
            if namespace == XHTML and local == "html":
                self.xhtml = XhtmlReading(self, document=True)
            elif local == "mediawiki" and namespace.startswith(DUMP_ROOT):
                self.dump = Dump(self)
            elif self.member is None and namespace not in KNOWN_ROOTS and not (
                    namespace == "" and local in UNNAMESPACED_ROOTS):
                self.unknown = True
        elif parent.entity or element.getparent() is None:
            # in an entity's replacement text: its elements are the document's where the
            # reference stands (XML 1.0 §4.4.2, "included"), in the namespaces in scope there
            entity = True
            if namespace == "":
                namespace = _default_namespace(frames)
            if parent.xhtml:
                yield from self._text_before(element, parent)
        elif parent.xhtml:
            yield from self._text_before(element, parent)
        else:
            _let_go_before(element)
        layer = parent.layer if parent is not None else self.layer
        tail = parent.tail if parent is not None else None
        base = element.get(XML_BASE)
        if base is not None:
            detail = f"xml:base of <{qualified(element, local)}> at line {element.sourceline}"
            layer, defect = layer.push(base.strip(_SPACE), BaseSource.XML_BASE, detail, origin=self.origin)
            tail = None
            if defect is not None:
                yield defect
        xhtml = namespace == XHTML or (parent is not None and parent.xhtml and not parent.prose and namespace != "")
        prose = self.unknown and not xhtml
        frame = Frame(layer, tail, xhtml or prose, element, entity, prose)
        frames.append(frame)
        if prose:
            yield from absolute_records(self, element, local, frame)
        elif namespace == XHTML:
            if self.xhtml is None:
                self.xhtml = XhtmlReading(self, document=False)
            yield from self.xhtml.element(element, local, frame)
        elif element.attrib:
            yield from self._attributes(element, namespace, local, frame)
        if namespace == ATOM and local in ATOM_TYPED:
            kind = element.get("type")
            if kind == "xhtml":
                frame.xhtml = True  # its div is XHTML: read as elements where it stands (RFC 4287 §3.1.1.3)
        elif namespace == WORDML and local == "fldChar":
            url = self.fields.mark(element)
            if url is not None:
                yield self.record(frame, url, "w:instrText", None, element.sourceline)

    def _end(self, element: Any) -> Iterator[Record | Defect | Content]:
        frame = self.frames.pop()
        namespace, local = split(element.tag)
        if frame.entity and namespace == "":
            namespace = _default_namespace(self.frames)
        if frame.xhtml:
            yield from self._text_after(element, frame)
        line = element.sourceline
        key = (namespace, local)
        if self.dump is not None:
            yield from self.dump.ended(element, local, frame)
        unnamespaced_ok = namespace != "" or self.root in UNNAMESPACED_ROOTS
        if key in TEXT and unnamespaced_ok:
            text = self._text_of(element)
            if text.strip(_SPACE) and not (local == "guid" and
                                           (element.get("isPermaLink") or "").strip().lower() == "false"):
                yield self.record(frame, text, qualified(element, local), None, line)
        elif key in HTML_TEXT and unnamespaced_ok and (namespace != ATOM or element.get("type") == "html"):
            html = self._text_of(element)
            if html.strip(_SPACE):
                yield Content(html, Kind.HTML, self.origin, frame.layer, budget=self.budget, held=line)
        elif key == (WORDML, "instrText"):
            self.fields.gather(self._text_of(element))
        elif key == (SPREADSHEETML, "f"):
            for url in formula_urls(self._text_of(element)):
                yield self.record(frame, url, qualified(element, local), None, line)
        if self.xhtml is not None and namespace == XHTML:
            yield from self.xhtml.ended(element, local, frame)
        if frame.entity and self.frames and self.frames[-1].xhtml and element.tail and element.getparent() is None:
            # the text after an element at the top of an entity's replacement text: its parent's
            # text, where the reference stands (no later element's run reaches it)
            parent = self.frames[-1]
            if element.tail.strip(_SPACE):
                yield from self._text(element.tail, parent.element, parent, None, backwards=False)
        element.clear(keep_tail=True)

    def _attributes(self, element: Any, namespace: str, local: str, frame: Frame) -> Iterator[Record]:
        attributes = element.attrib
        name = qualified(element, local)
        names = ATTRIBUTES.get((namespace, local))
        if names is not None and (namespace != "" or self.root in UNNAMESPACED_ROOTS):
            for attribute in names:
                value = attributes.get(attribute)
                if value is not None and value.strip(_SPACE):
                    yield self.record(frame, value, name, _label(attribute), element.sourceline)
        if namespace == RELATIONSHIPS and local == "Relationship":
            target = attributes.get("Target")
            if target and target.strip(_SPACE) and attributes.get("TargetMode") == "External":
                yield self.record(frame, target, "Relationship", "Target", element.sourceline)
        elif namespace == WORDML and local == "fldSimple":
            found = simple_field(element)
            if found is not None:
                yield self.record(frame, found, name, "w:instr", element.sourceline)
        elif namespace == ODF_TABLE and local == "table-cell":
            formula = attributes.get(f"{{{ODF_TABLE}}}formula")
            if formula:
                for url in formula_urls(formula):
                    yield self.record(frame, url, name, "table:formula", element.sourceline)
        yield from self.namespaced(element, name, frame)
        if namespace in HREF_ANYWHERE:
            value = attributes.get("href")
            if value is not None and value.strip(_SPACE):
                yield self.record(frame, value, name, "href", element.sourceline)

    def namespaced(self, element: Any, name: str, frame: Frame) -> Iterator[Record]:
        """The attributes that hold a URI on any element (``xlink:href``, ``rdf:about`` ...)."""
        for attribute, value in element.attrib.items():
            if attribute[:1] == "{":
                label = ANY_ELEMENT.get(split(attribute))
                if label is not None and value.strip(_SPACE):
                    yield self.record(frame, value, name, label, element.sourceline)

    # -- text -------------------------------------------------------------------------------------

    def _text_of(self, element: Any) -> str:
        """An element's text content: its text, and its entity references
        expanded (the only children such an element has)."""
        parts = [element.text or ""]
        for child in element:
            if not isinstance(child.tag, str):
                parts.append(self.parsed.expand(child.text or ""))
            elif child.text:
                parts.append(self._text_of(child))
            parts.append(child.tail or "")
        return "".join(parts)

    def _text_before(self, element: Any, parent: Frame) -> Iterator[Record | Defect | Content]:
        """The XHTML text that ends where ``element`` starts (its parent's
        text, or the tail of the element before it), read and let go."""
        run, line = _run_before(element, self.parsed, parent)
        parent.texted = True
        _let_go_before(element)
        if run:
            up = element.getparent()
            yield from self._text(run, parent.element if up is None else up, parent, line, backwards=True)

    def _text_after(self, element: Any, frame: Frame) -> Iterator[Record | Defect | Content]:
        """The XHTML text an element ends with (all of its text when it has
        no element child)."""
        children = [child for child in element if isinstance(child.tag, str)]
        last = children[-1] if children else None
        parts: list[str] = []
        if last is None:
            if not frame.texted:
                parts.append(element.text or "")
            line: int | None = element.sourceline
        else:
            parts.append(last.tail or "")
            line = None  # where the last child ends is not known
        tail_nodes = element[element.index(last) + 1:] if last is not None else list(element)
        for child in tail_nodes:
            parts.append(self.parsed.expand(child.text or ""))
            parts.append(child.tail or "")
        run = "".join(parts)
        if run.strip(_SPACE):
            yield from self._text(run, element, frame, line, backwards=False)

    def _text(self, run: str, parent: Any, frame: Frame, line: int | None, *, backwards: bool
              ) -> Iterator[Record | Defect | Content]:
        """A run of text: XHTML's, read by the XHTML reading; an unknown
        vocabulary's, scanned as prose (:mod:`.unknown`)."""
        if frame.prose:
            yield from prose_records(self, run, parent, frame, line, backwards)
        elif self.xhtml is not None:
            yield from self.xhtml.text(run, parent, frame, line, backwards=backwards)

def _run_before(element: Any, parsed: Parsed, parent: Frame) -> tuple[str, int | None]:
    """The text between ``element`` and the element before it (or its
    parent's start), entity references expanded, and the line it ends on."""
    parts: list[str] = []
    node = element.getprevious()
    while node is not None and not isinstance(node.tag, str):
        parts.append(parsed.expand(node.text or "") + (node.tail or ""))
        node = node.getprevious()
    if node is not None:
        parts.append(node.tail or "")
    elif not parent.texted and element.getparent() is not None:  # (an entity's first element has none)
        parts.append(element.getparent().text or "")
    parts.reverse()
    return "".join(parts), element.sourceline


def _default_namespace(frames: list[Frame]) -> str:
    """The default namespace in scope where an entity's replacement text is
    referenced: that of the innermost open element of the document's own."""
    for frame in reversed(frames):
        if not frame.entity and frame.element is not None:
            return str(frame.element.nsmap.get(None) or "")
    return ""


def _let_go_before(element: Any) -> None:
    """Drop what came before ``element`` in its parent: all of it was read."""
    parent = element.getparent()
    if parent is None:
        return
    while element.getprevious() is not None:
        del parent[0]


def _label(attribute: str) -> str:
    """How a record names a namespaced attribute of the table (``text:url``)."""
    if attribute[:1] != "{":
        return attribute
    namespace, local = split(attribute)
    prefix = {"urn:oasis:names:tc:opendocument:xmlns:text:1.0": "text",
              "urn:oasis:names:tc:opendocument:xmlns:form:1.0": "form"}.get(namespace, "")
    return f"{prefix}:{local}" if prefix else local


__all__ = ["Frame", "XmlWalk", "qualified", "split"]
