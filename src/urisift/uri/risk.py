"""Risk flags: what rfc2396bis-01 §7 (Security Considerations) tells a reader to
watch for in a URI.  Each flag names its section and says what it found.

- ``userinfo``      §7.5 semantic attack: text before "@" in the authority
                    that a person may read as the host; the detail names
                    the host actually contacted.  Raised for any userinfo in
                    a web URI (http, https, ws, wss: RFC 9110 §4.2.4
                    deprecates it there, and browsers warn about it), and in
                    other schemes when the userinfo looks like a host name
                    (``ssh://deploy@host`` is ordinary; ``ftp://www.bank.example@x``
                    is not).
- ``password``      §7.4: a non-empty password in the userinfo.
- ``rare-ip``       §7.3: a host written in an IPv4 form other than dotted
                    decimal (octal, hexadecimal, fewer than four parts, one
                    32-bit number), with the dotted-quad address it means.
- ``reserved-port`` §7.2: a port other than the scheme's default, in the
                    reserved range below 1024 (another protocol's port).
- ``encoded-crlf``  §7.2: a percent-encoded CR or LF in a URI whose scheme
                    speaks a line-based protocol, where unescaping it would
                    inject a line.
"""

from __future__ import annotations

from ..model import Risk
from . import arguments as check
from . import patterns
from .reference import Authority, UriReference
from .schemes import DEFAULT_PORTS, LINE_BASED, WEB

_CRLF = patterns.compile(r"%0[dDaA]")
# a dotted name: a label, a dot, an alphabetic label ("www.bank.example", "paypal.com");
# tried only at label starts, the label taken possessively: linear
_HOSTLIKE = patterns.compile(r"(?<![A-Za-z0-9-])[A-Za-z0-9-]++\.[A-Za-z]{2}")
_IPV4_PART = patterns.compile(r"0[xX][0-9A-Fa-f]*|0[0-7]*|[1-9][0-9]*")


def rare_ipv4(host: str) -> str | None:
    """The dotted-quad address an inet_aton()-style reader takes ``host`` for,
    when ``host`` is written in one of the rare forms of §7.3; else None.

    ``192.0.2.1`` is the common form (None); ``0300.0.2.1``, ``0xC0.0.2.1``,
    ``192.0.513``, ``192.131073`` and ``3221225985`` all mean 192.0.2.1.
    """
    parts = host.split(".")
    if host.endswith("."):
        parts.pop()  # a trailing dot does not change the address
    if not 1 <= len(parts) <= 4:
        return None
    values: list[int] = []
    for part in parts:
        if not _IPV4_PART.fullmatch(part):
            return None
        if part[:2] in ("0x", "0X"):
            values.append(int(part[2:] or "0", 16))
        elif len(part) > 1 and part[0] == "0":
            values.append(int(part, 8))
        else:
            values.append(int(part))
    # every part but the last is one byte; the last fills the bytes left
    if any(v > 255 for v in values[:-1]) or values[-1] >= 256 ** (5 - len(values)):
        return None
    number = 0
    for v in values[:-1]:
        number = number * 256 + v
    number = number * 256 ** (5 - len(values)) + values[-1]
    dotted = ".".join(str((number >> s) & 255) for s in (24, 16, 8, 0))
    if dotted == host.rstrip("."):
        return None  # the common dotted-decimal form
    return dotted


# the characters of every IPv4 form rare_ipv4 reads (decimal, octal, hex, dots)
_IPV4_FORM = "0123456789abcdefABCDEFxX."


def plainly_safe(uri: str) -> bool:
    """Whether ``uri`` cannot raise any flag, decided without parsing it: no
    "%0" (no encoded CR or LF); a scheme (Appendix B: text before the first
    ":" without "/", "?" or "#"); and no authority, or one without "@" (no
    userinfo), without ":" (no port) and with a character no IPv4 form has.
    Most URIs in real text are like that; the others are parsed and looked
    at in full.  String operations only: this runs once a record."""
    if "%0" in uri:
        return False
    colon = uri.find(":")
    if colon < 1:
        return False
    head = uri[:colon]
    if "/" in head or "?" in head or "#" in head:
        return False
    if not uri.startswith("//", colon + 1):
        return True
    start = colon + 3
    end = uri.find("/", start)
    authority = uri[start:] if end == -1 else uri[start:end]
    if "?" in authority or "#" in authority:
        return False  # rare: the full check finds where it ends
    return "@" not in authority and ":" not in authority and authority.strip(_IPV4_FORM) != ""


def risks(uri: str | UriReference) -> tuple[Risk, ...]:
    """The §7 risk flags of ``uri`` (empty when there are none)."""
    if type(uri) is str and plainly_safe(uri):
        return ()
    check.text("risks", "uri", uri, also=(UriReference,), expected="a str or a UriReference")
    ref = uri if isinstance(uri, UriReference) else UriReference.parse(uri)
    found: list[Risk] = []
    scheme = (ref.scheme or "").lower()
    if ref.authority is not None:
        auth = Authority.parse(ref.authority)
        if auth.userinfo and (scheme in WEB or _HOSTLIKE.search(auth.userinfo)):
            found.append(Risk("userinfo", "7.5",
                              f"{auth.userinfo!r} stands before '@'; the host is {auth.host!r}"))
        if auth.userinfo:
            user, colon, password = auth.userinfo.partition(":")
            if colon and password:
                found.append(Risk("password", "7.4", f"user {user!r} has a password in the URI"))
        if not auth.host.startswith("["):
            dotted = rare_ipv4(auth.host)
            if dotted is not None:
                found.append(Risk("rare-ip", "7.3", f"host {auth.host!r} is the IPv4 address {dotted}"))
        port = auth.port
        if port and port.isascii() and port.isdigit():
            number = int(port)
            default = DEFAULT_PORTS.get(scheme)
            if number < 1024 and (default is None or number != int(default)):
                expected = f"the {scheme} default is {default}" if default else f"{scheme} has no default port"
                found.append(Risk("reserved-port", "7.2", f"port {number} is in the reserved range; {expected}"))
    if scheme in LINE_BASED and _CRLF.search(str(ref)):
        found.append(Risk("encoded-crlf", "7.2", f"a percent-encoded CR or LF in a {scheme} URI"))
    return tuple(found)
