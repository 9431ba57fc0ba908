"""Which stretches of a Markdown document need the parser.

Most of a document holds no link at all: a paragraph without a bracket, an
angle bracket or a URL renders nothing a reader would report, and the
parser's events for it (each a Python object) cost more than the rest of
the reading together.  A document is cut into blocks where a blank line
is followed by a line at the left margin that no container goes on with
(CommonMark §4: such a line closes every open block but a fenced code
block, an HTML block of kinds 1 to 5 and a metadata block, which are kept
whole here); each block is then read one of four ways:

- ``SKIP``: no link syntax and nothing the text scanner finds: no record;
- ``PROSE``: no link syntax, no code, HTML or math, and URLs the scanner
  finds: they are GFM's extended autolinks, as the parser's reading would
  have them;
- ``CODE``: one fenced code block, whole: its URLs are code;
- ``PARSE``: the rest, read by the parser, as a whole document would be.

The cut is safe only where the document's fences are clear: a fence line
after a list marker or indented four columns, an opening fence indented
within a list item whose lines go back to the margin, or a fence left open
at the end, and the whole document is read by the parser instead
(:func:`plan` returns None).  So is a document that defines one label twice
(CommonMark §4.7: the first definition wins, in every block)."""

from __future__ import annotations

import bisect
import enum
import re
from collections.abc import Callable, Iterable, Iterator, Sequence

from ...uri import patterns
from ..html.table import NAMES as URL_ATTRIBUTES


class Mode(enum.IntEnum):
    """How a stretch of a document is read (see the module's docstring)."""

    SKIP = 0
    PROSE = 1
    CODE = 2
    PARSE = 3


# a blank line, then a line at the left margin that no container (a list item, a block quote) goes on with
CUT = patterns.compile(r"\n[ \t]*+\n(?=[^ \t\n>])")
#: the characters between two stretches read as one, fewer than
GAP = 1024
#: the characters of a piece of a document too long to be read whole, about
PIECE = 1 << 20

# the patterns below read the text with a line break before it, so that each line starts after one
# what may stand before a fence's run on its line: white space, ">" and a list marker (CommonMark §4.5)
_BEFORE_RUN = patterns.compile(r"[ \t>]*+(?:(?:[*+-]|[0-9]{1,9}+[.)])[ \t]++)?+")
# a line at the margin: one inside a fence opened in a list item would close the item, and the fence with it
_MARGIN_LINE = patterns.compile(r"\n[^ \t\n]")
# the openers of the blocks that run on across blank lines (CommonMark §4.6, kinds 1 to 5; pulldown-cmark's
# metadata blocks, which stand anywhere), each with the pattern of its end; two patterns that each start
# with a literal, which the engine looks for before it tries the rest
_HTML_OPENER = patterns.compile(r"<(?:(!--)|(\?)|(!\[CDATA\[)|(![A-Za-z])"
                                r"|((?i:pre|script|style|textarea)(?=[ \t\n>]|$)))")
_METADATA_OPENER = patterns.compile(r"\n(?:(---)|(\+\+\+))[ \t]*+(?=\n|$)")
_HTML_CLOSER = {group: patterns.compile(closer) for group, closer in enumerate(
    (r"-->", r"\?>", r"\]\]>", r">"), start=1)}
# kind 1 ends at any of the four end tags in CommonMark, at its own in pulldown-cmark: the later of the two
_END_TAG = {name: patterns.compile(f"</(?i:{name})>") for name in ("pre", "script", "style", "textarea")}
_METADATA_CLOSER = {1: patterns.compile(r"\n(?:---|\.\.\.)[ \t]*+(?=\n|$)"),
                    2: patterns.compile(r"\n\+\+\+[ \t]*+(?=\n|$)")}
# what makes a link, an image or a definition: "](", "][", "]:"; an autolink of any scheme or an e-mail
# address (CommonMark §6.5), which the text scanner need not find (two patterns: each starts with a
# literal, which the engine looks for, where one of two branches is tried at every position)
_LINK_SYNTAX = patterns.compile(r"\][(\[:]")
_AUTOLINK = patterns.compile(r"<(?:[A-Za-z][A-Za-z0-9+.-]{1,31}+:|[^\s<>@]++@)[^\s<>]*+>")
# a tag with an attribute, to its end; and an attribute's name (what stands before "=")
_TAG = patterns.compile(r"<[A-Za-z][^<>=]*+=[^<>]*+")
ATTRIBUTE_NAME = patterns.compile(r"([A-Za-z_:][-A-Za-z0-9_:.]{0,63}+)[ \t\r\n]*+=")
# a bracketed text, which is a shortcut reference link when it names a definition
_BRACKETED = patterns.compile(r"\[([^\[\]]{1,999}+)\]")
# a definition's label (and what merely looks like one, in code: counted alike, which only costs speed)
_DEFINED = patterns.compile(r"\[((?:[^\[\]\\^]|\\.)(?:[^\[\]\\]|\\.){0,998}+)\][ \t]*+:", re.DOTALL)
# how each of those ends (a literal first: the engine looks for it alone, where _DEFINED tries every "[")
_LABEL_END = patterns.compile(r"\][ \t]*+:")
#: how far before its end a definition's form starts, at most: "[", a label of 999 units (an escape is two
#: characters), "]"
_LABEL_REACH = 2 + 2 * 999
# what a block's URLs may stand in, other than prose: code, raw HTML or autolinks, math, an indented block
# (a line indented four columns: code after a blank line or a heading, else a paragraph's; either way, parsed)
_NOT_PROSE = patterns.compile(r"[`$<]|~~~|\n(?: {4}| {0,3}+\t)")


def plan(text: str, finds: Sequence[int], label: Callable[[str], str], labels: set[str],
         define: Callable[[str], Iterable[str]] | None = None) -> list[tuple[int, int, Mode]] | None:
    """The stretches of the document to read ``(start, end, mode)``, in
    order (the text between them is skipped), where ``finds`` are the text scanner's finds'
    starts (in order) and ``labels`` the document's definitions' labels
    (as ``label`` matches them); None where the parser must read the whole.

    With ``define`` (the labels a stretch of the text defines, as ``label``
    matches them), ``labels`` is filled here, by the parser's reading of the
    blocks that hold a ``]:`` alone: a definition's label is followed by its
    colon at once and a definition holds no blank line (CommonMark §4.7), so
    each stands in one such block, which reads as it does in the whole
    document (the cuts' rule) and is a fraction of it."""
    lined = "\n" + text
    fences = _fences(lined)
    if fences is None or not _defined_once(text, label):
        return None
    cuts = [m.end() for m in CUT.finditer(text)]
    cuts.insert(0, 0)
    cuts.append(len(text))
    for start, end in reversed(_unbroken(lined, fences)):  # (from the end: a slice deleted moves none before it)
        del cuts[bisect.bisect_right(cuts, start):bisect.bisect_left(cuts, end)]  # inside a block that runs on
    parse: set[int] = set()
    defining: set[int] = set()  # the blocks that hold a "]:", which every definition does
    for m in _LINK_SYNTAX.finditer(text):  # (each "]:" is a match: none ends in the "]" of one)
        block = bisect.bisect_right(cuts, m.start()) - 1
        parse.add(block)
        if m.group() == "]:":
            defining.add(block)
    for m in _AUTOLINK.finditer(text):
        parse.add(bisect.bisect_right(cuts, m.start()) - 1)
    if define is not None and defining:
        labels.update(_defined(text, cuts, sorted(defining), define))
    told: dict[str, bool] = {}  # each tag's text: whether it has a URL attribute (the book's <span class=...>)
    for m in _TAG.finditer(text):
        block = bisect.bisect_right(cuts, m.start()) - 1
        if block in parse:
            continue  # (parsed already: its tags need no look)
        tag = m.group()
        holds = told.get(tag)
        if holds is None:
            holds = told[tag] = any(name.lower() in URL_ATTRIBUTES for name in ATTRIBUTE_NAME.findall(tag))
        if holds:
            parse.add(block)
    if labels:
        for m in _BRACKETED.finditer(text):
            block = bisect.bisect_right(cuts, m.start()) - 1
            if block not in parse and label(m.group(1)) in labels:  # (a parsed block's text: not matched)
                parse.add(block)
    found = {bisect.bisect_right(cuts, at) - 1 for at in finds}
    fenced = dict(fences)
    stretches: list[tuple[int, int, Mode]] = []
    for i in sorted(parse | found):  # (every other block is skipped)
        start, end = cuts[i], cuts[i + 1]
        close = fenced.get(start)
        if close is not None and not text[close:end].strip():
            mode = Mode.CODE if i in found else Mode.SKIP
        elif i in parse or _NOT_PROSE.search(text, start, end) is not None or start == 0 and text[:1] in " \t":
            mode = Mode.PARSE
        else:
            mode = Mode.PROSE
        if mode is Mode.SKIP:
            continue
        if stretches and start - stretches[-1][1] < GAP:
            # the one before and this read as one: what stands between holds nothing, and a parser call
            # costs as much as a few hundred characters parsed
            last = stretches[-1][2]
            stretches[-1] = (stretches[-1][0], end, mode if last is mode else Mode.PARSE)
        else:
            stretches.append((start, end, mode))
    return stretches


def _defined(text: str, cuts: list[int], blocks: list[int], define: Callable[[str], Iterable[str]]
             ) -> Iterator[str]:
    """The labels that ``blocks`` (indices into ``cuts``, in order) define,
    each run of blocks next to each other read in one call."""
    first = 0
    for k, block in enumerate(blocks):
        if k + 1 == len(blocks) or blocks[k + 1] != block + 1:
            yield from define(text[cuts[blocks[first]]:cuts[block + 1]])
            first = k + 1


def _fences(lined: str) -> list[tuple[int, int]] | None:
    """The fenced code blocks at the margin, ``(start of the opening line,
    end of the closing line)`` in the text that ``lined`` holds after a line
    break; None where a fence line is not clear."""
    fences = []
    opened: tuple[str, int, int, int] | None = None  # (character, run, start, indent)
    for at in _runs(lined):
        if lined[at - 1] == "\n":
            line, prefix = at - 1, ""  # (the commonest: a fence at the margin)
        else:
            line = lined.rfind("\n", 0, at)
            prefix = lined[line + 1:at]
            if _BEFORE_RUN.fullmatch(prefix) is None or ">" in prefix:
                continue  # in a line's text; or in a block quote, which a blank line closes with its fences
        run_end = at + 3
        while lined[run_end:run_end + 1] == lined[at]:
            run_end += 1
        run = lined[at:run_end]
        rest_end = lined.find("\n", run_end)
        rest = lined[run_end:len(lined) if rest_end == -1 else rest_end]
        plain = len(prefix) <= 3 and not prefix.strip(" ")
        if opened is None:
            if not plain:
                return None  # in a list item or indented code: which, only the parser knows
            if run[0] == "`" and "`" in rest:
                continue  # an info string holds no backtick (CommonMark §4.5): a code span
            opened = (run[0], len(run), line, len(prefix))
        elif plain and run[0] == opened[0] and len(run) >= opened[1] and not rest.strip():
            if opened[3] and _MARGIN_LINE.search(lined, opened[2] + 1, line) is not None:
                return None  # an indented fence with a line at the margin: a list item's, closed before
            fences.append((opened[2], len(lined) - 1 if rest_end == -1 else rest_end - 1))
            opened = None
    return None if opened is not None else fences


def _runs(lined: str) -> list[int]:
    """Where each run of three backticks or tildes or more starts (str.find
    looks for a literal faster than the regular expression engine)."""
    starts = []
    for run in ("```", "~~~"):
        # (a one-character search is a memchr: a document without a tilde is not searched for "~~~")
        at = lined.find(run) if run[0] in lined else -1
        while at != -1:
            starts.append(at)
            end = at + 3
            while lined[end:end + 1] == run[0]:
                end += 1
            at = lined.find(run, end)
    starts.sort()
    return starts


def _unbroken(lined: str, fences: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The ranges of the text (that ``lined`` holds after a line break) no
    cut may fall in, in order: the fenced code blocks, and the HTML and
    metadata blocks that run on across blank lines (from each opener
    outside a fence to its end, or to the document's end)."""
    ranges = []
    at, f = 0, 0
    html, metadata = _HTML_OPENER.search(lined), _METADATA_OPENER.search(lined)
    while html is not None or metadata is not None:
        if metadata is None or html is not None and html.start() < metadata.start():
            m, closers, start = html, _HTML_CLOSER, html.start() - 1  # type: ignore[union-attr]
        else:
            m, closers, start = metadata, _METADATA_CLOSER, metadata.start()  # (the line's start, in the text)
        assert m is not None and m.lastindex is not None
        while f < len(fences) and fences[f][1] <= start:
            ranges.append(fences[f])
            f += 1
        if f < len(fences) and fences[f][0] <= start:
            at = fences[f][1] + 1  # an opener in a fence is the fence's text
        else:
            closer = closers.get(m.lastindex) or _END_TAG[m.group(m.lastindex).lower()]
            close = closer.search(lined, m.end())
            end = len(lined) - 1 if close is None else close.end() - 1
            while f < len(fences) and fences[f][0] < end:
                end = max(end, fences[f][1])
                f += 1
            ranges.append((start, end))
            at = end + 1
        if html is not None and html.start() < at:
            html = _HTML_OPENER.search(lined, at)
        if metadata is not None and metadata.start() < at:
            metadata = _METADATA_OPENER.search(lined, at)
    ranges.extend(fences[f:])
    return ranges


def _defined_once(text: str, label: Callable[[str], str]) -> bool:
    """Whether no label is defined twice (or looks so: a definition's form
    in code counts too)."""
    seen: set[str] = set()
    at = 0  # where the last form ended: finditer's next one is looked for from there
    end = _LABEL_END.search(text)
    while end is not None:
        # a form ends at a label's end, the first after the last form or a later one, and starts at most
        # _LABEL_REACH before it: the search starts there (spared a try at every "[" of the prose before)
        m = _DEFINED.search(text, max(at, end.start() - _LABEL_REACH))
        if m is None:
            return True
        name = label(m.group(1))
        if name in seen:
            return False
        seen.add(name)
        at = m.end()
        end = _LABEL_END.search(text, at)
    return True


def pieces(text: str, size: int | None = None) -> list[int]:
    """Where a long document is cut (:func:`cut_up`'s cuts)."""
    return cut_up(text, size)[0]


def cut_up(text: str, size: int | None = None) -> tuple[list[int], int]:
    """Where a long document is cut, about every ``size`` characters: after
    a blank line and before a line at the left margin that no container
    goes on with (not indented, no ``>``); where there is none within a
    piece's length, at the next line start; in a line longer than a piece,
    after a space (a link written across it is cut, as in a page of text);
    else where the piece ends.  Never inside a block that runs on across
    blank lines (a fenced code block, an HTML block of kinds 1 to 5,
    CommonMark §4.5 and §4.6), up to its end or the document's (a piece
    after its start would read it as ended), but for a fence at the margin
    never closed: the rest of the document is its code (§4.5), cut at its
    lines' starts.  The cuts, with 0 and the end, and where that code starts
    (the text's length when there is none)."""
    size = size or PIECE
    cuts = [0]
    run_on = _RunOn(text)
    at = size
    while at < len(text):
        if run_on.code_from <= at:  # in the code of a fence never closed: any line's start will do
            line = text.find("\n", at, at + size)
            cut = line + 1 if line != -1 else at
            cuts.append(cut)
            at = cut + size
            continue
        blank = CUT.search(text, at, at + size)
        if blank is not None:
            cut = blank.end()
        else:
            line = text.find("\n", at, at + size)
            space = text.find(" ", at, at + size) if line == -1 else -1
            cut = line + 1 if line != -1 else space + 1 if space != -1 else at
        end = run_on.end_around(cut)
        if run_on.code_from < len(text):
            cuts.append(run_on.code_from)  # (after the fence's opening line: the piece before reads it open)
            at = run_on.code_from + size
        elif end > cut:  # in a block that runs on: the first cut after its end
            at = end
        else:
            cuts.append(cut)
            at = cut + size
    cuts.append(len(text))
    return cuts, run_on.code_from


# a line that opens a block that runs on across blank lines: a fence (its run), an HTML block of kinds 1 to 5
_RUN_ON_OPENER = patterns.compile(r"^ {0,3}+(?:(`{3,}+)(?=[^`\n]*+$)|(~{3,}+)|"
                                  r"(?=<(?:!--|\?|!\[CDATA\[|![A-Za-z]|(?i:pre|script|style|textarea)(?=[ \t\n>]|$))))",
                                  re.MULTILINE)


class _RunOn:
    """The blocks of a document that run on across blank lines, found in
    order as the cuts move on: each opener, and its end, looked for once."""

    __slots__ = ("text", "start", "end", "code_from")

    def __init__(self, text: str) -> None:
        self.text = text
        self.start = self.end = 0  # the last block found: from its opening line's start to its end
        self.code_from = len(text)  # where the code of a fence at the margin never closed starts

    def end_around(self, cut: int) -> int:
        """The end of the block that runs on over ``cut`` (cut falls inside it); else ``cut``."""
        text = self.text
        while self.end <= cut:
            opener = _RUN_ON_OPENER.search(text, self.end)
            if opener is None or opener.start() >= cut:
                return cut
            self.start = opener.start()
            self.end = self._end(opener)
        return self.end if self.start < cut else cut

    def _end(self, opener: re.Match[str]) -> int:
        """Where the block ``opener`` opens ends: after the line that closes it, or at the text's end."""
        text = self.text
        run = opener.group(1) or opener.group(2)
        if run is not None:
            closer = patterns.compile(rf"^ {{0,3}}+{re.escape(run[0])}{{{len(run)},}}+[ \t]*+$", re.MULTILINE)
            line = text.find("\n", opener.end())
            close = None if line == -1 else closer.search(text, line + 1)
            if close is None and line != -1 and opener.start() == opener.start(1 if opener.group(1) else 2):
                self.code_from = line + 1  # (at the margin: no container holds it, its code runs to the end)
        else:
            html = _HTML_OPENER.match(text, opener.end())
            assert html is not None and html.lastindex is not None
            pattern = _HTML_CLOSER.get(html.lastindex) or _END_TAG[html.group(html.lastindex).lower()]
            close = pattern.search(text, html.end())
        if close is None:
            return len(text)
        line_end = text.find("\n", close.end())
        return len(text) if line_end == -1 else line_end + 1



# (raw HTML's attribute names: ATTRIBUTE_NAME) and the abbreviated forms the scanner takes
# (a scheme's ":" before a character that is not white space: "Filename: src/main.rs" holds none)
_MAY_HOLD = patterns.compile(r"[=:.]")  # what either needs: an attribute's "=", a scheme's ":", www./ftp.'s "."
_SCHEME_OR_ABBREVIATED = patterns.compile(r"[A-Za-z][A-Za-z0-9+.-]{0,31}+:[^\s<>\"']|(?i:www|ftp)\.")


def may_hold(text: str, start: int, end: int) -> bool:
    """Whether raw HTML may hold a reference: an attribute that holds URLs in
    HTML, or text in which the scanner finds a scheme or ``www.``/``ftp.``."""
    if _MAY_HOLD.search(text, start, end) is None:
        return False  # (neither an attribute nor a scheme nor www./ftp.: most tags, "<kbd>", "</span>")
    piece = text[start:end]
    if _SCHEME_OR_ABBREVIATED.search(piece) is not None:
        return True
    return any(name.lower() in URL_ATTRIBUTES for name in ATTRIBUTE_NAME.findall(piece))
