"""The XML parser, never trusting the document: libxml2's
pull parser through lxml, fed piece by piece, so that a sitemap of a million
URLs is read in constant memory.

- Nothing is fetched or read because a document asks for it: no external
  DTD, no external entity (``load_dtd=False``, ``no_network=True``,
  ``resolve_entities=False``).  A document that declares one is told so by a
  ``broken-document`` defect naming it (the DTDs of XHTML, SVG and MathML
  excepted: a browser knows them without reading them, and so does this
  reader, which expands HTML's named character references in such documents).
- Internal entities of the internal DTD subset are expanded (XML 1.0
  §4.4.5): libxml2 does it in attribute values, :meth:`Parsed.expand` in
  text; libxml2's amplification bound ends a billion laughs in either.
- libxml2's default limits are kept (``huge_tree=False``: nesting deeper
  than 256 and text nodes over 10 MB end the parse).  Where the parse ends
  early (a well-formedness error is fatal in XML, §1.2), one defect on one
  line says where and why, and what came before it was read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from html.entities import html5
from typing import Any

from lxml import etree

from ...model import Defect, DefectKind, Origin, Unit
from ...uri import patterns

#: the DTDs a browser knows without reading them (WHATWG HTML §13.2 "XML
#: parser": their public identifiers get HTML's named character references)
KNOWN_DTDS = frozenset({
    "-//W3C//DTD XHTML 1.0 Transitional//EN", "-//W3C//DTD XHTML 1.1//EN", "-//W3C//DTD XHTML 1.0 Strict//EN",
    "-//W3C//DTD XHTML 1.0 Frameset//EN", "-//W3C//DTD XHTML Basic 1.0//EN",
    "-//W3C//DTD XHTML 1.1 plus MathML 2.0//EN", "-//W3C//DTD XHTML 1.1 plus MathML 2.0 plus SVG 1.1//EN",
    "-//W3C//DTD MathML 2.0//EN", "-//WAPFORUM//DTD XHTML Mobile 1.0//EN",
    # SVG's own, whose entities are none a link needs
    "-//W3C//DTD SVG 1.1//EN", "-//W3C//DTD SVG 1.0//EN", "-//W3C//DTD SVG 1.1 Basic//EN",
    "-//W3C//DTD SVG 1.1 Tiny//EN",
    # RSS 0.91 (Netscape's, the DOCTYPE of a great many old feeds): HTML's Latin-1 entities
    "-//Netscape Communications//DTD RSS 0.91//EN",
})
#: the known DTDs whose entities are HTML's named character references
_HTML_ENTITIES = ("XHTML", "RSS 0.91")
#: external entities and DTDs named, at most, one defect each
_NAMED = 20
#: characters one text's entity references may expand to
_EXPANSION = 1 << 20
_REFERENCE = patterns.compile(r"&([A-Za-z_:][\w.:-]*);")
_PLACE = patterns.compile(r",? line \d+, column \d+\s*$")


def _parser() -> Any:
    return etree.XMLPullParser(events=("start", "end"), resolve_entities=False, load_dtd=False, no_network=True,
                               huge_tree=False, remove_comments=True, remove_pis=True, encoding="utf-8")


class Parsed:
    """The events of one document, ``("start"|"end", element)`` in document
    order, and the defects of its DOCTYPE and of where it ended, as one
    stream of items (:meth:`items`)."""

    def __init__(self, pieces: Iterable[bytes], origin: Origin, what: str = "the XML") -> None:
        self.pieces = pieces
        self.origin = origin
        self.what = what
        self.entities: dict[str, str | None] = {}  # declared general entities: content, None when external
        self.html_entities = False  # a DTD a browser knows: HTML's named character references
        self._told: set[str] = set()
        self.doctype_line: int | None = None

    def items(self) -> Iterator[tuple[str, Any] | Defect]:
        parser = _parser()
        started = False
        ended: etree.XMLSyntaxError | None = None
        pieces = iter(self.pieces)
        while ended is None:
            piece = next(pieces, None)
            try:
                if piece is None:
                    parser.close()
                else:
                    if self.doctype_line is None and not started:
                        self._find_doctype(piece)
                    parser.feed(piece)
            except etree.XMLSyntaxError as exc:
                ended = exc  # the events before it are read first
            for event, element in parser.read_events():
                if not started:
                    started = True
                    yield from self._doctype(element)
                yield event, element
            if piece is None:
                break
        if ended is not None:
            yield self._ended(ended)

    def _find_doctype(self, piece: bytes) -> None:
        at = piece.find(b"<!DOCTYPE")
        if at != -1:
            self.doctype_line = piece.count(b"\n", 0, at) + 1

    def _doctype(self, root: Any) -> Iterator[Defect]:
        """The DOCTYPE's external subset and external entities, told (never read)."""
        info = root.getroottree().docinfo
        public, system = info.public_id, info.system_url
        if public in KNOWN_DTDS:
            self.html_entities = public is not None and any(name in public for name in _HTML_ENTITIES)
        elif system is not None or public is not None:
            yield self._defect(f"its DOCTYPE names an external DTD ({_named(public, system)}), which is never read: "
                               "what it declares is not known here")
        subset = info.internalDTD
        if subset is None:
            return
        for entity in subset.iterentities():
            if entity.system_url is not None or entity.content is None:
                self.entities[entity.name] = None
                if len(self._told) < _NAMED:
                    self._told.add(entity.name)
                    yield self._defect(f"its DOCTYPE declares the external entity &{entity.name}; "
                                       f"({_named(None, entity.system_url)}), which is never read")
            elif "<" in entity.content:
                # its replacement text holds markup: libxml2 gives its elements (and their text)
                # as events of their own, so as text it stands for nothing, lest its tags be read
                # as text
                self.entities[entity.name] = ""
            else:
                self.entities[entity.name] = entity.content

    def expand(self, text: str) -> str:
        """``text`` with the references to internal entities replaced (XML 1.0
        §4.4.2, recursively, to at most a megabyte), those a known DTD gives
        (HTML's named character references) too; a reference to an external
        entity stands for nothing (it is never read), one to an undeclared
        entity stays as it is written."""
        if "&" not in text:
            return text
        budget = [_EXPANSION]

        def one(m: re.Match[str], depth: int = 0) -> str:
            name = m.group(1)
            if name not in self.entities:
                known = html5.get(name + ";") if self.html_entities else None
                return m.group() if known is None else known
            content = self.entities[name]
            if content is None:
                return ""  # an external entity: never read, so it stands for nothing here
            if depth > 8 or len(content) > budget[0]:
                return m.group()
            budget[0] -= len(content)
            return _REFERENCE.sub(lambda inner: one(inner, depth + 1), content) if "&" in content else content

        return _REFERENCE.sub(one, text)

    def _defect(self, detail: str) -> Defect:
        line = f" (line {self.doctype_line})" if self.doctype_line is not None else ""
        return Defect(DefectKind.BROKEN_DOCUMENT, f"{self.what}{line}: {detail}", self.origin, None)

    def _ended(self, exc: etree.XMLSyntaxError) -> Defect:
        line, column = exc.position if exc.position else (None, None)
        # libxml2 ends its message with its own ", line N, column M" (inside an
        # entity's text, for an entity): the place is said once, below
        message = _PLACE.sub("", exc.msg or str(exc))
        if "amplification" in message or "entity" in message.lower() and line == 1 and self.doctype_line:
            # libxml2 counts lines inside the entity's replacement text here:
            # the document's own place is its DOCTYPE's
            where = f"the entities its DOCTYPE (line {self.doctype_line}) declares expand past libxml2's bound"
        else:
            where = f"line {line}, column {column}"
        return Defect(DefectKind.BROKEN_DOCUMENT,
                      f"{self.what} ends here ({where}): {message}; what came before it was read",
                      self.origin, None, Unit.CHARACTER)


def _named(public: str | None, system: str | None) -> str:
    if public and system:
        return f"PUBLIC {public!r} {system!r}"
    return f"PUBLIC {public!r}" if public else f"SYSTEM {system!r}"


__all__ = ["KNOWN_DTDS", "Parsed"]
