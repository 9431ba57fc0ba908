"""The capture index of a crawl: every URI the WARCs captured,
when, with what HTTP status, and where each capture points on to; and the
chain a target follows through it to where it ends.

Pure: no I/O (the first pass, :mod:`.captures`, reads the WARCs and fills
the index).  What it holds a capture is only small fields: the URI, its
time in seconds, its status and the one URI it points on to.

A capture points on by the first of (the order a browser follows them):

1. a 3xx ``Location`` (RFC 9110 §15.4, §10.2.2), resolved against the
   capture's ``WARC-Target-URI``;
2. a ``<meta http-equiv=refresh>`` with a URL (WHATWG HTML §4.2.5.3: the
   first one counts), whatever its delay;
3. a ``rel=canonical`` link, in the page or its HTTP ``Link`` header
   (RFC 6596 §3; the first one), when the crawl captured what it names: a
   canonical is a hint to indexers that no browser follows, so a page
   whose canonical was not captured ends where it is, captured, with its
   own status.

A URI captured more than once is looked up at the capture nearest in time
to the page that links to it (then each hop at the one nearest to the
capture before it), as a replay tool picks a capture: the time of the link
is the best guess of which capture it meant.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Iterator
from typing import Any, NamedTuple, TypeVar

from ..model import Effective, Record
from ..uri.errors import UriError
from ..uri.normalization import normalize

#: more steps than a browser follows (Chromium and Firefox stop at 20
#: redirects): the chain ends there, without a loop
MAX_HOPS = 20

# how a capture points on (the record's JSON and the audit name them so)
LOCATION = "location"
REFRESH = "refresh"
CANONICAL = "canonical"


T = TypeVar("T")


class Capture(NamedTuple):
    """One capture of a URI (a ``response``, ``revisit`` or ``resource``
    record): a named tuple, the index holds one a record."""

    uri: str  # the WARC-Target-URI as written
    when: int | None  # the WARC-Date, seconds since the epoch; None when it has none that parses
    status: int | None  # the HTTP status; None for a resource record (no HTTP)
    via: str | None  # LOCATION, REFRESH or CANONICAL: how it points on; None when it does not
    next: str | None  # the absolute URI it points on to


def capture_key(uri: str) -> str:
    """The form two URIs that name the same capture share: normalized at the
    scheme-based rung (RFC 3986 §6.2.2, §6.2.3: case, percent-encoding, dot
    segments, the default port, an empty path as ``/``), without the
    fragment, which is never sent to a server (§3.5).  An IRI is compared as
    the URI it maps to (RFC 3987 §3.1: its non-ASCII characters as UTF-8
    percent-encoded, its host's labels by IDNA's ToASCII): a link written
    ``http://s.example/café`` is the capture of ``http://s.example/caf%C3%A9``,
    the URL a browser fetched and a crawler recorded."""
    try:
        if not uri.isascii():
            return normalize(uri, level="scheme", drop_fragment=True, iri_to_uri=True, idna=True)
        return normalize(uri, level="scheme", drop_fragment=True)
    except (UriError, ValueError):
        return uri.partition("#")[0]  # not a URI the normalizer reads: compared as written


def seconds(date: str | None) -> int | None:
    """A ``WARC-Date`` (ISO 8601 UTC, WARC 1.1 §5.4: fractions allowed) or an
    ARC date (14 digits) as seconds since the epoch; None when it does not parse."""
    if not date:
        return None
    text = date.strip()
    try:
        if len(text) == 14 and text.isdigit():
            moment = datetime.datetime.strptime(text, "%Y%m%d%H%M%S").replace(tzinfo=datetime.UTC)
        else:
            moment = datetime.datetime.fromisoformat(text)
            if moment.tzinfo is None:
                moment = moment.replace(tzinfo=datetime.UTC)
    except ValueError:
        return None
    return int(moment.timestamp())


def iso(when: int | None) -> str | None:
    """Seconds since the epoch as a WARC-Date (``2024-05-03T12:00:00Z``)."""
    if when is None:
        return None
    return datetime.datetime.fromtimestamp(when, datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class CaptureIndex:
    """The captures of a crawl by :func:`capture_key`.  A key captured once
    holds its :class:`Capture`, one captured again a list of them (most URIs
    are captured once: no list for them)."""

    def __init__(self) -> None:
        self._captures: dict[str, Capture | list[Capture]] = {}
        self.records = 0  # captures added
        # of a URI a chain passed past MAX_HOPS: whether the chain from it loops (see _loops)
        self._beyond: dict[str, bool] = {}

    def __len__(self) -> int:
        """The URIs captured (a URI captured twice counts once)."""
        return len(self._captures)

    def add(self, capture: Capture) -> None:
        key = capture_key(capture.uri)
        if key == capture.uri:
            capture = capture._replace(uri=key)  # one string for both
        held = self._captures.get(key)
        if held is None:
            self._captures[key] = capture
        elif isinstance(held, list):
            held.append(capture)
        else:
            self._captures[key] = [held, capture]
        self.records += 1

    def captured(self, uri: str) -> bool:
        return capture_key(uri) in self._captures

    def nearest(self, uri: str, when: int | None) -> Capture | None:
        """The capture of ``uri`` nearest in time to ``when`` (the first of
        equals in the order they were added; the first of all when ``when``
        or their times are unknown); None when it was not captured."""
        held = self._captures.get(capture_key(uri))
        if held is None or not isinstance(held, list):
            return held
        if when is None:
            return held[0]
        best, distance = held[0], _distance(held[0].when, when)
        for capture in held[1:]:
            d = _distance(capture.when, when)
            if d < distance:
                best, distance = capture, d
        return best

    def effective(self, target: str, when: int | None) -> Effective:
        """Where ``target`` ends, following the captures from the one nearest
        to ``when`` (see the module doc).  A target not captured ends where it
        is (0 hops, no status).  A redirect's target without a fragment takes
        the fragment of the reference it came from (RFC 9110 §10.2.2), so the
        one the link had is kept to the end of the chain.

        A chain that comes back to a URI it passed is a loop, whatever its
        length: a capture whose 3xx ``Location`` is itself (a browser
        follows it until it gives up), two or more that point at each
        other, and one longer than :data:`MAX_HOPS` (the chain is given up to
        there, and followed on only to tell whether it loops).  A page that
        is its own canonical, or whose refresh reloads it, ends there."""
        current = target
        key = capture_key(target)
        seen = {key}
        hops = 0
        status: int | None = None
        loop = False
        while True:
            capture = self.nearest(current, when)
            if capture is None:
                status = None
                break
            status = capture.status
            following = capture.next
            if following is None:
                break
            if capture.via == CANONICAL and self.nearest(following, capture.when or when) is None:
                break  # (a captured page is captured, whatever its canonical names)
            next_key = capture_key(following)
            if next_key == key:
                loop = capture.via == LOCATION
                break
            if next_key in seen:
                loop = True
                break
            if capture.when is not None:
                when = capture.when
            if hops == MAX_HOPS:
                loop = self._loops(following, when, seen)
                break
            seen.add(next_key)
            current, key, hops = following, next_key, hops + 1
        fragment = target.partition("#")[2] if "#" in target else None
        if hops and fragment is not None and "#" not in current:
            current = f"{current}#{fragment}"
        return Effective(current, hops, status, loop)

    def _loops(self, following: str, when: int | None, seen: set[str]) -> bool:
        """Whether a chain given up at :data:`MAX_HOPS` comes back, from
        ``following`` on, to a URI it passed (``seen``).  What is learnt is
        kept by URI for the next chain through the same ones, so that all the
        chains of a crawl cost no more than its captures."""
        walked: list[str] = []
        while True:
            key = capture_key(following)
            known = self._beyond.get(key)
            if key in seen or known is not None:
                loops = key in seen or bool(known)
                break
            capture = self.nearest(following, when)
            if capture is None or capture.next is None:
                loops = False
                break
            seen.add(key)
            walked.append(key)
            if capture_key(capture.next) == key:
                loops = capture.via == LOCATION
                break
            following = capture.next
            if capture.when is not None:
                when = capture.when
        for key in walked:
            self._beyond[key] = loops
        return loops


def _distance(a: int | None, b: int) -> float:
    return abs(a - b) if a is not None else float("inf")


def with_effective(items: Iterable[T], index: CaptureIndex) -> Iterator[T]:
    """The scan's items, each record with a target given where it ends in
    ``index`` (looked up from the time of the capture it was found in, its
    ``warc_date``); everything else as it was."""
    for item in items:
        if type(item) is Record:
            record: Any = item
            if record.target is not None:
                item = record._replace(effective=index.effective(record.target, seconds(record.origin.warc_date)))
        yield item


__all__ = ["CANONICAL", "LOCATION", "MAX_HOPS", "REFRESH", "Capture", "CaptureIndex", "capture_key", "iso", "seconds",
           "with_effective"]
