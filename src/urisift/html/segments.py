"""A very large page, cut into pieces the parser reads one at a time (issue 35).

An HTML5 tree builder holds the whole tree: lexbor's for a 26 MB page of 1.1
million links takes 820 MB, whatever the reader does with it.  So a page
longer than :data:`SEGMENT` is cut, at the start of a tag, into pieces of
about :data:`PIECE`, each parsed and walked as its own document and let go
before the next (about 30 MB of tree for the densest markup), its records
streamed as for any page.  A cut is only made where the tokenizer is in its
data state (WHATWG HTML §13.2.5.1): the first pass's tokens (:mod:`.tokens`)
take a comment, a raw-text element (``script``, ``style``, ``textarea`` ...)
and a tag with its quoted values whole, so no cut falls inside one.

What a piece cannot know of the pieces before it: the elements still open
(a link's anchor text past a cut is the text in its own piece), and
foreign content or a template open across a cut.  The document base is the
first ``<base href>`` of the page, as always (it is in the first piece of
any page but a crafted one); the positions are the page's own.  Pages up to
:data:`SEGMENT` (every page of the 130 corpus pages: the largest is 1.6 MB)
are parsed whole.
"""

from __future__ import annotations

from collections.abc import Iterator

from .tokens import BYTES, STR

#: a page longer than this many characters (or bytes) is parsed in pieces ...
SEGMENT = 4 << 20
#: ... of about this many (1 MB of the densest markup: about 30 MB of tree)
PIECE = 1 << 20


def segments(markup: str | bytes, size: int = PIECE, whole: int = SEGMENT) -> Iterator[str | bytes]:
    """``markup`` whole when it is not longer than ``whole``, else in pieces
    of about ``size``, cut at tag starts, or inside a run of text longer
    than a piece (:func:`_text_cut`)."""
    if len(markup) <= whole:
        yield markup
        return
    tokens = (STR if isinstance(markup, str) else BYTES).fast.finditer(markup)
    start = 0
    target = size
    text = 0  # where the text after the last token starts
    for m in tokens:
        while text < target < m.start():  # a piece's worth of text: cut in it
            cut = _text_cut(markup, max(text, start + 1), target)
            yield markup[start:cut]
            start, target = cut, cut + size
        text = m.end()
        if m.start() < target or not (m.group("start") or m.group("end")):
            continue
        yield markup[start:m.start()]
        start = m.start()
        target = start + size
    while text < target < len(markup):
        cut = _text_cut(markup, max(text, start + 1), target)
        yield markup[start:cut]
        start, target = cut, cut + size
    yield markup[start:]


def _text_cut(markup: str | bytes, low: int, high: int) -> int:
    """Where to cut a run of text (the tokenizer's data state, no tag in it)
    between ``low`` and ``high``: after its last blank line, else its last
    line break, else its last white space (no reference spans a blank line,
    and few a line break or a space), else at ``high``: a megabyte without
    a tag or a space (20 MB of "<", which lexbor holds at twenty times its
    size) is no text a reference is found whole in anyway."""
    blank, newline = ("\n\n", "\n") if isinstance(markup, str) else (b"\n\n", b"\n")
    for mark in (blank, newline):
        at = markup.rfind(mark, low, high)  # type: ignore[arg-type]
        if at >= 0:
            return at + len(mark)
    for at in range(high - 1, max(low, high - 4096) - 1, -1):
        if markup[at:at + 1].isspace():
            return at + 1
    return high


__all__ = ["PIECE", "SEGMENT", "segments"]
