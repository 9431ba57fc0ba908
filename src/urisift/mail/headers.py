"""MIME headings as urisift reads them: RFC 2047 words, and the base-URI
headers of RFC 2110 / RFC 2557 (DESIGN §4).

``Content-Base`` and ``Content-Location`` values are unfolded with *all*
white space removed (RFC 2110 §4 and RFC 2557 §4.4.2 let a long URL fold
anywhere, even inside its quotes), then their ``"…"``, ``<…>`` or
``<URL:…>`` delimiters are stripped, after RFC 2047 words are decoded.
"""

from __future__ import annotations

import re
from email.header import decode_header, make_header
from email.message import Message

_WHITESPACE = re.compile(r"\s+")
_URL_PREFIX = re.compile(r"(?i)URL:")
_BASE_HEADERS = frozenset({"content-base", "content-location", "snapshot-content-location"})


def decoded(value: str) -> str:
    """A header value with its RFC 2047 encoded words decoded; a word that
    cannot be decoded (an unknown charset, bad base64) is left as written."""
    if "=?" not in value:
        return value
    try:
        return str(make_header(decode_header(value)))
    except (LookupError, UnicodeError, ValueError):
        return value


def base_value(value: str) -> str | None:
    """A ``Content-Base`` or ``Content-Location`` value as a URI: decoded,
    every white space removed, delimiters stripped; None when nothing is left."""
    text = _WHITESPACE.sub("", decoded(str(value)))
    changed = True
    while changed and text:
        changed = False
        if len(text) >= 2 and text[0] == text[-1] == '"' or text.startswith("<") and text.endswith(">"):
            text, changed = text[1:-1], True
        if _URL_PREFIX.match(text):
            text, changed = text[4:], True
    return text or None


def heading_base(entity: Message) -> tuple[str | None, str | None]:
    """The base a MIME heading sets: the header that names it
    (``Content-Base`` wins over ``Content-Location`` in the same heading,
    and both over ``Snapshot-Content-Location``, the page's address that
    browsers write atop an MHTML file) and its cleaned value; (None, None)
    when it sets none."""
    # one pass over the heading: Message.get scans all of it for each name
    found: dict[str, str] = {}
    for name, raw in entity.items():
        lower = name.lower()
        if lower in _BASE_HEADERS and lower not in found:
            found[lower] = str(raw)
    if not found:
        return None, None
    for name in ("Content-Base", "Content-Location", "Snapshot-Content-Location"):
        text = found.get(name.lower())
        if text is not None:
            value = base_value(text)
            if value is not None:
                return name, value
    return None, None
