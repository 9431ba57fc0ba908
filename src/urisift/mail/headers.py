"""MIME headings as urisift reads them: RFC 2047 words, and the base-URI
headers of RFC 2110 / RFC 2557 (DESIGN §4).

``Content-Base`` and ``Content-Location`` values are unfolded with *all*
white space removed (RFC 2110 §4 and RFC 2557 §4.4.2 let a long URL fold
anywhere, even inside its quotes), then their ``"…"``, ``<…>`` or
``<URL:…>`` delimiters are stripped, after RFC 2047 words are decoded.
"""

from __future__ import annotations

import email.utils
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


def header_text(value: object) -> str:
    """A header value as ``Message.raw_items()`` gives it, as text: bytes that
    were not ASCII (the parser keeps them as surrogates) read as UTF-8, else
    Latin-1, the way mail clients show them.  Reading headers raw skips the
    policy's fetch step for every header, a third of the cost of a heading."""
    if not isinstance(value, str):  # a Header object a caller set on a message it built
        return str(value)
    return value if value.isascii() or _has_no_surrogates(value) else _undo_surrogates(value)


# a Content-Type parameter, quoted or not; RFC 2231 forms (name*=) are left to the email package
_PARAMETER = re.compile(r';\s*([A-Za-z0-9_.-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s"]*))')


def content_type(entity: Message) -> tuple[str, str | None]:
    """The entity's content type, lower case, as ``get_content_type`` of the
    compat32 policy gives it, and the raw Content-Type value (None when
    absent): one header lookup for both."""
    raw = entity.get("Content-Type")
    if raw is None:
        return entity.get_default_type(), None
    raw = str(raw)
    ctype = raw.partition(";")[0].strip().lower()
    return (ctype if ctype.count("/") == 1 else "text/plain"), raw


def parameter(entity: Message, raw: str | None, name: str) -> str | None:
    """A Content-Type parameter's value, lower case (None when absent), read
    from the raw value; the email package reads the RFC 2231 forms."""
    if raw is None or ";" not in raw:
        return None
    if "*" in raw:
        value = entity.get_param(name)
        if isinstance(value, tuple):
            value = email.utils.collapse_rfc2231_value(value)
        return None if value is None else str(value).lower()
    for m in _PARAMETER.finditer(raw):
        if m.group(1).lower() == name:
            quoted = m.group(2)
            if quoted is None:
                return m.group(3).lower()
            return quoted.replace("\\\\", "\\").replace('\\"', '"').lower()  # as email.utils.unquote
    return None


def _has_no_surrogates(value: str) -> bool:
    try:
        value.encode("utf-8")
        return True
    except UnicodeEncodeError:
        return False


def _undo_surrogates(value: str) -> str:
    data = value.encode("utf-8", "surrogateescape")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


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
    for name, raw in entity.raw_items():
        lower = name.lower()
        if lower in _BASE_HEADERS and lower not in found:
            found[lower] = header_text(raw)
    if not found:
        return None, None
    for name in ("Content-Base", "Content-Location", "Snapshot-Content-Location"):
        text = found.get(name.lower())
        if text is not None:
            value = base_value(text)
            if value is not None:
                return name, value
    return None, None
