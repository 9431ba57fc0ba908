"""A MediaWiki XML export dump (``<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.11/">``,
the format of ``Special:Export`` and of the dumps.wikimedia.org files) →
each revision's wikitext, handed back to the scan as content of kind
``wikitext``.

The dump is read as the XML walk meets its elements, page by page: a page
is let go once read, so a dump of millions of pages is read in the memory
one page takes.  Each revision's text is named by its page and revision,
``Origin.part`` = ``"<title>#<revision id>"`` (its records' lines and
columns are those of that text), and each page is a document of its own for
the budgets, as each message of an mbox is (ARCHITECTURE.md, Budgets): its
end renews the dump's account (:meth:`.Budget.renew`), time and inflation,
for the page after it.  Its internal links resolve against
the wiki's article path: the ``<siteinfo><base>`` URL (an article's,
``https://en.wikipedia.org/wiki/Main_Page``), against which the wikitext
reader's ``./Title`` references are ``https://en.wikipedia.org/wiki/Title``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ...model import BaseSource, Content, Defect, Kind, origin_with

if TYPE_CHECKING:
    from .walk import Frame, XmlWalk

#: what the namespace of a dump's root starts with (export-0.3 to export-0.11, and those to come)
DUMP_ROOT = "http://www.mediawiki.org/xml/export-"


class Dump:
    """What a dump's walk knows of the page being read: the wiki's base
    layer, the page's title and its revision's id."""

    __slots__ = ("walk", "layer", "title", "revision")

    def __init__(self, walk: XmlWalk) -> None:
        self.walk = walk
        self.layer = walk.layer
        self.title: str | None = None
        self.revision: str | None = None

    def ended(self, element: Any, local: str, frame: Frame) -> Iterator[Content | Defect]:
        """An element of the dump has ended: what it says, or its text as wikitext."""
        up = element.getparent()
        parent = "" if up is None or not isinstance(up.tag, str) else up.tag.rpartition("}")[2]
        if local == "text" and parent == "revision":
            text = element.text or ""
            if text.strip():
                part = f"{self.title or ''}#{self.revision or ''}"
                yield Content(text, Kind.WIKITEXT, origin_with(self.walk.origin, part=part), self.layer,
                              budget=self.walk.budget)
        elif local == "id" and parent == "revision":
            self.revision = (element.text or "").strip()
        elif local == "title" and parent == "page":
            self.title = (element.text or "").strip()
            self.revision = None
        elif local == "base" and parent == "siteinfo":
            layer, defect = self.walk.layer.push((element.text or "").strip(), BaseSource.SITEINFO,
                                                 f"<siteinfo><base> at line {element.sourceline}",
                                                 origin=self.walk.origin)
            if defect is not None:
                yield defect
            else:
                self.layer = layer
        elif local == "page":
            self.title = self.revision = None
            if self.walk.budget is not None:
                self.walk.budget.renew()


__all__ = ["DUMP_ROOT", "Dump"]
