"""The HTML ``<meta>`` prescan: the charset a document declares in its first
bytes, found the way browsers find it (WHATWG HTML §13.2.3.2, "prescan a byte
stream to determine its encoding"), before anything is decoded.

It is the ``sniff`` step of :func:`urisift.stages.charset.choose` for HTML: below a
byte-order mark and a charset the container declares (HTTP, MIME), above
detection.  Labels are resolved by the WHATWG Encoding Standard's table
(``webencodings``), so ``ISO-8859-1`` means windows-1252, as it does in every
browser.

The walk reads each byte at most a bounded number of times: every step moves
forward, and the only searches (``-->``, ``>``) start where the walk is.
"""

from __future__ import annotations

import webencodings

#: How far into the document the prescan looks.  The standard asks for at
#: least 1024 bytes and lets a parser that finds a <meta> later change the
#: encoding and start again; urisift decodes once, so it looks as far as the
#: charset sample (html5lib's vectors put the <meta> after 8 KiB of comment).
PRESCAN_LIMIT = 64 * 1024

_SPACE = b"\t\n\x0c\r "
_SPACE_OR_SLASH = _SPACE + b"/"
_LETTERS = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def encoding_of(label: str) -> str | None:
    """The WHATWG encoding name a label means ("get an encoding"), or None."""
    encoding = webencodings.lookup(label)
    return None if encoding is None else encoding.name


def prescan(data: bytes, limit: int = PRESCAN_LIMIT) -> str | None:
    """The encoding the first ``limit`` bytes of an HTML document declare in a
    ``<meta charset>`` or ``<meta http-equiv=content-type content=...>``,
    as a WHATWG encoding name; None when they declare none that is usable."""
    data = data[:limit]
    if b"charset" not in data.lower():
        # both ways of declaring one (<meta charset>, and content="...charset=")
        # spell it out: without the word the walk cannot succeed, so spare it
        return None
    n = len(data)
    pos = 0
    while pos < n:
        if data.startswith(b"<!--", pos):
            end = data.find(b"-->", pos + 2)  # "<!-->" closes itself: its dashes count
            if end == -1:
                return None
            pos = end + 3
        elif data[pos : pos + 5].lower() == b"<meta" and data[pos + 5 : pos + 6] and data[pos + 5] in _SPACE_OR_SLASH:
            encoding, pos = _meta(data, pos + 6)
            if encoding is not None:
                return encoding
        elif (data.startswith(b"<", pos) and data[pos + 1 : pos + 2] and data[pos + 1] in _LETTERS) or (
                data.startswith(b"</", pos) and data[pos + 2 : pos + 3] and data[pos + 2] in _LETTERS):
            # a tag: skip its name, then its attributes
            pos += 1
            while pos < n and data[pos] not in _SPACE and data[pos] != 0x3E:
                pos += 1
            while True:
                attribute, pos = _attribute(data, pos)
                if attribute is None:
                    break
        elif data.startswith((b"<!", b"</", b"<?"), pos):
            end = data.find(b">", pos + 1)
            if end == -1:
                return None
            pos = end + 1
        else:
            # nothing starts here: on to the next "<" (one search, not a step a byte)
            pos = data.find(b"<", pos + 1)
            if pos == -1:
                return None
    return None


def _meta(data: bytes, pos: int) -> tuple[str | None, int]:
    """The attributes of a ``<meta`` element (after "<meta" and one space or
    slash): the encoding it declares, and where the walk goes on."""
    seen: set[bytes] = set()
    got_pragma = False
    need_pragma: bool | None = None
    charset: str | None = None
    while True:
        attribute, pos = _attribute(data, pos)
        if attribute is None:
            break
        name, value = attribute
        if name in seen:
            continue
        seen.add(name)
        if name == b"http-equiv":
            if value == b"content-type":
                got_pragma = True
        elif name == b"content":
            if charset is None:
                label = _charset_in_content(value)
                potential = None if label is None else encoding_of(label.decode("latin-1"))
                if potential is not None:
                    charset, need_pragma = potential, True
        elif name == b"charset":
            charset = encoding_of(value.decode("latin-1"))
            need_pragma = False
    if need_pragma is None or (need_pragma and not got_pragma) or charset is None:
        return None, pos
    if charset in ("utf-16be", "utf-16le"):
        return "utf-8", pos  # a byte stream that could be read this far is not UTF-16
    if charset == "x-user-defined":
        return "windows-1252", pos
    return charset, pos


def _attribute(data: bytes, pos: int) -> tuple[tuple[bytes, bytes] | None, int]:
    """"Get an attribute": the next attribute's lower-case name and value, and
    where the walk goes on; None at the end of the tag (or of the data)."""
    n = len(data)
    while pos < n and (data[pos] in _SPACE_OR_SLASH):
        pos += 1
    if pos >= n or data[pos] == 0x3E:  # ">"
        return None, pos
    name = bytearray()
    value = bytearray()
    while True:
        if pos >= n:
            return None, pos
        c = data[pos]
        if c == 0x3D and name:  # "=" after a name
            pos += 1
            break
        if c in _SPACE:
            while pos < n and data[pos] in _SPACE:
                pos += 1
            if pos >= n or data[pos] != 0x3D:
                return (bytes(name), b""), pos
            pos += 1
            break
        if c in b"/>":
            return (bytes(name), b""), pos
        name.append(c + 0x20 if 0x41 <= c <= 0x5A else c)
        pos += 1
    while pos < n and data[pos] in _SPACE:
        pos += 1
    if pos >= n:
        return None, pos
    c = data[pos]
    if c in b"\"'":
        end = data.find(bytes([c]), pos + 1)
        if end == -1:
            return None, n
        raw = data[pos + 1 : end]
        return (bytes(name), raw.lower()), end + 1  # bytes.lower() folds ASCII letters only
    if c == 0x3E:
        return (bytes(name), b""), pos
    while pos < n and data[pos] not in _SPACE and data[pos] != 0x3E:
        d = data[pos]
        value.append(d + 0x20 if 0x41 <= d <= 0x5A else d)
        pos += 1
    if pos >= n:
        return None, pos
    return (bytes(name), bytes(value)), pos


def _charset_in_content(value: bytes) -> bytes | None:
    """"Extract a character encoding from a meta element": the label after
    ``charset=`` in a ``content`` value, or None."""
    pos = 0
    n = len(value)
    while True:
        k = value.find(b"charset", pos)
        if k == -1:
            return None
        pos = k + 7
        while pos < n and value[pos] in _SPACE:
            pos += 1
        if pos < n and value[pos] == 0x3D:  # "="
            pos += 1
            break
        # not followed by "=": look for the next "charset"
    while pos < n and value[pos] in _SPACE:
        pos += 1
    if pos >= n:
        return None
    c = value[pos]
    if c in b"\"'":
        end = value.find(bytes([c]), pos + 1)
        return None if end == -1 else value[pos + 1 : end]
    end = pos
    while end < n and value[end] not in _SPACE and value[end] != 0x3B:  # ";"
        end += 1
    return value[pos:end]
