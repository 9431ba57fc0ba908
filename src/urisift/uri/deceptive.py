"""Deceptive link text (rfc2396bis-01 §7.5, semantic attacks): a
link whose visible text names one host and which goes to another, the
classic phishing shape.

Hosts are compared as a browser reads them: each side is
percent-decoded and mapped by UTS 46 to its ASCII form (``xn--`` labels),
as the URL Standard's host parser does (domain to ASCII), so a text that
shows an internationalized host in Unicode and a link to its ``xn--`` form
(or the reverse, or full-width letters and stops) name the same host, and
a look-alike in another script does not.

URI core: no I/O.  ada-url (the browser module's parser) maps a host only
when a side is not ASCII: most link texts and targets never load it.
"""

from __future__ import annotations

import unicodedata
from functools import cache
from importlib import resources
from urllib.parse import unquote

from ..model import Risk
from . import patterns
from .unwrap import host_of

# the full-width full stop, which UTS 46 maps to "." (so do the ideographic ones, U+3002 and
# U+FF61, but in Chinese and Japanese link text they end sentences, and a sentence is no host)
_DOTS = patterns.compile("\uff0e")
# a label's character: an ASCII letter or digit, or any character past ASCII but a space
_CHAR = r"(?:[A-Za-z0-9]|[^\x00-\x7f\s])"
# link text that is itself a URL, or a host name: labels and a dot each, then a top-level
# label of letters (any past ASCII) or an ACE label (xn--), then a path, a port, a query
_TEXT_URL = patterns.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://([^/?#\s]+)")
_TEXT_HOST = patterns.compile(rf"^((?:{_CHAR}(?:(?:{_CHAR}|-){{0,61}}{_CHAR})?\.)+"
                        r"(?:(?:[A-Za-z]|[^\x00-\x7f\s]){2,63}|[Xx][Nn]--[A-Za-z0-9-]{1,59}))\.?(?:[/:?#]\S*)?$")
_AUTHORITY = patterns.compile(r"[A-Za-z][A-Za-z0-9+.-]*://([^/?#]*)")


@cache
def top_level_domains() -> frozenset[str]:
    """The top-level domains (``data/top-level-domains.txt``, from the Public
    Suffix List's ICANN section), lower case, in Unicode and in ASCII form."""
    text = resources.files("urisift").joinpath("data/top-level-domains.txt").read_text("utf-8")
    return frozenset(name for line in text.splitlines() if line and not line.startswith("#")
                     for name in line.split())


def text_host(text: str) -> str | None:
    """The host a link's visible text names, when the text is a URL or a
    host name (``https://bank.example/login``, ``www.bank.example``,
    ``bücher.example``); None for any other text.  A text without a scheme
    names a host only when its last label is a top-level domain: "H.Moon",
    "asm.js" and "М.В.Николаевой" (initials) are a name, a file and a person."""
    text = text.strip()
    if not text.isascii():
        text = _DOTS.sub(".", text)
    m = _TEXT_URL.match(text)
    if m is not None:
        return host_of(m.group(1)) or None
    m = _TEXT_HOST.match(text)
    if m is None:
        return None
    host = m.group(1)
    if host.rpartition(".")[2].lower() not in top_level_domains():
        return None
    # past ASCII, a host name's characters are letters, marks and digits (IDNA2008's PVALID
    # are of these): a text with symbols or punctuation in it ("【新竹】", "❤") names none
    if not host.isascii() and any(not c.isascii() and unicodedata.category(c)[0] not in "LMN" for c in host):
        return None
    return host.lower()


def as_ascii(host: str) -> str:
    """``host`` as a browser reads it, to compare: percent-decoded and mapped
    by UTS 46 to ASCII (``Bücher.example`` and ``b%C3%BCcher.example`` are
    ``xn--bcher-kva.example``); a host the mapping refuses stays as written,
    in lower case."""
    if "%" in host:
        host = unquote(host)
    if host.isascii():
        return host.lower()
    from ada_url import idna

    mapped = idna.encode(host) if "\x00" not in host else b""
    return mapped.decode("ascii").lower() if mapped else host.lower()


def _bare(host: str) -> str:
    return host[4:] if host.startswith("www.") else host


def deception(text: str | None, target: str | None) -> Risk | None:
    """The ``deceptive-text`` flag: the link's text names a host, and the
    link goes to another.  The same host (as a browser reads each: see the
    module doc), with or without ``www.``, or one inside the other
    (``example.com`` shown, ``mail.example.com`` linked) is not deceptive."""
    if not text or target is None or ("." not in text and ":" not in text
                                      and (text.isascii() or _DOTS.search(text) is None)):
        return None  # (text_host needs a "." for a host name, a ":" for a URL: most link texts are words)
    shown = text_host(text)
    if shown is None:
        return None
    m = _AUTHORITY.match(target)
    if m is None:
        return None
    actual = host_of(m.group(1))
    a, b = _bare(as_ascii(shown)), _bare(as_ascii(actual))
    if not b or a == b or a.endswith("." + b) or b.endswith("." + a):
        return None
    return Risk("deceptive-text", "7.5", f"the link text names {shown!r}; the link goes to {actual!r}")


__all__ = ["as_ascii", "deception", "text_host"]
