"""A Markdown document → its records: CommonMark 0.31 with GitHub's
extensions (tables, task lists, strikethrough, footnotes), front matter
(YAML ``---`` and TOML ``+++``) and math, parsed by pulldown-cmark
(pyromark), the parser lychee and mdBook use.

What a renderer would make a link of is a record with that HTML's element
and attribute:

- inline links and images, and reference links of the four kinds (full,
  collapsed, shortcut; the reference's destination), ``a``/``href`` and
  ``img``/``src``, style ``markup``;
- autolinks (``<https://x>``, ``<a@b.example>`` as ``mailto:``), style
  ``angle``;
- GitHub's extended autolinks (``www.``, bare URLs; CommonMark leaves
  them as text): the text scanner's finds in the prose, ``a``/``href``;
- each link reference definition, used or not (element and attribute
  None: a definition renders nothing of its own), style ``markup``;
- raw HTML, blocks and inline, handed back to the scan as nested HTML
  content placed where it stands, so its records are the HTML reader's.

URLs in code (code spans, fenced and indented code blocks) are still found,
as text, with the ``code`` flag and no element: a user can filter them out,
or leave them out of the scan (``ScanOptions(code=False)``, ``--no-code``).
Link titles, image descriptions, footnote labels and math are not links,
and their text is not scanned.

The document is held whole, as a renderer holds it; positions are those
of each destination as written (a reference link's: the link's ``[``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import chain
from typing import Any

from ...model import (
    Content,
    Defect,
    DefectKind,
    Found,
    Place,
    Record,
    Style,
    Tally,
    Where,
    new_place,
)
from ...model.needs import ANCHOR
from ...stages.charset import content_text
from ...stages.found_to_record import Tail
from ...stages.options import ScanOptions
from ...uri import patterns
from ..html.table import ANCHOR_TEXT_LIMIT
from .byte_ranges import byte_offsets, destination_at, same_offset
from .gfm import LINK
from .markdown_blocks import GAP, Mode, cut_up, may_hold, plan
from .markdown_records import records
from .marks import html_contents, in_order
from .wikilinks import with_wikilinks as _prose

IMAGE = Place(Where.MARKDOWN, "img", "src")
_UNTOLD = Place(Where.MARKDOWN, "a", "href", text=False)  # a link whose text was not asked for
DEFINITION = Place(Where.MARKDOWN)
_AUTOLINKS = frozenset({"Autolink", "Email"})
#: a Markdown document longer than this many characters is read in pieces (a large HTML page's threshold)
WHOLE = 4 << 20
#: the link reference definitions a document's pieces share, at most: more than a document needs, and a
#: bound on what a million of them costs
MAX_LABELS = 100_000

_pyromark: Any = None


def _parser() -> Any:
    """pyromark, imported by the first Markdown document a run meets."""
    global _pyromark
    if _pyromark is None:
        import pyromark

        _pyromark = pyromark
    return _pyromark


def _options(pyromark: Any) -> Any:
    global _parser_options
    if _parser_options is None:  # (an enum's "|" is a Python call: made once)
        o = pyromark.Options
        _parser_options = (o.ENABLE_TABLES | o.ENABLE_FOOTNOTES | o.ENABLE_STRIKETHROUGH | o.ENABLE_TASKLISTS
                           | o.ENABLE_GFM | o.ENABLE_MATH | o.ENABLE_YAML_STYLE_METADATA_BLOCKS
                           | o.ENABLE_PLUSES_DELIMITED_METADATA_BLOCKS)
    return _parser_options


_parser_options: Any = None
# an inline tag of an element whose text HTML shows as code (html.tree.CODE_ELEMENTS): "/" for an end tag
# the ends of the blocks whose text is inline content (and a heading's, a dict): an inline element left
# open closes there
_BLOCK_ENDS = frozenset({"Paragraph", "TableCell"})
# how many open inline code elements an end tag looks back through for its own (a million <code> and
# as many </kbd> must not cost a million each)
_CODE_DEPTH = 8
_CODE_TAG = patterns.compile(r"<(/?)((?i:code|pre|kbd|samp|tt|listing|xmp))(?=[\s/>])")
# the two characters after a "<" that may start one: a name's first two letters, or "/" and its first
_CODE_TAG_STARTS = frozenset({"co", "pr", "kb", "sa", "tt", "li", "xm", "/c", "/p", "/k", "/s", "/t", "/l", "/x"})




def read_markdown(content: Content, options: ScanOptions, tally: Tally) -> Iterator[Record | Defect | Content]:
    """The records of a Markdown document; one over :data:`WHOLE` characters
    is read in pieces (:func:`.markdown_blocks.cut_up`), as a large HTML page is: the
    parser holds a tree some fifteen times the size of its text.  A
    reference link finds its definition in any piece."""
    text, decoding, defects = content_text(content, options.charset)
    yield from defects
    tail = Tail(content.layer, content.origin, decoding, browser=options.browser, needs=options.needs)
    if len(text) < GAP:  # (a notebook's cell, a short note: planning costs more than parsing it whole)
        yield from _document(content, options, tail, text, 0, 1, None, list(_prose(text, options)))
        return
    if len(text) <= WHOLE:
        yield from _stretches(content, options, tail, text)
        return
    cuts, code_from = cut_up(text)
    labels: dict[str, str] = {}  # every piece's definitions, the first of a label kept (CommonMark §4.7)
    for start, end in zip(cuts, cuts[1:], strict=False):
        if start >= code_from:
            break  # (a fence's code defines nothing)
        for label, definition in _definitions(text[start:end]).items():
            if len(labels) == MAX_LABELS:
                yield Defect(DefectKind.BOMB, f"more than {MAX_LABELS} link reference definitions: a reference "
                             "link finds the rest only in its own piece of the document", content.origin, start)
                break
            labels.setdefault(_label(label), definition["dest"])
        if len(labels) == MAX_LABELS:
            break

    def defined(link: dict[str, Any]) -> tuple[str, str] | None:
        dest = labels.get(_label(link["reference"]))
        return None if dest is None else (dest, "")

    line = 1
    budget = content.budget
    for start, end in zip(cuts, cuts[1:], strict=False):
        if start and budget is not None and budget.expired():
            yield from budget.over_time(f"the rest of the document (from character {start})", content.origin)
            return
        if start >= code_from:  # a fence's code to the end: what the parser would make of it, unparsed
            yield from records(text[start:end], tail, options, [], [(0, end - start, True)], start, line,
                                clocked=content)
        else:
            yield from _document(content, options, tail, text[start:end], start, line, defined)
        line += text.count("\n", start, end)


def _stretches(content: Content, options: ScanOptions, tail: Tail, text: str) -> Iterator[Record | Defect | Content]:
    """A document's records, its stretches read as :mod:`.markdown_blocks`
    plans them: the parser reads only those that may hold a link, each
    finding the others' definitions, and the text scanner's finds in the
    whole document are shared out among them."""
    finds = list(_prose(text, options))
    labels: dict[str, str] = {}  # the definitions' destinations, by label: the blocks that hold them read by plan

    def define(blocks: str) -> Iterator[str]:
        for label, definition in _definitions(blocks).items():
            name = _label(label)
            labels.setdefault(name, definition["dest"])  # (the first, CommonMark §4.7: plan reads none twice)
            yield name

    stretches = plan(text, [found.start for found in finds], _label, set(), define)  # type: ignore[misc]
    if stretches is None:
        yield from _document(content, options, tail, text, 0, 1, None, finds)
        return

    def defined(link: dict[str, Any]) -> tuple[str, str] | None:
        dest = labels.get(_label(link["reference"]))
        return None if dest is None else (dest, "")

    line, counted, f = 1, 0, 0
    for start, end, mode in stretches:
        first = f
        while f < len(finds) and finds[f].start < end:  # type: ignore[operator]
            f += 1
        line += text.count("\n", counted, start)
        counted = start
        own = [found._replace(start=found.start - start, end=found.end - start)  # type: ignore[operator]
               for found in finds[first:f]] if start else finds[first:f]
        piece = text[start:end]
        if mode is Mode.PARSE:  # (its raw HTML where it stands, as when the document is read whole)
            yield from _document(content, options, tail, piece, start, line, defined, own)
        else:
            covered = [(0, len(piece), True)] if mode is Mode.CODE else []
            yield from records(piece, tail, options, [], covered, start, line, own, clocked=content)


def _definitions(text: str) -> dict[str, Any]:
    """The link reference definitions of ``text`` (CommonMark §4.7), by
    label: a ``[^label]:`` is a footnote's definition (GFM, footnotes), no
    link's, whose text is read as the document's (the Rust book's ch08-03)."""
    return {label: definition for label, definition in _parser().reference_definitions(text).items()
            if not label.startswith("^")}


def _label(label: str) -> str:
    """A link label as CommonMark matches it (§4.7): case-folded, its white space one space."""
    return " ".join(label.split()).casefold()


def _document(content: Content, options: ScanOptions, tail: Tail, text: str, first: int, first_line: int,
              defined: Callable[[dict[str, Any]], tuple[str, str] | None] | None, finds: list[Found] | None = None
              ) -> Iterator[Record | Defect | Content]:
    """The records of a document, or of a piece of one that starts at
    character ``first`` and line ``first_line`` (``finds``: the text
    scanner's in it, when they are known)."""
    pyromark = _parser()
    offset = byte_offsets(text)
    shifted = offset is not same_offset  # (an ASCII document's offsets are its own: no call an event)
    marked: list[tuple[int, int, str | None, Style, Place]] = []  # (start, end, URL, style, place) of links
    covered: list[tuple[int, int, bool]] = []  # (start, end, code?) not scanned as prose (code: scanned, flagged)
    html: list[list[int]] = []  # [start, end] of raw HTML, contiguous pieces joined
    opened: list[tuple[str, int]] = []  # the inline code elements open in this paragraph: (name, where)
    anchors = ANCHOR in options.needs
    linking: list[tuple[int, list[str]]] = []  # the links open: their index in marked, their text so far
    imaging = 0  # the images open inside a link
    pictured = 0  # the images open: inside one, a link or an image is its alt text (CommonMark §6.4), no record
    definitions = _definitions(text) if "]:" in text else {}
    for definition in definitions.values():
        span = definition["span"]
        start, end = offset(span["start"]), offset(span["end"])
        covered.append((start, end, False))
        at = destination_at(text, start, end, "]:")
        marked.append((at, at + len(definition["dest"]), definition["dest"], Style.MARKUP, DEFINITION))
    # (each event a dict, or a bare tag's name: told apart by "in" below, which typing cannot follow)
    events: Any = pyromark.events_with_range(text, options=_options(pyromark), merge_text=True,
                                             broken_link_callback=defined)
    budget = content.budget
    cut = None  # where the clock stopped the parser's events, if it did
    for index, (event, where) in enumerate(events):
        if not index & _EVENTS and index and budget is not None and budget.expired():
            cut = offset(where["start"])
            break
        # the commonest events first, each told by one look-up: text, the ends of elements, and
        # bare tags (a soft or hard break, a rule: a str, where "in" finds neither name)
        if "Text" in event or "End" in event or type(event) is str:
            ended = event["End"] if opened and "End" in event else None  # type: ignore[index]
            if ended is not None and (type(ended) is dict or ended in _BLOCK_ENDS):
                # an element left open in a paragraph ends with it, as the paragraph's </p> ends it in HTML
                covered.extend((at, offset(where["end"]), True) for _, at in opened)
                opened.clear()
            if pictured and "End" in event:
                ended = event["End"]  # type: ignore[index]
                if ended == "Image":
                    pictured -= 1
                    if pictured:
                        continue  # (an image in an image's description: nothing was marked of it)
                elif ended == "Link":
                    continue  # (a link that starts in an image's description ends in it: nothing was marked)
            if linking:  # a link's text, as HTML's anchor text is: an image's alt text inside it is not
                if type(event) is str:
                    linking[-1][1].append(" ")
                elif "Text" in event:
                    if not imaging:
                        linking[-1][1].append(event["Text"])  # type: ignore[index]
                elif event["End"] == "Link":  # type: ignore[index]
                    index, words = linking.pop()
                    marked[index] = (*marked[index][:4], _anchored(" ".join("".join(words).split())))
                elif event["End"] == "Image":  # type: ignore[index]
                    imaging -= 1
            continue
        value = event.get("Start")
        if value is not None:
            if type(value) is str:
                continue  # a paragraph, an item ...
            attributes = value.get("Link")
            place = LINK if anchors else _UNTOLD  # (its text is given at its end, when asked for)
            if attributes is None:
                attributes = value.get("Image")
                place = IMAGE
            if attributes is not None:
                if pictured or place is IMAGE:
                    pictured += 1 if place is IMAGE else 0
                    if pictured > (place is IMAGE):
                        continue  # in an image's description, which renders as its alt text: not a link
                if anchors:
                    if place is LINK:
                        linking.append((len(marked), []))
                    elif linking:
                        imaging += 1
                start, end = where["start"], where["end"]
                if shifted:
                    start, end = offset(start), offset(end)
                covered.append((start, end, False))
                kind = attributes["link_type"]
                url = attributes["dest_url"]
                if kind in _AUTOLINKS:
                    marked.append((start + 1, end - 1, "mailto:" + url if kind == "Email" else url, Style.ANGLE,
                                   place))
                elif kind == "Inline":
                    at = destination_at(text, start, end, "](")
                    marked.append((at, at + len(url), url, Style.MARKUP, place))
                else:  # a reference: its destination is the definition's, written there
                    marked.append((start, end, url, Style.MARKUP, place))
            elif "CodeBlock" in value:
                covered.append((offset(where["start"]), offset(where["end"]), True))
        elif "Code" in event:
            covered.append((offset(where["start"]), offset(where["end"]), True) if shifted
                           else (where["start"], where["end"], True))
            if linking and not imaging:
                linking[-1][1].append(event["Code"])
        elif "InlineHtml" in event or "Html" in event:
            start, end = where["start"], where["end"]
            if shifted:
                start, end = offset(start), offset(end)
            inline = event.get("InlineHtml")
            # (a tag's first letters tell most from the code elements without a match: "<b>", "</span>")
            tag = _CODE_TAG.match(inline) if inline and inline[1:3].lower() in _CODE_TAG_STARTS else None
            if tag is not None:  # the prose between <code> and </code> (<kbd>, <samp> ...) is code, as in HTML
                name = tag.group(2).lower()
                if not tag.group(1):
                    opened.append((name, end))
                elif opened and opened[-1][0] == name:  # (the commonest: it closes the innermost)
                    covered.append((opened.pop()[1], start, True))
                elif name in (open_name for open_name, _ in reversed(opened[-_CODE_DEPTH:])):
                    while opened:  # (an end tag closes its element and those opened inside it)
                        open_name, at = opened.pop()
                        if open_name == name:
                            covered.append((at, start, True))
                            break
            if html and html[-1][1] == start:
                html[-1][1] = end  # an HTML block comes a line an event
            else:
                html.append([start, end])
        elif "InlineMath" in event or "DisplayMath" in event:
            covered.append((offset(where["start"]), offset(where["end"]), False))
    for start, end in html:
        covered.append((start, end, False))
    if cut is not None:
        text = text[:cut]  # (what the events reached: read, and the rest of the document said not to be)
        finds = None if finds is None else [found for found in finds if found.start < cut]  # type: ignore[operator]
    found = records(text, tail, options, marked, covered, first, first_line, finds, clocked=content)
    if cut is not None and budget is not None:
        found = chain(found, budget.over_time(f"the rest of the document (from character {first + cut})",
                                              content.origin))
    # the HTML that may hold a reference: an attribute ("="), or text with a scheme's ":" or a www.
    # (the book's thousands of <span class=...> do; its </span>, <kbd> and <br> do not), read where it
    # stands among the Markdown's records (document order)
    if html:
        yield from in_order(found, html_contents(content, text, [piece for piece in html if may_hold(text, *piece)],
                                                 first, first_line))
    else:
        yield from found


#: how many of the parser's events (less one) between two looks at the clock
_EVENTS = (1 << 14) - 1
def _anchored(text: str) -> Place:
    """A link's place, with its text (cut as HTML's anchor text is)."""
    return new_place(Where.MARKDOWN, "a", "href", None, None, text[:ANCHOR_TEXT_LIMIT].rstrip())
