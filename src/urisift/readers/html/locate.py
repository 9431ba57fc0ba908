"""Where a value the tree reports stands in the decoded source, for a
record's ``span``, ``line`` and ``column`` (ARCHITECTURE.md, The record contract).

Tree builders keep no source positions, so each value is looked for in the
source, forward from the last one found: the walk visits elements in tree
order, which is source order but for the few nodes the tree builder moves
(foster parenting in tables, a ``<base>`` after ``</html>``).  An attribute
value must stand after ``=`` (and a quote), so ``href="/"`` is not taken
for the first slash of the page; and, when the caller names the element,
inside a start tag of that element (the nearest ``<`` before it opens
one), so a URL that also stands earlier in a script, a comment or another
element's attribute is not given that earlier span (a search
forward alone gave it to 66 of 29,485 attribute records of the 130 corpus
pages).  A value written with
character references the tree decoded (``&amp;``, and ``&quot;`` as a style
attribute's ``url(&quot;...&quot;)`` writes it, aside) is not found, and its
record has no position rather than a wrong one.

A value is first looked for within ``WINDOW`` characters of the cursor;
past a long inline script the rest of the text is searched.  The far
searches that find nothing are paid from a budget of ``FAR_PASSES`` times
the text's length, each charged what it read: a page of values that are not
in its source costs a bounded number of passes over it (linear), and the
values past a long script after a few such values are still found, the
budget being spent by what the failures read, not by their number (a count
of three had left 243 of one real page's 544 records without a position).
The cursor and the line count only move forward.
"""

from __future__ import annotations

from ...model import Span
from ...uri import patterns

_span = tuple.__new__

#: how far ahead of the last value found a value is looked for
WINDOW = 64 * 1024
#: how many passes over a document's text its far searches that find nothing may read, in all
FAR_PASSES = 3
#: how many values of a document may go unfound before the search gives up on
#: it (the 130 real pages of the corpus miss 3 each on average; a page of
#: nothing but character references would otherwise cost a window a value)
MISSES = 256
#: how many occurrences not after "=" are passed over before giving up
_TRIES = 16
#: how much white space may stand between "<!--" and a comment's text
COMMENT_SPACE = 256
#: what ends a comment after its text (the tree strips the white space; "--!>" closes one too, §13.2.5.52)
_COMMENT_CLOSE = patterns.compile(r"\s*--!?>")
#: what _after_equals gives when the value does not occur in the range at all
_NOWHERE = -1
_SPACE = "\t\n\x0c\r "
_EQUALS_QUOTE = ('="', "='")
#: what may follow a tag name in a start tag (WHATWG §13.2.5.8)
_NAME_END = frozenset("\t\n\x0c\r />")
#: start tags the tree builder renames (§13.2.6.4.7: "image" is read as "img")
_WRITTEN_AS = {"img": ("img", "image")}

Position = tuple[Span, int, int]


def _written_forms(value: str) -> tuple[str, ...]:
    """How an attribute value the tree holds may stand in the source: as it
    is, with "&" written "&amp;", and with '"' written "&quot;" too (a style
    attribute's ``url(&quot;...&quot;)``, a JSON value in a data attribute)."""
    if "&" not in value and '"' not in value:
        return (value,)
    amp = value.replace("&", "&amp;")
    forms = [value, amp] if "&" in value else [value]
    if '"' in value:
        forms.append(amp.replace('"', "&quot;"))
    return tuple(forms)


class Whole:
    """A node's text found whole in the source: where it starts, the text as
    the tree holds it, and how it is written there (a "&" as "&amp;", a line
    break as CRLF), so that an offset into the one is an offset into the
    other.  Offsets are asked for in increasing order (a text's URLs): each
    counts only what lies between it and the one before."""

    __slots__ = ("start", "held", "amp", "crlf", "_offset", "_shift")

    def __init__(self, start: int, held: str, amp: bool, crlf: bool) -> None:
        self.start = start
        self.held = held
        self.amp = amp
        self.crlf = crlf
        self._offset = 0  # the last offset asked for ...
        self._shift = 0  # ... and how many more characters the source has up to it

    def source(self, offset: int) -> int:
        """Where ``offset`` into the held text stands in the source."""
        if offset < self._offset:
            self._offset = self._shift = 0
        held, last = self.held, self._offset
        if self.amp:
            self._shift += 4 * held.count("&", last, offset)  # "&" written "&amp;"
        if self.crlf:
            self._shift += held.count("\n", last, offset)  # LF written CRLF
        self._offset = offset
        return self.start + offset + self._shift


class Locator:
    """Finds values in ``text`` in order; see the module doc."""

    __slots__ = ("text", "cursor", "upto", "line", "line_start", "far", "misses", "text_misses", "whole_misses",
                 "has_cr")

    def __init__(self, text: str) -> None:
        self.text = text
        self.cursor = 0  # searches start here
        self.upto = 0  # lines are counted up to here
        self.line = 1
        self.line_start = 0
        self.far = FAR_PASSES * len(text)  # what far searches that find nothing may still read
        self.misses = MISSES  # values not found, still allowed before the search stops
        self.text_misses = MISSES  # likewise, texts (text_at)
        # and whole texts (enclosed, comment): apart, so that a page whose texts are
        # not found whole (CRLF line ends, which the tree makes LF) still has each
        # URL looked for on its own
        self.whole_misses = MISSES
        self.has_cr = "\r" in text  # whether a text the tree holds with LF may be written CRLF

    def _position(self, start: int, end: int) -> Position:
        if start < self.upto:  # behind the count (a sub-value found a second way): count back, keep the state
            text = self.text
            line = self.line - text.count("\n", start, self.upto)
            return Span(start, end), line, start - (text.rfind("\n", 0, start) + 1) + 1
        if start > self.upto:
            text = self.text
            newlines = text.count("\n", self.upto, start)
            if newlines:
                self.line += newlines
                self.line_start = text.rfind("\n", self.upto, start) + 1
            self.upto = start
        return _span(Span, (start, end)), self.line, start - self.line_start + 1

    def attribute(self, value: str, tag: str | None = None) -> Position | None:
        """The position of an attribute value at or after the cursor (in a
        start tag of ``tag``, when it is given)."""
        if not value or self.misses <= 0:
            return None
        cursor = self.cursor
        text = self.text
        at = text.find(value, cursor, cursor + WINDOW + len(value))
        if (at > 1 and (text[at - 1] == "=" or text[at - 2 : at] in _EQUALS_QUOTE)
                and (tag is None or self._in_start_tag(at, tag))):
            # the common case, written href="value": no loop, no second form
            self.cursor = end = at + len(value)
            return self._position(at, end)
        return self._elsewhere(value, tag, at < 0)

    def _elsewhere(self, value: str, tag: str | None, absent: bool = False) -> Position | None:
        """:meth:`attribute` where the first occurrence after the cursor is not
        the value written after "=" in a start tag of ``tag`` (``absent``: the
        value is nowhere in the window, which is then not searched again:
        a value written with "&amp;" is the commonest case here)."""
        forms = _written_forms(value)
        # where each form's far search starts: past the window where the
        # near one saw no occurrence at all (the same first occurrence, for less)
        far_from = [self.cursor] * len(forms)
        window_end = self.cursor + WINDOW + 1
        if absent:
            far_from[0] = window_end
        for far in (False, True):
            if far and self.far <= 0:
                break
            for i, written in enumerate(forms):
                if not far and i == 0 and absent:
                    continue
                if far:
                    start = self._after_equals(written, far_from[i], len(self.text), tag)
                else:
                    start = self._after_equals(written, self.cursor,
                                               min(len(self.text), self.cursor + WINDOW + len(written)), tag)
                    if start == _NOWHERE:
                        far_from[i] = window_end  # (the window held no occurrence starting before it)
                if start is not None and start >= 0:
                    end = start + len(written)
                    self.cursor = end
                    return self._position(start, end)
            if far:  # each form read from where its search began to the end
                self.far -= sum(max(0, len(self.text) - start) for start in far_from)
        self.misses -= 1
        return None

    def _in_start_tag(self, at: int, tag: str) -> bool:
        """Whether the nearest "<" before ``at`` opens a start tag of ``tag``
        (in any case).  Looked for within ``WINDOW``: a value that far into its
        tag gets no position rather than a guessed one."""
        text = self.text
        lt = text.rfind("<", max(0, at - WINDOW), at)
        if lt < 0:
            return False
        end = lt + 1 + len(tag)
        if text.startswith(tag, lt + 1) and text[end : end + 1] in _NAME_END:
            return True  # written in lower case, as nearly every tag is: no slice to lower
        for name in _WRITTEN_AS.get(tag, (tag,)):
            end = lt + 1 + len(name)
            if text[lt + 1 : end].lower() == name and text[end : end + 1] in _NAME_END:
                return True
        return False

    def _after_equals(self, written: str, at: int, limit: int, tag: str | None = None) -> int | None:
        """Where ``written`` first stands after "=" (and a quote) in a start tag
        of ``tag``, from ``at`` to ``limit``; :data:`_NOWHERE` when it does not
        occur there at all, None when no occurrence of the first few fits
        nor any written in quotes."""
        text, find = self.text, self.text.find
        for tries in range(_TRIES):
            at = find(written, at, limit)
            if at < 0:
                return _NOWHERE if tries == 0 else None
            j = at - 1
            while j >= 0 and text[j] in _SPACE:
                j -= 1
            if j >= 0 and text[j] in "\"'":
                j -= 1
                while j >= 0 and text[j] in _SPACE:
                    j -= 1
            if j >= 0 and text[j] == "=" and (tag is None or self._in_start_tag(at, tag)):
                return at
            at += 1
        # a short value ("/", "#") stands in the text many times before it stands
        # as an attribute's: past those, it is looked for written whole in quotes
        # after "=", as nearly every value is (the first such one, if any fits)
        best: int | None = None
        for quote in "\"'":
            quoted = "=" + quote + written + quote
            start = at
            for _ in range(_TRIES):
                hit = find(quoted, start, limit + 3)
                if hit < 0:
                    break
                if tag is None or self._in_start_tag(hit + 2, tag):
                    if best is None or hit + 2 < best:
                        best = hit + 2
                    break
                start = hit + 1
        return best

    def text_at(self, written: str) -> Position | None:
        """The position of some text (a text node, a style sheet, a reference
        or URL in one not found whole) at or after the cursor.  Like values,
        at most ``MISSES`` texts of a document go unfound before the search
        gives up on them (text written with character references is not in
        the source as the tree holds it: each would cost a window)."""
        if not written or self.text_misses <= 0:
            return None
        for form in (written, written.replace("&", "&amp;")) if "&" in written else (written,):
            at = self.text.find(form, self.cursor, self.cursor + WINDOW + len(form))
            if at >= 0:
                self.cursor = at + len(form)
                return self._position(at, at + len(form))
        self.text_misses -= 1
        return None

    def enclosed(self, written: str, before: str, after: str, references: bool = False) -> Whole | None:
        """A node's whole text (as the tree holds it), written between
        ``before`` and ``after`` (a text node between two tags, ">" and "<";
        a style sheet between ">" and "</"), at or after the cursor; with
        ``references``, "&" may be written "&amp;", and in a page with CRs a
        line break may be written CRLF (the tree builder makes it LF).  The
        marks keep a short text from being taken for a copy of it inside an
        attribute or other text.  At most ``MISSES`` whole texts of a
        document go unfound before the search for them stops."""
        if not written or self.whole_misses <= 0:
            return None
        text = self.text
        for form, amp, crlf in self._forms(written, references):
            marked = before + form + after
            at = text.find(marked, self.cursor, self.cursor + WINDOW + len(marked))
            if at >= 0:
                self.cursor = at + len(marked) - len(after)
                return Whole(at + len(before), written, amp, crlf)
        self.whole_misses -= 1
        return None

    def comment(self, written: str) -> Whole | None:
        """A comment's whole text as the tree gives it (white space stripped
        from both ends): written after "<!--" and white space (at most
        ``COMMENT_SPACE`` characters of it), before white space and "-->";
        at or after the cursor, the first of a few occurrences that is.
        Unfound comments count as :meth:`enclosed`'s texts."""
        if not written or self.whole_misses <= 0:
            return None
        text = self.text
        for form, _, crlf in self._forms(written, False):
            at, limit = self.cursor, self.cursor + WINDOW + len(form)
            for _ in range(_TRIES):
                at = text.find(form, at, limit)
                if at < 0:
                    break
                opened = text.rfind("<!--", max(0, at - COMMENT_SPACE - 4), at)
                end = at + len(form)
                if opened >= 0 and (opened + 4 == at or text[opened + 4 : at].isspace()) \
                        and _COMMENT_CLOSE.match(text, end) is not None:
                    self.cursor = end
                    return Whole(at, written, False, crlf)
                at += 1
        self.whole_misses -= 1
        return None

    def _forms(self, written: str, references: bool) -> list[tuple[str, bool, bool]]:
        """How a text the tree holds may be written: as it is; with "&" as
        "&amp;" (``references``); with CRLF line breaks, in a page that has
        CRs, first (such a page writes most of its line breaks so)."""
        forms = [(written, False, False)]
        if references and "&" in written:
            forms.append((written.replace("&", "&amp;"), True, False))
        if self.has_cr and "\n" in written:
            forms[:0] = [(form.replace("\n", "\r\n"), amp, True) for form, amp, _ in forms]
        return forms

    def within(self, whole: Whole, offset: int, written: str) -> Position | None:
        """The position of ``written`` (a URL), which starts ``offset``
        characters into the text of ``whole``; None where it is not written
        there as held (the text was found whole, so this is a bug's guard)."""
        start = whole.source(offset)
        form = written.replace("&", "&amp;") if whole.amp and "&" in written else written
        if whole.crlf and "\n" in form:
            form = form.replace("\n", "\r\n")
        if not self.text.startswith(form, start):
            return None
        return self._position(start, start + len(form))

    def in_text(self, whole: Whole | None, offset: int, written: str) -> Position | None:
        """The position of ``written``, ``offset`` characters into a text:
        placed in it where the text was found ``whole``, else looked for on
        its own (:meth:`text_at`)."""
        return self.text_at(written) if whole is None else self.within(whole, offset, written)

    def inside(self, outer: Position | None, offset: int, written: str) -> Position | None:
        """The position of ``written``, which starts ``offset`` characters
        into a value found at ``outer`` (a srcset candidate, a CSS url())."""
        if outer is None:
            return None
        start = outer[0].start + offset
        if self.text.startswith(written, start):
            return self._position(start, start + len(written))
        # the value was written with character references (&amp;, &quot;): so may this part of it be
        for form in _written_forms(written):
            at = self.text.find(form, outer[0].start, outer[0].end)
            if at >= 0:
                return self._position(at, at + len(form))
        return None
