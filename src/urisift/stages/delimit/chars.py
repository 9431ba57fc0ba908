"""Character classes and the end-of-reference rules every delimiting rule shares.

Linear time: every pattern here is a literal, a lookaround of fixed width, or a
single character class under ``*``/``+`` followed by nothing that could make
the engine give characters back and retry in a different split.
"""

from __future__ import annotations

import re
from importlib import resources

from ...model import Flag
from ...uri import patterns
from ...uri.grammar import SCHEME


def _unicode_stops() -> str:
    """The ranges of ``data/unicode-stops.txt`` as a regex class body: format
    characters (Cf: bidi controls, zero-width space and joiners, U+FEFF, which
    RFC 3987 §4.1 forbids in IRIs) and opening, closing, initial and final
    punctuation (Ps, Pe, Pi, Pf: （）【】「」“”‘’«» ...), generated from the
    Unicode database rather than listed by hand."""
    text = resources.files("urisift").joinpath("data/unicode-stops.txt").read_text("utf-8")
    parts = []
    for line in text.splitlines():
        if line and not line.startswith("#"):
            first, _, last = line.split()[0].partition("..")
            low, high = int(first, 16), int(last or first, 16)
            # the characters themselves, not \\U escapes: the regex parser reads
            # an escape a dozen times slower, and these classes stand in every
            # scanner pattern (20 ms of every run's start)
            parts.append(_in_class(low) if low == high else f"{_in_class(low)}-{_in_class(high)}")
    return "".join(parts)


def _in_class(code: int) -> str:
    """Code point ``code`` as it stands inside a regex character class."""
    return re.escape(chr(code)) if code < 0x80 else chr(code)


# Characters that end a bare URI: whitespace, the delimiters of Appendix E, the
# characters RFC 3986 never allows ("{}\^`"; "|" is kept between URI characters,
# see TRAILING_PUNCT), C0 and C1 controls, the Unicode classes above, the
# fullwidth forms of the ASCII stops, and the CJK punctuation that surrounds
# URIs in prose without spaces.
STOP = (
    r"\s<>\"{}\\^`\x00-\x1f\x7f-\x9f"
    + _unicode_stops()
    + "\uff1c\uff1e\uff02\uff07\uff5c\uff3c\uff3e\uff40"  # ＜＞＂＇｜＼＾｀
    + "\u3001\u3002\uff0c\uff0e\uff1a\uff1b\uff01\uff1f"  # 、。，．：；！？
)
# *( any character that may stand in a URI in running text, but brackets ).
# Printable ASCII but the stops and brackets is one small class, a bitmap test
# per character; the large class of Unicode stops is consulted only for what
# is not ASCII (measured: 0.4 µs against 1.2 µs for a 50-character URI as one
# class).  The ASCII branch is possessive, the repeat of the branches atomic
# (a possessive repeat of a group, "(?:...)*+", loses its last character on
# CPython before 3.11.5, Debian 12's among them), and each step takes at least
# one character: linear.  Brackets are taken one by one by :func:`body_end`.
#
# The format characters among the stops end a URI (RFC 3987 §4.1: bidi
# controls must not be in an IRI, and they are how a link is disguised), but
# the zero-width non-joiner and joiner are letters' business in the scripts
# that need them -- Persian "می‌خواهم", Malayalam chillu "ന്‍", Indic
# conjuncts after a virama (RFC 5892 Appendix A.1, A.2): one of them right
# after a character that is not ASCII (a letter or a virama) and before
# another URI character is kept.  Between ASCII letters it still ends the URI.
_JOINER = r"(?<=[^\x00-\x7f" + STOP + r"])[\u200c\u200d](?=[^" + STOP + r"])"
BODY = r"(?>(?:[!#-'*-;=?-Z_a-z|~]++|[^\x00-\x7f" + STOP + r"]|" + _JOINER + r")*)"
_BODY = patterns.compile(BODY)
# a URI with more brackets than this ends at the next one: no URI has so many,
# and the bound keeps a megabyte of brackets from costing a Python step each
MAX_BRACKETS = 256
_OPENER_OF = {")": "(", "]": "["}

# scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
SCHEME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-.")
# a scheme at the start of a delimited string
LEADING_SCHEME = patterns.compile(f"{SCHEME}:")
# white space (any, including line breaks)
WS = patterns.compile(r"\s+")
HAS_WS = patterns.compile(r"\s")
HAS_ALNUM = patterns.compile(r"[^\W_]")

# left out at the end of a bare URI: sentence punctuation, quotes, an ellipsis or
# a dash after it, and "|" (kept only between URI characters)
TRAILING_PUNCT = frozenset(".,;:!?'\"\u2019\u201d\u00bb\u203a\u2026\u2014|")
TRIMMABLE = TRAILING_PUNCT | frozenset(")]")
_TRAILING_RUN = patterns.compile("[" + re.escape("".join(sorted(TRAILING_PUNCT))) + "]*+")

_ORDER = {f: i for i, f in enumerate(Flag)}
# what another reference starts with: a scheme and its colon, or www./ftp.
_LEADING_NAME = patterns.compile(rf"{SCHEME}+:|(?:[Ww]{{3}}|[Ff][Tt][Pp])\.")


def body_end(text: str, pos: int, run: re.Pattern[str] = _BODY, openers: str = "([", start: int | None = None
             ) -> int:
    """Where a run of URI characters starting at ``pos`` ends, by the bracket
    rule: a closing ")" or "]" belongs to the URI only when it closes the
    innermost bracket opened inside it (a stack, not a count), and the URI
    ends before the first one that does not -- ``[a](http://x/a)[b](http://y/b)``
    holds two URIs, ``http://x/Mercury_(planet)`` one.  Stopping there, not
    at the end of the run, is what keeps ``http://a/b)http://a/b)...`` linear:
    no character is scanned for two URIs.  ``run`` matches URI characters but
    brackets; ``openers`` are the brackets that may open (a URN has "(" only).

    A ")" that closes nothing but is not at the end -- more of the path
    follows it, ``www.example.com/search?q=(a))+ok`` -- is kept, as GFM's
    extended autolinks keep it (they trim only trailing unmatched ")"); the
    URI still ends there when what follows is only trailing punctuation, a
    bracket, or the scheme of another URI, or when the URI (starting at
    ``start``) stands right after a "(" that this ")" closes, quotes
    between them or not: ``(http://x/a)b``, ``[a](http://x/a)more``,
    ``urlopen('http://x/').read()``.  (URIs in ``run`` only: not URNs.)
    """
    stack: list[str] = []
    keep_closer = run is _BODY and not _opened_before(text, start)
    match = run.match
    n = len(text)
    seen = 0
    while True:
        pos = match(text, pos).end()  # type: ignore[union-attr]  # "*+" always matches
        if pos >= n:
            return pos
        c = text[pos]
        if c in openers:
            stack.append(c)
        elif c in ")]" and stack and stack[-1] == _OPENER_OF[c]:
            stack.pop()
        elif not (c == ")" and keep_closer and _path_goes_on(text, pos + 1)):
            return pos
        seen += 1
        if seen > MAX_BRACKETS:
            return pos
        pos += 1


def _opened_before(text: str, start: int | None) -> bool:
    """Whether a "(" stands right before the URI starting at ``start``, or
    before the quotes that open it: ``(http://x/a)b``,
    ``urlopen('http://x/').read()``."""
    if not start:
        return False
    at = start - 1
    while at > 0 and text[at] in _OPENING_QUOTES:
        at -= 1
    return text[at] == "("


_OPENING_QUOTES = "'\"\u2018\u201c"


def _path_goes_on(text: str, at: int) -> bool:
    """Whether the URI characters from ``at`` (after a ")" that closes
    nothing) hold more than trailing punctuation and start no scheme."""
    end = _BODY.match(text, at).end()  # type: ignore[union-attr]  # "*+" always matches
    if end == at or _LEADING_NAME.match(text, at, end) is not None:
        return False
    return any(c not in TRAILING_PUNCT for c in text[at:end])


def ordered(flags: set[Flag] | list[Flag]) -> tuple[Flag, ...]:
    """Flags in their declaration order (records list them stably)."""
    if len(flags) < 2:  # (most sets of flags: none or one, already in order, not sorted)
        return tuple(flags)
    return tuple(sorted(flags, key=_ORDER.__getitem__))


def _first_opening_apostrophe(text: str, start: int, end: int) -> int:
    """The first apostrophe in ``text[start:end]`` that opens a quotation
    (at the start, or after a character that is not alphanumeric), or -1."""
    k = text.find("'", start, end)
    while k != -1:
        if k == start or not text[k - 1].isalnum():
            return k
        k = text.find("'", k + 1, end)
    return -1


def trim(text: str, start: int, end: int) -> tuple[int, set[Flag]]:
    """Leave out trailing punctuation (ARCHITECTURE.md, Delimiting running text) from a run that
    :func:`body_end` delimited.

    Returns the new end and the flags that apply: ``unbalanced`` when the
    run ended at a closing bracket that was not its own, ``trimmed`` when
    punctuation was left out.  An apostrophe is kept when it closes one
    opened inside the URI (``.../blah_'quoted'``), as brackets are.
    """
    flags: set[Flag] = set()
    if text[end : end + 1] in (")", "]"):
        flags.add(Flag.UNBALANCED)  # the run ended at a closing bracket that was not its own
    if end > start and text[end - 1] not in TRAILING_PUNCT:
        return end, flags  # the common case, decided at once
    # the run of trailing punctuation, found in one pass over the reversed
    # segment (a megabyte of dots costs one C loop, not a Python loop)
    run = _TRAILING_RUN.match(text[end - 1 : start - 1 if start else None : -1])
    assert run is not None
    cut = end - run.end()
    # An apostrophe in the run is kept when it closes one opened inside the
    # URI: an opening one stands after a character that is not alphanumeric
    # ("blah_'quoted'"); one inside a word is an elision ("it's").
    k = text.rfind("'", cut, end)
    apostrophes = text.count("'", start, end) if k != -1 else 0
    opener = _first_opening_apostrophe(text, start, k) if k != -1 else -1
    while k != -1:
        if apostrophes % 2 == 0 and 0 <= opener < k:
            cut = k + 1
            break
        apostrophes -= 1
        k = text.rfind("'", cut, k)
    if cut < end:
        flags.add(Flag.TRIMMED)
    return cut, flags
