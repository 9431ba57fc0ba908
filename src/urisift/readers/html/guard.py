"""A linear pass over the markup before lexbor sees it, capping the two
shapes on which an HTML5 tree builder is quadratic.

- **Depth.**  The tree builder's scope checks walk the stack of open
  elements (WHATWG HTML §13.2.4.2 "has an element in scope"), so a tag costs
  time in the depth: 100,000 nested ``<div>`` take lexbor 20 s, closed or
  not.  Blink caps the tree at 512 (``kMaximumHTMLParserDOMTreeDepth``);
  here a start tag that would open level ``MAX_DEPTH + 1`` is closed at
  once (``</tag>`` is written after it, and its own end tag dropped), so
  the element keeps its attributes and its contents become its siblings;
  one with no attribute, having nothing to read, is replaced by an empty
  comment (no level, and the texts on either side stay apart), as is the
  end tag dropped.
- **Attributes.**  The tokenizer drops duplicate attributes (§13.2.5.33),
  which lexbor does by comparing each new name with all before it: 200,000
  attributes on one element take over a minute.  An element keeps its first
  ``MAX_ATTRIBUTES`` attributes and every later one a link is read from
  (:data:`KEPT`); the rest are dropped.

The pass is a tokenizer (§13.2.5) for what decides the depth: tags with
their attributes (a ``>`` inside a quoted value does not end a tag),
comments, bogus comments, and the text of RAWTEXT, RCDATA and script
elements, in which nothing is a tag.  Beside it runs a model of the stack
of open elements that never pops what the tree builder keeps (it pops on an
end tag naming the current node, on the end tags and start tags that close
``p``, ``li``, ``dd``, ``dt``, ``option``, table rows and cells, and on
``</table>`` and ``</template>``), so its depth is never below the tree
builder's and the cap holds whatever the markup does.  Where the model is
unsure it keeps the element open: a page nested by sloppy markup the
model does not follow is capped early, never late.  Formatting elements
(``<b>``, ``<font>``) the tree builder may reopen (§13.2.4.3, "reconstruct
the active formatting elements") are only closed by their own end tag:
20,000 ``<p><b id=N>x</p>``, which the tree builder reopens 20,000 deep,
are capped like any nesting (and, closed at once past the cap, leave the
list of active formatting elements).

Two passes (:mod:`.tokens`): a first one, one ``findall`` and a loop over
tuples, vouches for nearly every page (all but 2 of the 130 corpus pages)
with a simpler model that may only overcount; only a page it cannot vouch
for is read again by the model above, which writes the capped markup.
Every step is a regular expression match whose repeats cannot backtrack
(possessive quantifiers), or a find of a fixed string: both passes are
linear.  On normal pages the first pass costs about a quarter of what the
rest of scan_html does (0.12 s of CPU on the 25.7 MB of corpus pages).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .tokens import (
    BREAKOUT,
    BYTES,
    CELL,
    CLOSE_P,
    FONT_BREAKOUT,
    FORMATTING,
    HEADINGS,
    MAX_ATTRIBUTES,
    MAX_DEPTH,
    MERGED,
    PREFIX,
    RAW_TEXT,
    RUN,
    SCOPED_END,
    SECTION,
    STR,
    VOID,
    Syntax,
    ascii_lower,
    attribute_map,
    capped,
    decoded,
    edited,
    script_end,
    shallow,
    withheld,
)
from .tree import Namespace, child_namespace

__all__ = ["MAX_ATTRIBUTES", "MAX_DEPTH", "Guarded", "guard"]

# enum members read once: a class attribute lookup costs more than the rest of a tag
_HTML, _SVG, _MATHML = Namespace.HTML, Namespace.SVG, Namespace.MATHML


@dataclass(frozen=True)
class Guarded:
    """What the parser is given, and what was capped (a defect detail each)."""

    markup: str | bytes
    notes: tuple[str, ...] = ()


class _Model:
    """The stack of open elements, as far as depth goes (see the module doc)."""

    def __init__(self) -> None:
        self.names: list[str] = []
        self.spaces: list[Namespace] = []
        self.flat: list[bool] = []  # closed at once by the guard: not open in the parser
        self.attributes: list[dict[str, str | None]] = []  # annotation-xml's encoding, read by child_namespace
        self.tables: list[int] = []  # where the HTML table and template elements stand
        self.templates: list[int] = []
        self.live = 0  # entries not flat: the parser's depth, or more

    def html_context(self) -> bool:
        """Whether a start tag is read by the HTML rules (§13.2.6 tree construction dispatcher)."""
        if not self.names:
            return True
        space = self.spaces[-1]
        return space is _HTML or child_namespace(space, self.names[-1], self.attributes[-1], "") \
            is _HTML

    def push(self, name: str, space: Namespace, flat: bool, attributes: dict[str, str | None]) -> None:
        if space is _HTML:
            if name == "table":
                self.tables.append(len(self.names))
            elif name == "template":
                self.templates.append(len(self.names))
        self.names.append(name)
        self.spaces.append(space)
        self.flat.append(flat)
        self.attributes.append(attributes)
        if not flat:
            self.live += 1

    def pop_to(self, index: int) -> bool:
        """Pop the entries from ``index`` up; whether the one at ``index`` was flat."""
        names = self.names
        while self.tables and self.tables[-1] >= index:
            self.tables.pop()
        while self.templates and self.templates[-1] >= index:
            self.templates.pop()
        flat = self.flat[index]
        self.live -= sum(1 for f in self.flat[index:] if not f)
        del names[index:], self.spaces[index:], self.flat[index:], self.attributes[index:]
        return flat

    def top_is(self, names: frozenset[str] | str) -> bool:
        if not self.names or self.spaces[-1] is not _HTML:
            return False
        top = self.names[-1]
        return top == names if isinstance(names, str) else top in names

    def pop_if(self, names: frozenset[str] | str) -> None:
        if self.top_is(names):
            self.pop_to(len(self.names) - 1)

    def start(self, name: str, attributes: str | bytes, closed: bool) -> tuple[bool, Namespace]:
        """A start tag: whether it opens an element, and in which namespace."""
        html = not self.names or self.spaces[-1] is _HTML or self.html_context()
        if not html and (name in BREAKOUT
                         or (name == "font" and not FONT_BREAKOUT.isdisjoint(attribute_map(attributes)))):
            # §13.2.6.5: pop until the current node is HTML or an integration point
            while self.names and not self.html_context():
                self.pop_to(len(self.names) - 1)
            html = True
        if not html:
            parent = len(self.names) - 1
            space = child_namespace(self.spaces[parent], self.names[parent], self.attributes[parent], name)
            return not closed, space
        if name in VOID or name in MERGED:
            return False, _HTML
        if name == "svg" or name == "math":
            return not closed, _SVG if name == "svg" else _MATHML
        if name in CLOSE_P:
            self.pop_if("p")
        if name in HEADINGS:
            self.pop_if(HEADINGS)
        elif name == "li":
            self.pop_if("li")
        elif name == "dd" or name == "dt":
            self.pop_if(frozenset({"dd", "dt"}))
        elif name == "option" or name == "optgroup":
            self.pop_if("option")
        elif name == "button":
            self.pop_if("button")
        elif name == "select" and self.top_is("select"):
            self.pop_to(len(self.names) - 1)  # <select> in a select closes it (§13.2.6.4.16)
            return False, _HTML
        elif name in CELL or name == "tr" or name in SECTION:
            self.pop_if(CELL)
            if name != "td" and name != "th":
                self.pop_if("tr")
                if name in SECTION:
                    self.pop_if(SECTION)
            # the parents the tree builder opens for a row or a cell in a table
            # (§13.2.6.4.9, .13): a level each, so a level each here
            if name != "tbody" and name != "thead" and name != "tfoot" and self.top_is("table"):
                self.push("tbody", _HTML, False, {})
            if (name == "td" or name == "th") and self.top_is(SECTION):
                self.push("tr", _HTML, False, {})
        return True, _HTML

    def end(self, name: str) -> bool | None:
        """An end tag: None when the model closes nothing, else whether the
        element it closed was flat (its end tag then goes unseen)."""
        names = self.names
        if not names:
            return None
        top = len(names) - 1
        if names[top] == name:
            return self.pop_to(top)
        if self.spaces[top] is not _HTML:
            return None
        if name == "template":
            return self.pop_to(self.templates[-1]) if self.templates else None
        if name == "table":
            # pops all above the table (§13.2.6.4.9), but a formatting element among
            # them stays in the list of active formatting elements and is opened again
            # at the next text (§13.2.4.3): then the model keeps them all open
            tables = self.tables
            if (tables and (not self.templates or self.templates[-1] < tables[-1]) and top - tables[-1] <= RUN
                    and FORMATTING.isdisjoint(names[tables[-1]:])):
                return self.pop_to(tables[-1])
            return None
        run = SCOPED_END.get(name)
        if run is None:
            return None
        spaces = self.spaces
        for index in range(top, max(-1, top - RUN), -1):
            if spaces[index] is not _HTML:
                return None
            if names[index] == name:
                return self.pop_to(index)
            if names[index] not in run:
                return None
        return None


#: start tags whose only rule is to close a p that is the current node
_BLOCK = CLOSE_P - HEADINGS - {"li", "dd", "dt", "xmp"}
#: start tags the model has a rule for: the others, in HTML, are pushed as they come
_RULED = frozenset({*CLOSE_P, *HEADINGS, *CELL, *SECTION, *RAW_TEXT, *VOID, *MERGED,
                    "option", "optgroup", "button", "select", "tr", "svg", "math", "script", "plaintext"})


def guard(markup: str | bytes, comments: bool = True) -> Guarded:
    """The markup with its nesting and attribute counts capped, and what was
    capped; the markup itself when nothing was (see the module doc).  With
    ``comments`` False (their text is not read), a page the first pass vouches
    for is given to the parser without its long comments' texts (tokens.withheld)."""
    syntax: Syntax = STR if isinstance(markup, str) else BYTES
    spans: list[tuple[int, int]] | None = None if comments else []
    # a page nested deep from its start (the shape that costs most a byte) is
    # told by its first bytes: then the first pass is not made over all of it
    if (len(markup) <= 2 * PREFIX or shallow(markup, syntax, PREFIX) is None) and shallow(markup, syntax, None, spans):
        return Guarded(withheld(markup, spans, syntax) if spans else markup)
    search = syntax.markup.search
    lower = ascii_lower if isinstance(markup, str) else decoded
    model = _Model()
    names, spaces, flats, attributes = model.names, model.spaces, model.flat, model.attributes
    no_attributes: dict[str, str | None] = {}
    edits: list[tuple[int, int, str | bytes]] = []  # (start, end, replacement), in input order
    # an end tag of an element closed at its start is dropped; a comment stands in
    # its place, so that the texts before and after it stay two texts
    separator, bare = syntax.kind("<!---->"), syntax.kind("\t\n\f\r /")
    deepest = flattened = 0
    first_flat = first_wide = None
    widest = wide = 0
    # globals read on every tag, made locals
    html, ruled, block, wide_text = _HTML, _RULED, _BLOCK, 2 * MAX_ATTRIBUTES
    closers: dict[str, str | bytes] = {}
    pos, end_of_input = 0, len(markup)
    while pos < end_of_input:
        m = search(markup, pos)
        if m is None:
            break
        kind = m.lastgroup
        if kind == "closed":  # a start tag
            name, text, closed = m.group(1, 2, 3)
            name = lower(name)
            pos = m.end()
            if len(text) >= wide_text:  # each attribute takes a character and a separator
                cut = capped(text, syntax)
                if cut is not None:
                    count, text = cut
                    wide += 1
                    widest = max(widest, count)
                    if first_wide is None:
                        first_wide = m.start()
                    edits.append((m.start(2), m.end(2), text))
            if (not names or spaces[-1] is html) and name not in ruled:
                space = html  # the common case, inline: an HTML element opened in HTML
            elif name in block and (not names or spaces[-1] is html):
                space = html  # a block: it closes a p that is the current node
                if names and names[-1] == "p":
                    model.pop_to(len(names) - 1)
            else:
                opens, space = model.start(name, text, bool(closed))
                if space is _HTML:
                    if name in RAW_TEXT:
                        close = syntax.raw_end[name].search(markup, pos)
                        pos = end_of_input if close is None else close.start()
                        continue  # its end tag, read next, finds it open or not: either is right
                    if name == "script":
                        pos = script_end(markup, pos, syntax)
                        continue
                    if name == "plaintext":
                        break  # the rest is text (§13.2.5.7)
                if not opens:
                    continue
            flat = model.live >= MAX_DEPTH
            if flat:
                flattened += 1
                if first_flat is None:
                    first_flat = m.start()
                if text.strip(bare):
                    closer = closers.get(name)
                    if closer is None:
                        closer = closers[name] = syntax.kind(f"</{name}>")
                    edits.append((pos, pos, closer))
                else:
                    # no attribute, so nothing to read from it: the parser is spared the
                    # element (a comment is no level, and keeps the texts around it apart)
                    edits.append((m.start(), pos, separator))
                if len(names) >= deepest:
                    deepest = len(names) + 1
            if name == "table" or name == "template" or name == "annotation-xml":
                model.push(name, space, flat, attribute_map(text) if name == "annotation-xml" else no_attributes)
            else:  # model.push, inline
                names.append(name)
                spaces.append(space)
                flats.append(flat)
                attributes.append(no_attributes)
                if not flat:
                    model.live += 1
        elif kind == "end":
            pos = m.end()
            name = lower(m.group(4))
            if names and names[-1] == name and name != "table" and name != "template":
                names.pop()
                spaces.pop()
                attributes.pop()
                if flats.pop():
                    edits.append((m.start(), pos, separator))  # closed at its start already
                else:
                    model.live -= 1
            elif model.end(name):
                edits.append((m.start(), pos, separator))
        elif kind == "comment":
            start = m.end()
            if markup.startswith(syntax.kind(">"), start):  # <!--> (§13.2.5.44)
                pos = start + 1
            elif markup.startswith(syntax.kind("->"), start):  # <!--->
                pos = start + 2
            else:
                close = syntax.comment_end.search(markup, start)
                pos = end_of_input if close is None else close.end()
        elif kind == "bogus":
            # a doctype, <!...>, <?...>, </ followed by no letter: up to the next ">"
            gt: int = markup.find(syntax.kind(">"), m.end())
            if (m.group("bogus") in ("!", b"!") and model.names and model.spaces[-1] is not _HTML
                    and markup.startswith(syntax.kind("[CDATA["), m.end())):
                gt = markup.find(syntax.kind("]]>"), m.end())  # CDATA in foreign content (§13.2.5.69)
                gt = -1 if gt < 0 else gt + 2
            pos = end_of_input if gt < 0 else gt + 1
        else:  # the input ends inside a tag: the tokenizer drops it
            break
    notes = []
    if flattened:
        notes.append(f"elements nested {deepest} deep, deeper than {MAX_DEPTH} "
                     f"(from line {_line(markup, first_flat)}): "
                     f"{flattened} elements past that depth were closed at once, their contents made their "
                     f"siblings, as Blink caps its tree (the HTML5 tree builder is quadratic in the depth)")
    if wide:
        notes.append(f"{wide} element{'s' if wide > 1 else ''} with more than {MAX_ATTRIBUTES} attributes "
                     f"(up to {widest}, from line {_line(markup, first_wide)}): kept the first {MAX_ATTRIBUTES} "
                     f"and those holding links, dropped the rest (the tokenizer is quadratic in them)")
    if not edits:
        return Guarded(markup, tuple(notes))
    return Guarded(edited(markup, edits, syntax), tuple(notes))


def _line(markup: str | bytes, at: int | None) -> int:
    newline: Any = "\n" if isinstance(markup, str) else b"\n"
    return int(markup.count(newline, 0, at or 0)) + 1
