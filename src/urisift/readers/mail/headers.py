"""MIME headings as urisift reads them: RFC 2047 words, and the base-URI
headers of RFC 2110 / RFC 2557 (ARCHITECTURE.md, Base URIs).

``Content-Base`` and ``Content-Location`` values are unfolded with *all*
white space removed (RFC 2110 §4 and RFC 2557 §4.4.2 let a long URL fold
anywhere, even inside its quotes), then their ``"…"``, ``<…>`` or
``<URL:…>`` delimiters are stripped, after RFC 2047 words are decoded.
"""

from __future__ import annotations

import binascii
import codecs
import email.base64mime
import email.quoprimime
import email.utils
from collections.abc import Iterator
from email.charset import Charset
from email.errors import MessageError
from email.header import make_header
from email.message import Message

from ...uri import patterns

_WHITESPACE = patterns.compile(r"\s+")
_URL_PREFIX = patterns.compile(r"(?i)URL:")
_BASE_HEADERS = frozenset({"content-base", "content-location", "snapshot-content-location"})


def decoded(value: str) -> str:
    """A header value with its RFC 2047 encoded words decoded, as
    ``str(make_header(decode_header(value)))`` decodes them; a value with a
    word that cannot be decoded (an unknown charset, bad base64) is left as
    written.  The words are found here rather than by ``decode_header``,
    whose cost grows with the square of the words on a line (it pops them off
    the front of a list): a hostile Subject of 2 MB took 20 s."""
    if "=?" not in value:
        return value
    try:
        pairs = _decoded_runs(value)
        return value if pairs is None else str(make_header(pairs))
    except (LookupError, UnicodeError, ValueError, binascii.Error, MessageError):
        # MessageError: bad base64 in a word, a charset name that is not ASCII
        return value


# RFC 2047 §2: encoded-word = "=?" charset "?" encoding "?" encoded-text "?=".
# The start of one, as the email package reads it (any charset without "?",
# then Q or B); the encoded text runs to the next "?=" on the line.
_WORD_START = patterns.compile(r"=\?([^?]*+)\?([qQbB])\?")


def _words(line: str) -> Iterator[tuple[str, tuple[str, str, str] | None]]:
    """The text before each encoded word of ``line`` and the word (charset,
    encoding, encoded text), then the rest of the line and None: the pieces
    ``email.header.ecre.split`` gives, found in linear time.  A start with no
    "?=" after it fails, and so does every later start past the place where
    the search for one gave up: that search is never repeated.  (Unlike
    ``decode_header``, a value with no encoded word on any one line is left
    as written, not unfolded: only a "charset" with a line break in it can
    tell the two apart.)"""
    at = 0  # the end of the last word
    search_from = 0
    no_end_from = len(line) + 2  # no "?=" starts at or after this
    while True:
        start = line.find("=?", search_from, no_end_from)
        if start == -1:
            break  # (a word starting past no_end_from would need a "?=" after it)
        m = _WORD_START.match(line, start)
        if m is None or m.end() >= no_end_from:
            search_from = start + 1
            continue
        end = line.find("?=", m.end(), no_end_from + 1)
        if end == -1:
            no_end_from = m.end()
            search_from = start + 1
            continue
        yield line[at:start], (m.group(1), m.group(2), line[m.end():end])
        at = search_from = end + 2
    yield line[at:], None


def _decoded_runs(value: str) -> list[tuple[bytes, str | None]] | None:
    """``email.header.decode_header(value)`` in linear time (None: no
    encoded word): runs of bytes and their charset, white space between
    adjacent encoded words dropped (RFC 2047 §6.2), words of one charset
    joined before they are decoded (a character may be split across two)."""
    words: list[tuple[str, str | None, str | None]] = []  # (text, encoding, charset)
    found = False
    for line in value.splitlines():
        first = True
        for unencoded, word in _words(line):
            if first:
                unencoded = unencoded.lstrip()
                first = False
            if unencoded:
                words.append((unencoded, None, None))
            if word is not None:
                found = True
                words.append((word[2], word[1].lower(), word[0].lower()))  # (text, encoding, charset)
    if not found:
        return None
    kept = [w for n, w in enumerate(words)
            if not (0 < n < len(words) - 1 and words[n - 1][1] and words[n + 1][1] and w[0].isspace())]
    for name in {w[2] for w in kept if w[2] is not None}:
        # an unknown charset fails the whole value (below, in make_header): found before any word is decoded
        codecs.lookup(Charset(name).input_codec or "us-ascii")
    runs: list[tuple[bytes, str | None]] = []
    run: list[bytes] = []
    run_charset: str | None = None
    for text, encoding, labelled in kept:
        if encoding is None:
            data = text.encode("raw-unicode-escape")
        elif encoding == "q":
            data = email.quoprimime.header_decode(text).encode("raw-unicode-escape")
        else:
            data = email.base64mime.decode(text + "==="[: (4 - len(text) % 4) % 4])
        if run and labelled != run_charset:
            runs.append(((b" " if run_charset is None else b"").join(run), run_charset))
            run = []
        run.append(data)
        run_charset = labelled
    runs.append(((b" " if run_charset is None else b"").join(run), run_charset))
    return runs


def header_text(value: object) -> str:
    """A header value as ``Message.raw_items()`` gives it, as text: bytes that
    were not ASCII (the parser keeps them as surrogates) read as UTF-8, else
    Latin-1, the way mail clients show them.  Reading headers raw skips the
    policy's fetch step for every header, a third of the cost of a heading."""
    if not isinstance(value, str):  # a Header object a caller set on a message it built
        return str(value)
    return value if value.isascii() or _has_no_surrogates(value) else _undo_surrogates(value)


#: a Content-Type longer than this is not handed to the email package's
#: parameter parser (see :func:`parameter`); real ones are under a kilobyte
MAX_PARAMETERS_LENGTH = 8192
# a Content-Type parameter, quoted or not; RFC 2231 forms (name*=) are left to the email package
_PARAMETER = patterns.compile(r';\s*([A-Za-z0-9_.-]+)\s*=\s*(?:"((?>(?:[^"\\]|\\.)*))"|([^;\s"]*))')


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


def parameter(entity: Message, raw: str | None, name: str, *, lower: bool = True) -> str | None:
    """A Content-Type parameter's value, lower case unless ``lower`` is
    false (None when absent), read from the raw value; the email package
    reads the RFC 2231 forms."""
    if raw is None or ";" not in raw:
        return None
    if "*" in raw and len(raw) <= MAX_PARAMETERS_LENGTH:
        # (the email package's parameter parser slices the rest of the value
        # for each parameter: quadratic, so a value past the bound is read here)
        try:
            value = entity.get_param(name)
            if isinstance(value, tuple):
                value = email.utils.collapse_rfc2231_value(value)
        except (ValueError, LookupError, UnicodeError):
            pass  # a charset*=a\x00''... that Python's codecs refuse: only the plain forms are read, below
        else:
            return None if value is None else str(value).lower() if lower else str(value)
    for m in _PARAMETER.finditer(raw):
        if m.group(1).lower() == name:
            quoted = m.group(2)
            # unquoted as email.utils.unquote does
            found = m.group(3) if quoted is None else quoted.replace("\\\\", "\\").replace('\\"', '"')
            return found.lower() if lower else found
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
    every white space removed, delimiters stripped; None when nothing is left.
    The delimiters are peeled by moving two indexes, not by slicing, so that
    a value nested a million ``<`` deep costs one pass."""
    text = _WHITESPACE.sub("", decoded(str(value)))
    start, end = 0, len(text)
    changed = True
    while changed and start < end:
        changed = False
        first, last = text[start], text[end - 1]
        if end - start >= 2 and (first == last == '"' or first == "<" and last == ">"):
            start, end, changed = start + 1, end - 1, True
        if _URL_PREFIX.match(text, start, end):
            start, changed = start + 4, True
    return text[start:end] or None


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
