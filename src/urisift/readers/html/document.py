"""One HTML document → its records: the document base URL, every URL-bearing
attribute by the rules of :mod:`.table`, srcset, meta refresh, CSS, and the
URIs written in its text (ARCHITECTURE.md, Base URIs; url-syntax-05 §5.1.1; WHATWG HTML §2.4.1
"document base URL", §4.2.3 ``base``).

The base is found before any link is resolved, because a ``<base>`` in the
body applies to the links before it too.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Literal

from ...model import Base, Charset, Defect, Found, Origin, Place, Record
from ...model.build import new_found, new_place
from ...model.enums import BaseSource, DefectKind, Flag, Style, Unit, Where
from ...model.needs import ANCHOR, EVERYTHING, REGION
from ...stages.base import BaseLayer, as_base
from ...stages.delimit import Scanner
from ...stages.delimit.chars import ordered
from ...stages.found_to_record import Tail
from ...uri.browser import browser_target, whatwg_base
from ...uri.errors import UriError
from ..css.syntax import css_urls, may_hold_url
from .locate import Locator, Position, Whole
from .refresh import refresh_url
from .region import page_regions
from .srcdoc import srcdoc_records
from .srcset import parse_srcset
from .table import (
    ANCHOR_TEXT_LIMIT,
    ANY,
    C0_SPACE,
    DESCRIPTIONS,
    FOREIGN_ATTRIBUTES,
    HTML_ATTRIBUTES,
    LINKS,
    NAMES,
    PROSE_ATTRIBUTES,
    READ_NAMES,
    URL_METADATA,
    Against,
    Rule,
    Syntax,
    clean_value,
)
from .tree import Element, Namespace, Text, first_base

_BASE, _HTML, _ATTRIBUTE, _URL_SYNTAX = Against.BASE, Where.HTML, Style.ATTRIBUTE, Syntax.URL
_LAZY_FLAGS = (Flag.LAZY,)
_NO_FLAGS: tuple[Flag, ...] = ()
_WRAPPED_FLAGS = (Flag.WRAPPED,)
#: how many records a walk gathers before it yields them: a page's worth held to its end
#: outlived the young collections and lengthened the older ones (14% of a dense page's time)
_BATCH = 256


class DocumentWalk:
    """The records of one parsed document (see the module doc).

    ``layer`` is the chain of bases below the document (MIME, retrieval,
    default); the document's own ``<base>`` goes on top of it for the walk.
    ``locator`` finds positions in the source text (None: records have none);
    ``source``, that text, gives a defect of the ``<base>`` its position
    even when records have none (the locator's text when not given).
    """

    def __init__(self, tree: Any, layer: BaseLayer, origin: Origin, decoding: Charset | None, *,
                 locator: Locator | None, abbreviated: bool = True, comments: bool = False,
                 flags: tuple[Flag, ...] = (), depth: int = 0, source: str | None = None,
                 based: BaseLayer | None = None, needs: frozenset[str] = EVERYTHING,
                 page_base: Element | None = None, code: bool = True, refang: bool = False) -> None:
        self.tree = tree
        self.source = source if source is not None or locator is None else locator.text
        self.layer = layer
        self.origin = origin
        self.decoding = decoding
        self.locator = locator
        self.abbreviated = abbreviated
        self.refang = refang  # defanged references in text read back (stages/delimit/refang.py)
        self.comments = comments
        self.extra = flags
        self.code = code  # URLs in code are found (flagged), or left out
        self.depth = depth
        self.places: dict[tuple[str, str | None, Where, str | Literal[False]], Place] = {}
        # the layers with the base on top, known for a piece after a page's first (:mod:`.segments`), else found
        self.based, self.page_base = based, page_base  # (page_base: the page's first <base href>, in a later piece)
        self.needs = needs  # what the output asks for (ARCHITECTURE.md, Pushdown)
        self.anchors = ANCHOR in needs
        # where on the page the item being read stands: False when not asked for
        self.here: str | Literal[False] = False

    def __iter__(self) -> Iterator[Record | Defect]:
        items = list(self.tree.items(READ_NAMES, self.comments, self.refang))
        document_url = self.layer.current
        base = (first_base(items) or self.page_base) if self.based is None else None
        href = None if base is None else clean_value(base.attributes["href"] or "")[0]
        if self.based is None:
            # an empty or blank href leaves the layer below in force (WHATWG: "if
            # href is the empty string" the fallback base URL applies)
            position = self._base_position(href)
            layer, defect = self.layer.push(href or None, BaseSource.HTML_BASE, self._base_detail(position),
                                            origin=self.origin, position=position)
            if defect is not None:
                yield defect
            self.based = layer
        else:
            layer = self.based
            current = layer.current
            href = current.uri if current is not None and current.source is BaseSource.HTML_BASE else None
        self.document_base = layer.current
        # what a browser resolves against: <base href> parsed by the WHATWG
        # parser against the document's URL ("set the frozen base URL", HTML
        # §4.2.3), falling back to that URL when it fails; unlike RFC 3986
        # resolution, a browser refuses no scheme there
        document_href = whatwg_base(None if document_url is None else document_url.uri)
        browser_base = (browser_target(href, document_href) or document_href) if href else document_href
        self.tail = Tail(layer, self.origin, self.decoding, browser=True, browser_base=browser_base, needs=self.needs)
        self.url_tail = Tail(BaseLayer.holding(document_url), self.origin, self.decoding, browser=True,
                             browser_base=document_href, needs=self.needs)
        # the steps append to one list (generators cost 3 µs a record), yielded
        # a batch at a time so that records die young (see _BATCH)
        out: list[Record | Defect] = []
        self.out = out
        element, text = self._element, self._text
        regions = page_regions(self.tree) if REGION in self.needs else None
        for item in items:
            if regions is not None:
                self.here = regions.of(item.node)
            if type(item) is Element:
                element(item)
            else:
                text(item)
            if len(out) >= _BATCH:
                yield from out
                out.clear()
        yield from out

    def _base_position(self, href: str | None) -> int | None:
        if not href or self.source is None:
            return None
        found = Locator(self.source).attribute(href, "base")
        return None if found is None else found[0].start

    def _base_detail(self, position: int | None) -> str:
        if position is None or self.source is None:
            return "<base href>"
        return f"<base href> at line {self.source.count(chr(10), 0, position) + 1}"

    # -- elements -------------------------------------------------------------------------------

    def _element(self, element: Element) -> None:
        tag, attributes = element.tag, element.attributes
        if element.namespace is not Namespace.HTML:
            for name, value in attributes.items():
                rule = FOREIGN_ATTRIBUTES.get(name)
                if rule is not None and value is not None:
                    self._value(element, name, value, rule, self.tail, None, None)
            return
        codebase_tail: Tail | None = None
        out, locator = self.out, self.locator
        for name, value in attributes.items():
            if name not in NAMES:
                if name in PROSE_ATTRIBUTES and value:
                    self._prose(tag, name, value)
                continue  # class, id ...: most attributes
            if tag == "meta" and name == "content":
                self._meta(element, value or "")
                continue
            by_element = HTML_ATTRIBUTES.get(name)
            if by_element is None:
                continue
            rule = by_element.get(tag) or by_element.get(ANY)
            if rule is None:
                continue
            value = value or ""
            against = rule.against
            if against is _BASE and tag != "base":
                tail = self.tail
            elif against is Against.CODEBASE:
                if codebase_tail is None:
                    codebase_tail, defect = self._codebase(element)
                    if defect is not None:
                        out.append(defect)
                tail = codebase_tail
            elif against is Against.DOCUMENT_URL or (against is Against.FORM and not value.strip()):
                tail = self.url_tail
            elif tag == "base":
                tail = self.url_tail  # its own href resolves against the layer below
            else:
                tail = self.tail
            if rule.syntax is not _URL_SYNTAX:
                self._value(element, name, value, rule, tail, None, None)
                continue
            # one URL: the commonest value by far, done here without further calls
            url = value.strip(C0_SPACE)
            flags = _LAZY_FLAGS if rule.lazy else _NO_FLAGS
            if "\t" in url or "\n" in url or "\r" in url:
                url = url.replace("\t", "").replace("\n", "").replace("\r", "")
                flags = (*flags, Flag.WRAPPED)
                at = None
            else:
                at = None if locator is None else locator.attribute(url, tag)
            if self.extra:
                flags = ordered({*flags, *self.extra})
            if tag in LINKS and name == "href":
                rel_value = attributes.get("rel")
                rel = tuple(rel_value.lower().split()) if rel_value is not None else None
                place = new_place(_HTML, tag, name, None, rel, self._anchor_text(element), self.here)
            else:
                place = self._place(tag, name, _HTML)
            found = new_found(url, None, None, _ATTRIBUTE, flags, (), None, place)
            out.append(tail(found) if at is None else tail(found, *at))

    def _anchor_text(self, element: Element) -> str | None | Literal[False]:
        if not self.anchors:
            return False  # not asked for: not computed
        if element.tag == "area":
            return element.attributes.get("alt")
        if element.tag != "a":
            return None
        return " ".join(self.tree.anchor_text(element.node).split())[:ANCHOR_TEXT_LIMIT].rstrip()

    def _codebase(self, element: Element) -> tuple[Tail, Defect | None]:
        """The tail for attributes relative to ``codebase`` (HTML 4.01 §13.3):
        the codebase resolved against the document base, else that base."""
        value = element.attributes.get("codebase")
        current = self.document_base
        if value is None or not value.strip():
            return self.tail, None
        try:
            uri = as_base(clean_value(value)[0], current)
        except UriError as exc:
            return self.tail, Defect(DefectKind.BAD_BASE,
                                     f"<{element.tag} codebase={value!r}> cannot serve as a base: {exc}",
                                     self.origin, None, Unit.CHARACTER)
        layer = Base(uri, BaseSource.CODEBASE, f"<{element.tag} codebase>")
        return Tail(BaseLayer.holding(layer), self.origin, self.decoding, browser=True, needs=self.needs), None

    def _meta(self, element: Element, content: str) -> None:
        attributes = element.attributes
        if (attributes.get("http-equiv") or "").strip().lower() == "refresh":
            found = refresh_url(content)
            if found is not None:
                url, offset = found
                where = self._locate(content, element.tag)
                # the URL parser removes tabs and line breaks here as in any attribute (WHATWG URL §4.4)
                cleaned, wrapped = clean_value(url)
                self._one(cleaned, element.tag, "content", Style.META_REFRESH, self.tail,
                          _WRAPPED_FLAGS if wrapped else _NO_FLAGS, None, None,
                          None if self.locator is None or wrapped else self.locator.inside(where, offset, url))
            return
        for key in ("property", "name", "itemprop"):
            kind = (attributes.get(key) or "").strip().lower()
            if kind in URL_METADATA:
                self._value(element, "content", content, Rule(Syntax.URL), self.tail, (kind,), None)
                return
            if kind in DESCRIPTIONS:
                self._prose(element.tag, "content", content)
                return

    # -- values -------------------------------------------------------------------------------------

    def _locate(self, value: str, tag: str) -> Position | None:
        return None if self.locator is None else self.locator.attribute(value, tag)

    def _value(self, element: Element, name: str, value: str, rule: Rule, tail: Tail,
               rel: tuple[str, ...] | None, text: str | None) -> None:
        """The records of one attribute value, by its syntax."""
        syntax = rule.syntax
        flags = (Flag.LAZY,) if rule.lazy else _NO_FLAGS
        if syntax is Syntax.URL:
            url, wrapped = clean_value(value)
            where = None if wrapped else self._locate(url, element.tag)
            self._one(url, element.tag, name, Style.ATTRIBUTE, tail,
                                 (*flags, Flag.WRAPPED) if wrapped else flags, rel, text, where)
        elif syntax is Syntax.SRCSET:
            where = self._locate(value, element.tag)
            locator = self.locator
            for candidate in parse_srcset(value):
                marks = flags if candidate.valid else (*flags, Flag.INVALID)
                at = None if locator is None else locator.inside(where, candidate.start, candidate.url)
                self._one(candidate.url, element.tag, name, Style.SRCSET, tail, marks, None, None, at)
        elif syntax is Syntax.CSS:
            if may_hold_url(value):
                self._css(value, element.tag, name, self._locate(value, element.tag))
        elif syntax is Syntax.DOCUMENT:
            self._srcdoc(value)
        else:  # URLS, COMMA_URLS
            where = self._locate(value, element.tag)
            separator = "," if syntax is Syntax.COMMA_URLS else None
            offset = 0
            for token in value.split(separator):
                offset = value.find(token, offset)
                url, wrapped = clean_value(token)
                if url:
                    at = None if self.locator is None else self.locator.inside(where, value.find(url, offset), url)
                    self._one(url, element.tag, name, Style.ATTRIBUTE, tail, flags, rel, text, at)
                offset += len(token)

    def _css(self, css: str, tag: str, name: str | None, where: Position | None, whole: bool = False) -> None:
        """The records of the url()s of ``css``, found at ``where`` (an
        attribute value) or, with ``whole``, looked for whole at its first
        url() (a style element's sheet: see :meth:`_text`)."""
        locator = self.locator
        sheet: Whole | None = None
        looked = False  # for the sheet whole (at its first url())
        for found in css_urls(css):
            url, _ = clean_value(found.url)
            if locator is None:
                at = None
            elif whole:
                if not looked:
                    sheet, looked = locator.enclosed(css, ">", "</"), True
                at = locator.in_text(sheet, found.start, found.url)
            else:
                at = locator.text_at(found.url) if where is None else locator.inside(where, found.start, found.url)
            self._one(url, tag, name, Style.CSS, self.tail, _NO_FLAGS, None, None, at)

    def _srcdoc(self, document: str) -> None:
        """An iframe's srcdoc: a document of its own (:mod:`.srcdoc`)."""
        if document.strip():
            self.out.extend(srcdoc_records(self, document))

    def _place(self, tag: str | None, name: str | None, where: Where) -> Place:
        key = (tag or "", name, where, self.here)
        place = self.places.get(key)
        if place is None:
            place = self.places[key] = Place(where, tag, name, region=self.here)
        return place

    def _one(self, url: str, tag: str, name: str | None, style: Style, tail: Tail,
             flags: tuple[Flag, ...], rel: tuple[str, ...] | None, text: str | None, at: Position | None) -> None:
        """The record of one URL found in an attribute or a style sheet."""
        if rel is None and text is None:
            place = self._place(tag, name, Where.HTML)
        else:
            place = new_place(_HTML, tag, name, None, rel, text, self.here)
        if self.extra:
            flags = ordered({*flags, *self.extra})
        found = new_found(url, None, None, style, flags, (), None, place)
        self.out.append(tail(found, *at) if at is not None else tail(found))

    def _prose(self, tag: str, name: str, value: str) -> None:
        """The references in an attribute value a person reads (table.PROSE_ATTRIBUTES, a
        description's content): found as in a text node, their records naming the attribute."""
        if ":" not in value and "www." not in value and "ftp." not in value and not (self.refang and "." in value):
            return  # (a defanged host has none of them: evil[.]example)
        place = self._place(tag, name, Where.TEXT)
        where = self._locate(value, tag)
        extra, locator, tail = self.extra, self.locator, self.tail
        for found in Scanner(value, abbreviated=self.abbreviated, refang=self.refang):
            found = found._replace(place=place, flags=ordered({*found.flags, *extra}) if extra else found.flags)
            assert found.start is not None and found.end is not None
            at = None if locator is None else locator.inside(where, found.start, value[found.start:found.end])
            self.out.append(tail(found, *at) if at is not None else tail(found))

    # -- text -------------------------------------------------------------------------------------

    def _text(self, item: Text) -> None:
        # A URL looked for in the source on its own lands on an earlier copy of
        # it (in a comment, in an attribute no link is read from, in text before
        # the element), so the text that holds it is found first, whole and
        # between the marks around it in the source, and each URL at its offset
        # in it.  A style sheet's text is its source (the tree builder keeps a
        # raw text element's text as written, line breaks aside: CRLF in the
        # source, LF in the tree), and so is a comment's (stripped of the white
        # space at its ends); a text node's is when it holds no character
        # reference but "&amp;".  Where the text is not found so, each URL is
        # looked for on its own.
        if item.parent == "style" and not item.comment:
            if may_hold_url(item.text):
                self._css(item.text, "style", None, None, whole=True)
            return
        place = self._place("#comment" if item.comment else item.parent or None, None, Where.TEXT)
        text, tail, locator, extra = item.text, self.tail, self.locator, self.extra
        if not item.comment and self.tree.in_code(item.node):
            if not self.code:
                return
            extra = ordered({*extra, Flag.CODE})
        outer: Whole | None = None
        looked = False  # for the text whole (at its first record: most texts with a ":" have none)
        link_target = None
        if item.link is not None:
            link_target = tail.target(Found(clean_value(item.link)[0], None, None, Style.ATTRIBUTE))[0]
        for found in Scanner(text, abbreviated=self.abbreviated, refang=self.refang):
            found = found._replace(place=place, flags=ordered({*found.flags, *extra}) if extra else found.flags)
            if link_target is not None and tail.target(found)[0] == link_target:
                continue  # the link's own URL written as its text: one link, already reported
            assert found.start is not None and found.end is not None
            if locator is None:
                at = None
            else:
                if not looked:
                    outer = (locator.comment(text) if item.comment
                             else locator.enclosed(text, ">", "<", references=True))
                    looked = True
                at = locator.in_text(outer, found.start, text[found.start:found.end])
            self.out.append(tail(found, *at) if at is not None else tail(found))
