"""The pieces of the HTML tokenizer (WHATWG HTML §13.2.5) the guard reads
markup with, for str and for bytes alike, and the first pass over a page.

Every pattern is matched from a position, and its repeats are possessive
("*+", "++"): a match never gives back what it took, so a tag, a comment or
a raw-text element costs its length once.  See :mod:`.guard` for what the
passes decide.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

from ...uri import patterns
from .table import NAMES

#: the deepest the parser is let nest elements (Blink's cap, HTMLConstructionSite)
MAX_DEPTH = 512
#: attributes of one element kept beyond those links are read from
MAX_ATTRIBUTES = 256
#: attributes kept on an element however many it has: those holding links, and
#: those that say how a link is read (rel, meta's name/property, the encoding
#: of MathML annotation-xml, area's alt as its anchor text)
KEPT = frozenset({*NAMES, "rel", "http-equiv", "name", "property", "itemprop", "encoding", "alt"})

# -- the tokenizer's pieces (§13.2.5); "*+", "++" and "(?>...)" never give back what they took ------
# (a group's repeat is atomic, "(?>(?:...)*)", never "(?:...)*+": CPython before 3.11.5 matched that wrongly)

SPACE = r"\t\n\f\r "
_NAME = rf"[A-Za-z][^{SPACE}/>]*+"
# an attribute: its name (which may begin with "="), then, if "=" follows, a
# value that must be there: a quoted one must be closed, or the tag runs to
# the end of the input (§13.2.5.36-38: EOF in a tag drops it)
_ATTRIBUTE = (rf"[^{SPACE}/>][^{SPACE}/=>]*+"
              rf"(?:[{SPACE}]*+=[{SPACE}]*+(?:\"[^\"]*+\"|'[^']*+'|[^{SPACE}>\"'][^{SPACE}>]*+|(?=>))|(?![{SPACE}]*+=))")
_ATTRIBUTES = rf"(?>(?:[{SPACE}]++|/(?!>)|{_ATTRIBUTE})*)"
_MARKUP = (rf"<(?=[A-Za-z!?/])(?:(?P<start>{_NAME})(?P<attributes>{_ATTRIBUTES})(?P<closed>/?)>"
           rf"|/(?P<end>{_NAME}){_ATTRIBUTES}/?>"
           r"|(?P<comment>!--)"
           r"|(?P<eof>/?[A-Za-z])"  # a tag the input ends inside of
           r"|(?P<bogus>[!?/]))")
_ONE_ATTRIBUTE = rf"(?P<name>{_ATTRIBUTE})"
_COMMENT_END = r"--!?>"
_SCRIPT = rf"<!--|-->|<(/?)script(?=[{SPACE}/>])"
# The first pass, for pages that need no cap (nearly all): one findall, tuples
# not match objects.  A tag with more than _ITEMS attribute items fails its
# alternative and shows up as "cut", as does a tag the input ends inside.
_ITEMS = 1025
#: how much of a long page is first read for a sign of deep nesting
PREFIX = 8192
#: the shortest comment text the first pass notes the place of, to be withheld from the parser when comments are
#: not read, and how much of them there must be for a page to be copied without them (:func:`withheld`)
WITHHELD = 256
WORTH = 4096
_RAW_NAMES = "|".join(sorted(("script", "style", "xmp", "iframe", "noembed", "noframes", "title", "textarea")))
_FAST_ATTRIBUTES = rf"(?>(?:[{SPACE}]++|/(?!>)|{_ATTRIBUTE}){{0,{_ITEMS}}})"
# (the lookahead first: a "<" that opens nothing is passed over without trying each branch)
_FAST = (rf"<(?=[A-Za-z!?/])(?:(?P<raw>(?i:{_RAW_NAMES}))(?=[{SPACE}/>]){_FAST_ATTRIBUTES}/?>"
         # its text, up to its end tag, taken whole: an atomic repeat with no group in it
         # (re of Python 3.11 mistakes a group's span in one), whose memory does not grow with
         # the text (a greedy repeat of alternatives kept a mark an iteration: a script of 26 MB
         # with a million "<" took 1.1 GB); what it holds is looked for in it after (:func:`_marks`)
         rf"(?P<text>(?>(?:[^<]++|<(?!(?i:/(?P=raw))[{SPACE}/>]))*))"
         rf"|(?P<start>{_NAME}){_FAST_ATTRIBUTES}(?P<closed>/?)>"
         rf"|/(?P<end>{_NAME}){_FAST_ATTRIBUTES}/?>"
         r"|!--(?:-?>|(?>(?:[^-]++|-(?!-!?>))*)(?:--!?>)?)"
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
MERGED = frozenset({"html", "head", "body"})
#: start tags that close a p element that is the current node (§13.2.6.4.7)
CLOSE_P = frozenset({
    "address", "article", "aside", "blockquote", "center", "details", "dialog", "dir", "div", "dl", "fieldset",
    "figcaption", "figure", "footer", "header", "hgroup", "main", "menu", "nav", "ol", "p", "search", "section",
    "summary", "ul", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "listing", "form", "li", "dd", "dt", "xmp"})
HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
#: elements "generate implied end tags" closes (§13.2.6.3)
IMPLIED = frozenset({"p", "li", "dd", "dt", "option", "optgroup", "rb", "rp", "rt", "rtc"})
CELL = frozenset({"td", "th"})
#: formatting elements (§13.2.4.3)
FORMATTING = frozenset({"a", "b", "big", "code", "em", "font", "i", "nobr", "s", "small", "strike", "strong",
                         "tt", "u"})
SECTION = frozenset({"tbody", "thead", "tfoot"})
#: end tags that close their element with whatever implied-end elements are above it: the
#: end tags checked "in scope" (§13.2.6.4.7), and those of table rows and cells (§13.2.6.4.14-15)
SCOPED_END: dict[str, frozenset[str]] = {
    **{name: IMPLIED for name in (
        "address", "article", "aside", "blockquote", "button", "center", "details", "dialog", "dir", "div",
        "dl", "fieldset", "figcaption", "figure", "footer", "header", "hgroup", "listing", "main", "menu",
        "nav", "ol", "pre", "search", "section", "summary", "ul", "li", "dd", "dt", "p", "select")},
    "td": IMPLIED, "th": IMPLIED, "tr": IMPLIED | CELL, **{name: IMPLIED | CELL | {"tr"} for name in SECTION}}
#: how many implied-end elements an end tag may close on its way (more: the model keeps them open)
RUN = 16
#: start tags that leave SVG and MathML (§13.2.6.5, "a start tag whose tag name is one of")
BREAKOUT = frozenset({
    "b", "big", "blockquote", "body", "br", "center", "code", "dd", "div", "dl", "dt", "em", "embed", "h1", "h2",
    "h3", "h4", "h5", "h6", "head", "hr", "i", "img", "li", "listing", "menu", "meta", "nobr", "ol", "p", "pre",
    "ruby", "s", "small", "span", "strong", "strike", "sub", "sup", "table", "tt", "u", "ul", "var"})
FONT_BREAKOUT = frozenset({"color", "face", "size"})
class Syntax:
    """The patterns for str or for bytes (clean UTF-8 is parsed as it is).  Each is compiled ASCII: the tokenizer
    matches tag names case-insensitively in ASCII alone (§13.2.5.8), where a str pattern's own ignoring of case
    takes U+017F LONG S for an "s" and U+212A KELVIN SIGN for a "k" (``<noframe\u017f>`` read as raw text,
    what the parser nests under it unseen)."""

    def __init__(self, kind: Callable[[str], Any]) -> None:
        flags = re.ASCII
        self.markup: re.Pattern[Any] = patterns.compile(kind(_MARKUP), flags)
        self.attribute: re.Pattern[Any] = patterns.compile(kind(_ONE_ATTRIBUTE), flags)
        self.comment_end: re.Pattern[Any] = patterns.compile(kind(_COMMENT_END), flags)
        self.script: re.Pattern[Any] = patterns.compile(kind(_SCRIPT), flags | re.IGNORECASE)
        self.raw_end: dict[str, re.Pattern[Any]] = {
            name: patterns.compile(kind(rf"</{name}(?=[{SPACE}/>])"), flags | re.IGNORECASE) for name in RAW_TEXT}
        self.fast: re.Pattern[Any] = patterns.compile(kind(_FAST), flags)
        self.inner_script: re.Pattern[Any] = patterns.compile(kind(rf"<(?i:script)[{SPACE}/>]"), flags)
        self.kind = kind
        # the names the first pass compares with, made once (a small part costs its tokens, not these)
        self.shallow_names: tuple[Any, ...] = tuple(kind(name) for name in (
            "svg", "math", "p", "script", "plaintext", "table", "tbody", "thead", "tfoot", "tr", "td", "th", "!"))


STR = Syntax(str)
BYTES = Syntax(lambda pattern: pattern.encode("ascii"))


#: A-Z to a-z and nothing else: the tokenizer lowers ASCII upper alphas alone (§13.2.5.8), where str.lower()
#: makes U+212A KELVIN SIGN a "k", and ``<lin\u212a>`` the void link to the model while the parser nests it
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def ascii_lower(name: Any) -> Any:
    """A tag or attribute name (str or bytes) with its ASCII letters lowered, and nothing else."""
    if isinstance(name, bytes) or name.isascii():
        return name.lower()
    return name.translate(_ASCII_LOWER)


def decoded(name: str | bytes) -> str:
    return ascii_lower(name if isinstance(name, str) else name.decode("latin-1"))  # type: ignore[no-any-return]


def attributes_of(text: str | bytes) -> list[tuple[str, int, int]]:
    """The attributes written in a start tag's attribute text: the name of each
    (lower case) and where the attribute stands, value included."""
    syntax: Syntax = STR if isinstance(text, str) else BYTES
    out = []
    for m in syntax.attribute.finditer(text):
        raw = m.group("name")
        equals = raw.find("=" if isinstance(raw, str) else b"=", 1)  # a name may begin with "="
        name = raw if equals < 0 else raw[:equals]
        out.append((decoded(name.rstrip()), m.start(), m.end()))
    return out


#: foreign elements under which start tags are read as HTML (integration points, §13.2.6)
_INTEGRATION = frozenset({"foreignobject", "desc", "title", "mi", "mo", "mn", "ms", "mtext", "annotation-xml"})
#: start tags that, on the current node of the same name, close it (§13.2.6.4.7)
_SAME_CLOSES = frozenset({"p", "li", "dd", "dt", "option", "td", "th", "tr"})


def _sets(kind: Callable[[str], Any], *names: frozenset[str]) -> tuple[frozenset[Any], ...]:
    return tuple(frozenset(kind(name) for name in group) for group in names)


_FAST_SETS = {str: _sets(str, VOID, BREAKOUT | {"font"}, _INTEGRATION, _SAME_CLOSES, CLOSE_P),
              bytes: _sets(lambda name: name.encode("ascii"), VOID, BREAKOUT | {"font"}, _INTEGRATION,
                           _SAME_CLOSES, CLOSE_P)}


def shallow(markup: str | bytes, syntax: Syntax, end: int | None = None,
            comments: list[tuple[int, int]] | None = None) -> bool | None:
    """The first pass (:func:`shallow_twin`), in C for bytes where the build compiled it."""
    if _kernel is not None and type(markup) is bytes:
        answer: bool | None = _kernel(markup, end, comments)
        return answer
    return shallow_twin(markup, syntax, end, comments)


def shallow_twin(markup: str | bytes, syntax: Syntax, end: int | None = None,
                 comments: list[tuple[int, int]] | None = None) -> bool | None:
    """Whether the markup surely needs no cap: a model of the stack that pops
    only on an end tag naming the current node (and on the commonest
    implied ends) stays within ``MAX_DEPTH``, no tag has over ``_ITEMS``
    attribute items, and nothing the model does not follow is met (foreign
    content holding raw-text elements, CDATA or HTML start tags; a script
    that may double-escape; plaintext; a tag cut by the end).  Its depth is
    never below the full model's, so False only means "look closer".

    With ``end``, only the markup before it is read (its last token may be
    cut there): False when the depth is passed already, else None (no sign).

    With ``comments``, the place of each comment's text of at least ``WITHHELD`` characters is put in it as
    (start, end), where the pass reads them apart from tags and raw text: by the C pass always, by this one
    when comments may be a good part of the page (:func:`_long_comments`: its tokens are then read one match at
    a time, which costs more than findall's tuples)."""
    void, breakout, integration, same_closes, close_p = _FAST_SETS[type(markup)]
    svg, math, p, script, plaintext, table, tbody, thead, tfoot, tr, td, th, bang = syntax.shallow_names
    lt, escape = syntax.kind("<"), syntax.kind("<!--")
    svg_math = (svg, math)
    cells = (td, th)
    rows_cells = (td, th, tr)
    sections = (tbody, thead, tfoot)
    stack: list[Any] = []
    push, pop = stack.append, stack.pop
    foreign = 0  # svg and math elements open
    tokens: Any
    if end is not None:
        tokens = syntax.fast.findall(markup, 0, end)
    elif comments is not None and _long_comments(markup, syntax):
        tokens = _noting(markup, syntax, comments)
    else:
        tokens = syntax.fast.findall(markup)
    unsure = None if end is not None else False  # what a reason to look closer is worth
    for raw, text, start, closed, end_tag, cut, other in tokens:
        if start:
            name = start.lower() if start.isascii() else ascii_lower(start)
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
            name = end_tag.lower() if end_tag.isascii() else ascii_lower(end_tag)
            if stack and stack[-1] == name:
                if pop() in svg_math:
                    foreign -= 1
            elif name == table and len(stack) > 1 and stack[-1] in sections and stack[-2] == table:
                del stack[-2:]  # a table and the body it opened for its rows
        elif raw:
            # marks: "<!--" and "<script" for a script that may double-escape, any "<" for
            # a title or style in SVG, whose text is markup there
            if (foreign and lt in text) or (
                    raw.lower() == script and escape in text and syntax.inner_script.search(text) is not None):
                return unsure
        elif cut or (other and other[:1] == bang and len(other) > 1 and foreign):
            return unsure
    return True if end is None else None


def _long_comments(markup: str | bytes, syntax: Syntax) -> bool:
    """Whether comments may hold an eighth of the markup and ``WORTH`` at least, as Word's HTML (an Outlook
    message's) has them: 30 KB of its 38, all of them opened in its head.  A guess by find, each "<!--" to the
    next "-->", of those opened in the first ``PREFIX`` characters: a find to the end of a page that has no
    comment, or many short ones, costs a tenth of the first pass, and the guess need not be right (the pass
    itself says where the comments are)."""
    opening, closing = syntax.kind("<!--"), syntax.kind("-->")
    size = len(markup)
    held, need = 0, max(WORTH, size >> 3)
    at = markup.find(opening, 0, PREFIX)
    while at >= 0:
        close = markup.find(closing, at + 4)
        held += (size if close < 0 else close) - at
        if held >= need:
            return True
        if close < 0:
            return False
        at = markup.find(opening, close + 3, PREFIX)
    return False


def _noting(markup: str | bytes, syntax: Syntax, comments: list[tuple[int, int]]) -> Iterator[tuple[Any, ...]]:
    """findall's tuples, one match at a time, each long comment's text noted (its match the one with no group)."""
    close, bang_close = syntax.kind("-->"), syntax.kind("--!>")
    for match in syntax.fast.finditer(markup):
        if match.lastindex is None:
            start, end = match.span()
            if end - start >= WITHHELD + 4:  # (its text: after "<!--", before "-->" or "--!>", or to the end)
                tail = 4 if markup.startswith(bang_close, end - 4) else 3 if markup.startswith(close, end - 3) else 0
                if end - tail - start - 4 >= WITHHELD:
                    comments.append((start + 4, end - tail))
        yield match.groups("")


def withheld(markup: str | bytes, comments: list[tuple[int, int]], syntax: Syntax) -> str | bytes:
    """The markup without the texts of the comments at ``comments`` (each ``<!---->`` then, a comment still, so
    that the texts around it stay apart), when they are ``WORTH`` together: the parser reads a comment's every
    character, and Word's HTML (an Outlook message's) is mostly comments; else the markup itself."""
    if sum(end - start for start, end in comments) < WORTH:
        return markup
    nothing = syntax.kind("")
    return edited(markup, [(start, end, nothing) for start, end in comments], syntax)


def edited(markup: Any, edits: list[tuple[int, int, Any]], syntax: Syntax) -> str | bytes:
    """``markup`` with each (start, end, replacement) of ``edits``, in input order, made in one forward pass."""
    parts = []
    at = 0
    for start, end, replacement in edits:
        parts.append(markup[at:start])
        parts.append(replacement)
        at = end
    parts.append(markup[at:])
    joined: str | bytes = syntax.kind("").join(parts)
    return joined


def _load_kernel() -> Callable[..., bool | None] | None:
    """shallow_kernel.c's pass, when this build has it (a compiler was found) and it
    agrees with this module on the caps; else None, and the twin runs."""
    try:
        from . import shallow_kernel
    except ImportError:
        return None
    if (shallow_kernel.MAX_DEPTH, shallow_kernel.ITEMS, getattr(shallow_kernel, "WITHHELD", None)) != (
            MAX_DEPTH, _ITEMS, WITHHELD):
        return None
    return shallow_kernel.shallow


_kernel = _load_kernel()


def script_end(markup: Any, pos: int, syntax: Syntax) -> int:
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


def attribute_map(text: str | bytes) -> dict[str, str | None]:
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


def capped(text: Any, syntax: Syntax) -> tuple[int, Any] | None:
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
