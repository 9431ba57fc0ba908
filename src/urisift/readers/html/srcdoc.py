"""An iframe's ``srcdoc``: a document of its own inside an attribute value,
whose fallback base is the document's base URL (WHATWG HTML §2.4.1,
§4.8.5), read as a nested reading: its failure is one defect and the page
goes on (ARCHITECTURE.md, The nesting boundary); nested deeper than :data:`SRCDOC_DEPTH`, a defect says
what was not read, never silence.  Its records have no position (they stand
in the page's source only as an escaped attribute value)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import TYPE_CHECKING

from ...model import Defect, DefectKind, Flag, Record
from ...model.needs import REGION
from ...stages.base import BaseLayer
from ...stages.containment import contained
from ...stages.delimit.chars import ordered

if TYPE_CHECKING:
    from .document import DocumentWalk

#: iframe srcdoc documents inside srcdoc documents are read this deep (a
#: deeper one is a defect); each level costs the levels around it a tree
SRCDOC_DEPTH = 16


def srcdoc_records(walk: DocumentWalk, document: str) -> Iterator[Record | Defect]:
    """The records of ``document``, the srcdoc of an iframe of ``walk``'s document."""
    if walk.depth >= SRCDOC_DEPTH:
        yield Defect(DefectKind.DEEP_NESTING, f"iframe srcdoc nested more than {SRCDOC_DEPTH} deep: the innermost "
                     f"({len(document)} characters) is not read", walk.origin, None)
        return
    yield from contained(_inner(walk, document), f"an iframe srcdoc {walk.depth + 1} deep", walk.origin)


def _inner(walk: DocumentWalk, document: str) -> Iterator[Record | Defect]:
    from .parse import parse  # the parser is chosen there; imported here to keep the walk parser-free

    tree, capped = parse(document, walk.comments)  # (long comments withheld from the parser as the page's are)
    if capped is not None:
        yield Defect(DefectKind.DEEP_NESTING, f"iframe srcdoc: {capped}", walk.origin, None)
    # its records stand where the iframe stands on the page, not where they stand in it
    here = walk.here
    inner = type(walk)(tree, BaseLayer.holding(walk.document_base), walk.origin, walk.decoding, locator=None,
                       abbreviated=walk.abbreviated, comments=walk.comments, refang=walk.refang,
                       flags=ordered({*walk.extra, Flag.SRCDOC}), depth=walk.depth + 1, needs=walk.needs - {REGION})
    for item in inner:
        if here is not False and type(item) is Record:
            found = item.found  # type: ignore[union-attr]
            item = item._replace(found=found._replace(place=replace(found.place, region=here)))  # type: ignore[union-attr]
        yield item


__all__ = ["SRCDOC_DEPTH", "srcdoc_records"]
