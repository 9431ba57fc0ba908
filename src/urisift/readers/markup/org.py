"""An Org document (Emacs Org mode's syntax) → its records.

- a bracket link, ``[[target][description]]`` and ``[[target]]``:
  ``a``/``href``, style ``markup``, at the target; a link with no
  description to an image file is ``img``/``src`` (Org shows it inline).
  ``file:`` is dropped from a file link (``file:a.org`` is the path
  ``a.org``, its ``::search`` option left out); ``#id`` stays a fragment;
  links inside the document (``*Heading``, ``<<target>>`` names, ``id:``,
  ``elisp:``, ``shell:``) are not URIs and are left out;
- ``#+INCLUDE: "file"``: element ``include``, attribute None, a reference
  never followed or read;
- an ``#+BEGIN_EXPORT html`` block handed back to the scan as nested HTML
  content, placed where it stands;
- the text scanner's finds in the prose (plain links, ``<https://x>``).

``#+BEGIN_SRC`` and ``#+BEGIN_EXAMPLE`` blocks and fixed-width lines
(``: ...``) are code: their URLs are found with the ``code`` flag.
Comments (``# ...`` lines, ``#+BEGIN_COMMENT``) and other keywords' lines
are not scanned.  A block never ended is no block, as Org reads it.

Org mode is Emacs Lisp; Python's parsers of it (orgparse) give no positions
for links.  This is a scanner of the link grammar alone, linear in the
document: one search for the lines that open a block or are a keyword or
comment, each block's end one search (a name never ended is not looked for
again), then one search for bracket links outside them.
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

LINK = Place(Where.ORG, "a", "href")
IMAGE = Place(Where.ORG, "img", "src")
INCLUDE = Place(Where.ORG, "include")
IN_CODE = Place(Where.ORG)

# a line that opens a block, a keyword's line, a comment line or a fixed-width line
_LINE = patterns.compile(r"^[ \t]*+(?:#\+begin_(\w++)[^\n]*+|#\+(\w++):[ \t]*+([^\n]*+)|#(?:[ \t][^\n]*+)?|"
                   r"(:(?:[ \t][^\n]*+)?))$", re.MULTILINE | re.IGNORECASE)
_LINK = patterns.compile(r"\[\[((?:[^\[\]\\\n]|\\.)++)\](?:\[([^\[\]\n]*+)\])?\]")
_CODE_BLOCKS = frozenset({"src", "example"})
_IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".tif", ".tiff", ".bmp", ".xpm", ".pbm")
# link types whose target is no URI: Org's own (a heading, a radio target, an id) and commands
_NOT_URIS = ("id:", "elisp:", "shell:", "help:", "info:", "*")
_SCHEME = patterns.compile(r"[A-Za-z][A-Za-z0-9+.-]*+:")
_INCLUDED = patterns.compile(r"\"((?:[^\"\\\n]|\\.)*+)\"|(\S++)")


def read_org(content: Content, options: ScanOptions, tally: Tally) -> Iterator[Record | Defect | Content]:
    """The records of an Org document, and its HTML export blocks as nested content."""
    text, decoding, defects = content_text(content, options.charset)
    yield from defects
    tail = Tail(content.layer, content.origin, decoding, browser=options.browser, needs=options.needs)
    marked: list[Mark] = []
    covered: list[tuple[int, int, bool]] = []
    html: list[tuple[int, int]] = []
    unended: dict[str, int] = {}  # a block name -> where its end was looked for from, and not found
    at = 0
    search = _LINE.search
    while (found := search(text, at)) is not None:
        start, line_end = found.start(), found.end()
        at = line_end
        name, keyword = found.group(1), found.group(2)
        if name is not None:
            name = name.lower()
            if name in unended and unended[name] <= line_end:
                continue
            inside = min(line_end + 1, len(text))
            end = patterns.compile(r"^[ \t]*+#\+end_%s[ \t]*+$" % re.escape(name), re.MULTILINE | re.IGNORECASE)
            closing = end.search(text, inside)
            if closing is None:
                unended[name] = line_end
                continue
            if name in _CODE_BLOCKS:
                covered.append((start, closing.end(), True))
            elif name in ("comment", "export"):
                covered.append((start, closing.end(), False))
                if name == "export" and "html" in text[found.end(1):line_end].lower().split() and \
                        inside < closing.start():
                    html.append((inside, closing.start()))
            else:
                covered.append((start, line_end, False))  # a quote, a center ...: its lines are prose
                covered.append((closing.start(), closing.end(), False))
                continue
            at = closing.end()
        elif keyword is not None:
            covered.append((start, line_end, False))
            if keyword.lower() == "include":
                value = _INCLUDED.match(text, found.start(3), line_end)
                if value is not None:
                    group = 1 if value.group(1) is not None else 2
                    marked.append(Mark(value.start(group), value.end(group), value.group(group), Style.MARKUP,
                                       INCLUDE))
            elif keyword.lower() not in ("title", "caption", "description", "subtitle", "author"):
                continue
            else:
                covered.pop()  # (a title, caption, description is prose, links and all)
        elif found.group(4) is not None:
            covered.append((start, line_end, True))  # a fixed-width line
        else:
            covered.append((start, line_end, False))  # a comment line
    _links(text, marked, covered)
    # the raw HTML's records where it stands, among the others (document order)
    yield from in_order(records(text, tail, options, marked, covered, LINK, IN_CODE),
                        html_contents(content, text, html))


def _links(text: str, marked: list[Mark], covered: list[tuple[int, int, bool]]) -> None:
    """The bracket links outside the blocks ``covered`` so far."""
    blocks = sorted(covered)
    k, upto = 0, 0
    search = _LINK.search
    while (found := search(text, upto)) is not None:
        start = found.start()
        while k < len(blocks) and blocks[k][1] <= start:
            k += 1
        if k < len(blocks) and blocks[k][0] <= start < blocks[k][1] and blocks[k][2]:
            upto = blocks[k][1]  # in code: go on past it
            continue
        upto = found.end()
        if k < len(blocks) and blocks[k][0] <= start < blocks[k][1]:
            continue  # in a comment or a keyword's line
        covered.append((start, upto, False))
        target, at = found.group(1), found.start(1)
        stripped = target.strip()
        at += len(target) - len(target.lstrip())
        uri = stripped.replace("\\[", "[").replace("\\]", "]").replace("\\\\", "\\")
        if uri.startswith(_NOT_URIS) or not uri:
            continue
        if uri.startswith("file:"):
            uri = uri[5:].split("::", 1)[0]
        elif not uri.startswith(("#", ".", "/", "~")) and _SCHEME.match(uri) is None and "/" not in uri \
                and not uri.endswith(_IMAGE_SUFFIXES) and "." not in uri:
            continue  # a fuzzy link to a heading or a target of this document
        place = IMAGE if found.group(2) is None and uri.lower().endswith(_IMAGE_SUFFIXES) else LINK
        marked.append(Mark(at, at + len(stripped), uri, Style.MARKUP, place))
