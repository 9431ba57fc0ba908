"""Rewritten links unwrapped (issue 23): the URL a link-protection service,
a redirector or a web archive's replay wraps, recovered from the wrapper's
own published format, applied again while the result is itself wrapped.

The table of wrappers is data (:data:`WRAPPERS`): a row names the service,
the hosts and path it answers on, and how the target is carried:

- ``query``: in a query parameter, percent-encoded (Safe Links ``url``,
  Proofpoint v1 ``u``, Barracuda ``a``, Trend Micro ``url``, Google ``q``
  or ``url``, Facebook ``u``, LinkedIn ``url``, YouTube ``q``, Slack ``url``);
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

URI core: no I/O.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass
from typing import NamedTuple
from urllib.parse import parse_qs, unquote

from .model import Risk

#: how many wrappers deep a link is unwrapped (each pass must shorten it: no loops)
MAX_DEPTH = 8


@dataclass(frozen=True, slots=True)
class Wrapper:
    """One row of the table: the service's name, the hosts (a pattern
    matched against the whole lower-case host), the path (matched at its
    start), how the target is carried, and the query parameters that carry it."""

    service: str
    hosts: str
    path: str
    carried: str
    parameters: tuple[str, ...] = ()


#: the wrappers urisift knows, each with a test built from the service's published format
WRAPPERS: tuple[Wrapper, ...] = (
    Wrapper("safelinks", r"(?:[a-z0-9-]+\.)?safelinks\.protection\.(?:outlook\.com|office365\.us)", "/", "query",
            ("url",)),
    Wrapper("proofpoint-v1", r"urldefense\.proofpoint\.com", "/v1/url", "query", ("u",)),
    Wrapper("proofpoint-v2", r"urldefense\.proofpoint\.com", "/v2/url", "proofpoint-v2", ("u",)),
    Wrapper("proofpoint-v3", r"urldefense\.(?:proofpoint\.)?com", "/v3/__", "proofpoint-v3"),
    Wrapper("barracuda", r"linkprotect\.cudasvc\.com", "/url", "query", ("a",)),
    Wrapper("trendmicro", r"(?:[a-z0-9-]+\.)*trendmicro\.com", "/wis/clicktime/v1/query", "query", ("url",)),
    Wrapper("google", r"(?:www\.)?google\.[a-z.]{2,6}", "/url", "query", ("q", "url")),
    Wrapper("facebook", r"l[m]?\.facebook\.com", "/l.php", "query", ("u",)),
    Wrapper("linkedin", r"(?:www\.)?linkedin\.com", "/redir/redirect", "query", ("url",)),
    Wrapper("youtube", r"(?:www\.)?youtube\.com", "/redirect", "query", ("q",)),
    Wrapper("slack", r"slack-redir\.net", "/link", "query", ("url",)),
    Wrapper("wayback", r"web\.archive\.org|wayback\.archive-it\.org", "/", "replay"),
    Wrapper("mimecast", r"(?:[a-z0-9-]+\.)?protect-[a-z]{2,3}\.mimecast\.com", "/s/", "opaque"),
)

# a cheap screen: only an http(s) URL whose host names one of these, or whose
# path starts as a replay's "/<collection>/<timestamp>/" does, can be a wrapper
# (_one reads nothing else); the host is read, never the whole URL
_SCREEN = re.compile(r"https?://([^/?#]*)(/[^/?#]*/\d{14}(?:[a-z]{2}_)?/)?", re.IGNORECASE)
_HOST_HINT = re.compile(r"safelinks|urldefense|cudasvc|trendmicro|google\.|facebook\.com|linkedin\.com|youtube\.com|"
                        r"slack-redir|archive|mimecast")


def may_be_wrapped(url: str) -> bool:
    """Whether ``url`` may be a wrapper: if not, it is not wrapped (one match
    at its start, and a search of its host)."""
    m = _SCREEN.match(url)
    return m is not None and (m.group(2) is not None or _HOST_HINT.search(m.group(1).lower()) is not None)


_SPLIT = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*):(?://([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$", re.DOTALL)
# a replay path: [/collection]/<timestamp 1-14 digits><modifier like id_ or im_>/<url with a scheme>
_REPLAY = re.compile(r"^/(?:([^/]+)/)?(\d{1,14})([a-z]{2}_)?/((?:[A-Za-z][A-Za-z0-9+.-]*:/?/?)?.+)$", re.DOTALL)
_PYWB = re.compile(r"^/([^/]+)/(\d{14})([a-z]{2}_)?/([A-Za-z][A-Za-z0-9+.-]*:/?/?.+)$", re.DOTALL)
_V3 = re.compile(r"^/v3/__(.+?)__;([A-Za-z0-9_=-]*)!", re.DOTALL)
# Proofpoint v3: "**" and one of these characters is a run of 2, 3, ... 65 replacements
_RUNS = {c: n for n, c in enumerate("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", start=2)}
_COMPILED = tuple((row, re.compile(row.hosts)) for row in WRAPPERS)


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
    for row, hosts in _COMPILED:
        if not hosts.fullmatch(host) or not path.startswith(row.path):
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
            values = parse_qs(query or "", keep_blank_values=True)
            for name in row.parameters:
                if values.get(name):
                    target = values[name][0]
                    if carried == "proofpoint-v2":
                        target = _proofpoint_v2(target)
                    return row.service, target
        except BrokenWrapper as exc:
            raise BrokenWrapper(str(exc), row.service) from None
    if _PYWB.match(path) is not None and host not in ("web.archive.org",):
        found = _replay(path + ("?" + query if query is not None else ""), pywb=True)
        if found is not None:
            return found
    return None


def _replay(path: str, pywb: bool = False) -> tuple[str, str] | None:
    m = (_PYWB if pywb else _REPLAY).match(path)
    if m is None:
        return None
    collection, stamp, _, target = m.groups()
    if not pywb and collection not in (None, "web") and not collection.isdigit():
        return None
    # a replay tool collapses "//" in the path: "http:/x" is "http://x"
    target = re.sub(r"^([A-Za-z][A-Za-z0-9+.-]*):/(?!/)", r"\1://", target)
    when = f"{stamp[:4]}-{stamp[4:6]}-{stamp[6:8]}T{stamp[8:10]}:{stamp[10:12]}:{stamp[12:14]}Z" \
        if len(stamp) == 14 else stamp
    name = f"pywb:{collection}" if pywb else "wayback"
    return f"{name}@{when}", target


def _proofpoint_v2(value: str) -> str:
    """v2's ``u``: ``-`` stands for ``%`` and ``_`` for ``/`` (then percent-decoded)."""
    escaped = value.replace("-", "%").replace("_", "/")
    if re.search(r"%(?![0-9A-Fa-f]{2})", escaped):
        raise BrokenWrapper(f"a '-' escape in {value!r} is not followed by two hex digits")
    return unquote(escaped)


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
    return "".join(out)


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
