"""srcset and imagesrcset: the WHATWG "parse a srcset attribute" algorithm
(HTML §4.8.4.3.10), which keeps every candidate it reads.

A URL may hold commas (``img,1.png 1x`` is the URL ``img,1.png``): only a
comma that ends a URL (``a.png,b.png``), or one after the descriptors, ends a
candidate.  Descriptors may hold commas inside parentheses.  A candidate the
standard drops (a repeated or malformed descriptor) is still returned, with
``valid`` False, because a crawler wants to know the URL was there.

Linear: every step moves the position forward.
"""

from __future__ import annotations

from typing import NamedTuple

from ...uri import patterns

_SPACE = "\t\n\x0c\r "
_SKIP_SPACE_COMMA = patterns.compile(r"[\t\n\x0c\r ,]*")
_URL_RUN = patterns.compile(r"[^\t\n\x0c\r ]*")
# "valid non-negative integer" and "valid floating-point number" (HTML §2.3.4.1, §2.3.4.3)
_INTEGER = patterns.compile(r"[0-9]+")
_FLOAT = patterns.compile(r"-?(?:[0-9]+(?:\.[0-9]+)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")


class Candidate(NamedTuple):
    """One image candidate: its URL, where the URL starts in the value, its
    descriptors as written, and whether the standard keeps it."""

    url: str
    start: int
    descriptors: tuple[str, ...]
    valid: bool


def parse_srcset(value: str) -> list[Candidate]:
    """Every candidate of a srcset value, in order."""
    candidates: list[Candidate] = []
    position, end = 0, len(value)
    while True:
        # splitting loop: white space and commas between candidates
        m = _SKIP_SPACE_COMMA.match(value, position)
        assert m is not None
        position = m.end()
        if position >= end:
            return candidates
        start = position
        m = _URL_RUN.match(value, position)
        assert m is not None
        url, position = m.group(), m.end()
        descriptors: list[str] = []
        if url.endswith(","):
            url = url.rstrip(",")
        else:
            position = _tokenize_descriptors(value, position, descriptors)
        candidates.append(Candidate(url, start, tuple(descriptors), _descriptors_valid(descriptors)))


def _tokenize_descriptors(value: str, position: int, descriptors: list[str]) -> int:
    """The descriptor tokenizer: appends the descriptors, returns the position
    after the candidate (past its comma, if any)."""
    end = len(value)
    while position < end and value[position] in _SPACE:
        position += 1
    current: list[str] = []
    state = "in"
    while position < end:
        c = value[position]
        if state == "in":
            if c in _SPACE:
                if current:
                    descriptors.append("".join(current))
                    current = []
                state = "after"
            elif c == ",":
                position += 1
                break
            elif c == "(":
                current.append(c)
                state = "parens"
            else:
                current.append(c)
        elif state == "parens":
            current.append(c)
            if c == ")":
                state = "in"
        elif c not in _SPACE:  # after a descriptor: reconsume in "in"
            state = "in"
            continue
        position += 1
    if current:
        descriptors.append("".join(current))
    return position


def _descriptors_valid(descriptors: list[str]) -> bool:
    """The descriptor parser's verdict: at most one width (``100w``) or
    density (``1.5x``), a height (``100h``) only beside a width."""
    width = density = height = False
    for descriptor in descriptors:
        number, kind = descriptor[:-1], descriptor[-1:]
        if kind == "w":
            if width or density or _INTEGER.fullmatch(number) is None or int(number) == 0:
                return False
            width = True
        elif kind == "x":
            if width or density or height or _FLOAT.fullmatch(number) is None or float(number) < 0:
                return False
            density = True
        elif kind == "h":
            if height or density or _INTEGER.fullmatch(number) is None or int(number) == 0:
                return False
            height = True
        else:
            return False
    return not (height and not width)
