"""A reStructuredText document (docutils' syntax) → its records.

- an embedded URI (`` `text <url>`_ ``, `` `<url>`__ ``): ``a``/``href``,
  style ``markup``, at the URI;
- a hyperlink target (``.. _name: url``, anonymous ``.. __: url`` and
  ``__ url``): a record of its own, element and attribute None (a target
  renders nothing), and each reference to it (``name_``,
  `` `a phrase`_ ``, the n-th anonymous `` `x`__ `` to the n-th anonymous
  target) ``a``/``href`` at the reference;
- the ``image`` and ``figure`` directives (and a substitution definition
  made of one, ``.. |name| image:: url``): ``img``/``src``; their
  ``:target:`` option ``a``/``href``;
- the ``include`` and ``literalinclude`` directives: element ``include``,
  attribute None, a reference that is never followed or read;
- the ``raw`` directive with ``html`` handed back to the scan as nested
  HTML content, placed where it stands;
- the text scanner's finds in the prose (standalone URLs), ``a``/``href``.

Literal blocks (a paragraph ending ``::`` then an indented block), the
``code``, ``code-block``, ``sourcecode`` and ``highlight`` directives and
inline literals (````x````) are code: their URLs are found with the ``code``
flag.  Comments, directive options, ``math`` and other ``raw`` blocks are
not prose and not scanned.

Not docutils: its parser read a 5.5 MB document at 0.03 MB/s (188 CPU
seconds) and gives lines without columns.  This is a scanner of the link
grammar alone, linear in the document: one search for the lines that start
explicit markup (``..``, ``__``) or end in ``::``, each block's extent one
match of its indentation, then one search for the inline constructs, which
runs the first only as far as it needs (:class:`.marks.Ahead`); the first is
run once before, for the targets' names alone (a reference may come before
its target).  The marks are handed on in batches (:func:`.marks.streamed`),
the time budget looked at between them.  Indirect targets (``.. _a: b_``) are
not followed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...model import Content, Defect, DefectKind, Place, Record, Style, Tally, Where
from ...stages.charset import content_text
from ...stages.found_to_record import Tail
from ...stages.options import ScanOptions
from ...uri import patterns
from .marks import PIECE, Ahead, Batch, Gathered, Mark, ended, streamed

LINK = Place(Where.RST, "a", "href")
IMAGE = Place(Where.RST, "img", "src")
TARGET = Place(Where.RST)
INCLUDE = Place(Where.RST, "include")
IN_CODE = Place(Where.RST)

# a line that starts explicit markup ("..", "__ ") or ends in "::" (a literal block follows)
_MARKER = patterns.compile(r"^([ \t]*+)(?:\.\.(?=[ \t\n]|$)([^\n]*+)|__[ \t]++([^\n]*+)|[^\n]*?::[ \t]*+$)",
                           re.MULTILINE)
# what follows "..": a directive (with a substitution's "|name| " before it), a target, or else a comment
_DIRECTIVE = patterns.compile(r"[ \t]++(?:\|[^|\n]++\|[ \t]++)?([A-Za-z0-9][-A-Za-z0-9_:+.]*?)::(?:[ \t]++|$)")
_TARGET = patterns.compile(r"[ \t]++_(?:`[^`\n]*+`|__|_?(?:\\.|[^:\\\n])*+):(?:[ \t]++|$)")
# a directive's option line: ":name: value"
_OPTION = patterns.compile(r"[ \t]*+:([^:\n]++):(?:[ \t]++|$)")
# the inline constructs: an inline literal and a backquoted phrase (with "_" or "__" a reference), each from
# its "`", a literal the engine looks for (a pattern that starts with a lookbehind or a word is tried at
# every position: 19 MB/s on the PEPs); and a word reference ("name_"), found from its last "_" after a
# letter or a digit, then matched from the word's start
_BACKQUOTED = patterns.compile(r"`(?:`(?=\S)(.+?)``|(?<![`\w]`)(?=[^`\s])([^`]*+)`(__?)?)", re.DOTALL)
_REFERENCE_END = patterns.compile(r"_(?<=[A-Za-z0-9]_)_?(?![\w`])")
_WORD_REFERENCE = patterns.compile(r"(?<![\w`|])([A-Za-z0-9]++(?:[-.+:_][A-Za-z0-9]++)*+)(__?)(?![\w`])")
_WORD = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
_CODE_DIRECTIVES = frozenset({"code", "code-block", "sourcecode", "highlight", "parsed-literal"})
_IMAGES = frozenset({"image", "figure"})
_INCLUDES = frozenset({"include", "literalinclude"})
_SPACE = patterns.compile(r"\s++")
_ESCAPE = patterns.compile(r"\\(.)")
_blocks: dict[int, re.Pattern[str]] = {}
#: the targets' names (and anonymous targets) a document's references find, at most: a bound on what a
#: million of them cost (those after are not found by reference)
MAX_TARGETS = 100_000
# what a target that a reference names needs: ".. _name:" (white space after "..") or "__"
_MAY_NAME = patterns.compile(r"\.\.[ \t]++_|__")
# a Mark with its fields given in order, without the NamedTuple constructor's call (a mark a link); Style.MARKUP
# looked up once
_mark = tuple.__new__
_MARKUP = Style.MARKUP


def _block(indent: int) -> re.Pattern[str]:
    """The lines of a block indented past ``indent`` columns: each blank or
    indented more (a tab is indentation enough)."""
    indent = min(indent, 200)
    pattern = _blocks.get(indent)
    if pattern is None:
        pattern = _blocks[indent] = patterns.compile(rf"(?:[ \t]*+\n|(?: {{{indent + 1}}}|[ ]{{0,{indent}}}\t)"
                                                     r"[^\n]*+(?:\n|$))*+")
    return pattern


def _name(name: str) -> str:
    """A reference name as docutils matches it: white space one space, case folded."""
    return " ".join(name.split()).casefold()


def read_rst(content: Content, options: ScanOptions, tally: Tally) -> Iterator[Record | Defect | Content]:
    """The records of a reStructuredText document, and its raw HTML as nested content."""
    text, decoding, defects = content_text(content, options.charset)
    yield from defects
    if not text.endswith("\n"):
        text += "\n"  # (every line ends in one: an offset past the text is never a position)
    tail = Tail(content.layer, content.origin, decoding, browser=options.browser, needs=options.needs)
    named: dict[str, str] = {}
    anonymous: list[str] = []
    if _MAY_NAME.search(text) is not None:  # (the targets a reference may name: all of them, first)
        discarded, budget = Gathered(), content.budget
        for count, at in enumerate(_markers(text, discarded, named, anonymous)):
            if count % 1024 == 1023:
                discarded.batch(0)  # (only the names are kept)
                if budget is not None and budget.expired():
                    yield from budget.over_time(f"the document (its targets were read up to character {at[2]})",
                                           content.origin)
                    return
        if len(named) >= MAX_TARGETS or len(anonymous) >= MAX_TARGETS:
            yield Defect(DefectKind.BOMB, f"more than {MAX_TARGETS} hyperlink targets: references to those after "
                         "are not found", content.origin, None)
    gathered = Gathered()
    blocks = Ahead(_markers(text, gathered, named, []))
    yield from streamed(content, text, tail, options, _inline(text, gathered, blocks, named, anonymous), LINK,
                        IN_CODE)


def _markers(text: str, gathered: Gathered, named: dict[str, str], anonymous: list[str]
             ) -> Iterator[tuple[int, int, int, bool]]:
    """The explicit markup blocks and literal blocks in order, each range
    ``(start, end, where the search goes on, code?)``, added to ``gathered``
    with the targets' marks and the raw HTML; the targets' names to ``named``
    and ``anonymous``."""
    at = 0
    search = _MARKER.search
    while (found := search(text, at)) is not None:
        start = found.start()
        indent = len(found.group(1).expandtabs())
        line_end = text.find("\n", found.end()) + 1 or len(text)  # (the last line may have no line break)
        body = line_end  # (a block's end is found only for the blocks passed over: see _body)
        covered: list[tuple[int, int, bool]] = []
        if found.group(2) is not None:
            body = _explicit(text, found.end(2) - len(found.group(2)), indent, line_end, gathered.marked, covered,
                             named, anonymous, gathered.html)
        elif found.group(3) is not None:
            body = _body(text, indent, line_end)
            uri_at = found.start(3)
            uri = _SPACE.sub("", text[uri_at:body])
            covered.append((start, body, False))
            if uri:
                gathered.marked.append(Mark(uri_at, uri_at + len(uri), uri, Style.MARKUP, TARGET))
                if len(anonymous) < MAX_TARGETS:
                    anonymous.append(uri)
        else:  # a paragraph's "::": the indented block after a blank line is a literal block
            if text.startswith("\n", line_end) or text.startswith("\r\n", line_end):
                body = _body(text, indent, line_end)
                if body > line_end:
                    covered.append((line_end, body, True))
        at = max(body, line_end)
        covered.sort()
        gathered.covered.extend(covered)
        for block in covered:
            yield block[0], block[1], at, block[2]


def _body(text: str, indent: int, line_end: int) -> int:
    """The end of the block whose first line ends at ``line_end``: the lines
    after it indented past ``indent``, less the blank lines at its end."""
    end = _block(indent).match(text, line_end).end()  # type: ignore[union-attr]  # (it matches the empty string)
    return line_end + len(text[line_end:end].rstrip()) if end > line_end else end


def _explicit(text: str, after: int, indent: int, line_end: int, marked: list[Mark],
              covered: list[tuple[int, int, bool]], named: dict[str, str], anonymous: list[str],
              html: list[tuple[int, int]]) -> int:
    """An explicit markup block (docutils §Explicit Markup Blocks): ``after``
    is just past its ``..``, ``line_end`` its first line's end.  Where the
    search goes on: past the block when it is no prose (code, a comment, a
    target), else past the directive's options, so that the markup nested in
    a note or a figure's caption is found (and no block is matched twice:
    the time stays linear however deep they nest)."""
    directive = _DIRECTIVE.match(text, after, line_end)
    if directive is not None:
        kind = directive.group(1).lower()
        argument = directive.end()
        covered.append((after - 2, argument, False))
        options_end = line_end
        while (option := _OPTION.match(text, options_end)) is not None and \
                len(text[options_end:option.start(1)].expandtabs()) > indent + 1:
            option_end = text.find("\n", option.end()) + 1 or len(text)
            covered.append((options_end, option_end, False))
            if option.group(1).strip().lower() == "target" and kind in _IMAGES:
                _uri(text, option.end(), option_end, LINK, marked)
            options_end = option_end
        if kind in _IMAGES:
            _uri(text, argument, line_end, IMAGE, marked)
        elif kind in _INCLUDES:
            covered.append((argument, line_end, False))
            _uri(text, argument, line_end, INCLUDE, marked)
        elif kind in _CODE_DIRECTIVES:
            body = _body(text, indent, options_end)
            covered.append((options_end, body, True))
            return body
        elif kind == "raw" or kind == "math":
            body = _body(text, indent, options_end)
            covered.append((argument, body, False))
            if kind == "raw" and "html" in text[argument:line_end].lower().split() and options_end < body:
                html.append((options_end, body))
            return body
        return options_end
    body = _body(text, indent, line_end)
    target = _TARGET.match(text, after, line_end)
    if target is not None:
        covered.append((after - 2, body, False))
        uri_at = target.end()
        if uri_at == line_end - 1 or not text[uri_at:line_end].strip():
            uri_at = line_end + len(text[line_end:body]) - len(text[line_end:body].lstrip())
        uri = _SPACE.sub("", text[uri_at:body])
        label = text[after:target.end()].strip()[1:].rstrip(":").rstrip()
        if not uri or uri.endswith("_") and not uri.endswith("\\_"):
            return body  # an internal target, or an indirect one (another target's name)
        marked.append(Mark(uri_at, uri_at + len(uri), _unescape(uri), Style.MARKUP, TARGET))
        if label in ("_", "__"):
            if len(anonymous) < MAX_TARGETS:
                anonymous.append(uri)
        elif len(named) < MAX_TARGETS:
            named.setdefault(_name(label.strip("`")), _unescape(uri))
        return body
    if text[after:line_end].lstrip().startswith("["):
        return line_end  # a footnote or citation: prose
    covered.append((after - 2, body, False))  # a comment
    return body


def _unescape(uri: str) -> str:
    """A URI as docutils reads it: a backslash escapes the character after it (``x\\_``: ``x_``)."""
    return _ESCAPE.sub(r"\1", uri) if "\\" in uri else uri


def _uri(text: str, start: int, end: int, place: Place, marked: list[Mark]) -> None:
    """The URI written in ``text[start:end]`` (one line), if any."""
    value = text[start:end].strip()
    if value:
        at = start + len(text[start:end]) - len(text[start:end].lstrip())
        marked.append(Mark(at, at + len(value), value, Style.MARKUP, place))


def _inline(text: str, gathered: Gathered, blocks: Ahead, named: dict[str, str], anonymous: list[str]
            ) -> Iterator[Batch]:
    """The inline constructs outside the ``blocks``: inline literals (code),
    embedded URIs and references, a batch every :data:`.marks.PIECE` characters."""
    upto = 0  # where the search may resume
    piece_end = PIECE
    next_anonymous = 0
    search = _BACKQUOTED.search
    quoted, word = search(text), _word_reference(text, 0)  # each the first from upto, kept while ahead
    # where each starts, asked once a match (500,000 constructs on a line ask often); past the text: none
    beyond = len(text) + 1
    quoted_at = beyond if quoted is None else quoted.start()
    word_at = beyond if word is None else word.start()
    while True:
        if upto >= piece_end:  # (every mark and range to come starts at or after min(upto, the blocks'))
            yield gathered.batch(min(upto, blocks.frontier))
            piece_end = upto + PIECE
        mark, cover = gathered.marked.append, gathered.covered.append
        if quoted_at < upto:
            quoted = search(text, upto)
            quoted_at = beyond if quoted is None else quoted.start()
        if word_at < upto:
            word = _word_reference(text, upto)
            word_at = beyond if word is None else word.start()
        if quoted is None and word is None:
            break
        if quoted_at < word_at:
            found: re.Match[str] = quoted  # type: ignore[assignment]
            start = quoted_at
        else:
            found, start = word, word_at  # type: ignore[assignment]
        block = blocks.holding(start)
        if block is not None:
            upto = block[1]  # in a block: go on past it
            continue
        upto = found.end()
        if found is word:  # (no "<" in a word: never an embedded URI)
            phrase, underscores = found.groups()
            uri = None
            if underscores == "__":
                if next_anonymous < len(anonymous):
                    uri = anonymous[next_anonymous]
                next_anonymous += 1
            else:
                uri = named.get(phrase.casefold())  # (a word: no white space to fold)
            if uri is not None:
                mark(_mark(Mark, (start, upto, uri, _MARKUP, LINK)))
            continue
        literal, phrase, underscores = found.groups()
        if literal is not None:
            cover((start, upto, True))
            continue
        if not underscores:
            continue  # interpreted text: prose
        cover((start, upto, False))
        uri = None
        if phrase.endswith(">") and "<" in phrase:
            lt = phrase.rindex("<")
            uri = _SPACE.sub("", phrase[lt + 1:-1])
            if uri and not (uri.endswith("_") and not uri.endswith("\\_")):
                at = start + lt + 2  # (the phrase starts after the "`")
                if "\\" in uri:  # (_unescape and _name, inline: a call each, on every embedded URI)
                    uri = _ESCAPE.sub(r"\1", uri)
                mark(_mark(Mark, (at, at + len(phrase) - lt - 2, uri, _MARKUP, LINK)))
                if underscores == "_" and len(named) < MAX_TARGETS:
                    named.setdefault(" ".join(phrase[:lt].split()).casefold(), uri)
                continue
            uri = named.get(_name(uri[:-1])) if uri else None
        elif underscores == "__":
            if next_anonymous < len(anonymous):
                uri = anonymous[next_anonymous]
            next_anonymous += 1
        else:
            uri = named.get(_name(phrase))
        if uri is not None:
            mark(_mark(Mark, (start, upto, uri, _MARKUP, LINK)))
    yield from ended(blocks, gathered, piece_end, len(text))


def _word_reference(text: str, upto: int) -> re.Match[str] | None:
    """The first word reference (``name_``, ``name__``) that starts at or
    after ``upto``: from each "_" that may end one, back over the word's
    letters, digits and single inner ``-.+:_`` (never past the "_" that ended
    the one before: the scans are linear together), then matched there, as
    the search of one pattern for every construct would match it."""
    search, match = _REFERENCE_END.search, _WORD_REFERENCE.match
    while (end := search(text, upto)) is not None:
        start = end.start() - 1  # (a letter or a digit, by the lookbehind)
        while start > 0 and (text[start - 1] in _WORD or start > 1 and text[start - 1] in "-.+:_"
                             and text[start - 2] in _WORD):
            start -= 1
        # from the word's start; else (the lookbehind refusing it) after each of its separators that is
        # no word character itself, as a search tries every position on
        if start >= upto:  # (the commonest case first, without the separators' tuple)
            found = match(text, start)
            if found is not None and found.end() == end.end():
                return found
        for at in [at + 1 for at in range(start, end.start()) if text[at] in "-.+:"]:
            if at >= upto:
                found = match(text, at)
                if found is not None and found.end() == end.end():
                    return found
        upto = end.end()
    return None
