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
and one search for the macros outside the blocks, which runs the first only
as far as it needs (:class:`.marks.Ahead`).  Every search that could run
again from the same place keeps its answer while it lies ahead (the next
macro name, ``<<``, ``]``, line end, and where a word ends: a word of a
million ``http://`` is read once).  The marks are handed on in
batches (:func:`.marks.streamed`), the time budget looked at between them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...model import Content, Defect, Place, Record, Style, Tally, Where
from ...stages.charset import content_text
from ...stages.found_to_record import Tail
from ...stages.options import ScanOptions
from ...uri import patterns
from .marks import PIECE, Ahead, Batch, Gathered, Mark, ended, streamed

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
_LONGEST_NAME = max(map(len, _MACRO_NAMES)) + 1  # (with its ":")
_MACRO_NAME = patterns.compile(":(?:" + "|".join(f"(?<=({name}):)" for name in _MACRO_NAMES) + ")")
_CODE_STYLES = frozenset({"source", "listing", "literal"})
# where a named macro's target and a URL macro's URL end (the "[" that must follow them, or not)
_NAMED_STOP = patterns.compile(r"[\s\[\]]")
_URL_STOP = patterns.compile(r"[\s\[\]<>]")
_closers: dict[str, re.Pattern[str]] = {}


def _closer(delimiter: str) -> re.Pattern[str]:
    """The line that closes a block opened by ``delimiter``: the same characters, as many."""
    pattern = _closers.get(delimiter)
    if pattern is None:
        if len(_closers) > 256:
            _closers.clear()
        pattern = _closers[delimiter] = patterns.compile(rf"^{re.escape(delimiter)}[ \t]*+$", re.MULTILINE)
    return pattern


def read_asciidoc(content: Content, options: ScanOptions, tally: Tally) -> Iterator[Record | Defect | Content]:
    """The records of an AsciiDoc document, and its passthrough blocks as nested HTML content."""
    text, decoding, defects = content_text(content, options.charset)
    yield from defects
    tail = Tail(content.layer, content.origin, decoding, browser=options.browser, needs=options.needs)
    gathered = Gathered()
    yield from streamed(content, text, tail, options, _macros(text, gathered, Ahead(_blocks(text, gathered))), LINK,
                        IN_CODE)


def _blocks(text: str, gathered: Gathered) -> Iterator[tuple[int, int, int, bool]]:
    """The blocks (listing, literal, comment, passthrough, a styled
    paragraph, a line comment) in order, each ``(start, end, where the
    search goes on, False)``, their ranges and passthrough HTML added to ``gathered``."""
    at = 0
    while (found := _next_opening(text, at)) is not None:
        start, line_end = found.start(), found.end()
        delimiter, style = found.group(1), found.group(2)
        covered = gathered.covered
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
                    gathered.html.append((inside, inner_end))
            else:
                covered.append((start, end, kind != "/"))
            at = end
            yield start, end, at, False
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
                    yield inside, end, at, False
                continue
            blank = _BLANK_LINE.search(text, inside)
            end = len(text) if blank is None else blank.start()
            covered.append((start, end, style in _CODE_STYLES))
            if style == "pass" and inside < end:
                gathered.html.append((inside, end))
            at = end
            yield start, end, at, False
        else:
            covered.append((start, line_end, False))  # a line comment
            at = line_end
            yield start, line_end, at, False


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


def _macros(text: str, gathered: Gathered, blocks: Ahead) -> Iterator[Batch]:
    """The macros and cross references outside the ``blocks``, a batch every
    :data:`.marks.PIECE` characters.  A macro may start at a macro name
    before a ":" or at a "<<": ``_MACRO`` is tried only there (the engine
    looks for a literal fast, where it tries each branch of ``_MACRO`` at
    every position: 27 MB/s on Asciidoctor's documentation)."""
    upto = 0
    piece_end = PIECE
    length = len(text)
    # each search's answer, kept while it is ahead (looked for again only once passed, so that a line
    # of a million macros, or a million "<<" and no ":", is read once): the next "]" and line end; the
    # next "<<" (-1: none) and macro name's ":" (None: none); where a named macro's target and a URL
    # macro's URL end
    close = line_end = -1
    angles = text.find("<<")
    colon = _MACRO_NAME.search(text)
    named_stop = url_stop = -1
    at = 0  # where the next candidate is looked for from
    while True:
        # a batch every quarter PIECE characters passed, found or not (a word of a million "link:" finds
        # none, and each candidate is a step in Python: 1.5 MB/s, so that the clock is looked at often):
        # every mark and range to come starts at or after upto, after the next candidate's name (which
        # stands before the ":" searched from at), and after the blocks' frontier
        passed = max(upto, at - _LONGEST_NAME)
        if passed >= piece_end:
            yield gathered.batch(min(passed, blocks.frontier))
            piece_end = passed + PIECE // 4
        # the next candidate at or after upto (at: past the last candidate tried)
        at = max(at, upto)
        if -1 < angles < at:
            angles = text.find("<<", at)
        if colon is not None and colon.start() < at:
            colon = _MACRO_NAME.search(text, at)
        if colon is None and angles == -1:
            break
        if colon is not None and (angles == -1 or colon.start() < angles):
            at = colon.end()
            start = colon.start(colon.lastindex or 0)  # (the name, which the lookbehind that held captured)
            if start and text[start - 1] != "\n":  # (a block macro's "::" only at a line's start)
                # a named or URL macro needs a "[" where its word ends: not there, no match from here
                if named_stop < start:
                    stop = _NAMED_STOP.search(text, start)
                    named_stop = length if stop is None else stop.start()
                if url_stop < start:
                    stop = _URL_STOP.search(text, start)
                    url_stop = length if stop is None else stop.start()
                if not text.startswith("[", named_stop) and not text.startswith("[", url_stop):
                    continue
        else:
            start = angles
            at = angles + 1
        found = _MACRO.match(text, start)
        if found is None:
            continue
        block = blocks.holding(start)
        if block is not None:
            upto = block[1]  # in a block: go on past it
            continue
        upto = found.end()
        name = found.group(1) or found.group(5)
        if found.group(4) is not None:  # <<id>>
            target, where = found.group(4).strip(), found.start(4)
            uri = target if "#" in target or target.endswith(".adoc") else "#" + target
            place = LINK
        elif name is not None:
            group = 2 if found.group(1) is not None else 6
            target, where = found.group(group).strip(), found.start(group)
            uri = "mailto:" + target if name == "mailto" else "#" + target if (
                name == "xref" and "#" not in target and not target.endswith(".adoc")) else target
            place = _PLACES[name]
        else:
            target, where = found.group(3), found.start(3)
            uri, place = target, LINK
        if found.group(4) is None:
            if line_end < upto:
                line_end = text.find("\n", upto)
                line_end = length if line_end == -1 else line_end
            if close < upto:
                close = text.find("]", upto)
                close = length if close == -1 else close
            if close > line_end:
                continue  # its text never closed on its line: no macro, as Asciidoctor reads it (only text)
            gathered.covered.append((start, close + 1, False))  # (a macro's text is no prose of its own)
            upto = close + 1
        else:
            gathered.covered.append((start, upto, False))
        if target:
            gathered.marked.append(Mark(where, where + len(target), uri, Style.MARKUP, place))
    yield from ended(blocks, gathered, piece_end, length)
