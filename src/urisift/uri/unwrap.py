"""Rewritten links unwrapped: the URL a link-protection service,
a redirector or a web archive's replay wraps, recovered from the wrapper's
own published format, applied again while the result is itself wrapped.

The table of wrappers is data (:data:`WRAPPERS`): a row names the service,
the hosts and paths it answers on (each service's current published and
observed forms, the source beside each row), and how the target is carried:

- ``query``: in a query parameter, percent-encoded (Safe Links ``url``,
  Proofpoint v1 ``u``, Barracuda ``a``, Trend Micro ``url``, Google ``url``
  or ``q``, Facebook ``u``, LinkedIn ``url``, YouTube ``q``, Slack ``url``).
  The target is the first of the row's parameters whose value is an
  absolute URL, never a parameter taken by its name alone (Google's ``q`` is
  the search query where ``url`` holds the target);
- ``proofpoint-v2``: the ``u`` parameter with ``-`` for ``%`` and ``_`` for
  ``/`` (Proofpoint URL Defense v2);
- ``proofpoint-v3``: ``/v3/__<url>__;<replacements>!!...``, where each ``*``
  in the URL stands for the next of the base64url-encoded replacement
  characters and ``**`` plus one character for a run of them (Proofpoint URL
  Defense v3);
- ``replay``: ``/<timestamp><modifier>/<url>`` of a web archive's replay
  (the Wayback Machine's ``/web/``, a pywb collection's ``/<coll>/``), with
  the capture time kept;
- ``opaque``: a token the target cannot be recovered from (Mimecast): the
  service is named and the record flagged, the target not guessed.

A carried value that does not decode cleanly (a ``%`` without two hex
digits, a value cut off after its scheme, bad base64) is the
``broken-wrapper`` flag and no unwrapped URL: a half-decoded URL is never
given as the target.

URI core: no I/O.
"""

from __future__ import annotations

import base64
import binascii
import re
from functools import lru_cache
from typing import NamedTuple
from urllib.parse import unquote

from ..model import Risk
from . import patterns
from .schemes import WEB, registered_schemes
from .wrappers import WRAPPERS, Wrapper

__all__ = ["WRAPPERS", "BrokenWrapper", "Unwrapped", "Wrapper", "host_of", "may_be_wrapped", "unwrap"]

#: how many wrappers deep a link is unwrapped (each pass must shorten it: no loops)
MAX_DEPTH = 8


# a cheap screen: only an http(s) URL whose host names one of these, or whose
# path starts as a replay's "/<collection>/<timestamp>/" does, can be a wrapper
# (_one reads nothing else); the host is read, never the whole URL
_SCREEN = patterns.compile(r"https?://([^/?#]*)(/[^/?#]*/\d{14}(?:[a-z]{2}_)?/)?", re.IGNORECASE)
_HOST_HINT = patterns.compile(r"safelinks|teams\.cdn\.office|urldefense|cudasvc|trendmicro|google\.|facebook\.com|"
                        r"messenger\.com|linkedin\.com|youtube\.com|slack-redir|archive|mimecast|awstrack\.me|"
                        r"secure-web\.cisco|sophos\.com|fireeye\.com|ampproject|bing\.com|search\.yahoo|"
                        r"duckduckgo|steamcommunity|instagram|vk\.com|umblr|symantec|^t\.co$")


def may_be_wrapped(url: str) -> bool:
    """Whether ``url`` may be a wrapper: if not, it is not wrapped (one match
    at its start, and a search of its host)."""
    m = _SCREEN.match(url)
    return m is not None and (m.group(2) is not None or _hinted(m.group(1)))


@lru_cache(maxsize=1024)
def _hinted(host: str) -> bool:
    """Whether the host as written names a wrapper's service: remembered by its text, since the search
    tries every hint at every character (0.8 µs for a short host) and a text names the same few hosts
    again and again."""
    return _HOST_HINT.search(host.lower()) is not None


_SPLIT = patterns.compile(r"^([A-Za-z][A-Za-z0-9+.-]*):(?://([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$", re.DOTALL)
# a replay path: [/collection]/<timestamp 1-14 digits><modifier like id_ or im_>/<url with a scheme>
_REPLAY = patterns.compile(r"^/(?:([^/]+)/)?(\d{1,14})([a-z]{2}_)?/((?:[A-Za-z][A-Za-z0-9+.-]*:/?/?)?.+)$", re.DOTALL)
_PYWB = patterns.compile(r"^/([^/]+)/(\d{14})([a-z]{2}_)?/([A-Za-z][A-Za-z0-9+.-]*:/?/?.+)$", re.DOTALL)
_V3 = patterns.compile(r"^/v3/__(.+?)__;([A-Za-z0-9_=-]*)!", re.DOTALL)
# Proofpoint v3: "**" and one of these characters is a run of 2, 3, ... 65 replacements
_RUNS = {c: n for n, c in enumerate("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", start=2)}
_COMPILED = tuple((row, patterns.compile(row.hosts), patterns.compile(row.path)) for row in WRAPPERS)
# a "%" that does not start an escape (two hex digits): a bad escape, or one the value's end cut off
_BAD_ESCAPE = patterns.compile(r"%(?![0-9A-Fa-f]{2})")
# what percent-decoding left of octets that are not UTF-8 (surrogateescape): written back as escapes
_RAW_OCTET = patterns.compile(r"[\udc80-\udcff]")
# an absolute URL's start: scheme ":" ["//" authority] rest (RFC 3986 §4.3)
_ABSOLUTE = patterns.compile(r"([A-Za-z][A-Za-z0-9+.-]*):(?://([^/?#]*))?(.*)", re.DOTALL)
_ONE_SLASH = patterns.compile(r"^([A-Za-z][A-Za-z0-9+.-]*):/(?!/)")


class Unwrapped(NamedTuple):
    """What unwrapping gave: the original URL (None when a wrapper hides it),
    the wrappers outermost first (``service`` or ``service@capture-time``),
    and the flag of a wrapper that is opaque or broken."""

    url: str | None
    wrappers: tuple[str, ...]
    risk: Risk | None


class BrokenWrapper(ValueError):
    """A wrapper whose carried target cannot be decoded (bad escaping, bad base64)."""

    def __init__(self, reason: str, service: str = "") -> None:
        super().__init__(reason)
        self.service = service


def host_of(authority: str) -> str:
    """The host of a URL's authority, lower case, without userinfo, port or final dot."""
    host = authority.rpartition("@")[2]
    if host.startswith("["):
        return host.lower()
    return host.partition(":")[0].lower().rstrip(".")


def _one(url: str) -> tuple[str, str | None] | None:
    """The wrapper ``url`` is and what it carries: (name, target), target
    None for an opaque one; None when it is no wrapper."""
    m = _SPLIT.match(url)
    if m is None or m.group(2) is None:
        return None
    scheme, authority, path, query = m.group(1).lower(), m.group(2), m.group(3), m.group(4)
    if scheme not in ("http", "https"):
        return None
    host = host_of(authority)
    for row, hosts, paths in _COMPILED:
        if not hosts.fullmatch(host) or paths.match(path) is None:
            continue
        carried = row.carried
        if carried == "opaque":
            return row.service, None
        if carried == "replay":
            found = _replay(path + ("?" + query if query is not None else ""))
            if found is not None:
                return found
            continue
        try:
            if carried == "proofpoint-v3":
                return row.service, _proofpoint_v3(url[url.index("/v3/__"):])
            if carried in _IN_PATH:
                target = _IN_PATH[carried](path, paths.match(path).end())  # type: ignore[union-attr]
                if target is None:
                    continue
                return row.service, _whole(target)
            target = _carried(query or "", row)
        except BrokenWrapper as exc:
            raise BrokenWrapper(str(exc), row.service) from None
        if target is not None:
            return row.service, target
    if _PYWB.match(path) is not None and host not in ("web.archive.org", "wayback.archive.org"):
        found = _replay(path + ("?" + query if query is not None else ""), pywb=True)
        if found is not None:
            return found
    return None


def _carried(query: str, row: Wrapper) -> str | None:
    """The target a query carries: the value of the first of the row's
    parameters (in its order) that is an absolute URL once decoded, so that
    Google's ``q``, the target in one form and the search query in another,
    is taken only when it holds a URL.  None when no parameter holds one (the
    URL is then not this wrapper); :class:`BrokenWrapper` when none does and
    one was meant to: a value that does not decode (a bad escape, or an escape
    the value's end cut off), or is cut off after its scheme (``https://``) or
    empty, so that a half-decoded URL is never taken for the target."""
    values: dict[str, str] = {}
    first: dict[str, int] = {}  # each name's first place in the query (its value is the one read) ...
    last: dict[str, int] = {}  # ... and its last
    for place, pair in enumerate(query.split("&")):
        name, _, value = pair.partition("=")
        if name.startswith(("amp;", "AMP;")):
            # "&amp;" between parameters is the "&" the text was escaped from: Outlook writes Safe Links so
            # in a plain-text part, as an HTML attribute holds it (HTML §13.5's named references "amp;" and
            # "AMP;"; a numeric one, "&#38;", would start the URL's fragment, RFC 3986 §3.5)
            name = name[4:]
        name = unquote(name.replace("+", " "))
        values.setdefault(name, value)
        first.setdefault(name, place)
        last[name] = place
    broken: BrokenWrapper | None = None
    for name in row.parameters:
        raw = values.get(name)
        if raw is None:
            continue
        try:
            target = _decoded(raw, name)
            if row.carried == "proofpoint-v2":
                target = _proofpoint_v2(target)
            elif row.carried in ("query-base64", "bing"):
                target = _base64(target, name, row.carried == "bing")
        except BrokenWrapper as exc:
            broken = broken or exc
            continue
        target = target.strip()
        absolute = _absolute(target) if target else False
        if absolute:
            if row.after and not any(last.get(other, -1) > first[name] for other in row.after):
                raise BrokenWrapper(f"its {name} parameter is not followed by {' or '.join(row.after)}, which "
                                    f"{row.service} always writes after it: the link is cut short (at a line "
                                    f"break?), and {target!r} may be only the start of its URL")
            return target
        if absolute is False and broken is None:
            broken = BrokenWrapper(f"its {name} parameter holds a cut-off URL: {target!r}" if target
                                   else f"its {name} parameter is empty")
    if broken is not None:
        raise broken
    return None


def _base64(value: str, name: str, bing: bool) -> str:
    """A URL carried in base64 (Sophos's ``u``, in either alphabet: a ``+``
    the query's decoding made a space is put back) or, after ``a1``, in
    base64url without padding (Bing's ``u``); RFC 4648 §4, §5."""
    if bing:
        if not value.startswith("a1"):
            raise BrokenWrapper(f"its {name} parameter does not start with 'a1': {value!r}")
        value = value[2:]
    try:
        standard = value.replace(" ", "+").replace("-", "+").replace("_", "/")
        data = base64.b64decode(standard + "=" * (-len(value) % 4), validate=True)
        return _utf8(data.decode("utf-8", errors="surrogateescape"))
    except (binascii.Error, ValueError) as exc:
        raise BrokenWrapper(f"its {name} parameter is not base64: {value!r}") from exc


def _segment(path: str, at: int) -> str | None:
    """The percent-encoded URL in the path segment at ``at`` (AWS SES's ``/L0/``, Cisco's)."""
    segment = path[at:].partition("/")[0]
    if not segment:
        return None
    return _decoded(segment, "path")


def _yahoo(path: str, at: int) -> str | None:
    """Yahoo's ``/RU=<the URL percent-encoded>/`` segment."""
    for segment in path.split("/"):
        if segment.startswith("RU="):
            return _decoded(segment[3:], "RU")
    return None


def _amp(path: str, at: int) -> str | None:
    """An AMP path's ``[s/]<host>/<path>``: ``s/`` is https, none http."""
    rest = path[at:]
    secure = rest.startswith("s/")
    rest = rest[2:] if secure else rest
    if not rest or rest.startswith("/"):
        return None
    return ("https://" if secure else "http://") + rest


_IN_PATH = {"segment": _segment, "yahoo": _yahoo, "amp": _amp}


def _decoded(raw: str, name: str) -> str:
    """A query value percent-decoded (``+`` is a space, as the services' own
    form decoding reads it); octets that are not UTF-8 stay escaped, never
    replaced by U+FFFD; a ``%`` without two hex digits after it is broken."""
    bad = _BAD_ESCAPE.search(raw)
    if bad is not None:
        raise BrokenWrapper(f"its {name} parameter has a '%' not followed by two hex digits at offset {bad.start()} "
                            f"(a bad escape, or one cut off): {raw!r}")
    return _utf8(unquote(raw.replace("+", " "), errors="surrogateescape"))


def _utf8(text: str) -> str:
    if not _RAW_OCTET.search(text):
        return text
    return _RAW_OCTET.sub(lambda m: f"%{ord(m.group()) - 0xDC00:02X}", text)


def _absolute(value: str) -> bool | None:
    """Whether ``value`` is an absolute URL (True), a URL cut off after its
    scheme (False: ``https://``, ``https:``, ``mailto:``), or no URL (None:
    a search query, a path; a word and a colon, ``define:x``, unless its
    scheme is registered)."""
    m = _ABSOLUTE.match(value)
    if m is None:
        return None
    scheme, authority, rest = m.group(1).lower(), m.group(2), m.group(3)
    if authority is not None:
        return authority != ""
    if scheme in WEB or scheme == "ftp":
        return False  # these name a host: without "//" and one, the URL is cut off
    if scheme not in registered_schemes():
        return None
    return rest != ""


def _replay(path: str, pywb: bool = False) -> tuple[str, str] | None:
    m = (_PYWB if pywb else _REPLAY).match(path)
    if m is None:
        return None
    collection, stamp, _, target = m.groups()
    if not pywb and collection not in (None, "web", "all") and not collection.isdigit():
        return None  # (Archive-It's collections are numbers; "all" is every one of them)
    target = _collapsed(target)
    when = f"{stamp[:4]}-{stamp[4:6]}-{stamp[6:8]}T{stamp[8:10]}:{stamp[10:12]}:{stamp[12:14]}Z" \
        if len(stamp) == 14 else stamp
    name = f"pywb:{collection}" if pywb else "wayback"
    return f"{name}@{when}", _whole(target, f"{name}@{when}")


def _whole(target: str, service: str = "") -> str:
    """``target``, unless it is a URL cut off after its scheme (``http:``,
    ``https://``): then the wrapper is broken."""
    if _absolute(target.strip()) is False:
        raise BrokenWrapper(f"its URL is cut off: {target!r}", service)
    return target


def _collapsed(target: str) -> str:
    """A replay tool, and Proofpoint v3 (its own decoder repairs it so),
    collapse the "//" after the scheme: "http:/x" is "http://x"."""
    return _ONE_SLASH.sub(r"\1://", target)


def _proofpoint_v2(value: str) -> str:
    """v2's ``u``: ``-`` stands for ``%`` and ``_`` for ``/`` (then percent-decoded)."""
    escaped = value.replace("-", "%").replace("_", "/")
    if _BAD_ESCAPE.search(escaped):
        raise BrokenWrapper(f"a '-' escape in {value!r} is not followed by two hex digits")
    return _utf8(unquote(escaped, errors="surrogateescape"))


def _proofpoint_v3(rest: str) -> str:
    m = _V3.match(rest)
    if m is None:
        raise BrokenWrapper("a v3 URL without its '__<url>__;<replacements>!' parts")
    url, encoded = m.groups()
    try:
        replacements = base64.urlsafe_b64decode(encoded + "=" * (-len(encoded) % 4)).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError) as exc:
        raise BrokenWrapper(f"its replacement characters are not base64url UTF-8: {exc}") from exc
    out: list[str] = []
    i = n = 0
    while i < len(url):
        c = url[i]
        if c != "*":
            out.append(c)
            i += 1
            continue
        if url.startswith("**", i) and i + 2 < len(url) and url[i + 2] in _RUNS:
            count, i = _RUNS[url[i + 2]], i + 3
        else:
            count, i = 1, i + 1
        if n + count > len(replacements):
            raise BrokenWrapper(f"its URL has more '*' than the {len(replacements)} replacement characters given")
        out.append(replacements[n:n + count])
        n += count
    return _whole(_collapsed("".join(out)))


def unwrap(url: str | None) -> Unwrapped | None:
    """The original URL behind ``url``'s wrappers, or None when ``url`` is
    not wrapped (most URLs: decided by one search)."""
    if url is None or not may_be_wrapped(url):
        return None
    wrappers: list[str] = []
    current = url
    for _ in range(MAX_DEPTH):
        try:
            found = _one(current)
        except BrokenWrapper as exc:
            return Unwrapped(None, (*wrappers, exc.service), Risk(
                "broken-wrapper", "7.5", f"the {exc.service} wrapper cannot be decoded: {exc}"))
        if found is None:
            break
        name, target = found
        wrappers.append(name)
        if target is None:
            return Unwrapped(None, tuple(wrappers), Risk(
                "opaque-wrapper", "7.5", f"{name} hides the target behind a token: where it goes is not in the URL"))
        current = target.strip()
    if not wrappers:
        return None
    return Unwrapped(current, tuple(wrappers), None)
