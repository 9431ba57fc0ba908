"""Defanged indicators read back (``--refang``; ARCHITECTURE.md, Delimiting running text).

Threat-intelligence text "defangs" the URLs, hosts and addresses it names so
that no reader follows them by a click: ``hxxps://login[.]example/x``,
``198.51.100[.]23``, ``abuse(at)example(dot)org``.  No specification names
these forms; the rule table below holds the ones in use (the spellings of
ioc-fanger's sample, of CISA and vendor reports):

================================  ==========================================
written                           read as
================================  ==========================================
``hxxp``, ``hXXp``, ``h**p``      ``http`` (and ``s`` after it kept): a scheme, before ``:``
``fxp``                           ``ftp``
``[.]`` ``(.)`` ``{.}``           ``.``, spaces inside the brackets allowed, and one space either side
``[dot]`` ``(dot)`` ``{dot}``     ``.`` (any case)
``[:]`` ``(:)`` ``[://]``         ``:``, ``://``
``[/]`` ``[//]``                  ``/``, ``//``
``[@]`` ``(@)``                   ``@``
``[at]`` ``(at)``                 ``@``, between an address's local part and its domain only
================================  ==========================================

The text is rewritten by the table (:func:`refang`), with each rewrite's
place on both sides kept, and the scanner reads the rewritten text; a
reference that covers a rewrite is reported as it was written (its ``uri``,
its span), with the rewritten reference as its expansion and the flag
``defanged``.  A reference that covers none is the scanner's own, at its
place in the text as written: text that is not defanged is never changed.

A host, an IPv4 address or a mail address written bare, which the scanner
never takes (it needs a scheme, or ``www.``), is taken when it covers a
rewritten dot or at sign: ``evil[.]example[.]org`` stands for
``http://evil.example.org``, as the abbreviated ``www.`` forms stand for
their ``http:`` URI (rfc2396bis-01 Appendix F), and ``abuse[@]example[.]org``
for ``mailto:abuse@example.org`` (RFC 6068 §2).  A host name's last label
must be a top-level domain (so that ``file[.]exe`` is no host).

Linear: the table is one pattern whose repeats are bounded, and a bare
candidate is grown once around each rewrite, past those it covers.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator
from typing import NamedTuple

from ...model import Flag, Found, Place, Style, new_found
from ...uri import patterns
from ...uri.deceptive import top_level_domains
from .chars import ordered

_DEFANGED, _WRAPPED, _ABBREVIATED = Flag.DEFANGED, Flag.WRAPPED, Style.ABBREVIATED
_TEXT = Place()

# an opening and a closing bracket of any of the three pairs (the writers mix them: "[.)" is a typo, taken)
_OPEN, _CLOSE = r"[\[({]", r"[\])}]"
_TABLE = patterns.compile(
    # a defanged scheme at a word start (or a scheme in brackets: "[http]"), followed by its ":" (defanged
    # or not, a space before it allowed)
    r"(?<![A-Za-z0-9+.\-])(?P<scheme>(?P<bracket>[\[(])?(?:[Hh](?:[Xx]{2}|\*\*|[Tt]{2})[Pp](?P<s>[Ss]?)"
    r"|[Ff](?:[Xx]|[Tt])[Pp](?P<fs>[Ss]?))(?(bracket)[\])]) ?)"
    rf"(?=:|{_OPEN}:)"
    # a dot: bracketed "." or "dot" (a doubled bracket taken), a space allowed inside and, between two
    # letters or digits, outside; "\." between them (a pattern's escaped dot); " DOT " in capitals
    rf"|(?P<dot>(?:(?<=[A-Za-z0-9]) )?{_OPEN}{{1,2}} ?(?:\.|[Dd][Oo][Tt]) ?{_CLOSE}{{1,2}}(?: (?=[A-Za-z0-9]))?"
    r"|(?<=[A-Za-z0-9])(?:\\\.| DOT )(?=[A-Za-z0-9]))"
    # the scheme's colon and slashes
    rf"|(?P<colon>{_OPEN}:(?P<slashes>//)?{_CLOSE}(?: (?=//))?)"
    rf"|(?P<slash>{_OPEN}(?P<two>/)?/{_CLOSE})"
    # an at sign: "@" bracketed anywhere; "at" (or " AT ") only after a local part's character and
    # before a domain's
    rf"|(?P<at>{_OPEN}@{_CLOSE}|(?<=[A-Za-z0-9._%+\-])(?: ?{_OPEN}[Aa][Tt]{_CLOSE} ?| AT )(?=[A-Za-z0-9]))")
# a scheme written defanged, found without --refang: it still gets the flag (hxxp is in IANA's provisional list)
DEFANGED_SCHEME = patterns.compile(r"(?:[Hh](?:[Xx]{2}|\*\*)[Pp]|[Ff][Xx][Pp])[Ss]?:")
# what a bare host, IPv4 address or mail address is made of, once rewritten
_TOKEN_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_%+@")
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_HOST = patterns.compile(rf"(?:{_LABEL}\.){{1,126}}(?P<top>[A-Za-z][A-Za-z0-9-]{{0,62}})")
_IPV4 = patterns.compile(r"(?:(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}"
                         r"|[1-9]?[0-9])")
_LOCAL = patterns.compile(r"[A-Za-z0-9._%+\-]{1,64}")
# a bare host's port, and its path: what follows it up to white space or a delimiter (RFC 3986 Appendix C)
_PORT = patterns.compile(r":[0-9]{1,5}(?![0-9A-Za-z])")
_PATH = patterns.compile(r"[/?#][^\s<>\"'`]*+")
_TRAILING = ".,;:!?)]}'\"*"
# longest bare candidate grown (a DNS name, an address's local part, their dots): past it, nothing is taken
_LONGEST = 64 + 1 + 253


class Edit(NamedTuple):
    """One rewrite: where it stands in the rewritten text and in the text as written."""

    new_start: int
    new_end: int
    old_start: int
    old_end: int
    bare: bool  # a dot or an at sign, around which a bare host or address is looked for


def refang(text: str) -> tuple[str, list[Edit]]:
    """``text`` rewritten by the rule table, and the rewrites, in order
    (none: the text itself)."""
    pieces: list[str] = []
    edits: list[Edit] = []
    done = shift = 0
    for m in _TABLE.finditer(text):
        if m.group("scheme") is not None:
            new = ("ftp" + m.group("fs")) if m.group("fs") is not None else ("http" + m.group("s")).lower()
            if new == m.group().lower():
                continue  # "http:" as it should be: nothing to rewrite
        elif m.group("dot") is not None:
            new = "."
        elif m.group("colon") is not None:
            new = "://" if m.group("slashes") else ":"
        elif m.group("slash") is not None:
            new = "//" if m.group("two") else "/"
        else:
            new = "@"
        start, end = m.span()
        pieces.append(text[done:start])
        pieces.append(new)
        edits.append(Edit(start + shift, start + shift + len(new), start, end, new in (".", "@")))
        shift += len(new) - (end - start)
        done = end
    if not edits:
        return text, edits
    pieces.append(text[done:])
    return "".join(pieces), edits


class Mapping:
    """Offsets in the rewritten text taken back to the text as written."""

    __slots__ = ("edits", "starts")

    def __init__(self, edits: list[Edit]) -> None:
        self.edits = edits
        self.starts = [edit.new_start for edit in edits]

    def old(self, at: int, *, end: bool) -> int:
        """Where ``at`` stands in the text as written; inside a rewrite, its
        start (``end`` False) or its end."""
        k = bisect_right(self.starts, at) - 1
        if k < 0:
            return at
        edit = self.edits[k]
        if at >= edit.new_end:
            return edit.old_end + at - edit.new_end
        return edit.old_end if end and at > edit.new_start else edit.old_start

    def covers(self, start: int, end: int) -> bool:
        """Whether the span ``start:end`` of the rewritten text covers a rewrite."""
        k = bisect_right(self.starts, end - 1) - 1
        return k >= 0 and self.edits[k].new_end > start


def bare(fanged: str, edits: list[Edit]) -> Iterator[Found]:
    """The bare hosts, IPv4 addresses and mail addresses of the rewritten
    text that cover a rewritten dot or at sign, in order, in its offsets."""
    n = len(fanged)
    past = 0  # where the last candidate grown ended: a rewrite before it was looked at with it
    for edit in edits:
        if not edit.bare or edit.new_start < past:
            continue
        start, end = edit.new_start, edit.new_end
        while start > 0 and start > edit.new_start - _LONGEST and fanged[start - 1] in _TOKEN_CHARS:
            start -= 1
        while end < n and end < edit.new_end + _LONGEST and fanged[end] in _TOKEN_CHARS:
            end += 1
        past = end
        if (start and fanged[start - 1] in "/\\:") or (end < n and fanged[end] in _TOKEN_CHARS):
            continue  # part of a path or of a longer run: not a host of its own
        while start < end and fanged[start] in ".-_@":
            start += 1
        while end > start and fanged[end - 1] in ".-_@":
            end -= 1
        found = _candidate(fanged, start, end)
        if found is not None:
            past = max(past, found.end or 0)
            yield found


def _candidate(fanged: str, start: int, end: int) -> Found | None:
    """The bare reference ``fanged[start:end]`` stands for, or None."""
    token = fanged[start:end]
    local, at, host = token.rpartition("@")
    if at and _LOCAL.fullmatch(local) is None:
        return None
    m = _HOST.fullmatch(host)
    if not (_IPV4.fullmatch(host) is not None or (m is not None and m.group("top").lower() in top_level_domains())):
        return None
    if at:
        return new_found(token, start, end, _ABBREVIATED, (_DEFANGED,), (), "mailto:" + token, _TEXT)
    port = _PORT.match(fanged, end)
    if port is not None:
        end = port.end()
    path = _PATH.match(fanged, end)
    if path is not None:
        end = path.end()
        while end > start and fanged[end - 1] in _TRAILING:
            end -= 1
    reference = fanged[start:end]
    return new_found(reference, start, end, _ABBREVIATED, (_DEFANGED,), (), "http://" + reference, _TEXT)


def written(text: str, found: Found, mapping: Mapping) -> Found:
    """``found``, a reference of the rewritten text, at its place in ``text``
    as written: when it covers a rewrite, as it was written, with its
    rewritten reading as its expansion and the flag ``defanged``."""
    start, end = found.start, found.end
    assert start is not None and end is not None
    old_start, old_end = mapping.old(start, end=False), mapping.old(end, end=True)
    if not mapping.covers(start, end):
        return found._replace(start=old_start, end=old_end)
    reference = text[old_start:old_end]
    if _WRAPPED in found.flags:
        reference = "".join(reference.split())
    expanded = found.expanded if found.expanded is not None else found.reference
    return found._replace(reference=reference, start=old_start, end=old_end, expanded=expanded,
                          flags=ordered({*found.flags, _DEFANGED}))
