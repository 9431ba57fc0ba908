"""Regular expressions that give nothing back, on every CPython the package
accepts.

A repeat that may give back what it took keeps a mark each turn (a 10 MB
``url()`` took 1.4 GB), so the scanners repeat their groups possessively,
``(?:...)*+``.  CPython before 3.11.5 (Debian 12's python3 is 3.11.2)
matches a possessive repeat of a group wrongly (python/cpython gh-100061,
gh-106052: ``(?:[a-z.]++|(?<=x)y)*+`` stops one character short, and every
bare URL lost its last character).  An atomic group around a greedy repeat,
``(?>(?:...)*)``, means the same and is matched right by every version, but
keeps a mark each turn until the group ends.

So the patterns are written atomic, the form that is right everywhere, and
:func:`compile` turns each atomic group that holds one repeated group alone
back into that group's possessive repeat where the engine matches it right
(3.11.5 and later): the same matches, and no mark a turn.  On an older engine
the atomic form stands: the same records, more memory on a long run.
"""

from __future__ import annotations

import os
import re
import sys
from functools import lru_cache
from typing import AnyStr

#: whether this engine matches a possessive repeat of a group right (URISIFT_REGEX_OLD_ENGINE=1 compiles
#: the patterns as for an engine that does not, on any engine: the test that no pattern reaches one so)
POSSESSIVE_GROUPS = sys.version_info >= (3, 11, 5) and not os.environ.get("URISIFT_REGEX_OLD_ENGINE")

_QUANTIFIER = re.compile(r"[*+?]|\{[0-9]*+(?:,[0-9]*+)?\}")


def compile(pattern: AnyStr, flags: int = 0) -> re.Pattern[AnyStr]:  # noqa: A001 - re.compile's own name
    """``re.compile(pattern, flags)``, each ``(?>GROUP Q)`` made ``GROUP Q+``
    where :data:`POSSESSIVE_GROUPS` (see the module doc), and each ``GROUP Q+``
    made ``(?>GROUP Q)`` where not: every module compiles its patterns here,
    so that a possessive repeat of a group, however it is written, never
    reaches an engine that matches it wrong."""
    return re.compile(possessive(pattern) if POSSESSIVE_GROUPS else atomic(pattern), flags)


@lru_cache(maxsize=256)
def atomic(pattern: AnyStr) -> AnyStr:
    """``pattern`` with each possessive repeat of a group written as an atomic
    group around the greedy repeat (what CPython 3.11.5 made of it)."""
    text = pattern.decode("latin-1") if isinstance(pattern, bytes) else pattern
    out = _atomic(text)
    return out.encode("latin-1") if isinstance(pattern, bytes) else out  # type: ignore[return-value]


def _atomic(text: str) -> str:
    parts = []
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c == "\\":
            parts.append(text[i:i + 2])
            i += 2
        elif c == "[":
            end = _class_end(text, i)
            parts.append(text[i:end + 1])
            i = end + 1
        elif c == "(":
            end = _closing(text, i)
            head = _group_head(text, i, end)
            group = text[i:i + head] + _atomic(text[i + head:end]) + ")"
            quantifier = _QUANTIFIER.match(text, end + 1)
            if quantifier is not None and text[quantifier.end():quantifier.end() + 1] == "+":
                parts.append(f"(?>{group}{quantifier.group()})")
                i = quantifier.end() + 1
            else:
                parts.append(group)
                i = end + 1
        else:
            parts.append(c)
            i += 1
    return "".join(parts)


@lru_cache(maxsize=256)
def possessive(pattern: AnyStr) -> AnyStr:
    """``pattern`` with each atomic group that holds exactly one group and its
    quantifier written as that group's possessive repeat."""
    text = pattern.decode("latin-1") if isinstance(pattern, bytes) else pattern
    out = _possessive(text)
    return out.encode("latin-1") if isinstance(pattern, bytes) else out  # type: ignore[return-value]


def _group_head(text: str, at: int, end: int) -> int:
    """The length of what opens the group at ``at`` before its content: "("
    of a capturing group, "(?:", "(?<=", "(?P<name>", "(?i:" ...; the whole
    group where it has no content to look into (a comment, a backreference,
    global flags, a conditional)."""
    if text[at + 1:at + 2] != "?":
        return 1
    if text.startswith(("(?:", "(?>", "(?=", "(?!"), at):
        return 3
    if text.startswith(("(?<=", "(?<!"), at):
        return 4
    if text.startswith("(?P<", at):
        return text.index(">", at) + 1 - at
    colon = text.find(":", at, end)
    if colon != -1 and all(c in "aiLmsux-" for c in text[at + 2:colon]):
        return colon + 1 - at  # scoped flags, "(?i:"
    return end - at  # (left as it is)


def _atomic_start(text: str, at: int) -> int:
    """Where the next atomic group opens at or after ``at`` (escapes and
    character classes passed over), or -1."""
    n = len(text)
    i = at
    while i < n:
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c == "[":
            i = _class_end(text, i)
        elif text.startswith("(?>", i):
            return i
        i += 1
    return -1


def _class_end(text: str, i: int) -> int:
    """The index of the "]" that ends the character class opening at ``i``."""
    n = len(text)
    i += 1
    if i < n and text[i] == "^":
        i += 1
    if i < n and text[i] == "]":
        i += 1  # a "]" first in a class is a member
    while i < n and text[i] != "]":
        i += 2 if text[i] == "\\" else 1
    return i


def _possessive(text: str) -> str:
    parts = []
    at = 0
    while True:
        start = _atomic_start(text, at)
        if start == -1:
            parts.append(text[at:])
            return "".join(parts)
        end = _closing(text, start)  # the atomic group's ")"
        inner = text[start + 3:end]
        group_end = _closing(text, 0, inner) if inner.startswith("(") else -1
        quantifier = _QUANTIFIER.fullmatch(inner, group_end + 1) if group_end != -1 else None
        if quantifier is None:
            parts.append(text[at:start + 3])
            at = start + 3
            continue
        parts.append(text[at:start])
        parts.append(_possessive(inner[:group_end + 1]) + inner[group_end + 1:] + "+")
        at = end + 1


def _closing(text: str, start: int, within: str | None = None) -> int:
    """The index of the ")" that closes the group opening at ``start`` (in
    ``within`` when given): escapes and character classes are passed over."""
    s = text if within is None else within
    depth = 0
    i = start
    n = len(s)
    while i < n:
        c = s[i]
        if c == "\\":
            i += 2
            continue
        if c == "[":
            i = _class_end(s, i)
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    raise ValueError(f"unbalanced group at {start} in {s!r}")
