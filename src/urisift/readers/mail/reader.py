"""Mail's front door (ARCHITECTURE.md, readers/: the readers): a message or an mbox archive in, its
headings' references as records, and its text parts out as nested content
(each with the bases of the headings around it, RFC 2557 / url-syntax-05
§5.1.2) for the scan to route to the reader of their kind.

A message is parsed through :func:`~urisift.readers.mail.nesting.checked_parse`,
never by the email package's recursive parser alone, which a few
kilobytes of hostile nesting drive into ``RecursionError``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from email.message import Message
from typing import Literal

from ...model import Content, Defect, Flag, Origin, Record, Tally, origin_with
from ...model.needs import EVERYTHING, POINTS_TO
from ...stages.base import BaseLayer
from ...stages.containment import Budget
from ...stages.found_to_record import Tail
from ...stages.options import ScanOptions
from ...stages.placing import Placing
from .mbox import MboxMessage, split_mbox
from .nesting import checked_parse
from .parts import HeaderReference, message_pieces
from .pointers import PartIndex, index_parts


def read_message(content: Content, options: ScanOptions, tally: Tally) -> Iterator[Record | Defect | Content]:
    """One message (RFC 5322, MIME): its headings' references as records, its
    text parts as nested content with the bases of the headings around
    them; in a multipart message, what a target points to among its parts
    (:mod:`urisift.readers.mail.pointers`)."""
    tally.messages += 1  # (a message file, a Maildir's, an attachment routed here: each a message read)
    lines = None  # where its text stands in the file: for a message file's own, when asked
    body = content.body
    if isinstance(body, Message):
        message = body
    else:
        # checked before the email package's recursive parser sees it (a
        # message nested a thousand deep is a defect, not a RecursionError)
        data = content.stream().read()
        message, defects = checked_parse(data, content.origin)
        yield from defects
        if options.locations and content.origin.line is not None:
            lines = Placing(data)
    yield from message_items(message, content.layer, content.origin, tally, browser=options.browser, lines=lines,
                             needs=options.needs, budget=content.budget, images=options.qr)


def message_items(message: Message, layer: BaseLayer, origin: Origin, tally: Tally, *, browser: bool = False,
                  lines: Placing | None = None, needs: frozenset[str] = EVERYTHING, budget: Budget | None = None,
                  images: bool = False) -> Iterator[Record | Defect | Content]:
    """What :func:`read_message` yields, for a message already parsed;
    ``lines``: its bytes, where its records are placed (text output's location); what a
    target points to among its parts only when the output asks (ARCHITECTURE.md, Pushdown).
    ``budget``: the message's, which its parts share (one document: ARCHITECTURE.md, Budgets);
    None in an archive, whose message's parts the scan gives an account each.  ``images``: its image parts
    too, for the image reader (``--qr``)."""
    points_to = _part_pointer(message, layer, origin) if POINTS_TO in needs else _not_asked
    for piece in message_pieces(message, layer, origin, lines, images):
        if isinstance(piece, Defect):
            yield piece
        elif isinstance(piece, HeaderReference):
            record = Tail(piece.layer, piece.origin, None, browser=browser, needs=needs)(piece.found)
            path = points_to(record.target or record.uri)
            if lines is not None:
                record = record._replace(in_file=lines.header(piece.found.reference, piece.found.place.header))
            yield record if path is None else record._replace(points_to=path)
        else:
            tally.parts += 1
            yield Content(piece.body, piece.kind, piece.origin, piece.layer, piece.declared, piece.decoding,
                          flags=(Flag.UUENCODED,) if piece.uuencoded else (), points_to=points_to,
                          placed=piece.placed, budget=budget)


def _not_asked(target: str) -> Literal[False]:
    """What a target points to when the output does not ask: not computed."""
    return False


def _part_pointer(message: Message, layer: BaseLayer, origin: Origin) -> Callable[[str], str | None]:
    """What a target points to among the parts of ``message``
    (:mod:`urisift.readers.mail.pointers`), the same in a single-part message as in
    a multipart one (a ``mid:`` naming the message itself is ``""``); its
    parts are indexed when the first record asks.  A single part with no
    Content-Location can only be named by ``cid:`` or ``mid:``: other
    targets are not looked up (most messages of an archive)."""
    index: list[PartIndex] = []
    located = message.is_multipart() or message.get("Content-Location") is not None

    def points_to(target: str) -> str | None:
        if not located and target[:4].lower() not in ("cid:", "mid:"):
            return None
        if not index:
            index.append(index_parts(message, layer, origin))
        return index[0].points_to(target)

    return points_to


def read_mbox(content: Content, options: ScanOptions, tally: Tally) -> Iterator[Record | Defect | Content]:
    """Each message of an mbox archive in turn, as it is split off the stream."""
    lines = [0]
    yield from mbox_messages(split_mbox(content.stream(), lines=lines), content.layer, content.origin, 0, tally,
                             browser=options.browser, locations=options.locations, needs=options.needs,
                             images=options.qr)
    tally.lines = lines[0]


def mbox_messages(messages: Iterable[MboxMessage], layer: BaseLayer, origin: Origin, offset: int, tally: Tally,
                  *, browser: bool = False, locations: bool = False, needs: frozenset[str] = EVERYTHING,
                  images: bool = False) -> Iterator[Record | Defect | Content]:
    """The items of each message of an archive (``offset``: where the
    stream starts in the file); with ``locations``, each message's records
    are placed in the file (its first line counted from the stream's)."""
    for item in messages:
        tally.messages += 1
        where = origin_with(origin, message=item.message, offset=offset + item.offset,
                            line=item.line if locations else None)
        message, defects = checked_parse(item.data, where)
        yield from defects
        yield from message_items(message, layer, where, tally, browser=browser,
                                 lines=Placing(item.data, item.escaped) if locations else None, needs=needs,
                                 images=images)


__all__ = ["mbox_messages", "message_items", "read_mbox", "read_message"]
