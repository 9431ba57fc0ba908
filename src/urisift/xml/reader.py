"""An XML document → its records (issue 21): the vocabularies of
:mod:`.vocabulary`, each reference resolved against the ``xml:base`` in
scope (XML Base §4.2: an element's base is its own ``xml:base`` resolved
against its parent's, and the document's base below them all: RFC 3986
§5.1.1 and §5.1.2), HTML inside feeds read as HTML whose base is that one.

Parsed by lxml's ``iterparse``, a streaming pull parser: a sitemap of a
million URLs is read in constant memory (each element is dropped once its
end is seen).  Safe settings, the document is never trusted: no entity
expansion (``resolve_entities=False``: no billion laughs, no external
entity read, no XXE), no DTD loaded, no network, and libxml2's default
limits kept (``huge_tree=False``: nesting deeper than 256 and text nodes over
10 MB end the parse).  Where the parse ends early, a ``broken-document``
defect says where and why, and what came before it is kept.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

from lxml import etree

from ..base import BaseLayer
from ..found_to_record import Tail
from ..model import (
    BaseSource,
    Content,
    Defect,
    DefectKind,
    Kind,
    Origin,
    Place,
    Record,
    Style,
    Tally,
    Unit,
    Where,
    new_found,
)
from ..model.events import is_message
from ..options import ScanOptions
from .vocabulary import ANY_ELEMENT, ATOM, ATTRIBUTES, HTML_TEXT, TEXT, UNNAMESPACED_ROOTS, XML_BASE

_SPACE = " \t\r\n"


def _split(tag: str) -> tuple[str, str]:
    """``{namespace}local`` → (namespace, local); no namespace is ""."""
    if tag[:1] == "{":
        namespace, _, local = tag[1:].partition("}")
        return namespace, local
    return "", tag


def _qualified(element: Any, local: str) -> str:
    return f"{element.prefix}:{local}" if element.prefix else local


def _events(stream: Any) -> Any:
    return etree.iterparse(stream, events=("start", "end"), resolve_entities=False, load_dtd=False,
                           no_network=True, huge_tree=False, remove_comments=True, remove_pis=True)


class _Walk:
    """The state of one document's walk: the bases in scope, a tail a base."""

    def __init__(self, content: Content, options: ScanOptions) -> None:
        self.content = content
        self.options = options
        self.origin = content.origin
        self.tails: dict[int, Tail] = {}
        self.places: dict[tuple[str, str | None], Place] = {}

    def tail(self, layer: BaseLayer) -> Tail:
        tail = self.tails.get(id(layer))
        if tail is None:
            tail = self.tails[id(layer)] = Tail(layer, self.origin, None, browser=self.options.browser)
        return tail

    def place(self, element: str, attribute: str | None) -> Place:
        key = (element, attribute)
        place = self.places.get(key)
        if place is None:
            place = self.places[key] = Place(Where.XML, element, attribute)
        return place

    def record(self, layer: BaseLayer, value: str, element: str, attribute: str | None, line: int | None) -> Record:
        style = Style.ATTRIBUTE if attribute is not None else Style.ELEMENT
        found = new_found(value.strip(_SPACE), None, None, style, (), (), None, self.place(element, attribute))
        return self.tail(layer)(found, None, line, None)


def read_xml(content: Content, options: ScanOptions, tally: Tally) -> Iterator[Record | Defect | Content]:
    body = content.body
    if is_message(body):
        raise TypeError("a parsed message is content of kind mail only")
    stream = io.BytesIO(body.encode("utf-8") if isinstance(body, str) else body) if isinstance(
        body, (str, bytes)) else body
    walk = _Walk(content, options)
    layers: list[BaseLayer] = [content.layer]
    root: str | None = None
    keep = 0  # inside Atom XHTML content: its children are kept until it ends
    try:
        for event, element in _events(stream):
            tag = element.tag
            if not isinstance(tag, str):
                continue  # an entity reference left unexpanded
            namespace, local = _split(tag)
            if event == "start":
                if root is None:
                    root = local if namespace == "" else None
                    root = root or ""
                layer = layers[-1]
                base = element.get(XML_BASE)
                if base is not None:
                    detail = f"xml:base of <{_qualified(element, local)}> at line {element.sourceline}"
                    layer, defect = layer.push(base.strip(_SPACE), BaseSource.XML_BASE, detail, origin=walk.origin)
                    if defect is not None:
                        yield defect
                layers.append(layer)
                if not keep:  # inside Atom XHTML content the HTML reader reads them
                    yield from _attributes(walk, layer, element, namespace, local, root)
                if namespace == ATOM and local in ("content", "summary") and element.get("type") == "xhtml":
                    keep += 1
                continue
            layer = layers.pop()
            key = (namespace, local)
            unnamespaced_ok = namespace != "" or root in UNNAMESPACED_ROOTS
            if key in TEXT and unnamespaced_ok and element.text and element.text.strip(_SPACE):
                if not (local == "guid" and (element.get("isPermaLink") or "").strip().lower() == "false"):
                    yield walk.record(layer, element.text, _qualified(element, local), None, element.sourceline)
            elif key in HTML_TEXT and unnamespaced_ok:
                html = _html_of(element, namespace)
                if html:
                    yield Content(html, Kind.HTML, walk.origin, layer)
            if namespace == ATOM and local in ("content", "summary") and element.get("type") == "xhtml":
                keep -= 1
            if not keep:
                element.clear(keep_tail=True)
                while element.getprevious() is not None:
                    del element.getparent()[0]
    except etree.XMLSyntaxError as exc:
        line, column = exc.position if exc.position else (None, None)
        yield Defect(DefectKind.BROKEN_DOCUMENT,
                     f"the XML ends here (line {line}, column {column}): {exc.msg}; what came before it was read",
                     walk.origin, None, Unit.CHARACTER)


def _attributes(walk: _Walk, layer: BaseLayer, element: Any, namespace: str, local: str, root: str
                ) -> Iterator[Record]:
    attributes = element.attrib
    if not attributes:
        return
    names = ATTRIBUTES.get((namespace, local))
    if names is not None and (namespace != "" or root in UNNAMESPACED_ROOTS):
        for name in names:
            value = attributes.get(name)
            if value is not None and value.strip(_SPACE):
                yield walk.record(layer, value, _qualified(element, local), name, element.sourceline)
    for name, value in attributes.items():
        if name[:1] == "{":
            label = ANY_ELEMENT.get(_split(name))
            if label is not None and value.strip(_SPACE):
                yield walk.record(layer, value, _qualified(element, local), label, element.sourceline)
        elif name == "href" and namespace == "http://www.w3.org/2000/svg" and value.strip(_SPACE):
            yield walk.record(layer, value, _qualified(element, local), "href", element.sourceline)


def _html_of(element: Any, namespace: str) -> str | None:
    """The HTML an element holds: its text (Atom ``type="html"``, RSS
    ``description``, ``content:encoded``), or its children written out
    (Atom ``type="xhtml"``, RFC 4287 §3.1.1.3); None for Atom text that is
    plain (``type="text"``, the default)."""
    if namespace == ATOM:
        kind = element.get("type") or "text"
        if kind == "xhtml":
            return "".join(etree.tostring(child, method="html", encoding="unicode", with_tail=True)
                           for child in element) or None
        if kind != "html":
            return None
    return element.text or None


__all__ = ["Origin", "read_xml"]
