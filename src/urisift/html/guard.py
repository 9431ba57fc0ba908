"""A linear pass over the markup before lexbor sees it, capping the two
shapes on which an HTML5 tree builder is quadratic (issue 20).

- **Depth.**  The tree builder's scope checks walk the stack of open
  elements (WHATWG HTML §13.2.4.2 "has an element in scope"), so a tag costs
  time in the depth: 100,000 nested ``<div>`` take lexbor 20 s, closed or
  not.  Blink caps the tree at 512 (``kMaximumHTMLParserDOMTreeDepth``);
  here a start tag that would open level ``MAX_DEPTH + 1`` is closed at
  once (``</tag>`` is written after it, and its own end tag dropped), so
  the element keeps its attributes and its contents become its siblings.
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
model does not follow is capped early, never late.  Known limit: formatting
elements left open (``<b>``, ``<font>``) are reopened by the tree builder
for every block after them (§13.2.4.3, "reconstruct the active formatting
elements"); the model counts them as never closed, which is conservative.

Every step is a regular expression match from the current position whose
groups cannot backtrack (possessive quantifiers), or a find of a fixed
string: the pass is linear, and on a normal page costs a fraction of the
parse.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .table import NAMES
from .tree import Namespace, child_namespace

#: the deepest the parser is let nest elements (Blink's cap, HTMLConstructionSite)
MAX_DEPTH = 512
#: attributes of one element kept beyond those links are read from
MAX_ATTRIBUTES = 256
#: attributes kept on an element however many it has: those holding links, and
#: those that say how a link is read (rel, meta's name/property, the encoding
#: of MathML annotation-xml, area's alt as its anchor text)
KEPT = frozenset({*NAMES, "rel", "http-equiv", "name", "property", "itemprop", "encoding", "alt"})

# -- the tokenizer's pieces (§13.2.5); "*+" and "++" never give back what they took ---------------

_WS = r"\t\n\f\r "
_NAME = rf"[A-Za-z][^{_WS}/>]*+"
# an attribute: its name (which may begin with "="), then, if "=" follows, a
# value that must be there: a quoted one must be closed, or the tag runs to
# the end of the input (§13.2.5.36-38: EOF in a tag drops it)
_ATTRIBUTE = (rf"[^{_WS}/>][^{_WS}/=>]*+"
              rf"(?:[{_WS}]*+=[{_WS}]*+(?:\"[^\"]*+\"|'[^']*+'|[^{_WS}>\"'][^{_WS}>]*+|(?=>))|(?![{_WS}]*+=))")
_ATTRIBUTES = rf"(?:[{_WS}]++|/(?!>)|{_ATTRIBUTE})*+"
_MARKUP = (rf"<(?=[A-Za-z!?/])(?:(?P<start>{_NAME})(?P<attributes>{_ATTRIBUTES})(?P<closed>/?)>"
           rf"|/(?P<end>{_NAME}){_ATTRIBUTES}/?>"
           r"|(?P<comment>!--)"
           r"|(?P<eof>/?[A-Za-z])"  # a tag the input ends inside of
           r"|(?P<bogus>[!?/]))")
_ONE_ATTRIBUTE = rf"(?P<name>{_ATTRIBUTE})"
_COMMENT_END = r"--!?>"
_SCRIPT = rf"<!--|-->|<(/?)script(?=[{_WS}/>])"
# The first pass, for pages that need no cap (nearly all): one findall, tuples
# not match objects.  A tag with more than _ITEMS attribute items fails its
# alternative and shows up as "cut", as does a tag the input ends inside.
_ITEMS = 1025
#: how much of a long page is first read for a sign of deep nesting
_PREFIX = 8192
_RAW_NAMES = "|".join(sorted(("script", "style", "xmp", "iframe", "noembed", "noframes", "title", "textarea")))
_FAST_ATTRIBUTES = rf"(?:[{_WS}]++|/(?!>)|{_ATTRIBUTE}){{0,{_ITEMS}}}+"
# (the lookahead first: a "<" that opens nothing is passed over without trying each branch)
_FAST = (rf"<(?=[A-Za-z!?/])(?:(?P<raw>(?i:{_RAW_NAMES}))(?=[{_WS}/>]){_FAST_ATTRIBUTES}/?>"
         # greedy, not possessive: re of Python 3.11 mistakes a group's span in a
         # possessive repeat; nothing after the repeat can fail, so it never backtracks
         # (marks: "<!--" and "<script" for a script that may double-escape, any "<"
         # for a title or style in SVG, whose text is markup there)
         rf"(?:[^<]++|(?P<escape><!--)|(?P<inner><(?i:script)[{_WS}/>])|(?P<lt><)(?!(?i:/(?P=raw))[{_WS}/>]))*"
         rf"|(?P<start>{_NAME}){_FAST_ATTRIBUTES}(?P<closed>/?)>"
         rf"|/(?P<end>{_NAME}){_FAST_ATTRIBUTES}/?>"
         r"|!--(?:-?>|(?:[^-]++|-(?!-!?>))*+(?:--!?>)?)"
         # a tag cut by the end of the input (or by _ITEMS) ends the pass: were the
         # next "<" tried, each would scan to the end again
         r"|(?P<cut>/?[A-Za-z])[\s\S]*+"
         r"|(?P<other>!\[CDATA\[|[!?/])[^>]*+>?)")

#: elements never put on the stack (§13.1.2 void elements; "image" is read as "img")
VOID = frozenset({"area", "base", "basefont", "bgsound", "br", "col", "embed", "frame", "hr", "image", "img",
                  "input", "keygen", "link", "meta", "param", "source", "track", "wbr"})
#: elements whose text the tokenizer reads as text, up to their end tag (§13.2.6.2, scripting off)
RAW_TEXT = frozenset({"style", "xmp", "iframe", "noembed", "noframes", "title", "textarea"})
#: start tags merged into the elements the parser made already
_MERGED = frozenset({"html", "head", "body"})
#: start tags that close a p element that is the current node (§13.2.6.4.7)
_CLOSE_P = frozenset({
    "address", "article", "aside", "blockquote", "center", "details", "dialog", "dir", "div", "dl", "fieldset",
    "figcaption", "figure", "footer", "header", "hgroup", "main", "menu", "nav", "ol", "p", "search", "section",
    "summary", "ul", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "listing", "form", "li", "dd", "dt", "xmp"})
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
#: elements "generate implied end tags" closes (§13.2.6.3)
_IMPLIED = frozenset({"p", "li", "dd", "dt", "option", "optgroup", "rb", "rp", "rt", "rtc"})
_CELL = frozenset({"td", "th"})
#: formatting elements (§13.2.4.3)
_FORMATTING = frozenset({"a", "b", "big", "code", "em", "font", "i", "nobr", "s", "small", "strike", "strong",
                         "tt", "u"})
_SECTION = frozenset({"tbody", "thead", "tfoot"})
#: end tags that close their element with whatever implied-end elements are above it: the
#: end tags checked "in scope" (§13.2.6.4.7), and those of table rows and cells (§13.2.6.4.14-15)
_SCOPED_END: dict[str, frozenset[str]] = {
    **{name: _IMPLIED for name in (
        "address", "article", "aside", "blockquote", "button", "center", "details", "dialog", "dir", "div",
        "dl", "fieldset", "figcaption", "figure", "footer", "header", "hgroup", "listing", "main", "menu",
        "nav", "ol", "pre", "search", "section", "summary", "ul", "li", "dd", "dt", "p", "select")},
    "td": _IMPLIED, "th": _IMPLIED, "tr": _IMPLIED | _CELL, **{name: _IMPLIED | _CELL | {"tr"} for name in _SECTION}}
#: how many implied-end elements an end tag may close on its way (more: the model keeps them open)
_RUN = 16
#: start tags that leave SVG and MathML (§13.2.6.5, "a start tag whose tag name is one of")
_BREAKOUT = frozenset({
    "b", "big", "blockquote", "body", "br", "center", "code", "dd", "div", "dl", "dt", "em", "embed", "h1", "h2",
    "h3", "h4", "h5", "h6", "head", "hr", "i", "img", "li", "listing", "menu", "meta", "nobr", "ol", "p", "pre",
    "ruby", "s", "small", "span", "strong", "strike", "sub", "sup", "table", "tt", "u", "ul", "var"})
_FONT_BREAKOUT = frozenset({"color", "face", "size"})
# enum members read once: a class attribute lookup costs more than the rest of a tag
_HTML, _SVG, _MATHML = Namespace.HTML, Namespace.SVG, Namespace.MATHML


class _Syntax:
    """The patterns for str or for bytes (clean UTF-8 is parsed as it is)."""

    def __init__(self, kind: Callable[[str], Any]) -> None:
        self.markup: re.Pattern[Any] = re.compile(kind(_MARKUP))
        self.attribute: re.Pattern[Any] = re.compile(kind(_ONE_ATTRIBUTE))
        self.comment_end: re.Pattern[Any] = re.compile(kind(_COMMENT_END))
        self.script: re.Pattern[Any] = re.compile(kind(_SCRIPT), re.IGNORECASE)
        self.raw_end: dict[str, re.Pattern[Any]] = {
            name: re.compile(kind(rf"</{name}(?=[{_WS}/>])"), re.IGNORECASE) for name in RAW_TEXT}
        self.fast: re.Pattern[Any] = re.compile(kind(_FAST))
        self.kind = kind


_STR = _Syntax(str)
_BYTES = _Syntax(lambda pattern: pattern.encode("ascii"))


@dataclass(frozen=True)
class Guarded:
    """What the parser is given, and what was capped (a defect detail each)."""

    markup: str | bytes
    notes: tuple[str, ...] = ()


def _decoded(name: str | bytes) -> str:
    return name.lower() if isinstance(name, str) else name.decode("latin-1").lower()


def attributes_of(text: str | bytes) -> list[tuple[str, int, int]]:
    """The attributes written in a start tag's attribute text: the name of each
    (lower case) and where the attribute stands, value included."""
    syntax: _Syntax = _STR if isinstance(text, str) else _BYTES
    out = []
    for m in syntax.attribute.finditer(text):
        raw = m.group("name")
        equals = raw.find("=" if isinstance(raw, str) else b"=", 1)  # a name may begin with "="
        name = raw if equals < 0 else raw[:equals]
        out.append((_decoded(name.rstrip()), m.start(), m.end()))
    return out


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
        if not html and (name in _BREAKOUT
                         or (name == "font" and not _FONT_BREAKOUT.isdisjoint(_attribute_map(attributes)))):
            # §13.2.6.5: pop until the current node is HTML or an integration point
            while self.names and not self.html_context():
                self.pop_to(len(self.names) - 1)
            html = True
        if not html:
            parent = len(self.names) - 1
            space = child_namespace(self.spaces[parent], self.names[parent], self.attributes[parent], name)
            return not closed, space
        if name in VOID or name in _MERGED:
            return False, _HTML
        if name == "svg" or name == "math":
            return not closed, _SVG if name == "svg" else _MATHML
        if name in _CLOSE_P:
            self.pop_if("p")
        if name in _HEADINGS:
            self.pop_if(_HEADINGS)
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
        elif name in _CELL or name == "tr" or name in _SECTION:
            self.pop_if(_CELL)
            if name != "td" and name != "th":
                self.pop_if("tr")
                if name in _SECTION:
                    self.pop_if(_SECTION)
            # the parents the tree builder opens for a row or a cell in a table
            # (§13.2.6.4.9, .13): a level each, so a level each here
            if name != "tbody" and name != "thead" and name != "tfoot" and self.top_is("table"):
                self.push("tbody", _HTML, False, {})
            if (name == "td" or name == "th") and self.top_is(_SECTION):
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
            if (tables and (not self.templates or self.templates[-1] < tables[-1]) and top - tables[-1] <= _RUN
                    and _FORMATTING.isdisjoint(names[tables[-1]:])):
                return self.pop_to(tables[-1])
            return None
        run = _SCOPED_END.get(name)
        if run is None:
            return None
        spaces = self.spaces
        for index in range(top, max(-1, top - _RUN), -1):
            if spaces[index] is not _HTML:
                return None
            if names[index] == name:
                return self.pop_to(index)
            if names[index] not in run:
                return None
        return None


#: foreign elements under which start tags are read as HTML (integration points, §13.2.6)
_INTEGRATION = frozenset({"foreignobject", "desc", "title", "mi", "mo", "mn", "ms", "mtext", "annotation-xml"})
#: start tags that, on the current node of the same name, close it (§13.2.6.4.7)
_SAME_CLOSES = frozenset({"p", "li", "dd", "dt", "option", "td", "th", "tr"})


def _sets(kind: Callable[[str], Any], *names: frozenset[str]) -> tuple[frozenset[Any], ...]:
    return tuple(frozenset(kind(name) for name in group) for group in names)


_FAST_SETS = {str: _sets(str, VOID, _BREAKOUT | {"font"}, _INTEGRATION, _SAME_CLOSES, _CLOSE_P),
              bytes: _sets(lambda name: name.encode("ascii"), VOID, _BREAKOUT | {"font"}, _INTEGRATION,
                           _SAME_CLOSES, _CLOSE_P)}


def _shallow(markup: str | bytes, syntax: _Syntax, end: int | None = None) -> bool | None:
    """Whether the markup surely needs no cap: a model of the stack that pops
    only on an end tag naming the current node (and on the commonest
    implied ends) stays within ``MAX_DEPTH``, no tag has over ``_ITEMS``
    attribute items, and nothing the model does not follow is met (foreign
    content holding raw-text elements, CDATA or HTML start tags; a script
    that may double-escape; plaintext; a tag cut by the end).  Its depth is
    never below the full model's, so False only means "look closer".

    With ``end``, only the markup before it is read (its last token may be
    cut there): False when the depth is passed already, else None (no sign)."""
    void, breakout, integration, same_closes, close_p = _FAST_SETS[type(markup)]
    svg_math = (syntax.kind("svg"), syntax.kind("math"))
    p, script, plaintext = syntax.kind("p"), syntax.kind("script"), syntax.kind("plaintext")
    table, tbody, tr = syntax.kind("table"), syntax.kind("tbody"), syntax.kind("tr")
    cells = (syntax.kind("td"), syntax.kind("th"))
    rows_cells = (*cells, tr)
    sections = (tbody, syntax.kind("thead"), syntax.kind("tfoot"))
    stack: list[Any] = []
    push, pop = stack.append, stack.pop
    foreign = 0  # svg and math elements open
    tokens = syntax.fast.findall(markup) if end is None else syntax.fast.findall(markup, 0, end)
    unsure = None if end is not None else False  # what a reason to look closer is worth
    for raw, escape, inner, lt, start, closed, end_tag, cut, other in tokens:
        if start:
            name = start.lower()
            if name in void:
                continue
            if foreign:
                if name in breakout or (closed and stack and stack[-1] in integration):
                    return unsure  # leaves foreign content, or a self-closed HTML element in it
                if closed:
                    continue  # a self-closed foreign element (§13.2.6.5)
            elif name in rows_cells:
                # a cell closes a cell, a row a cell and a row; a row in a table opens a
                # body, a cell in a body a row (§13.2.6.4.9-15): levels the markup does not show
                if stack and stack[-1] in cells:
                    pop()
                if name == tr and stack and stack[-1] == tr:
                    pop()
                if stack and stack[-1] == table:
                    push(tbody)
                if name != tr and stack and stack[-1] in sections:
                    push(tr)
            elif stack and stack[-1] == name and name in same_closes:
                continue  # closes the current one, opens its like
            elif name in close_p and stack and stack[-1] == p:
                pop()
            elif name == plaintext:
                return unsure
            if name in svg_math:
                if closed:
                    continue
                foreign += 1
            push(name)
            if len(stack) > MAX_DEPTH:
                return False
        elif end_tag:
            name = end_tag.lower()
            if stack and stack[-1] == name:
                if pop() in svg_math:
                    foreign -= 1
            elif name == table and len(stack) > 1 and stack[-1] in sections and stack[-2] == table:
                del stack[-2:]  # a table and the body it opened for its rows
        elif raw:
            if (foreign and (lt or escape or inner)) or (escape and inner and raw.lower() == script):
                return unsure
        elif cut or (other and other[:1] == syntax.kind("!") and len(other) > 1 and foreign):
            return unsure
    return True if end is None else None


#: start tags whose only rule is to close a p that is the current node
_BLOCK = _CLOSE_P - _HEADINGS - {"li", "dd", "dt", "xmp"}
#: start tags the model has a rule for: the others, in HTML, are pushed as they come
_RULED = frozenset({*_CLOSE_P, *_HEADINGS, *_CELL, *_SECTION, *RAW_TEXT, *VOID, *_MERGED,
                    "option", "optgroup", "button", "select", "tr", "svg", "math", "script", "plaintext"})


def guard(markup: str | bytes) -> Guarded:
    """The markup with its nesting and attribute counts capped, and what was
    capped; the markup itself when nothing was (see the module doc)."""
    syntax: _Syntax = _STR if isinstance(markup, str) else _BYTES
    # a page nested deep from its start (the shape that costs most a byte) is
    # told by its first bytes: then the first pass is not made over all of it
    if (len(markup) <= 2 * _PREFIX or _shallow(markup, syntax, _PREFIX) is None) and _shallow(markup, syntax):
        return Guarded(markup)
    search = syntax.markup.search
    decoded = str.lower if isinstance(markup, str) else _decoded
    model = _Model()
    names, spaces, flats, attributes = model.names, model.spaces, model.flat, model.attributes
    no_attributes: dict[str, str | None] = {}
    edits: list[tuple[int, int, str | bytes]] = []  # (start, end, replacement), in input order
    nothing = syntax.kind("")
    deepest = flattened = 0
    first_flat = first_wide = None
    widest = wide = 0
    pos, end_of_input = 0, len(markup)
    while pos < end_of_input:
        m = search(markup, pos)
        if m is None:
            break
        kind = m.lastgroup
        if kind == "closed":  # a start tag
            name = decoded(m.group(1))
            text = m.group(2)
            pos = m.end()
            if len(text) >= 2 * MAX_ATTRIBUTES:  # each attribute takes a character and a separator
                capped = _capped(text, syntax)
                if capped is not None:
                    count, text = capped
                    wide += 1
                    widest = max(widest, count)
                    if first_wide is None:
                        first_wide = m.start()
                    edits.append((m.start(2), m.end(2), text))
            if (not names or spaces[-1] is _HTML) and name not in _RULED:
                space = _HTML  # the common case, inline: an HTML element opened in HTML
            elif name in _BLOCK and (not names or spaces[-1] is _HTML):
                space = _HTML  # a block: it closes a p that is the current node
                if names and names[-1] == "p":
                    model.pop_to(len(names) - 1)
            else:
                opens, space = model.start(name, text, bool(m.group(3)))
                if space is _HTML:
                    if name in RAW_TEXT:
                        close = syntax.raw_end[name].search(markup, pos)
                        pos = end_of_input if close is None else close.start()
                        continue  # its end tag, read next, finds it open or not: either is right
                    if name == "script":
                        pos = _script_end(markup, pos, syntax)
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
                edits.append((pos, pos, syntax.kind(f"</{name}>")))
                if len(names) >= deepest:
                    deepest = len(names) + 1
            if name == "table" or name == "template" or name == "annotation-xml":
                model.push(name, space, flat, _attribute_map(text) if name == "annotation-xml" else no_attributes)
            else:  # model.push, inline
                names.append(name)
                spaces.append(space)
                flats.append(flat)
                attributes.append(no_attributes)
                if not flat:
                    model.live += 1
        elif kind == "end":
            pos = m.end()
            name = decoded(m.group(4))
            if names and names[-1] == name and name != "table" and name != "template":
                names.pop()
                spaces.pop()
                attributes.pop()
                if flats.pop():
                    edits.append((m.start(), pos, nothing))  # closed at its start already
                else:
                    model.live -= 1
            elif model.end(name):
                edits.append((m.start(), pos, nothing))
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
    return Guarded(_edited(markup, edits, syntax), tuple(notes))


def _line(markup: str | bytes, at: int | None) -> int:
    newline: Any = "\n" if isinstance(markup, str) else b"\n"
    return int(markup.count(newline, 0, at or 0)) + 1


def _edited(markup: Any, edits: list[tuple[int, int, Any]], syntax: _Syntax) -> str | bytes:
    parts = []
    at = 0
    for start, end, replacement in edits:  # in input order: they are made in one forward pass
        parts.append(markup[at:start])
        parts.append(replacement)
        at = end
    parts.append(markup[at:])
    joined: str | bytes = syntax.kind("").join(parts)
    return joined


def _script_end(markup: Any, pos: int, syntax: _Syntax) -> int:
    """Where a script's text ends: the "script data" states of §13.2.5.4 and
    .15-.31, in which ``<!--<script>`` hides a ``</script>`` until ``-->``."""
    state = 0  # 0: script data, 1: escaped (after <!--), 2: double escaped (after <!--<script>)
    for m in syntax.script.finditer(markup, pos):
        token = m.group()
        if token[:4] in ("<!--", b"<!--"):
            if state == 0:
                state = 1
        elif token[:3] in ("-->", b"-->"):
            state = 0
        elif m.group(1):  # </script
            if state == 2:
                state = 1
            else:
                start: int = m.start()
                return start
        elif state == 1:  # <script inside <!--
            state = 2
    return len(markup)  # never closed: the rest is its text


def _attribute_map(text: str | bytes) -> dict[str, str | None]:
    """The attributes of a tag by name, for the few decisions that need one
    (font leaving SVG, annotation-xml's encoding)."""
    out: dict[str, str | None] = {}
    for name, start, end in attributes_of(text):
        raw = text[start:end]
        if isinstance(raw, bytes):
            raw = raw.decode("utf-8", "replace")
        _, equals, value = raw.partition("=") if not raw.startswith("=") else ("", "", "")
        out.setdefault(name, value.strip(" \t\n\r\f").strip("\"'") if equals else None)
    return out


def _capped(text: Any, syntax: _Syntax) -> tuple[int, Any] | None:
    """A tag's attribute text with its first ``MAX_ATTRIBUTES`` attributes and the
    first of each name in :data:`KEPT`; None when it has no more than that."""
    attributes = attributes_of(text)
    if len(attributes) <= MAX_ATTRIBUTES:
        return None
    seen: set[str] = set()
    kept = []
    for name, start, end in attributes:
        if name in seen:
            continue  # a duplicate: the tokenizer drops it (§13.2.5.33)
        if len(seen) < MAX_ATTRIBUTES or name in KEPT:
            kept.append(text[start:end])
        seen.add(name)
    space = syntax.kind(" ")
    return len(attributes), space + space.join(kept)
