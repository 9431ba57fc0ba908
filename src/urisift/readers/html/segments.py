"""A very large page, cut into pieces the parser reads one at a time.

An HTML5 tree builder holds the whole tree: lexbor's for a 26 MB page of 1.1
million links takes 820 MB, whatever the reader does with it.  So a page
longer than :data:`SEGMENT` is cut, at the start of a tag, into pieces of
about :data:`PIECE`, each parsed and walked as its own document and let go
before the next (about 30 MB of tree for the densest markup), its records
streamed as for any page.

A cut is only made where the tokenizer is in its data state (WHATWG HTML
§13.2.5.1), so the pass that finds the cuts follows the tokenizer's states
that are not it: a comment, a bogus comment, a tag with its quoted values
(however many attributes it has), the RAWTEXT and RCDATA elements
(``style``, ``textarea``, ``title`` ...: §13.2.6.2), the script data states
with their escaped and double-escaped ones (§13.2.5.4, .15-.31),
``plaintext`` (§13.2.5.7: what follows it is text, cut as text is, each
piece of it parsed after a ``<plaintext>`` of its own) and a CDATA section in
foreign content (§13.2.5.69).  Which of those a start tag opens depends on
where it stands: in SVG or MathML a ``<style>`` or a ``<title>`` is an
element like any other, its text markup (§13.2.6.5).  So the pass keeps the
stack of open elements from the first ``svg`` or ``math`` until it is closed
again, by the rules of foreign content (breakout tags, integration points,
end tags that close a foreign ancestor).  Outside foreign content, the tags
that change nothing of this are passed over by one regular expression.

What a piece cannot know of the pieces before it: the elements still open
(a link's anchor text past a cut is the text in its own piece), and foreign
content or a template open across a cut (a cut falls in foreign content only
when it stays open a whole piece past where the cut was due).  The document
base is the page's first ``<base href>`` (HTML §2.4.1): the pass notes where
it stands, so the first piece's walk has it before it writes a record.  The
positions are the page's own.  Pages up to :data:`SEGMENT` (every page of
the 130 corpus pages: the largest is 1.6 MB) are parsed whole.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from ...uri import patterns
from .tokens import (
    _ATTRIBUTES,
    _NAME,
    BREAKOUT,
    BYTES,
    FONT_BREAKOUT,
    RAW_TEXT,
    SPACE,
    STR,
    VOID,
    ascii_lower,
    attribute_map,
    attributes_of,
    decoded,
    script_end,
)
from .tokens import Syntax as _Tokens
from .tree import Namespace, integration_point

#: a page longer than this many characters (or bytes) is parsed in pieces ...
SEGMENT = 4 << 20
#: ... of about this many (1 MB of the densest markup: about 30 MB of tree)
PIECE = 1 << 20
#: the deepest the pass follows foreign content (deeper elements are not pushed: the
#: depth guard flattens a page nested this deep anyway)
DEEPEST = 2048

#: how far down the stack an end tag looks for the element it closes
REACH = 64

_HTML, _SVG, _MATHML = Namespace.HTML, Namespace.SVG, Namespace.MATHML
_NO_ATTRIBUTES: Mapping[str, str | None] = {}
#: start tags (in HTML) the pass must see: they change the tokenizer's state, open foreign
#: content, or are the document's base or hide it (a template's contents are not the document)
_SEEN = ("svg", "math", "script", "plaintext", "template", *sorted(RAW_TEXT))
_DELIMITED = rf"(?=[{SPACE}/>])"
_COMMENT = r"<!--(?:-?>|(?>(?:[^-]++|-(?!-!?>))*)--!?>)"
# a bogus comment, to its ">": "<!" not a comment, "<?", "</" and no letter (§13.2.5.6, .41)
_BOGUS = r"<(?:!(?!--)|\?|/(?![A-Za-z]))[^>]*+>"
# a lone "<" (not a tag's start) is text: a character that starts no tag must follow it (a
# negative lookahead would take the "<" of a tag the end of the match cuts for a lone one)
_LONE = r"<(?=[^A-Za-z!?/])"


def _passed(seen: tuple[str, ...]) -> str:
    """The markup that changes nothing the pass follows, outside foreign content: runs of
    text each ended by a tag not in ``seen`` (nor ``</template>``), a comment, a bogus
    comment, or a lone "<".  Its repeats give nothing back (a class's possessive, a group's
    atomic: CPython before 3.11.5 matched a group's possessive repeat wrongly): it stops
    before what it cannot take whole, so matched up to a position it ends at a token's end."""
    tag = (rf"<(?!(?i:{'|'.join(seen)}){_DELIMITED}|/(?i:template){_DELIMITED})"
           rf"/?{_NAME}{_ATTRIBUTES}/?>")
    return rf"(?>(?:[^<]*+(?:{tag}|{_COMMENT}|{_BOGUS}|{_LONE}))*)"


# one token from a "<": tokens._MARKUP, with a CDATA section of its own (it is one in foreign
# content); its attributes are not counted, so a tag with any number of them is one token
_TOKEN = (rf"<(?=[A-Za-z!?/])(?:(?P<start>{_NAME})(?P<attributes>{_ATTRIBUTES})(?P<closed>/?)>"
          rf"|/(?P<end>{_NAME}){_ATTRIBUTES}/?>"
          r"|(?P<comment>!--)"
          r"|(?P<cdata>!\[CDATA\[)"
          r"|(?P<eof>/?[A-Za-z])"  # a tag the input ends inside of
          r"|(?P<bogus>[!?/]))")


class _Syntax:
    """The pass's patterns for str or for bytes."""

    def __init__(self, kind: Callable[[str], Any], tokens: _Tokens) -> None:
        # (ASCII, as tokens.Syntax's: the tokenizer's names match in ASCII alone)
        self.passed = patterns.compile(kind(_passed((*_SEEN, "base"))), re.ASCII)
        self.passed_after_base = patterns.compile(kind(_passed(_SEEN)), re.ASCII)
        self.token = patterns.compile(kind(_TOKEN), re.ASCII)
        self.comment_end = tokens.comment_end
        self.raw_end = tokens.raw_end
        self.tokens = tokens
        self.gt, self.cdata_end = kind(">"), kind("]]>")
        self.empty_comment, self.short_comment = kind(">"), kind("->")


_STR = _Syntax(str, STR)
_BYTES = _Syntax(lambda pattern: pattern.encode("ascii"), BYTES)


class Pieces:
    """A page's pieces (iterate), and where its first ``<base href>`` stands.

    Pages not longer than ``whole`` are one piece, and no pass is made over them."""

    def __init__(self, markup: str | bytes, size: int = PIECE, whole: int = SEGMENT) -> None:
        self.markup = markup
        self.cuts: list[int] = []
        #: the start and end of the page's first <base href> tag (None: none, or not looked for)
        self.base: tuple[int, int] | None = None
        #: the pieces after this many are the text of a <plaintext> (None: none is)
        self.plaintext: int | None = None
        if len(markup) > whole:
            self._plan(size)

    def __iter__(self) -> Iterator[str | bytes]:
        markup, at = self.markup, 0
        # a piece of a plaintext's text is parsed after a <plaintext> start tag of its own: the
        # tokenizer reads it in the state it is in there (and the walk's element is the same)
        opening = ("<plaintext>" if isinstance(markup, str) else b"<plaintext>")
        plain = len(self.cuts) + 1 if self.plaintext is None else self.plaintext
        for index, cut in enumerate([*self.cuts, len(markup)]):
            yield markup[at:cut] if index <= plain else opening + markup[at:cut]  # type: ignore[operator]
            at = cut

    def later_base(self) -> str | bytes | None:
        """The page's first ``<base href>`` tag when it stands past the first piece (the
        first piece's walk finds one in it by itself), else None."""
        if self.base is None or not self.cuts or self.base[0] < self.cuts[0]:
            return None
        return self.markup[self.base[0]:self.base[1]]

    def _plan(self, size: int) -> None:
        """The one pass: where to cut (see the module doc), and the first base."""
        markup = self.markup
        syntax = _STR if isinstance(markup, str) else _BYTES
        lower = ascii_lower if isinstance(markup, str) else decoded
        search, cuts = syntax.token.search, self.cuts
        n = len(markup)
        start, target, pos = 0, size, 0
        # the open elements from the outermost svg or math on: (name, namespace, attributes)
        stack = _Open()
        templates = 0  # template elements open outside foreign content
        while pos < n:
            if not stack:
                passed = syntax.passed if self.base is None else syntax.passed_after_base
                pos = passed.match(markup, pos, min(target, n)).end()  # type: ignore[union-attr]
            m = search(markup, pos)
            at = n if m is None else m.start()
            # a piece's worth of text: cut in it (at ``pos`` itself at the latest, which ends a
            # token or a lone "<": the data state)
            while pos <= target < at:
                cut = _text_cut(markup, max(pos, start + 1), target)
                cuts.append(cut)
                start, target = cut, cut + size
            if m is None:
                return
            kind = m.lastgroup
            if ((kind == "closed" or kind == "end") and at >= target
                    and (not stack or at >= target + size)):
                cuts.append(at)
                start, target = at, at + size
            pos = m.end()
            if kind == "closed":  # a start tag
                name = lower(m.group("start"))
                attributes = m.group("attributes")
                closed = bool(m.group("closed"))
                if stack:
                    top, space, held = stack[-1]
                    if space is not _HTML and not integration_point(space, top, held, name):
                        if not (name in BREAKOUT or (name == "font" and not FONT_BREAKOUT.isdisjoint(
                                attribute_map(attributes)))):
                            if not closed and len(stack) < DEEPEST:  # a foreign element (§13.2.6.5)
                                stack.push((name, space, attribute_map(attributes)
                                            if name == "annotation-xml" else _NO_ATTRIBUTES))
                            continue
                        _break_out(stack)  # and the tag is read by the HTML rules
                if name in RAW_TEXT or name == "script":
                    # its text, and its end tag: a cut before that would still be in its text's state
                    if name == "script":
                        pos = script_end(markup, pos, syntax.tokens)
                    else:
                        close = syntax.raw_end[name].search(markup, pos)
                        pos = n if close is None else close.start()
                    end_tag = syntax.token.match(markup, pos)
                    if end_tag is not None and end_tag.lastgroup == "end":
                        pos = end_tag.end()
                elif name == "plaintext":
                    # the rest is text (§13.2.5.7): cut as a run of text, each piece after
                    # the cut opened with a start tag of its own (:meth:`__iter__`)
                    self.plaintext = len(cuts)
                    target = max(target, pos)  # (never inside the start tag itself, however long)
                    while target < n:
                        cut = _text_cut(markup, max(pos, start + 1), target)
                        cuts.append(cut)
                        start, target = cut, cut + size
                    return
                elif name == "svg" or name == "math":
                    if not closed and len(stack) < DEEPEST:
                        stack.push((name, _SVG if name == "svg" else _MATHML, _NO_ATTRIBUTES))
                elif name == "template" and not stack:
                    templates += 1
                elif (name == "base" and self.base is None and not templates
                      and any(a[0] == "href" for a in attributes_of(attributes))):
                    self.base = (at, pos)
                elif stack and name not in VOID and len(stack) < DEEPEST:
                    stack.push((name, _HTML, _NO_ATTRIBUTES))  # HTML in an integration point
            elif kind == "end":
                name = lower(m.group("end"))
                if not stack:
                    if name == "template" and templates:
                        templates -= 1
                else:
                    _end(stack, name)
            elif kind == "comment":
                if markup.startswith(syntax.empty_comment, pos):  # <!--> (§13.2.5.44)
                    pos += 1
                elif markup.startswith(syntax.short_comment, pos):  # <!--->
                    pos += 2
                else:
                    close = syntax.comment_end.search(markup, pos)
                    pos = n if close is None else close.end()
            elif kind == "cdata" and stack and stack[-1][1] is not _HTML:
                close_at = markup.find(syntax.cdata_end, pos)  # type: ignore[arg-type]
                pos = n if close_at < 0 else close_at + 3
            elif kind == "eof":
                return  # the input ends inside a tag: the rest is that tag
            else:  # a bogus comment (CDATA outside foreign content is one)
                gt = markup.find(syntax.gt, pos)  # type: ignore[arg-type]
                pos = n if gt < 0 else gt + 1


_Entry = tuple[str, Namespace, Mapping[str, str | None]]


class _Open(list[_Entry]):
    """The open elements from the outermost svg or math on: (name, namespace, attributes),
    and how many of each name (an end tag whose name is none of them closes nothing,
    told without a walk down the stack)."""

    def __init__(self) -> None:
        super().__init__()
        self.names: dict[str, int] = {}

    def push(self, entry: _Entry) -> None:
        self.append(entry)
        self.names[entry[0]] = self.names.get(entry[0], 0) + 1

    def cut(self, at: int) -> None:
        """Pop the entries from ``at`` up."""
        names = self.names
        for entry in self[at:]:
            left = names[entry[0]] - 1
            if left:
                names[entry[0]] = left
            else:
                del names[entry[0]]
        del self[at:]


def _break_out(stack: _Open) -> None:
    """Pop until the current node is HTML or an integration point (§13.2.6.5, the
    breakout start tags and the end tags br and p)."""
    at = len(stack)
    while at:
        top, space, held = stack[at - 1]
        if space is _HTML or integration_point(space, top, held, ""):
            break
        at -= 1
    stack.cut(at)


def _end(stack: _Open, name: str) -> None:
    """An end tag with foreign content open (§13.2.6.5 "any other end tag"): it closes the
    nearest foreign element of its name, up to an HTML element, under which the HTML
    rules close the nearest HTML element of its name, up to a foreign one.  The walk
    looks :data:`REACH` elements down at most: a million end tags that close nothing
    under a stack :data:`DEEPEST` deep would make it quadratic."""
    at = len(stack) - 1
    if stack[at][1] is not _HTML and (name == "br" or name == "p"):
        _break_out(stack)
        at = len(stack) - 1
    if name not in stack.names:
        return
    low = max(-1, at - REACH)
    if at > low and stack[at][1] is not _HTML:
        while at > low and stack[at][1] is not _HTML:
            if stack[at][0] == name:
                stack.cut(at)
                return
            at -= 1
    while at > low and stack[at][1] is _HTML:
        if stack[at][0] == name:
            stack.cut(at)
            return
        at -= 1


def segments(markup: str | bytes, size: int = PIECE, whole: int = SEGMENT) -> Iterator[str | bytes]:
    """``markup`` whole when it is not longer than ``whole``, else in pieces
    of about ``size``, cut at tag starts in the data state, or inside a run
    of text longer than a piece (:func:`_text_cut`)."""
    return iter(Pieces(markup, size, whole))


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


__all__ = ["PIECE", "SEGMENT", "Pieces", "segments"]
