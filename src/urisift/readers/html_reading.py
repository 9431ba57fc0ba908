"""HTML's front door: a whole document decoded by the charset chain with
the ``<meta>`` prescan's help, parsed (in pieces when it is large), walked.
It stands apart from :mod:`urisift.readers.html` because it is where the decoder and
the prescan meet (the two never import each other), and apart from the scan,
which routes content to it through its table of readers."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from ..model import Charset, Content, Defect, DefectKind, Kind, Record, Tally, origin_with
from ..model.events import is_message
from ..stages.charset import decode
from ..stages.data_images import data_image
from ..stages.drawn import Drawing, as_images, may_hold_drawing, table_drawings, text_drawings
from ..stages.options import ScanOptions

Items = Iterator[Record | Defect | Content]


def read_html(content: Content, options: ScanOptions, tally: Tally) -> Items:
    """A whole HTML document: decoded by the chain with the <meta> prescan
    (see the module doc), parsed, walked; a page over 4 MiB in pieces,
    one tree at a time, its first ``<base href>`` known before its first record."""
    body = content.body
    decoding = None
    markup: str | bytes
    # (imported by the first page a run meets; each from its module, as a name from a package is looked up
    # again on each import, in Python, and a mail archive imports them once a message)
    from .html.document import DocumentWalk
    from .html.locate import Locator
    from .html.parse import parse
    from .html.prescan import encoding_of, prescan
    from .html.segments import Pieces

    if is_message(body):
        raise TypeError("a parsed message is content of kind mail only")
    if isinstance(body, str):
        text = markup = body
    else:
        data = body if isinstance(body, bytes) else body.read()
        declared = content.declared or options.charset
        if declared:
            # an HTML document's label, from HTTP or MIME as from its <meta>, means
            # the WHATWG encoding a browser decodes it with (ISO-8859-1 and
            # US-ASCII are windows-1252: 0x92 is U+2019, not a C1 control)
            declared = encoding_of(declared) or declared
        text, choice, defects = decode(data, declared=declared, sniff=prescan, origin=content.origin)
        decoding = Charset(choice.name, choice.source)
        # clean UTF-8 goes to the parser as it is: it reads the same text, and
        # is spared encoding it again (measured: a third of the parse time)
        markup = data if choice.codec == "utf-8" and not defects else text
        yield from defects
    locator = Locator(text) if options.located else None
    based = None  # the document's base, once its first piece is read
    budget = content.budget
    pieces = Pieces(markup)  # a very large page in pieces, one tree at a time
    page_base = _page_base(pieces.later_base())
    for piece in pieces:
        if based is not None and budget is not None and budget.expired():
            yield from budget.over_time("the rest of the page", content.origin)
            return
        tree, capped = parse(piece, options.comments)
        if capped is not None:  # what the guard capped before the parser saw it
            yield Defect(DefectKind.DEEP_NESTING, capped, content.origin, None)
        walk = DocumentWalk(tree, content.layer, content.origin, decoding, locator=locator, source=text,
                            abbreviated=options.abbreviated, comments=options.comments, based=based,
                            needs=options.needs, page_base=page_base, code=options.code,
                            refang=options.refang)
        items = _with_context(walk, text, options.context) if options.context else walk
        yield from (_with_images(items, content) if options.qr else items)
        based = walk.based
        del tree, walk  # the piece's tree goes before the next is built
    if options.qr:  # codes drawn as a table of coloured cells, or with block characters in the page's text
        yield from as_images(_drawings(text), content)


def _drawings(text: str) -> Iterator[Drawing]:
    """The codes drawn without an image in a page's source (:mod:`urisift.stages.drawn`)."""
    lowered = text.lower()
    if "<table" in lowered and ("bgcolor" in lowered or "background" in lowered):
        yield from table_drawings(text)
    if may_hold_drawing(text):
        yield from text_drawings(text)


def _with_images(items: Iterable[Record | Defect | Content], content: Content) -> Items:
    """The walk's items, each ``data:`` image after its record as nested content for the image reader
    (``--qr``), named by its place among the page's: ``data:image/png#3`` (the third), after the page's own
    part (not by its line, which is not computed when the output does not ask for it)."""
    count = 0
    for item in items:
        yield item
        if type(item) is Record and item.found.reference[:11].lower() == "data:image/":  # type: ignore[union-attr]
            image = data_image(item.found.reference)  # type: ignore[union-attr]
            if image is not None:
                count += 1
                name = f"data:{image[0]}#{count}"
                part = name if content.origin.part is None else f"{content.origin.part}!/{name}"
                yield Content(image[1], Kind.IMAGE, origin_with(content.origin, part=part), content.layer,
                              budget=content.budget)


def _page_base(tag: str | bytes | None) -> Any:
    """The element of a page's first ``<base href>`` tag that stands past its first piece
    (parsed alone: a base's href is its own), for the first piece's walk; else None."""
    if tag is None:
        return None
    from .html import parse
    from .html.table import NAMES
    from .html.tree import first_base

    return first_base(list(parse(tag)[0].items(NAMES)))


def _with_context(items: Iterable[Record | Defect], text: str, context: int) -> Items:
    """Records with the text around their span (those without a span have none)."""
    for item in items:
        if type(item) is Record and item.span:  # type: ignore[union-attr]
            start, end = item.span  # type: ignore[union-attr,misc]
            item = item._replace(context=text[max(0, start - context):end + context])  # type: ignore[union-attr]
        yield item
