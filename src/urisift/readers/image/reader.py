"""An image → the URI references in the codes drawn in it (``--qr``; the ``qr`` extra).

Every reader that meets an image hands it here as nested content of kind ``image``: a mail part, an
attachment or an inline ``cid:`` image, an archive's member, an HTML ``data:`` image, a PDF page's image, an
image file named or met in a walk, and a code drawn with block characters in text or as an HTML table, which
its reader rebuilds as a bitmap (:mod:`urisift.stages.drawn`).  Without ``--qr`` the scan passes them over.

A code's payload is read as text by the text scanner, and by the forms phones act on
(:mod:`~urisift.readers.image.payload`).  A payload that is one host name with no scheme (``evil.example/x``:
codes often leave the scheme out, and a phone opens it all the same) is a reference of its own, expanded with
``http://`` as rfc2396bis-01 Appendix F expands ``www.`` (its last label must be a top-level domain; in text
a scheme-less name stays unfound).

Each record has style ``qr`` and ``where`` ``image``; ``element`` names the symbology (``qr-code``,
``micro-qr-code``, ``rmqr-code``, ``aztec``, ``data-matrix``, ``pdf417``); ``attribute`` holds the code's
corners in the image's pixels, ``x,y`` from its top left corner, in the order top left, top right, bottom
right, bottom left of the code as read (``frame N:`` before them in the Nth frame of an animated image);
``header`` names the field of a payload form (``MECARD:URL``); ``span``, ``line`` and ``column`` stand in
the decoded payload (null where the field was unescaped); ``part`` names the image.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from ...model import Content, Defect, DefectKind, Found, Place, Record, Span, Style, Tally, Where, new_found
from ...model.events import is_message
from ...stages.delimit import Scanner
from ...stages.extras import qr_missing
from ...stages.found_to_record import Tail
from ...stages.options import ScanOptions
from ...uri import patterns
from ...uri.deceptive import text_host
from .decode import SECONDS, Code, decode_image
from .payload import Stretch, stretches

#: a URI's scheme (RFC 3986 §3.1)
_SCHEME = patterns.compile(r"[A-Za-z][A-Za-z0-9+.-]{0,31}:")
#: a single token: no white space in it
_TOKEN = patterns.compile(r"\S{1,2000}")


def read_image(content: Content, options: ScanOptions, tally: Tally) -> Iterator[Record | Defect]:
    origin = content.origin
    missing = qr_missing()
    if missing is not None:
        yield Defect(DefectKind.MISSING_EXTRA, missing, origin, None)
        return
    body = content.body
    if isinstance(body, str) or is_message(body):
        raise TypeError("an image is bytes")
    data = body if isinstance(body, bytes) else body.read()
    budget = content.budget
    if budget is not None and budget.expired():
        yield from budget.over_time("the image", origin)
        return
    # (an image's own bound, or what is left of its document's time budget when less)
    seconds = SECONDS if budget is None else min(SECONDS, budget.deadline - time.monotonic())
    decoded = decode_image(data, seconds=seconds)
    for kind, sentence in decoded.problems:
        yield Defect(DefectKind(kind), sentence, origin, None)
    tail = Tail(content.layer, origin, None, browser=options.browser, needs=options.needs)
    for code in decoded.codes:
        yield from _records(code, content, tail, options)


def _corners(code: Code) -> str:
    points = " ".join(f"{x},{y}" for x, y in code.corners)
    return points if code.frame == 1 else f"frame {code.frame}: {points}"


def _records(code: Code, content: Content, tail: Tail, options: ScanOptions) -> Iterator[Record]:
    payload = code.text
    corners = _corners(code)
    located = options.located
    for stretch in stretches(payload):
        place = Place(Where.IMAGE, element=code.symbology, attribute=corners, header=stretch.field,
                      page=content.page)
        for found in _found(stretch, options.abbreviated, place):
            start = None if stretch.start is None or found.start is None or not located else stretch.start + found.start
            if start is None:
                record = tail(found)
            else:
                assert found.end is not None and stretch.start is not None
                line = payload.count("\n", 0, start) + 1
                column = start - (payload.rfind("\n", 0, start) + 1) + 1
                record = tail(found, Span(start, stretch.start + found.end), line, column)
            if stretch.address:
                address = "mailto:" + found.reference
                browser = record.browser_target
                record = record._replace(target=address, browser_target=address if isinstance(browser, str)
                                         else browser)
            yield record._replace(found=record.found._replace(style=Style.QR))


def _found(stretch: Stretch, abbreviated: bool, place: Place) -> Iterator[Found]:
    """The references of one stretch: the text scanner's, or the stretch itself where it is one URI, an
    address or a scheme-less host name."""
    text = stretch.text
    if not text:
        return
    if stretch.address:
        if "@" in text and _TOKEN.fullmatch(text):
            yield new_found(text, 0, len(text), Style.BARE, (), (), None, place)
        return
    if stretch.uri:
        if _SCHEME.match(text) and _TOKEN.fullmatch(text):
            yield new_found(text, 0, len(text), Style.BARE, (), (), None, place)
            return
        host = _host(text, place)
        if host is not None:
            yield host
        return
    found_any = False
    for found in Scanner(text, abbreviated=abbreviated):
        found_any = True
        yield found._replace(place=place)
    if not found_any:
        lead = len(text) - len(text.lstrip())
        host = _host(text.strip(), place)
        if host is not None:
            yield host._replace(start=lead, end=lead + len(host.reference))


def _host(text: str, place: Place) -> Found | None:
    """A scheme-less host name (and path) that is the whole of ``text``, as the abbreviated form it is read as."""
    if _TOKEN.fullmatch(text) is None or "." not in text or "@" in text.partition("/")[0]:
        return None
    if text_host(text) is None:
        return None
    return new_found(text, 0, len(text), Style.ABBREVIATED, (), (), "http://" + text, place)


__all__ = ["read_image"]
