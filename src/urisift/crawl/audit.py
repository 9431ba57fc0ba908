"""``urisift audit WARC...``: what a crawl missed.  For each page
captured in the WARCs (a record with links), its outlinks by kind, which
were captured in the same WARCs (the target, or where its chain of
captured redirects ends), which were not, and the capture nearest in time
of those that were; a summary table, or one JSON line a page.

The kinds, as a web archivist counts them:

- ``redirect``: where the page itself sends the browser: a 3xx
  ``Location``, a ``<meta http-equiv=refresh>``;
- ``embed``: what the page needs to render: images, scripts, style sheets
  and what they load, frames, media, ``srcset`` candidates, icons,
  preloads (fetched without a click: a replay without them is broken);
- ``link``: what a reader may follow: ``a``/``area`` hrefs, other ``link``
  relations and ``Link`` headers, URIs written in the text.

An HTTP ``Link`` header is a ``<link>`` element in a header (RFC 8288 §3):
its ``rel`` counts as the element's does (``preload``, ``stylesheet``: an
embed).  A ``<base href>`` is no outlink: it sets where the links resolve,
and nobody fetches it (:func:`~urisift.output.choice.sets_base`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import IO

from ..model import Defect, Record, Style
from ..output.choice import sets_base
from .index import CaptureIndex, capture_key, iso, seconds

KINDS = ("link", "embed", "redirect")
#: link relations that load something to render the page (WHATWG HTML §4.6.7: external resource links), in a
#: ``<link>`` element and in an HTTP ``Link`` header alike
_EMBED_RELS = frozenset({"stylesheet", "icon", "apple-touch-icon", "preload", "modulepreload", "prefetch",
                         "manifest", "mask-icon", "shortcut"})
_FOLLOWED = frozenset({"a", "area"})


def kind_of(record: Record) -> str:
    """``link``, ``embed`` or ``redirect`` (see the module doc)."""
    style = record.style
    header = (record.header or "").lower()
    if style is Style.META_REFRESH or header == "location":
        return "redirect"
    if style in (Style.SRCSET, Style.CSS):
        return "embed"
    element = record.element
    if header == "link" or element == "link":  # (a Link header is a <link> element's equivalent: RFC 8288 §3)
        return "embed" if not _EMBED_RELS.isdisjoint(record.place.rel or ()) else "link"
    if element is None or style is not Style.ATTRIBUTE:
        return "link"  # text, other headers, XML elements
    if element in _FOLLOWED:
        return "link"
    if element in ("form", "button", "blockquote", "q", "del", "ins", "meta"):
        return "link"
    return "embed"


@dataclass
class PageAudit:
    """One page's outlinks, by kind: captured (with the nearest capture's time) and missing."""

    page: str
    date: str | None
    record: str | None  # the WARC-Record-ID (a page captured twice is audited twice)
    total: Counter[str] = field(default_factory=Counter)
    captured: dict[str, list[tuple[str, str | None]]] = field(default_factory=dict)
    missing: dict[str, list[str]] = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        return {
            "page": self.page, "warc_date": self.date, "warc_record_id": self.record,
            "outlinks": {k: {"total": self.total[k], "captured": len(self.captured.get(k, [])),
                             "missing": len(self.missing.get(k, []))} for k in KINDS},
            "missing": [{"target": t, "kind": k} for k in KINDS for t in self.missing.get(k, [])],
            "captured": [{"target": t, "kind": k, "capture": when} for k in KINDS
                         for t, when in self.captured.get(k, [])],
        }


def audit(records: Iterable[Record | Defect], index: CaptureIndex) -> Iterator[PageAudit]:
    """A page audit per captured page, in the order the pages come (a page's
    records come together: one WARC record at a time); each distinct target
    of a page counted once per kind."""
    current: PageAudit | None = None
    seen: set[tuple[str, str]] = set()
    for record in records:
        if type(record) is not Record:
            continue
        page = record.origin.warc_target_uri
        if page is None or record.target is None or sets_base(record):  # (a base is no outlink)
            continue
        record_id = record.origin.warc_record_id
        if current is None or (current.page, current.record) != (page, record_id):
            if current is not None:
                yield current
            current = PageAudit(page, record.origin.warc_date, record_id)
            seen = set()
        kind = kind_of(record)
        target = record.target.partition("#")[0]
        if (kind, capture_key(target)) in seen or capture_key(target) == capture_key(page):
            continue
        seen.add((kind, capture_key(target)))
        current.total[kind] += 1
        ends = index.effective(target, seconds(record.origin.warc_date))
        capture = index.nearest(ends.target, seconds(record.origin.warc_date))
        if capture is None:
            current.missing.setdefault(kind, []).append(target)
        else:
            current.captured.setdefault(kind, []).append((target, iso(capture.when)))
    if current is not None:
        yield current


def summary(pages: list[PageAudit], out: IO[str]) -> None:
    """The table a web archivist reads first: outlinks by kind, how many captured."""
    out.write(f"pages audited: {len(pages)}\n\n| kind | outlinks | captured | missing | captured % |\n"
              "|---|---:|---:|---:|---:|\n")
    for kind in KINDS:
        total = sum(p.total[kind] for p in pages)
        got = sum(len(p.captured.get(kind, [])) for p in pages)
        share = f"{100 * got / total:.1f}" if total else "—"
        out.write(f"| {kind} | {total} | {got} | {total - got} | {share} |\n")
    missing = Counter(t for p in pages for k in KINDS for t in p.missing.get(k, []))
    if missing:
        out.write("\nmost linked of what was not captured:\n")
        for target, count in missing.most_common(10):
            out.write(f"  {count:6}  {target}\n")
