"""``<meta http-equiv=refresh content=...>``: the URL the WHATWG "shared
declarative refresh steps" find in the content (HTML §4.2.5.3, "Refresh").

``5; URL='x'``, ``0,x``, ``0 url = "x"`` and ``0;x`` all name ``x``; a time
with no URL refreshes the document itself and names none.
"""

from __future__ import annotations

_SPACE = "\t\n\x0c\r "
_DIGITS = "0123456789"


def _skip(value: str, position: int, chars: str) -> int:
    end = len(value)
    while position < end and value[position] in chars:
        position += 1
    return position


def refresh_url(content: str) -> tuple[str, int] | None:
    """The URL string of a refresh value and where it starts in ``content``,
    or None when the value names no URL (or is not a refresh value)."""
    end = len(content)
    position = _skip(content, 0, _SPACE)
    digits_end = _skip(content, position, _DIGITS)
    if digits_end == position and content[position:position + 1] != ".":
        return None
    position = _skip(content, digits_end, _DIGITS + ".")
    if position < end:
        if content[position] not in ";," + _SPACE:
            return None
        position = _skip(content, position, _SPACE)
        if position < end and content[position] in ";,":
            position += 1
        position = _skip(content, position, _SPACE)
    if position >= end:
        return None
    url_start = position
    # "URL", white space, "=", white space: each step may be missing, and
    # then the URL starts where the first of them would have
    if content[position] in "Uu":
        if content[position + 1:position + 2] in ("R", "r") and content[position + 2:position + 3] in ("L", "l"):
            position = _skip(content, position + 3, _SPACE)
            if content[position:position + 1] == "=":
                position = _skip(content, position + 1, _SPACE)
                return _unquoted(content, position)
        return _trimmed(content, url_start)
    return _unquoted(content, position)


def _unquoted(content: str, position: int) -> tuple[str, int] | None:
    """The "skip quotes" step: a leading quote ends the URL at its match."""
    quote = content[position:position + 1]
    if quote in ("'", '"'):
        position += 1
        close = content.find(quote, position)
        if close >= 0:
            return _trimmed(content[:close], position)
    return _trimmed(content, position)


def _trimmed(content: str, position: int) -> tuple[str, int] | None:
    """The URL parser strips leading and trailing C0 controls and spaces."""
    end = len(content)
    while position < end and content[position] <= " ":
        position += 1
    while end > position and content[end - 1] <= " ":
        end -= 1
    return (content[position:end], position) if end > position else None
