"""URLs in CSS: ``url()`` in all its forms, ``@import "x"``, and the strings
of ``image-set()`` (CSS Syntax 3 §4.3.6 "consume a url token", §4.3.5
strings; CSS Cascade 4 §2 @import; CSS Images 4 §2.2 image-set()).

Comments and strings outside those places are skipped as the tokenizer
skips them, so ``content: "url(x)"`` and ``/* url(x) */`` name nothing.
Escapes are decoded (``\\28`` is ``(``).  One regex with disjoint
alternatives, each consuming what it matches: linear in the input.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

_COMMON = r"""
      (?P<comment>/\*.*?(?:\*/|\Z))
    | (?P<string>"(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?)
    | (?P<import>@import[\t\n\x0c\r ]*(?=["']))
    | (?P<imageset>(?:-webkit-)?image-set\()
    | (?P<url>url\([\t\n\x0c\r ]*)
"""
# what the scan stops at; everything between is skipped by the regex engine, in C
_TOKENS = re.compile(_COMMON, re.IGNORECASE | re.DOTALL | re.VERBOSE)
# inside image-set(): parentheses too, to find its closing one
_IN_IMAGE_SET = re.compile(_COMMON + r"| (?P<open>\() | (?P<close>\))", re.IGNORECASE | re.DOTALL | re.VERBOSE)
# the rest of url( when its argument is not a string: a url token (§4.3.6)
_URL_TOKEN = re.compile(
    r"((?:[^\"'()\\\t\n\x0c\r ]|\\[0-9A-Fa-f]{1,6}[\t\n\x0c\r ]?|\\[^0-9A-Fa-f])*)[\t\n\x0c\r ]*(\))?", re.DOTALL)
_STRING_ARGUMENT = re.compile(r"""("(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?)[\t\n\x0c\r ]*""", re.DOTALL)
_ESCAPE = re.compile(r"\\(?:([0-9A-Fa-f]{1,6})[\t\n\x0c\r ]?|(\n)|(.))", re.DOTALL)


class CssUrl(NamedTuple):
    """A URL found in CSS: its value (escapes decoded), where it starts in
    the CSS text, and what named it (``url``, ``import``, ``image-set``)."""

    url: str
    start: int
    via: str


def _unescape_one(m: re.Match[str]) -> str:
    hex_digits, newline, char = m.groups()
    if hex_digits is not None:
        code = int(hex_digits, 16)
        return "\ufffd" if code == 0 or 0xD800 <= code <= 0xDFFF or code > 0x10FFFF else chr(code)
    if newline is not None:
        return ""  # an escaped line break continues a string (§4.3.5)
    return char or ""


def unescape(text: str) -> str:
    """CSS escapes decoded (§4.3.7 "consume an escaped code point")."""
    return _ESCAPE.sub(_unescape_one, text) if "\\" in text else text


def _string_value(token: str) -> str:
    body = token[1:-1] if len(token) >= 2 and token[-1] == token[0] else token[1:]
    return unescape(body)


def css_urls(css: str) -> Iterator[CssUrl]:
    """Every URL in a style sheet or a ``style=""`` declaration block, in order."""
    position, end = 0, len(css)
    image_set_depth = 0  # parentheses open inside an image-set(); 0: not in one
    while position < end:
        m = (_IN_IMAGE_SET if image_set_depth else _TOKENS).search(css, position)
        if m is None:
            return
        kind = m.lastgroup
        position = m.end()
        if kind == "url":
            found, position, closed = _url_argument(css, position)
            if found is not None:
                yield found
            if image_set_depth and not closed:
                image_set_depth += 1  # a bad url: the tokenizer skips to its ")" (§4.3.14)
        elif kind == "import":
            s = _STRING_ARGUMENT.match(css, position)
            assert s is not None
            yield CssUrl(_string_value(s.group(1)), s.start(1) + 1, "import")
            position = s.end()
        elif kind == "imageset":
            image_set_depth += 1
        elif kind == "string":
            if image_set_depth == 1:
                yield CssUrl(_string_value(m.group()), m.start() + 1, "image-set")
        elif kind == "open":
            image_set_depth += 1
        elif kind == "close":
            image_set_depth -= 1


def _url_argument(css: str, position: int) -> tuple[CssUrl | None, int, bool]:
    """The argument of ``url(`` at ``position``: the URL found (None for a bad
    url token), where the scan goes on, and whether the ")" was consumed."""
    s = _STRING_ARGUMENT.match(css, position)
    if s is not None and s.group(1):
        # url("x") is a function whose argument is a string token: its ")" is
        # an ordinary close parenthesis
        return CssUrl(_string_value(s.group(1)), s.start(1) + 1, "url"), s.end(), False
    t = _URL_TOKEN.match(css, position)
    assert t is not None
    if t.group(2) is not None or t.end() == len(css):
        return CssUrl(unescape(t.group(1)), position, "url"), t.end(), True
    return None, position, False
