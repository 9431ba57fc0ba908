"""GitHub's extended autolinks in a Markdown document's prose (the GFM
spec's autolinks extension): what CommonMark leaves as text and GitHub
renders as a link, a bare URL, a ``www.`` and an e-mail address.  The URLs
are the text scanner's finds; the e-mail addresses and the rule for a
trailing entity reference are GFM's own."""

from __future__ import annotations

from collections.abc import Iterator

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
#: the longest local part looked back for (RFC 5321 §4.5.3.1.1 allows 64)
_LOCAL_MAX = 256
# GFM: an extended autolink that ends in what looks like an entity reference ("&hl;") leaves it out
_TRAILING_ENTITY = patterns.compile(r"&[A-Za-z0-9]++$")


def prose(text: str, abbreviated: bool) -> Iterator[Found]:
    """The text scanner's finds and GFM's e-mail autolinks (as ``mailto:``,
    style ``markup``), in order; an address inside a URL is the URL's."""
    emails = _emails(text) if "@" in text else iter(())  # (every address holds one)
    email = next(emails, None)
    # (the scanner made only for text it may find something in: a notebook's cells are a hundred thousand
    # short documents, most with no ":")
    for found in Scanner(text, abbreviated=abbreviated) if may_hold_reference(text) else ():
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
        start = at
        while start > 0 and at - start < _LOCAL_MAX and text[start - 1] in _LOCAL_CHARS:
            start -= 1
        domain = _DOMAIN.match(text, at + 1) if start < at else None
        if domain is not None:
            end = domain.end()
            if text[end - 1] not in "-_" and text[end:end + 1] not in ("-", "_"):
                yield new_found("mailto:" + text[start:end], start, end, Style.MARKUP, (), (), None, LINK)
            found = search(text, end)
        else:
            found = search(text, at + 1)


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
