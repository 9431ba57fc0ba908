"""An AsciiDoc document (Asciidoctor's syntax) → its records.

- a URL macro with its text (``https://x[text]``), ``link:target[text]``
  and ``mailto:address[text]``: ``a``/``href``, style ``markup``;
- a cross reference, ``xref:target[text]`` and ``<<id>>``/``<<id,text>>``:
  ``a``/``href``, an id alone as ``#id`` (the fragment a renderer links to);
- ``image:target[]`` and the block ``image::target[]``: ``img``/``src``;
  ``video::``/``audio::`` their elements' ``src``;
- ``include::path[]``: element ``include``, attribute None, a reference
  that is never followed or read;
- a passthrough block (``++++``) handed back to the scan as nested HTML
  content, placed where it stands;
- the text scanner's finds in the prose (bare URLs, ``<https://x>``),
  ``a``/``href``.

Listing and literal blocks (``----``, ``....``, a fenced ``````` block) and a
paragraph or block under ``[source]``, ``[listing]`` or ``[literal]`` are
code: their URLs are found with the ``code`` flag.  Comments (``//`` lines,
``////`` blocks, ``[comment]``) are not scanned.

Asciidoctor is Ruby; Python has no parser of it that gives positions.  This
is a scanner of the link grammar alone, linear in the document: one search
for the lines that open a block, each block's end one search for its
closing line (a block left open runs to the end, as Asciidoctor reads it),
then one search for the macros outside the blocks.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...model import Content, Defect, Place, Record, Style, Tally, Where
from ...stages.charset import content_text
from ...stages.found_to_record import Tail
from ...stages.options import ScanOptions
from ...uri import patterns
from .marks import Mark, html_contents, in_order, records

LINK = Place(Where.ASCIIDOC, "a", "href")
IMAGE = Place(Where.ASCIIDOC, "img", "src")
INCLUDE = Place(Where.ASCIIDOC, "include")
IN_CODE = Place(Where.ASCIIDOC)
_PLACES = {"link": LINK, "mailto": LINK, "xref": LINK, "image": IMAGE, "include": INCLUDE,
           "video": Place(Where.ASCIIDOC, "video", "src"), "audio": Place(Where.ASCIIDOC, "audio", "src")}

# a line that opens a block: a delimiter (listing, literal, comment, passthrough, fence), a block
# style in brackets that makes what follows code, a comment or HTML, or a line comment
_OPENING = patterns.compile(r"^(?:(-{4,}+|\.{4,}+|/{4,}+|\+{4,}+|`{3,}+)[^\n]*+$|"
                      r"\[(source|listing|literal|pass|comment)\b[^\]\n]*+\][ \t]*+$|//[^\n]*+$)", re.MULTILINE)
# a line break before what an opening line may start with
_LINE_OPENER = patterns.compile(r"\n(?=[-./+`\[])")
_STYLE_BLOCKS = patterns.compile(r"(?:-{4,}+|\.{4,}+|\+{4,}+|/{4,}+|`{3,}+|={4,}+|\*{4,}+|_{4,}+)[ \t]*+(?:\n|$)")
_BLANK_LINE = patterns.compile(r"\n[ \t]*+(?:\n|$)")
# the macros: a named inline one, a URL with its text, a cross reference, a block macro at a line's start
_MACRO = patterns.compile(r"(?<![\w\\])(?:(link|xref|image|mailto|video|audio):(?!:)([^\s\[\]]++)|"
                    r"((?:https?|ftp|irc)://[^\s\[\]<>]++))\[|<<([^<>,\n]++)(?:,[^<>\n]*+)?>>|"
                    r"^(image|include|video|audio)::([^\[\n]*+)\[", re.MULTILINE)
# where a macro may start: its name before a ":" (a URL's scheme, or a block macro's "::"), found
# from the ":", a literal, each name looked back for (each a lookbehind of its own width)
_MACRO_NAMES = ("link", "xref", "image", "mailto", "video", "audio", "https", "http", "ftp", "irc", "include")
_MACRO_NAME = patterns.compile(":(?:" + "|".join(f"(?<=({name}):)" for name in _MACRO_NAMES) + ")")
_CODE_STYLES = frozenset({"source", "listing", "literal"})
_closers: dict[str, re.Pattern[str]] = {}


def _closer(delimiter: str) -> re.Pattern[str]:
    """The line that closes a block opened by ``delimiter``: the same characters, as many."""
    pattern = _closers.get(delimiter)
    if pattern is None:
        if len(_closers) > 256:
            _closers.clear()
        pattern = _closers[delimiter] = patterns.compile(r"^%s[ \t]*+$" % re.escape(delimiter), re.MULTILINE)
    return pattern


def read_asciidoc(content: Content, options: ScanOptions, tally: Tally) -> Iterator[Record | Defect | Content]:
    """The records of an AsciiDoc document, and its passthrough blocks as nested HTML content."""
    text, decoding, defects = content_text(content, options.charset)
    yield from defects
    tail = Tail(content.layer, content.origin, decoding, browser=options.browser, needs=options.needs)
    marked: list[Mark] = []
    covered: list[tuple[int, int, bool]] = []
    html: list[tuple[int, int]] = []
    at = 0
    while (found := _next_opening(text, at)) is not None:
        start, line_end = found.start(), found.end()
        delimiter, style = found.group(1), found.group(2)
        if delimiter is not None:
            delimiter = delimiter if delimiter[0] != "`" else "```"
            inside = min(line_end + 1, len(text))
            closing = _closer(delimiter).search(text, inside)
            end = len(text) if closing is None else closing.end()
            inner_end = len(text) if closing is None else closing.start()
            kind = delimiter[0]
            if kind == "+":
                covered.append((start, end, False))
                if inside < inner_end:
                    html.append((inside, inner_end))
            else:
                covered.append((start, end, kind != "/"))
            at = end
        elif style is not None:
            inside = min(line_end + 1, len(text))
            block = _STYLE_BLOCKS.match(text, inside)
            if block is not None:  # a delimited block under the style: its delimiter is read next
                at = inside
                # (a listing, literal, passthrough or comment delimiter decides for itself; an example,
                # sidebar or quote delimiter under a code style is code)
                if style in _CODE_STYLES and block.group().startswith(("=", "*", "_")):
                    closing = _closer(block.group().strip()).search(text, block.end())
                    end = len(text) if closing is None else closing.end()
                    covered.append((inside, end, True))
                    at = end
                continue
            blank = _BLANK_LINE.search(text, inside)
            end = len(text) if blank is None else blank.start()
            covered.append((start, end, style in _CODE_STYLES))
            if style == "pass" and inside < end:
                html.append((inside, end))
            at = end
        else:
            covered.append((start, line_end, False))  # a line comment
            at = line_end
    _macros(text, marked, covered)
    # the raw HTML's records where it stands, among the others (document order)
    yield from in_order(records(text, tail, options, marked, covered, LINK, IN_CODE),
                        html_contents(content, text, html))


def _next_opening(text: str, at: int) -> re.Match[str] | None:
    """``_OPENING.search(text, at)``, tried only at the lines that start with
    a character an opening line starts with (found from their line break, a
    literal: a pattern that starts with "^" is tried at every position)."""
    if at == 0 or text[at - 1] == "\n":
        found = _OPENING.match(text, at)
        if found is not None:
            return found
    while (line := _LINE_OPENER.search(text, at)) is not None:
        at = line.end()
        found = _OPENING.match(text, at)
        if found is not None:
            return found
    return None


def _next_macro(text: str, upto: int, angles: int) -> tuple[re.Match[str] | None, int]:
    """The first macro or cross reference from ``upto``: ``_MACRO`` tried
    only where one may start, at a macro name before a ":" or at a "<<"
    (the engine looks for a literal fast, where it tries each branch of
    ``_MACRO`` at every position: 27 MB/s on Asciidoctor's documentation);
    with where the next "<<" is, looked for again only once passed
    (``angles``: the last one known, -1 for none)."""
    at = upto
    if -1 < angles < upto:
        angles = text.find("<<", upto)
    while True:
        colon = _MACRO_NAME.search(text, at)
        if colon is None and angles == -1:
            return None, angles
        if colon is not None and (angles == -1 or colon.start() < angles):
            at = colon.end()
            start = colon.start(colon.lastindex or 0)  # (the name, which the lookbehind that held captured)
        else:
            start = angles
            at = angles + 1
            angles = text.find("<<", at)
        found = _MACRO.match(text, start)
        if found is not None:
            return found, angles


def _macros(text: str, marked: list[Mark], covered: list[tuple[int, int, bool]]) -> None:
    """The macros and cross references outside the blocks ``covered`` so far."""
    blocks = sorted(covered)
    k, upto = 0, 0
    # the next "]" and line end, each looked for once and kept while ahead: a line of a million
    # macros whose text is never closed is read once, not once a macro
    close, line_end = -1, -1
    angles = text.find("<<")
    while True:
        found, angles = _next_macro(text, upto, angles)
        if found is None:
            break
        start = found.start()
        while k < len(blocks) and blocks[k][1] <= start:
            k += 1
        if k < len(blocks) and blocks[k][0] <= start:
            upto = blocks[k][1]  # in a block: go on past it
            continue
        upto = found.end()
        name = found.group(1) or found.group(5)
        if found.group(4) is not None:  # <<id>>
            target, at = found.group(4).strip(), found.start(4)
            uri = target if "#" in target or target.endswith(".adoc") else "#" + target
            place = LINK
        elif name is not None:
            group = 2 if found.group(1) is not None else 6
            target, at = found.group(group).strip(), found.start(group)
            uri = "mailto:" + target if name == "mailto" else "#" + target if (
                name == "xref" and "#" not in target and not target.endswith(".adoc")) else target
            place = _PLACES[name]
        else:
            target, at = found.group(3), found.start(3)
            uri, place = target, LINK
        if found.group(4) is None:
            if line_end < upto:
                line_end = text.find("\n", upto)
                line_end = len(text) if line_end == -1 else line_end
            if close < upto:
                close = text.find("]", upto)
                close = len(text) if close == -1 else close
            if close > line_end:
                continue  # its text never closed on its line: no macro, as Asciidoctor reads it (only text)
            covered.append((start, close + 1, False))  # (a macro's text is no prose of its own)
            upto = close + 1
        else:
            covered.append((start, upto, False))
        if target:
            marked.append(Mark(at, at + len(target), uri, Style.MARKUP, place))
