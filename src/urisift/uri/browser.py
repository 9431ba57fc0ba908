"""What a browser fetches: the WHATWG URL Standard's parser, beside RFC 3986
resolution.

The parser is ada-url's (the one Node.js uses; it passes every
web-platform URL test), not a second one written here.  The two disagree on
real pages: a backslash is a slash to a browser, tabs and newlines vanish,
``///host`` finds a host, spaces are percent-encoded, hosts go through IDNA,
an empty path becomes ``/``.  Where the two name different resources after
rfc2396bis-01 §6.2 normalization (syntax-based §6.2.2 and scheme-based §6.2.3 on
both sides) a record carries the ``differs`` flag: a parser differential is
also how SSRF filters and open-redirect checks are bypassed.
"""

from __future__ import annotations

import re
from functools import lru_cache

import ada_url
from ada_url.ada_adapter import ffi, lib  # type: ignore[attr-defined]  # the binding ada-url ships

from ..model import Risk
from . import patterns
from .normalization import normalize
from .reference import UriReference

_URL = ada_url.URL
_parse_with_base, _parse, _is_valid, _get_href, _free = (
    lib.ada_parse_with_base, lib.ada_parse, lib.ada_is_valid, lib.ada_get_href, lib.ada_free)
_string = ffi.string
# what neither side may hold raw for the comparison: an RFC target keeps the
# characters of an IRI and percent-encodes the ASCII RFC 3986 forbids; the
# WHATWG serializer leaves some of those ASCII characters raw ("|", "^" ...)
_UNSAFE = patterns.compile(r'[^A-Za-z0-9\-._~!$&\'()*+,;=:@/?#%\[\]]')


@lru_cache(maxsize=512)
def whatwg_base(base: str | None) -> str | None:
    """``base`` as the WHATWG parser reads it (its href), or None when it has
    none or that parser refuses it.  Kept by its text: the pages and parts of
    one input share a few bases, and each makes tails of its own."""
    if base is None:
        return None
    try:
        return str(_URL(base).href)
    except ValueError:
        return None


class BrowserResolver:
    """What the WHATWG URL parser gives for references against one base (an
    href :func:`whatwg_base` gave, or None): ``resolver(reference)`` is the
    href, or None where that parser fails.

    Through ada's C API as its own binding exposes it (``ada_url.join_url``
    does the same with a wrapper object more a call, and encodes the base
    again each time: together a third of the cost, and this runs once a
    distinct link of every page)."""

    __slots__ = ("base", "_encoded")

    def __init__(self, base: str | None) -> None:
        self.base = base
        self._encoded = None if base is None else base.encode("utf-8")

    def __call__(self, reference: str) -> str | None:
        return _href(reference, self._encoded)


def browser_target(reference: str, base: str | None) -> str | None:
    """The href the WHATWG URL parser gives for ``reference`` against ``base``
    (an href :func:`whatwg_base` gave, or None), or None where it fails."""
    return _href(reference, None if base is None else base.encode("utf-8"))


def _href(reference: str, base: bytes | None) -> str | None:
    try:
        data = reference.encode("utf-8")
    except UnicodeEncodeError:
        return None  # a lone surrogate: no UTF-8, no URL
    url = _parse(data, len(data)) if base is None else _parse_with_base(data, len(data), base, len(base))
    try:
        if not _is_valid(url):
            return None
        href = _get_href(url)
        text: str = _string(href.data, href.length).decode("utf-8")
    finally:
        _free(url)
    return text


def _encoded(match: re.Match[str]) -> str:
    return "".join(f"%{b:02X}" for b in match.group().encode("utf-8", "surrogatepass"))


def comparable(uri: str) -> str:
    """``uri`` in the form the ``differs`` check compares: every character a
    URI cannot hold percent-encoded as UTF-8 (RFC 3987 §3.1 for the non-ASCII,
    the same mapping for the ASCII RFC 3986 forbids), the host through IDNA,
    then §6.2.2 and §6.2.3 normalization."""
    uri = normalize(uri, level="scheme", idna=True, iri_to_uri=True)
    if _UNSAFE.search(uri) is not None:
        uri = normalize(_UNSAFE.sub(_encoded, uri), level="scheme")
    ref = UriReference.parse(uri)
    if ref.scheme == "file" and ref.authority in (None, "localhost") and ref.path.startswith("/"):
        # RFC 8089 §2: file:/p, file:///p and file://localhost/p name one file
        return str(ref._replace(authority=""))
    if ref.authority is not None and ref.path == "":
        # §6.2.3: "a URI that uses the generic syntax for authority with an
        # empty path should be normalized to a path of '/'" (normalize() does
        # it for the web schemes only; ftp://host is ftp://host/ as well)
        uri = str(ref._replace(path="/"))
    return uri


def difference(target: str | None, browser: str | None) -> Risk | None:
    """The ``differs`` flag when the RFC 3986 target and the browser's URL name
    different resources (see the module doc); None when they agree or neither
    has one."""
    if target == browser:
        return None
    if browser is None:
        if target is None:
            return None
        return Risk("differs", "6.2", "the WHATWG URL parser fails on it; RFC 3986 resolution gives a target")
    if target is None:
        return Risk("differs", "6.2", f"RFC 3986 gives no target; a browser fetches {browser!r}")
    try:
        if comparable(target) == comparable(browser):
            return None
    except ValueError:
        pass  # a target normalization cannot read differs by that alone
    return Risk("differs", "6.2", f"a browser fetches {browser!r}")
