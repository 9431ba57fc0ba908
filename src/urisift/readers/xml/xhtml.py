"""XHTML read as the XML it is: what a browser's XML parser
builds from an XHTML document (served ``application/xhtml+xml``, named
``.xhtml``, or opening ``<?xml`` with a root in the XHTML namespace), and
the XHTML islands of other documents (Atom ``type="xhtml"`` content, an
RSS item's ``xhtml:body``).

Elements are known by namespace, whatever their prefix (``<h:a href>`` is
an ``a``), and read with HTML's own table of URL attributes
(:mod:`urisift.readers.html.table`: srcset, ``style=""``, codebase, the form and
manifest rules), ``<meta>`` refresh and URL metadata, ``<style>`` sheets,
``srcdoc`` (a document in HTML syntax: nested content), and the URIs
written in the text.  Records are XML records (``where: xml``, the line).

In an XHTML document the first ``<base href>`` (HTML §2.4.1: tree order,
not in a template) sets the document base, resolved against the document's
own URL; the records met before it in ``<head>`` wait for it (a head is
small), so that a ``<link>`` before the ``<base>`` resolves as a browser
resolves it.  ``xml:base`` applies on top of it (XML Base).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ...model import (
    Base,
    BaseSource,
    Content,
    Defect,
    DefectKind,
    Flag,
    Found,
    Kind,
    Place,
    Record,
    Style,
    Where,
    new_found,
    new_place,
)
from ...stages.base import BaseLayer, as_base
from ...stages.delimit import Scanner
from ...stages.found_to_record import Tail
from ...uri.errors import UriError
from ..css.syntax import css_urls, may_hold_url
from ..html.refresh import refresh_url
from ..html.srcset import parse_srcset
from ..html.table import ANY, HTML_ATTRIBUTES, LINKS, URL_METADATA, Against, Rule, Syntax, clean_value

if TYPE_CHECKING:
    from .walk import Frame, XmlWalk

#: records held while an XHTML document's head may still set its base, at most
_HELD = 10_000
_STYLE = {Syntax.URL: Style.ATTRIBUTE, Syntax.URLS: Style.ATTRIBUTE, Syntax.COMMA_URLS: Style.ATTRIBUTE,
          Syntax.SRCSET: Style.SRCSET, Syntax.CSS: Style.CSS}


class XhtmlReading:
    """The XHTML elements and text of one XML document (see the module doc)."""

    def __init__(self, walk: XmlWalk, *, document: bool) -> None:
        self.walk = walk
        self.document = document
        self.document_url = walk.layer  # what forms and the manifest resolve against
        self.url_tail: Tail | None = None
        # an XHTML document's records wait for its <base> until its head is over
        self.waiting = document
        self.held: list[tuple[Found, int | None, Frame, Tail | None]] = []
        self.based = False

    # -- records ----------------------------------------------------------------------------------

    def _emit(self, frame: Frame, found: Found, line: int | None, tail: Tail | None = None) -> Iterator[Record]:
        """The record of ``found`` (by ``tail``, else its frame's), or held
        while the head may still set the base: records keep tree order."""
        if self.waiting and len(self.held) < _HELD:
            self.held.append((found, line, frame, tail))
            return
        yield (tail or self.walk.tail(frame))(found, None, line, None)

    def _release(self) -> Iterator[Record]:
        self.waiting = False
        held, self.held = self.held, []
        for found, line, frame, tail in held:
            yield (tail or self.walk.tail(frame))(found, None, line, None)

    def _url_tail(self) -> Tail:
        if self.url_tail is None:
            self.url_tail = Tail(self.document_url, self.walk.origin, self.walk.decoding,
                                 browser=self.walk.options.browser, needs=self.walk.options.needs)
        return self.url_tail

    def _place(self, element: str, attribute: str | None, rel: tuple[str, ...] | None = None) -> Place:
        if rel is None:
            return self.walk.place(element, attribute)
        return new_place(Where.XML, element, attribute, None, rel, None)

    # -- elements ---------------------------------------------------------------------------------

    def element(self, element: Any, local: str, frame: Frame) -> Iterator[Record | Defect | Content]:
        """The records of an XHTML element's attributes (and a base it sets)."""
        walk = self.walk
        if local == "body" and self.waiting:
            yield from self._release()
        if local == "base" and self.document and not self.based and element.get("href") is not None:
            yield from self._document_base(element)
        attributes = element.attrib
        if not attributes:
            return
        if local == "meta":
            yield from self._meta(element, frame)
        codebase: Frame | None = None
        for name, value in attributes.items():
            if name[:1] == "{":
                continue  # xlink:href and the like: the walk's own rows, below
            by_element = HTML_ATTRIBUTES.get(name)
            if by_element is None:
                continue
            rule = by_element.get(local) or by_element.get(ANY)
            if rule is None:
                continue
            target_frame = frame
            if rule.against is Against.CODEBASE:
                if codebase is None:
                    codebase, defect = self._codebase(element, frame)
                    if defect is not None:
                        yield defect
                target_frame = codebase
            yield from self._value(element, local, name, value, rule, target_frame)
        yield from walk.namespaced(element, local, frame)

    def _value(self, element: Any, local: str, name: str, value: str, rule: Rule, frame: Frame
               ) -> Iterator[Record | Content]:
        line = element.sourceline
        flags = (Flag.LAZY,) if rule.lazy else ()
        syntax = rule.syntax
        if syntax is Syntax.DOCUMENT:
            if value.strip():
                current = frame.layer.current
                yield Content(value, Kind.HTML, self.walk.origin, BaseLayer.holding(current),
                              flags=(Flag.SRCDOC,), budget=self.walk.budget, held=line)
            return
        if syntax is Syntax.SRCSET:
            pieces = [(c.url, flags if c.valid else (*flags, Flag.INVALID)) for c in parse_srcset(value)]
        elif syntax is Syntax.CSS:
            pieces = [(clean_value(f.url)[0], flags) for f in css_urls(value)] if may_hold_url(value) else []
        elif syntax is Syntax.URL:
            url, wrapped = clean_value(value)
            pieces = [(url, (*flags, Flag.WRAPPED) if wrapped else flags)]
        else:
            pieces = [(clean_value(t)[0], flags) for t in value.split("," if syntax is Syntax.COMMA_URLS else None)]
        rel: tuple[str, ...] | None = None
        if local in LINKS and name == "href":
            rel_value = element.get("rel")
            rel = tuple(rel_value.lower().split()) if rel_value is not None else None
        # a <base href> resolves against the document's own URL, as the form's empty action does
        document_url = rule.against is Against.DOCUMENT_URL or (rule.against is Against.FORM and not value.strip()) \
            or local == "base"
        place = self._place(local, name, rel)
        style = _STYLE[syntax]
        for url, marks in pieces:
            if syntax is Syntax.URL or url:
                found = new_found(url, None, None, style, marks, (), None, place)
                yield from self._emit(frame, found, line, self._url_tail() if document_url else None)

    def _meta(self, element: Any, frame: Frame) -> Iterator[Record]:
        content = element.get("content") or ""
        if (element.get("http-equiv") or "").strip().lower() == "refresh":
            found = refresh_url(content)
            if found is not None:
                url, wrapped = clean_value(found[0])
                yield from self._emit(frame, new_found(url, None, None, Style.META_REFRESH,
                                                       (Flag.WRAPPED,) if wrapped else (), (), None,
                                                       self._place("meta", "content")), element.sourceline)
            return
        for key in ("property", "name", "itemprop"):
            if (element.get(key) or "").strip().lower() in URL_METADATA:
                url, _ = clean_value(content)
                yield from self._emit(frame, new_found(url, None, None, Style.ATTRIBUTE, (), (), None,
                                                       self._place("meta", "content")), element.sourceline)
                return

    def _codebase(self, element: Any, frame: Frame) -> tuple[Frame, Defect | None]:
        """The frame for attributes relative to ``codebase`` (HTML 4.01 §13.3)."""
        from .walk import Frame

        value = element.get("codebase")
        if value is None or not value.strip():
            return frame, None
        try:
            uri = as_base(clean_value(value)[0], frame.layer.current)
        except UriError as exc:
            return frame, Defect(DefectKind.BAD_BASE, f"<{element.tag.rpartition('}')[2]} codebase={value!r}> "
                                 f"(line {element.sourceline}) cannot serve as a base: {exc}", self.walk.origin)
        return Frame(BaseLayer.holding(Base(uri, BaseSource.CODEBASE, "codebase")), None, False), None

    def _document_base(self, element: Any) -> Iterator[Record | Defect]:
        """The document's ``<base href>``: on top of the document's URL, below
        every ``xml:base``; the frames open now and the records held move onto it."""
        self.based = True
        href = clean_value(element.get("href") or "")[0]
        if not href:
            return
        old = self.document_url
        layer, defect = old.push(href, BaseSource.HTML_BASE, f"<base href> at line {element.sourceline}",
                                 origin=self.walk.origin)
        if defect is not None:
            yield defect
            return
        for frame in self.walk.frames:
            if frame.layer is old:
                frame.layer, frame.tail = layer, None
        for _, _, frame, _ in self.held:
            if frame.layer is old:
                frame.layer, frame.tail = layer, None

    def ended(self, element: Any, local: str, frame: Frame) -> Iterator[Record]:
        if local == "head" and self.waiting or local == "html" and self.held:
            yield from self._release()

    # -- text -------------------------------------------------------------------------------------

    def text(self, run: str, parent: Any, frame: Frame, line: int | None, *, backwards: bool
             ) -> Iterator[Record]:
        """The URIs of a run of text whose parent element is ``parent``; the
        run ends on ``line`` (``backwards``) or starts on it."""
        tag = parent.tag
        local = tag.rpartition("}")[2] if isinstance(tag, str) else ""
        if local == "script":
            return
        if local == "style":
            if may_hold_url(run):
                place = self._place("style", None)
                for found_url in css_urls(run):
                    url, _ = clean_value(found_url.url)
                    at = _line(run, found_url.start, line, backwards)
                    yield from self._emit(frame, new_found(url, None, None, Style.CSS, (), (), None, place), at)
            return
        if ":" not in run and "www." not in run and "ftp." not in run:
            return
        place = self._place(local, None)
        for found in Scanner(run, abbreviated=self.walk.options.abbreviated, refang=self.walk.options.refang):
            assert found.start is not None
            at = _line(run, found.start, line, backwards)
            yield from self._emit(frame, found._replace(start=None, end=None, place=place), at)


def _line(run: str, offset: int, line: int | None, backwards: bool) -> int | None:
    if line is None:
        return None
    return line - run.count("\n", offset) if backwards else line + run.count("\n", 0, offset)


__all__ = ["XhtmlReading"]
