"""GitHub's extended autolinks in a Markdown document's prose (the GFM
spec's autolinks extension): what CommonMark leaves as text and GitHub
renders as a link, a bare URL, a ``www.`` and an e-mail address.  The URLs
are the text scanner's finds; the e-mail addresses and the rule for a
trailing entity reference are GFM's own."""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Iterator

from ...model import Found, Place, Style, Where, new_found
from ...stages.delimit import Scanner, may_hold_reference
from ...uri import patterns

LINK = Place(Where.MARKDOWN, "a", "href")
# GFM's extended e-mail autolink: local part, "@", labels of letters, digits, "-" and "_" separated by
# dots (one at least); found from each "@", each side matched once (linear: no run is read twice)
_LOCAL_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-")
# an "@" before a label and a dot: the only ones that may start a domain (the rest are passed over in C)
_AT_DOMAIN = patterns.compile(r"@(?=[A-Za-z0-9_-]{1,255}+\.[A-Za-z0-9_-])")
_DOMAIN = patterns.compile(r"[A-Za-z0-9_-]++(?>(?:\.[A-Za-z0-9_-]++)+)")
# the local part's characters a backslash escapes (ASCII punctuation, CommonMark §2.4)
_ESCAPABLE = frozenset("._+-")
#: the longest local part looked back for (RFC 5321 §4.5.3.1.1 allows 64)
_LOCAL_MAX = 256
# GFM: an extended autolink that ends in what looks like an entity reference ("&hl;") leaves it out
_TRAILING_ENTITY = patterns.compile(r"&[A-Za-z0-9]++$")


def prose(text: str, abbreviated: bool, refang: bool = False) -> Iterator[Found]:
    """The text scanner's finds and GFM's e-mail autolinks (as ``mailto:``,
    style ``markup``), in order; an address inside a URL is the URL's.
    ``refang``: defanged references read back (``--refang``)."""
    emails = _emails(text) if "@" in text else iter(())  # (every address holds one)
    email = next(emails, None)
    # (the scanner made only for text it may find something in: a notebook's cells are a hundred thousand
    # short documents, most with no ":")
    for found in Scanner(text, abbreviated=abbreviated, refang=refang) if refang or may_hold_reference(text) else ():
        start, end = found.start, found.end
        assert start is not None and end is not None
        while email is not None and email.start < start:  # type: ignore[operator]
            yield email
            email = next(emails, None)
        while email is not None and email.start < end:  # type: ignore[operator]
            email = next(emails, None)  # (inside this find: mailto:a@b.example, http://u@h.example)
        yield found
    while email is not None:
        yield email
        email = next(emails, None)


def _emails(text: str) -> Iterator[Found]:
    """GFM's extended e-mail autolinks in ``text``."""
    search = _AT_DOMAIN.search
    found = search(text)
    while found is not None:
        at = found.start()
        start, escaped = at, False
        while start > 0 and at - start < _LOCAL_MAX and text[start - 1] in _LOCAL_CHARS:
            start -= 1
            if text[start] in _ESCAPABLE and _escaped(text, start):
                # "\+" is the text "+" (CommonMark §2.4), which GFM reads e-mail addresses in: the escape
                # is part of the address as written, and no cut of its local part
                start -= 1
                escaped = True
        domain = _DOMAIN.match(text, at + 1) if start < at else None
        if domain is not None:
            end = domain.end()
            if text[end - 1] not in "-_" and text[end:end + 1] not in ("-", "_"):
                local = text[start:at].replace("\\", "") if escaped else text[start:at]
                yield new_found("mailto:" + local + text[at:end], start, end, Style.MARKUP, (), (), None, LINK)
            found = search(text, end)
        else:
            found = search(text, at + 1)


def clipped(text: str, found: Found, limit: int, abbreviated: bool, refang: bool = False) -> Iterator[Found]:
    """What the prose holds of ``found``, a find that runs past ``limit``,
    the end of the inline run it starts in (a code span's end, or the start
    of a link, code or raw HTML after prose): the finds in the text from its
    start to ``limit`` alone.  CommonMark reads a document's inline structure
    first (§6: a code span, a link, raw HTML bind tighter), and GFM's
    autolinks are found in its text nodes, so no URL spans two of them
    (`` `<https://foo.bar.`baz>` ``: the code holds ``https://foo.bar``)."""
    start = found.start
    assert start is not None
    for part in prose(text[start:limit], abbreviated, refang):
        assert part.start is not None and part.end is not None
        yield part._replace(start=part.start + start, end=part.end + start)


def within_runs(text: str, finds: Iterable[Found], starts: list[int], runs: list[tuple[int, int, bool]],
            abbreviated: bool, refang: bool = False) -> Iterator[Found]:
    """The prose's finds, each within the run it starts in: one that runs past
    a code span's end, or into the link, code or HTML after the prose, is cut
    there and read again (:func:`clipped`)."""
    for found in finds:
        at, end = found.start, found.end
        assert at is not None and end is not None
        k = bisect.bisect_right(starts, at) - 1
        limit = runs[k][1] if k >= 0 and at < runs[k][1] else starts[k + 1] if k + 1 < len(starts) else end
        if end > limit:
            yield from clipped(text, found, limit, abbreviated, refang)
        else:
            yield found


def _escaped(text: str, at: int) -> bool:
    """Whether the character at ``at`` is backslash-escaped: an odd run of backslashes before it (``\\\\+``
    is a backslash, then "+")."""
    run = at
    while run > 0 and text[run - 1] == "\\":
        run -= 1
    return (at - run) % 2 == 1


def gfm_end(text: str, found: Found) -> Found:
    """GFM's rule for an extended autolink that ends in what looks like an
    entity reference (``...&hl;``): that part is left out."""
    end = found.end
    if end is None or text[end:end + 1] != ";":
        return found
    cut = _TRAILING_ENTITY.search(found.reference)
    if cut is None:
        return found
    left_out = len(found.reference) - cut.start()
    expanded = found.expanded  # (www.: the reference with "http://" before it)
    return found._replace(reference=found.reference[:cut.start()], end=end - left_out,
                          expanded=None if expanded is None else expanded[:-left_out])
