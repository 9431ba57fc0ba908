"""Normalization and comparison: the rfc2396bis-01 §6.2 comparison ladder.

Rungs, each including the ones below it:

``"string"``           §6.2.1: character-for-character comparison, nothing changed.
``"syntax"``           §6.2.2: case (scheme, host, percent-encoding hex digits),
                       percent-encoded unreserved characters decoded, dot segments
                       removed from hierarchical paths.
``"scheme"``           §6.2.3 for schemes that use the generic ``hostport`` syntax:
                       an empty or default port is dropped (RFC 3986 §3.2.3), an
                       empty http/https/ws/wss path becomes "/".
``"scheme-specific"``  the rules of individual scheme definitions: URN lexical
                       equivalence (RFC 8141 §3, and RFC 4122's case-insensitive
                       ``uuid`` namespace), ``mailto`` (RFC 6068: domain case,
                       addresses in the path and in ``to=`` are one list),
                       ``ws``/``wss`` (RFC 6455: no fragment).

Nothing here changes what a reserved character means: only unreserved
characters are ever decoded, and nothing is encoded except by the IRI→URI
option.  The options an indexer may want (``idna``, ``iri_to_uri``,
``drop_fragment``, ``strip_host_dot``) are off by default: they are not RFC
3986 equivalences.
"""

from __future__ import annotations

import re
from typing import Literal

from . import arguments as check
from . import grammar, patterns
from .errors import UrnError
from .reference import Authority, UriReference
from .resolution import remove_dot_segments
from .schemes import DEFAULT_PORTS, WEB
from .urn import Urn

Level = Literal["string", "syntax", "scheme", "scheme-specific"]
LEVELS: tuple[str, ...] = ("string", "syntax", "scheme", "scheme-specific")

_parse = UriReference.parse
_split = grammar.APPENDIX_B_RE.match
_PCT = patterns.compile(r"%([0-9A-Fa-f]{2})")
_STRAY_PCT = patterns.compile(r"%(?![0-9A-Fa-f]{2})")
_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
_UPPER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")

def _fixed(hex_pair: str) -> str:
    c = chr(int(hex_pair, 16))
    return c if c in _UNRESERVED else "%" + hex_pair.upper()


# every escape's normal form, computed once (22 × 22 spellings of two hex digits)
_ESCAPE = {a + b: _fixed(a + b) for a in "0123456789ABCDEFabcdef" for b in "0123456789ABCDEFabcdef"}


def _fix_escape(m: re.Match[str]) -> str:
    return _ESCAPE[m.group(1)]


def _pct_normalize(text: str) -> str:
    """§6.2.2.1 and §6.2.2.2: hex digits to upper case, unreserved characters decoded.

    A "%" that starts no escape is not URI syntax at all; it is written "%25"
    first, which is how lenient readers take it anyway, and the only way to
    keep decoding from making a new escape: "%4%41" would otherwise become
    "%4A", which means "J".
    """
    if "%" not in text:
        return text
    if _STRAY_PCT.search(text):
        text = _STRAY_PCT.sub("%25", text)
    return _PCT.sub(_fix_escape, text)


def _lower_ascii_outside_escapes(text: str) -> str:
    """Lower-case ASCII letters, but not the hex digits of percent-escapes
    (they stay upper case, §6.2.2.1); other characters are left alone."""
    if "%" not in text:
        return text.translate(_UPPER)
    parts = _PCT.split(text)
    # split() alternates text and the captured hex pairs
    return "".join(p.translate(_UPPER) if i % 2 == 0 else "%" + p.upper() for i, p in enumerate(parts))


def _normalize_host(host: str) -> str:
    if host.startswith("["):
        # IPv6 hex is case-insensitive; an RFC 6874 zone ID is kept as written,
        # and so is the upper case of percent-escapes (§6.2.2.1), which a literal
        # that is not IPv6 may hold ("[%C3%A9]" from an IRI): lower-casing them
        # would undo the escapes' normal form, and normalize would not be idempotent
        addr, pct, zone = host.partition("%25")
        return _lower_ascii_outside_escapes(addr) + pct + zone
    return _lower_ascii_outside_escapes(host)


def _iri_to_uri(text: str) -> str:
    """RFC 3987 §3.1 step 2: each non-ASCII character to UTF-8 octets, each
    octet percent-encoded.  ASCII is left as it is."""
    if text.isascii():
        return text
    return "".join(c if c.isascii() else "".join(f"%{b:02X}" for b in c.encode("utf-8")) for c in text)


def _idna_host(host: str) -> str:
    """A reg-name host to its IDNA (UTS #46) ASCII form; left alone when it is
    not a valid IDN (an error is no reason to lose the reference)."""
    if host.isascii() or host.startswith("["):
        return host
    import idna  # the maintained IDNA 2008 / UTS #46 implementation

    try:
        return idna.encode(host, uts46=True).decode("ascii")
    except idna.IDNAError:
        return host


def normalize(
    uri: str | UriReference,
    *,
    level: Level = "syntax",
    idna: bool = False,
    iri_to_uri: bool = False,
    drop_fragment: bool = False,
    strip_host_dot: bool = False,
) -> str:
    """The normal form of ``uri`` at ``level`` of the rfc2396bis-01 §6.2 ladder.

    Idempotent: ``normalize(normalize(u)) == normalize(u)`` for every level
    and option.  Relative references are normalized too (case and
    percent-encoding; their relative paths keep their dot segments, which
    only resolution can give a meaning).
    """
    if type(uri) is not str:
        check.text("normalize", "uri", uri, also=(UriReference,), expected="a str or a UriReference")
    if idna or iri_to_uri or drop_fragment or strip_host_dot:
        for name, value in (("idna", idna), ("iri_to_uri", iri_to_uri), ("drop_fragment", drop_fragment),
                            ("strip_host_dot", strip_host_dot)):
            check.flag("normalize", name, value)
    if level == "syntax" and not (idna or iri_to_uri or strip_host_dot):
        # the common call: the syntax rung alone, composed straight into a string
        if isinstance(uri, str):
            m = _split(uri)
            assert m is not None  # Appendix B matches every string
            scheme, authority, path, query, fragment = m.groups()
        else:
            scheme, authority, path, query, fragment = uri
        return _syntax_str(scheme, authority, path, query, fragment, drop_fragment)
    check.one_of("normalize", "level", level, LEVELS)
    ref = uri if isinstance(uri, UriReference) else _parse(uri)
    if level == "string":
        out = ref
    else:
        out = _syntax(ref, idna=idna, iri_to_uri=iri_to_uri, strip_host_dot=strip_host_dot)
        if level in ("scheme", "scheme-specific"):
            out = _scheme_based(out)
        if level == "scheme-specific":
            return _scheme_specific(out, drop_fragment)
    if drop_fragment:
        out = out._replace(fragment=None)
    return str(out)


def _lower_ascii(text: str) -> str:
    """ASCII letters to lower case, nothing else (str.lower would fold "İ" too)."""
    return text.lower() if text.isascii() else text.translate(_UPPER)


def _syntax_authority(authority: str) -> str:
    """§6.2.2.1/§6.2.2.2 on an authority: host case and percent-encoding,
    userinfo percent-encoding; the port as written."""
    if "@" not in authority and "[" not in authority and "%" not in authority:
        # a bare host[:port]: only the host's case can change; a port is kept
        # as written, digits or not, as the parsed path below keeps it
        host, colon, port = authority.partition(":")
        return _lower_ascii(host) + colon + port
    auth = Authority.parse(authority)
    host = _normalize_host(_pct_normalize(auth.host))
    userinfo = None if auth.userinfo is None else _pct_normalize(auth.userinfo)
    return str(Authority(userinfo, host, auth.port))


def _syntax_path(path: str, hierarchical: bool, has_authority: bool) -> str:
    path = _pct_normalize(path)
    if hierarchical or path.startswith("/"):
        # §6.2.2.3: dot segments are removed as resolution (§5.2.2) would remove
        # them; only a relative-path reference keeps them, for lack of a base
        path = remove_dot_segments(path)
        if not has_authority and path.startswith("//"):
            # keep "scheme:/.//x" from re-parsing with an authority (§5.3)
            path = "/." + path
    return path


def _syntax_str(scheme: str | None, authority: str | None, path: str, query: str | None,
                fragment: str | None, drop_fragment: bool) -> str:
    out = _syntax_path(path, scheme is not None or authority is not None, authority is not None)
    if authority is not None:
        out = "//" + _syntax_authority(authority) + out
    if scheme is not None:
        out = _lower_ascii(scheme) + ":" + out
    if query is not None:
        out += "?" + _pct_normalize(query)
    if fragment is not None and not drop_fragment:
        out += "#" + _pct_normalize(fragment)
    return out


def _syntax(ref: UriReference, *, idna: bool, iri_to_uri: bool, strip_host_dot: bool) -> UriReference:
    scheme, authority, path, query, fragment = ref
    path = _syntax_path(path, scheme is not None or authority is not None, authority is not None)
    if scheme is not None:
        scheme = scheme.translate(_UPPER)
    if authority is not None:
        authority = _syntax_authority(authority)
        if strip_host_dot or idna:
            auth = Authority.parse(authority)
            host = auth.host
            if strip_host_dot and not host.startswith("[") and host.rstrip("."):
                host = host.rstrip(".")  # "example.com." is the fully qualified "example.com"
            if idna:
                host = _idna_host(host)
            authority = str(auth._replace(host=host))
    if query is not None:
        query = _pct_normalize(query)
    if fragment is not None:
        fragment = _pct_normalize(fragment)
    out = UriReference(scheme, authority, path, query, fragment)
    if iri_to_uri:
        # RFC 3987 §3.1; a scheme is ASCII by definition, so it is left alone
        out = UriReference(
            out.scheme,
            None if authority is None else _iri_to_uri(authority),
            _iri_to_uri(path),
            None if query is None else _iri_to_uri(query),
            None if fragment is None else _iri_to_uri(fragment),
        )
    return out


def _scheme_based(ref: UriReference) -> UriReference:
    scheme, authority, path, query, fragment = ref
    if authority is not None:
        auth = Authority.parse(authority)
        port = auth.port
        if port is not None:
            if port.isascii() and port.isdigit():
                port = port.lstrip("0") or "0"  # a port is a decimal number: "0080" is "80"
            if port == "" or (scheme is not None and DEFAULT_PORTS.get(scheme) == port):
                port = None
        authority = str(Authority(auth.userinfo, auth.host, port))
        if path == "" and scheme in WEB:  # an empty web path means "/" (RFC 9110 §4.2.3)
            path = "/"
    return UriReference(scheme, authority, path, query, fragment)


def _scheme_specific(ref: UriReference, drop_fragment: bool) -> str:
    scheme = ref.scheme
    if drop_fragment or scheme in ("ws", "wss"):
        ref = ref._replace(fragment=None)  # RFC 6455 §3: fragments are not used
    if scheme == "urn":
        try:
            return Urn.parse(str(ref), rules="8141").comparison_key()
        except UrnError:
            return str(ref)
    if scheme == "mailto" and ref.authority is None:
        out = _mailto(ref)
        # A rewrite must recompose into a string that splits back into the
        # same components (§5.3), or a second pass reads something else
        # ("mailto:,//:" without its empty address is "mailto://:", which has
        # an authority): one that would not is left as the scheme-based rung
        # wrote it, which splits back into itself.
        m = _split(out)
        return out if m is not None and m.group(2) is None else str(ref)
    return str(ref)


def _mailto(ref: UriReference) -> str:
    """RFC 6068: addresses in the path and in ``to=`` fields form one list; the
    domain of each address is case-insensitive, the local part is not;
    header-field names are case-insensitive.  Percent-encoding is left as the
    syntax step made it: decoding could change what a reserved character means."""
    addresses = [a for a in ref.path.split(",") if a]
    others: list[str] = []
    for field in (ref.query or "").split("&"):
        if not field:
            continue
        name, eq, value = field.partition("=")
        values = [a for a in value.split(",") if a]
        if name.lower() == "to" and all(_SAFE_ADDRESS.fullmatch(a) for a in values):
            addresses.extend(values)
        else:
            others.append(name.lower() + eq + value)
    normal = []
    for address in addresses:
        local, at, domain = address.rpartition("@")
        normal.append(f"{local}@{domain.lower()}" if at else address)
    path = ",".join(normal)
    if remove_dot_segments(path) != path:
        # a "to=" value that would be a dot segment in the path ("mailto:?to=." is not "mailto:."): the
        # syntax step of a second pass would remove it, so the fields stay where they are (RFC 3986 §6.2.2.3)
        return str(ref)
    if path.startswith("//"):
        # an empty address before it, which RFC 6068 ignores, keeps it a path:
        # "mailto://x" would split with an authority (RFC 3986 §3.3)
        path = "," + path
    out = "mailto:" + path
    if others:
        out += "?" + "&".join(others)
    if ref.fragment is not None:
        out += "#" + ref.fragment
    return out


# an address that can move from a "to=" field into the path without changing
# how the URI parses (no "?", "#", no leading "/")
_SAFE_ADDRESS = patterns.compile(r"[^/?#][^?#]*")


#: normalize's keyword options, which equivalent passes on
_OPTIONS = ("idna", "iri_to_uri", "drop_fragment", "strip_host_dot")


def equivalent(a: str | UriReference, b: str | UriReference, *, level: Level = "syntax", **options: bool) -> bool:
    """rfc2396bis-01 §6.2: are ``a`` and ``b`` equivalent at ``level`` of the ladder?

    Climbing the ladder only ever turns "different" into "equivalent", never
    the reverse.  ``options`` are :func:`normalize`'s (``iri_to_uri`` ...).
    """
    check.text("equivalent", "a", a, also=(UriReference,), expected="a str or a UriReference")
    check.text("equivalent", "b", b, also=(UriReference,), expected="a str or a UriReference")
    check.one_of("equivalent", "level", level, LEVELS)
    for name, value in options.items():
        check.one_of("equivalent", "an option's name", name, _OPTIONS)
        check.flag("equivalent", name, value)
    if str(a) == str(b):
        return True
    return normalize(a, level=level, **options) == normalize(b, level=level, **options)
