"""Character classes and the end-of-reference rules every delimiting rule shares.

Linear time: every pattern here is a literal, a lookaround of fixed width, or a
single character class under ``*``/``+`` followed by nothing that could make
the engine give characters back and retry in a different split.
"""

from __future__ import annotations

import re

from ..model import Flag

# Characters that end a bare URI: whitespace, the delimiters of Appendix E, the
# characters RFC 3986 never allows ("{}|\^`"), controls, and the typographic
# and CJK punctuation that surrounds URIs in prose.
STOP = (
    r"\s<>\"{}|\\^`\x00-\x1f\x7f"
    "\u201c\u201d\u2018\u2019\u00ab\u00bb\u2039\u203a"  # “ ” ‘ ’ « » ‹ ›
    "\u3001\u3002\uff0c\uff0e\uff1a\uff1b\uff01\uff1f\u300c\u300d\u300e\u300f"  # 、。，．：；！？「」『』
    "\uff08\uff09\u3010\u3011\u3008\u3009\u300a\u300b"  # （）【】〈〉《》
)
# *( any character that may stand in a URI in running text ) -- one class, so linear
_BODY = re.compile(f"[^{STOP}]*")

# scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
SCHEME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-.")
# a scheme at the start of a delimited string
LEADING_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
# white space (any, including line breaks)
WS = re.compile(r"\s+")
HAS_WS = re.compile(r"\s")
HAS_ALNUM = re.compile(r"[^\W_]")

TRAILING_PUNCT = frozenset(".,;:!?'\"\u2019\u201d\u00bb\u203a")
_CLOSERS = {")": "(", "]": "[", "}": "{"}
TRIMMABLE = TRAILING_PUNCT | frozenset(_CLOSERS)

_ORDER = {f: i for i, f in enumerate(Flag)}


def body_end(text: str, pos: int) -> int:
    """Where a run of URI characters starting at ``pos`` ends."""
    m = _BODY.match(text, pos)
    assert m is not None  # "*" matches the empty string too
    return m.end()


def ordered(flags: set[Flag] | list[Flag]) -> tuple[Flag, ...]:
    """Flags in their declaration order (records list them stably)."""
    return tuple(sorted(flags, key=_ORDER.__getitem__))


def trim(text: str, start: int, end: int) -> tuple[int, set[Flag]]:
    """Leave out trailing punctuation and unbalanced closing brackets (DESIGN §3).

    Returns the new end and the flags that apply.  Linear: the bracket counts
    are taken once and updated as characters are dropped.
    """
    flags: set[Flag] = set()
    if end > start and text[end - 1] not in TRIMMABLE:
        return end, flags  # the common case, decided at once
    counts: dict[str, int] | None = None
    while end > start:
        c = text[end - 1]
        if c in TRAILING_PUNCT:
            end -= 1
            flags.add(Flag.TRIMMED)
            continue
        opener = _CLOSERS.get(c)
        if opener is not None:
            if counts is None:
                seg = text[start:end]
                counts = {k: seg.count(k) for k in "()[]{}"}
            if counts[c] > counts[opener]:
                counts[c] -= 1
                end -= 1
                flags.add(Flag.UNBALANCED)
                continue
        break
    return end, flags
