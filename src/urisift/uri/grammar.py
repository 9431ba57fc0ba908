"""RFC 3986 Appendix A ABNF as regular-expression fragments (with RFC 6874's
zone identifiers), for the rules whose structure a character scan cannot check:
the scheme, IP literals and IPv4 addresses, and the Appendix B split.

Each fragment carries its ABNF rule in the comment beside it.  The fragments are
plain strings so that other modules can compose them; the compiled patterns at
the bottom are the ones the validator uses.  The rules made of a character set
alone (userinfo, reg-name, pchar, query, fragment) are checked a character at a
time in ``reference.py``, so that an error can name the character.

None of these patterns can backtrack super-linearly: every repetition is over a
character class or over an alternation whose branches start with distinct
characters (``%`` versus a class that excludes ``%``), so a failing match is
abandoned after one pass.  IPv6 addresses are bounded (at most 39 characters
between brackets are ever tried, see :data:`IPV6ADDRESS`).
"""

from __future__ import annotations

import re

from . import patterns

# ALPHA = %x41-5A / %x61-7A ; DIGIT = %x30-39 ; HEXDIG = DIGIT / "A"-"F" (case-insensitive)
ALPHA = "A-Za-z"
DIGIT = "0-9"
HEXDIG = "0-9A-Fa-f"

# unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"
UNRESERVED = ALPHA + DIGIT + r"\-._~"
# sub-delims = "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," / ";" / "="
SUB_DELIMS = r"!$&'()*+,;="
# pct-encoded = "%" HEXDIG HEXDIG
PCT_ENCODED = f"%[{HEXDIG}]{{2}}"

# scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
SCHEME = f"[{ALPHA}][{ALPHA}{DIGIT}+\\-.]*"

# dec-octet = DIGIT / %x31-39 DIGIT / "1" 2DIGIT / "2" %x30-34 DIGIT / "25" %x30-35
DEC_OCTET = r"(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])"
# IPv4address = dec-octet "." dec-octet "." dec-octet "." dec-octet
IPV4ADDRESS = rf"{DEC_OCTET}\.{DEC_OCTET}\.{DEC_OCTET}\.{DEC_OCTET}"
# h16 = 1*4HEXDIG
H16 = f"[{HEXDIG}]{{1,4}}"
# ls32 = ( h16 ":" h16 ) / IPv4address
LS32 = f"(?:{H16}:{H16}|{IPV4ADDRESS})"


def _h16_colon(n: int) -> str:
    return f"(?:{H16}:){{{n}}}"


def _h16_colon_upto(n: int) -> str:
    # [ *n( h16 ":" ) h16 ]
    if n == 0:
        return f"(?:{H16})?"
    return f"(?:(?:{H16}:){{0,{n}}}{H16})?"


# IPv6address =                            6( h16 ":" ) ls32
#             /                       "::" 5( h16 ":" ) ls32
#             / [               h16 ] "::" 4( h16 ":" ) ls32
#             / [ *1( h16 ":" ) h16 ] "::" 3( h16 ":" ) ls32
#             / [ *2( h16 ":" ) h16 ] "::" 2( h16 ":" ) ls32
#             / [ *3( h16 ":" ) h16 ] "::"    h16 ":"   ls32
#             / [ *4( h16 ":" ) h16 ] "::"              ls32
#             / [ *5( h16 ":" ) h16 ] "::"              h16
#             / [ *6( h16 ":" ) h16 ] "::"
IPV6ADDRESS = "(?:" + "|".join(
    [
        f"{_h16_colon(6)}{LS32}",
        f"::{_h16_colon(5)}{LS32}",
        f"{_h16_colon_upto(0)}::{_h16_colon(4)}{LS32}",
        f"{_h16_colon_upto(1)}::{_h16_colon(3)}{LS32}",
        f"{_h16_colon_upto(2)}::{_h16_colon(2)}{LS32}",
        f"{_h16_colon_upto(3)}::{H16}:{LS32}",
        f"{_h16_colon_upto(4)}::{LS32}",
        f"{_h16_colon_upto(5)}::{H16}",
        f"{_h16_colon_upto(6)}::",
    ]
) + ")"
# IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
IPVFUTURE = f"[vV][{HEXDIG}]+\\.[{UNRESERVED}{SUB_DELIMS}:]+"
# ZoneID = 1*( unreserved / pct-encoded )           (RFC 6874 §2, which updates 3986)
ZONE_ID = f"(?:[{UNRESERVED}]|{PCT_ENCODED})+"
# IPv6addrz = IPv6address "%25" ZoneID                (RFC 6874 §2)
IPV6ADDRZ = f"{IPV6ADDRESS}%25{ZONE_ID}"
# IP-literal = "[" ( IPv6address / IPv6addrz / IPvFuture ) "]"   (RFC 3986 + RFC 6874)
IP_LITERAL = rf"\[(?:{IPV6ADDRESS}|{IPV6ADDRZ}|{IPVFUTURE})\]"

# Appendix B: ^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?
# Every group is a negated class followed by a literal that the class excludes,
# so the match is a single left-to-right pass.
APPENDIX_B = r"^(?:([^:/?#]+):)?(?://([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$"

APPENDIX_B_RE = patterns.compile(APPENDIX_B, re.DOTALL)
SCHEME_RE = patterns.compile(SCHEME)
IPV4_RE = patterns.compile(IPV4ADDRESS)
# IPv6 literals are rare and their patterns long (7 ms to compile, a twentieth
# of a run's start): compiled when first read (PEP 562), then module globals
IPV6_RE: re.Pattern[str]
IP_LITERAL_RE: re.Pattern[str]
_ON_FIRST_READ = {"IPV6_RE": IPV6ADDRESS, "IP_LITERAL_RE": IP_LITERAL}


def __getattr__(name: str) -> re.Pattern[str]:
    pattern = _ON_FIRST_READ.get(name)
    if pattern is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    compiled = globals()[name] = patterns.compile(pattern)
    return compiled
