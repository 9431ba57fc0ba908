"""URI references in a record's HTTP headers: ``Location`` and ``Link``
(RFC 8288 §3), and ``Content-Location`` for the opt-in base."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...uri import patterns
from .unit import WarcUnit

# RFC 8288 §3: Link = #link-value
#   link-value = "<" URI-Reference ">" *( OWS ";" OWS link-param )
#   link-param = token BWS [ "=" BWS ( token / quoted-string ) ]
# RFC 9110 §5.6.2 token; §5.6.4 quoted-string = DQUOTE *( qdtext / quoted-pair ) DQUOTE.
# Each pattern is anchored where the parser stands and has no nested
# repetition: one pass over the value, linear.
_LINK_TARGET = patterns.compile(r"<([^<>]*)>")
_OWS = patterns.compile(r"[ \t]*")
_TOKEN = patterns.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
_QUOTED = patterns.compile(r'"((?:[^"\\]|\\.)*)"', re.DOTALL)
_QUOTED_PAIR = patterns.compile(r"\\(.)", re.DOTALL)
# a value the grammar does not allow: skipped up to the next ";" or ","
_JUNK = patterns.compile(r'[^;,"]+|"(?:[^"\\]|\\.)*"?', re.DOTALL)


def link_values(value: str) -> Iterator[tuple[str, tuple[str, ...] | None]]:
    """The link-values of a ``Link`` header field (RFC 8288 §3): each target
    (whitespace removed, as in a folded header) and its ``rel`` tokens in
    lower case (None without one; a second ``rel`` is ignored, §3.3).  A
    comma inside a quoted parameter does not end a link-value."""
    at = 0
    end = len(value)
    while at < end:
        start = value.find("<", at)
        if start == -1:
            return
        m = _LINK_TARGET.match(value, start)
        if m is None:
            at = start + 1  # a "<" without its ">": not a link-value
            continue
        target = "".join(m.group(1).split())
        at = m.end()
        rel: tuple[str, ...] | None = None
        while True:
            at = _OWS.match(value, at).end()  # type: ignore[union-attr]
            if at >= end or value[at] != ";":
                break
            at = _OWS.match(value, at + 1).end()  # type: ignore[union-attr]
            name = _TOKEN.match(value, at)
            param = name.group().lower() if name else ""
            at = name.end() if name else at
            at = _OWS.match(value, at).end()  # type: ignore[union-attr]
            found: str | None = None
            if at < end and value[at] == "=":
                at = _OWS.match(value, at + 1).end()  # type: ignore[union-attr]
                quoted = _QUOTED.match(value, at)
                token = None if quoted else _TOKEN.match(value, at)
                if quoted:
                    found, at = _QUOTED_PAIR.sub(r"\1", quoted.group(1)), quoted.end()
                elif token:
                    found, at = token.group(), token.end()
            if param == "rel" and rel is None and found is not None:
                rel = tuple(found.lower().split())
            junk = _JUNK.match(value, at)
            while junk is not None and junk.end() > at:  # what does not fit, up to the next ";" or ","
                at = junk.end()
                junk = _JUNK.match(value, at)
        yield target, rel  # the next link-value starts at the next "<" (after a ",", or none left out)


def http_references(unit: WarcUnit) -> Iterator[tuple[str, str, tuple[str, ...] | None]]:
    """The URI references in a unit's HTTP headers: (header name, reference,
    rel tokens).  ``Location`` of a 3xx response (RFC 9110 §10.2.2) and every
    ``Link`` target (RFC 8288 §3), with its ``rel`` tokens."""
    redirect = unit.status is not None and unit.status.startswith("3")
    for name, value in unit.headers:
        lower = name.lower()
        if lower == "location" and redirect:
            reference = "".join(value.split())
            if reference:
                yield name, reference, None
        elif lower == "link":
            for target, rel in link_values(value):
                yield name, target, rel


def content_location(unit: WarcUnit) -> str | None:
    """The response's ``Content-Location`` (RFC 7231 §3.1.4.2), for the opt-in base."""
    for name, value in unit.headers:
        if name.lower() == "content-location":
            return "".join(value.split()) or None
    return None
