"""URI references: the Appendix B split, §5.3 recomposition, ABNF validation.

RFC 3986 (rfc2396bis-01) §3 and §4; Appendix B for the split.  A component that is
*undefined* (its delimiter is absent) is ``None``; a component that is present
but empty is ``""``.  ``file:///x`` therefore has ``authority == ""`` and
``http://a?`` has ``query == ""``, and ``str()`` gives either back exactly.
"""

from __future__ import annotations

import string
from typing import NamedTuple

from . import arguments as check
from . import grammar
from .errors import UriSyntaxError

_split = grammar.APPENDIX_B_RE.match

#: productions :func:`validate` knows, with whether each admits IRI characters.
PRODUCTIONS = (
    "URI-reference",
    "URI",
    "absolute-URI",
    "relative-ref",
    "IRI-reference",
    "IRI",
    "absolute-IRI",
    "irelative-ref",
    "IP-literal",
    "IPv6address",
    "IPv4address",
)


class Authority(NamedTuple):
    """RFC 3986 §3.2: ``[ userinfo "@" ] host [ ":" port ]``.

    ``userinfo`` and ``port`` are ``None`` when their delimiter is absent.
    """

    userinfo: str | None
    host: str
    port: str | None

    @classmethod
    def parse(cls, authority: str) -> Authority:
        # userinfo cannot contain "@", so the host starts after the last one:
        # that is also what user agents do, which matters for §7.5 attacks.
        userinfo, at, hostport = authority.rpartition("@")
        if not at:
            userinfo_v: str | None = None
        else:
            userinfo_v = userinfo
        if hostport.startswith("["):
            close = hostport.find("]")
            if close != -1:
                host = hostport[: close + 1]
                rest = hostport[close + 1 :]
                if rest.startswith(":"):
                    return cls(userinfo_v, host, rest[1:])
                if rest == "":
                    return cls(userinfo_v, host, None)
                # Junk after "]": keep it in the host so nothing is lost;
                # validation reports it.
                return cls(userinfo_v, hostport, None)
        # reg-name and IPv4address contain no ":", so the first one starts the port.
        host, colon, port = hostport.partition(":")
        return cls(userinfo_v, host, port if colon else None)

    @property
    def host_kind(self) -> str:
        """RFC 3986 §3.2.2: "ipv6" or "ipvfuture" (an IP-literal in brackets),
        "ipv4" (dotted decimal), or "reg-name" (anything else, "" included)."""
        host = self.host
        if host.startswith("["):
            return "ipvfuture" if host[1:2] in ("v", "V") else "ipv6"
        if grammar.IPV4_RE.fullmatch(host):
            return "ipv4"
        return "reg-name"

    def __str__(self) -> str:
        out = self.host
        if self.userinfo is not None:
            out = self.userinfo + "@" + out
        if self.port is not None:
            out = out + ":" + self.port
        return out


class UriReference(NamedTuple):
    """A URI reference split into its five components (RFC 3986 §3, §4.1).

    Build one with :meth:`parse`; ``str(ref)`` recomposes it (§5.3).
    """

    scheme: str | None
    authority: str | None
    path: str
    query: str | None
    fragment: str | None

    @classmethod
    def parse(cls, text: str) -> UriReference:
        """Split ``text`` with the Appendix B regular expression.  Never raises:
        any string is *some* split; use :func:`validate` for conformance."""
        if type(text) is not str:
            check.text("UriReference.parse", "text", text)
        m = _split(text)
        # The pattern matches every string (each part is optional and the
        # path class admits anything but "?" and "#"); assert for type checkers.
        assert m is not None
        # tuple.__new__ is what the NamedTuple constructor does, without its
        # argument handling: a third of the cost of a parse
        return tuple.__new__(cls, m.groups())

    def __str__(self) -> str:
        # §5.3 Component Recomposition
        scheme, authority, path, query, fragment = self
        out = path
        if authority is not None:
            out = "//" + authority + out
        if scheme is not None:
            out = scheme + ":" + out
        if query is not None:
            out = out + "?" + query
        if fragment is not None:
            out = out + "#" + fragment
        return out

    # -- derived views -------------------------------------------------
    @property
    def is_absolute(self) -> bool:
        """True when a scheme is defined (§4.3 absolute-URI allows no fragment,
        but a URI with a fragment is still not relative)."""
        return self.scheme is not None

    @property
    def is_relative(self) -> bool:
        """§4.2: a relative reference has no scheme."""
        return self.scheme is None

    @property
    def parsed_authority(self) -> Authority | None:
        return None if self.authority is None else Authority.parse(self.authority)

    @property
    def userinfo(self) -> str | None:
        a = self.parsed_authority
        return None if a is None else a.userinfo

    @property
    def host(self) -> str | None:
        a = self.parsed_authority
        return None if a is None else a.host

    @property
    def port(self) -> str | None:
        a = self.parsed_authority
        return None if a is None else a.port

    def without_fragment(self) -> UriReference:
        return self._replace(fragment=None)

    def validate(self, production: str = "URI-reference") -> UriReference:
        """Raise :class:`UriSyntaxError` unless this reference matches ``production``."""
        validate(str(self), production)
        return self


# -- validation ----------------------------------------------------------------

# Character sets for the per-character scan (the same sets as the class bodies
# in grammar.py, spelled out literally so no regex parsing is needed).
_ALNUM = string.ascii_letters + string.digits
_UNRESERVED = _ALNUM + "-._~"
_SUB_DELIMS = "!$&'()*+,;="
_USERINFO = frozenset(_UNRESERVED + _SUB_DELIMS + ":")  # userinfo
_PCHAR = frozenset(_UNRESERVED + _SUB_DELIMS + ":@")  # pchar
_PATH = _PCHAR | {"/"}  # segments joined by "/"
_QUERY = _PCHAR | {"/", "?"}  # query, fragment
_REGNAME = frozenset(_UNRESERVED + _SUB_DELIMS)  # reg-name
_HEX = frozenset("0123456789ABCDEFabcdef")


def _is_ucschar(c: str) -> bool:
    o = ord(c)
    if o < 0xA0:
        return False
    if o <= 0xD7FF or 0xF900 <= o <= 0xFDCF or 0xFDF0 <= o <= 0xFFEF:
        return True
    if 0xE1000 <= o <= 0xEFFFD:
        return True
    if 0x10000 <= o <= 0xDFFFD:
        return (o & 0xFFFF) <= 0xFFFD
    return False


def _is_iprivate(c: str) -> bool:
    o = ord(c)
    return 0xE000 <= o <= 0xF8FF or 0xF0000 <= o <= 0xFFFFD or 0x100000 <= o <= 0x10FFFD


def _scan(
    text: str,
    start: int,
    end: int,
    allowed: frozenset[str],
    component: str,
    iri: bool,
    private: bool = False,
) -> None:
    """Check text[start:end] is *( allowed / pct-encoded ) and, for IRIs, ucschar."""
    i = start
    while i < end:
        c = text[i]
        if c in allowed:
            i += 1
            continue
        if c == "%":
            if i + 2 < end and text[i + 1] in _HEX and text[i + 2] in _HEX:
                i += 3
                continue
            raise UriSyntaxError(text, i, "'%' not followed by two hex digits", component)
        if iri and (_is_ucschar(c) or (private and _is_iprivate(c))):
            i += 1
            continue
        raise UriSyntaxError(text, i, f"character {c!r} not allowed", component)


def _validate_host(text: str, start: int, host: str, iri: bool) -> None:
    if host.startswith("["):
        if not grammar.IP_LITERAL_RE.fullmatch(host):
            raise UriSyntaxError(text, start, "malformed IP literal", "host")
        return
    _scan(text, start, start + len(host), _REGNAME, "host", iri)


def validate(text: str, production: str = "URI-reference") -> None:
    """Raise :class:`UriSyntaxError` unless ``text`` matches the RFC 3986 (or,
    for the ``IRI`` productions, RFC 3987) ABNF rule ``production``.

    The error names the input, the 0-based position and the offending
    character or construct.
    """
    check.text("validate", "text", text)
    check.one_of("validate", "production", production, PRODUCTIONS)
    if production == "IPv4address":
        if not grammar.IPV4_RE.fullmatch(text):
            raise UriSyntaxError(text, 0, "not a dotted-decimal IPv4 address", production)
        return
    if production == "IPv6address":
        if not grammar.IPV6_RE.fullmatch(text):
            raise UriSyntaxError(text, 0, "not an IPv6 address", production)
        return
    if production == "IP-literal":
        if not grammar.IP_LITERAL_RE.fullmatch(text):
            raise UriSyntaxError(text, 0, "not an IP literal", production)
        return

    iri = "IRI" in production or production == "irelative-ref"
    ref = UriReference.parse(text)
    scheme, authority, path, query, fragment = ref
    needs_scheme = production in ("URI", "absolute-URI", "IRI", "absolute-IRI")
    forbids_scheme = production in ("relative-ref", "irelative-ref")
    pos = 0
    if scheme is not None:
        if forbids_scheme:
            raise UriSyntaxError(text, len(scheme), "':' in the first segment of a relative path", "path")
        m = grammar.SCHEME_RE.match(scheme)
        bad = 0 if m is None else m.end()
        if bad < len(scheme):
            raise UriSyntaxError(text, bad, f"character {scheme[bad]!r} not allowed", "scheme")
        pos = len(scheme) + 1
    elif needs_scheme:
        raise UriSyntaxError(text, 0, "no scheme (an absolute URI needs one)", "scheme")
    if authority is not None:
        pos += 2
        auth = Authority.parse(authority)
        if auth.userinfo is not None:
            if "@" in auth.userinfo:
                raise UriSyntaxError(text, pos + auth.userinfo.index("@"), "character '@' not allowed", "userinfo")
            _scan(text, pos, pos + len(auth.userinfo), _USERINFO, "userinfo", iri)
            pos += len(auth.userinfo) + 1
        _validate_host(text, pos, auth.host, iri)  # reg-name and IPv4 hold no ":" (the port split took it)
        pos += len(auth.host)
        if auth.port is not None:
            pos += 1
            for k, c in enumerate(auth.port):
                if not c.isascii() or not c.isdigit():
                    raise UriSyntaxError(text, pos + k, f"character {c!r} not allowed", "port")
            pos += len(auth.port)
    # path-abempty / path-absolute / path-noscheme / path-rootless / path-empty:
    # the Appendix B split never leaves "//" at the start of a path without an
    # authority (it reads it as one), but a relative path may still start with
    # ":" ("::", ":x"), which path-noscheme forbids in its first segment.
    if scheme is None and authority is None:
        first = path.split("/", 1)[0]
        if ":" in first:
            raise UriSyntaxError(text, pos + first.index(":"), "':' in the first segment of a relative path", "path")
    _scan(text, pos, pos + len(path), _PATH, "path", iri)
    pos += len(path)
    if query is not None:
        pos += 1
        _scan(text, pos, pos + len(query), _QUERY, "query", iri, private=True)
        pos += len(query)
    if fragment is not None:
        if production in ("absolute-URI", "absolute-IRI"):
            raise UriSyntaxError(text, pos, "an absolute URI has no fragment", "fragment")
        pos += 1
        _scan(text, pos, pos + len(fragment), _QUERY, "fragment", iri)


def is_valid(text: str, production: str = "URI-reference") -> bool:
    """True when :func:`validate` accepts ``text``."""
    check.text("is_valid", "text", text)
    check.one_of("is_valid", "production", production, PRODUCTIONS)
    try:
        validate(text, production)
    except UriSyntaxError:
        return False
    return True
