"""A parsed message as the pieces to scan: its headings' URI references and
its text parts, decoded as far as mail decodes them (transfer encoding,
``format=flowed``), each with its part path (issue 10).

Parts that are not text (images, archives, programs) are never decoded.
Each piece carries the chain of bases around it
(:class:`~urisift.base.BaseLayer`), so pieces may be scanned in any order.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator
from email.message import Message
from typing import NamedTuple

from ..base import BaseLayer
from ..charset import decode
from ..model import origin_with
from ..model import Charset, Defect, DefectKind, Found, Kind, Origin
from .flowed import unflow
from .header_uris import header_references
from .headers import parameter
from .uuencode import blanked, uu_blocks
from .walk import Heading, walk_message

HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})


class TextPart(NamedTuple):
    """A text part to scan: its origin (with the part path), kind, body (bytes,
    or text already decoded with ``decoding``) and declared charset."""

    origin: Origin
    kind: Kind
    body: bytes | str
    declared: str | None
    decoding: Charset | None
    layer: BaseLayer  # the bases around the part
    uuencoded: bool = False  # a file uuencoded inside a text part, not the part's own text


class HeaderReference(NamedTuple):
    """A reference in a heading, the origin of that heading, and the bases
    that heading sets (a message's base serves its own headers)."""

    origin: Origin
    found: Found
    layer: BaseLayer


def _charset(entity: Message, raw_type: str | None) -> str | None:
    """The declared charset, as ``get_content_charset`` gives it: lower case,
    None when absent or not ASCII."""
    charset = parameter(entity, raw_type, "charset")
    return charset if charset is None or charset.isascii() else None


def message_pieces(message: Message, layer: BaseLayer, origin: Origin
                   ) -> Iterator[TextPart | HeaderReference | Defect]:
    """The pieces of one parsed message, in order (see the module doc)."""
    message_id = message.get("Message-ID")
    top = origin_with(origin, part=None,
                      message_id=origin.message_id if message_id is None else str(message_id).strip())
    for item in walk_message(message, layer, top):
        if isinstance(item, Defect):
            yield item
        elif isinstance(item, Heading):
            # a message's base serves the relative references of its own headers
            where = top if not item.path else origin_with(top, part=item.path)
            for found in header_references(item.entity):
                yield HeaderReference(where, found, item.layer)
        elif item.content_type.startswith("text/") or item.content_type in HTML_TYPES:
            body = item.entity.get_payload(decode=True)
            if not isinstance(body, bytes):
                continue
            kind = Kind.HTML if item.content_type in HTML_TYPES else Kind.TEXT
            where = origin_with(top, part=item.path)
            entity, raw_type = item.entity, item.raw_type
            charset = _charset(entity, raw_type)
            files: list[TextPart] = []
            if kind is Kind.TEXT and b"begin " in body:
                body, files = yield from _lift_uuencoded(body, where, item.layer)
            if kind is Kind.TEXT and raw_type is not None and "flowed" in raw_type.lower() \
                    and parameter(entity, raw_type, "format") == "flowed":
                # RFC 3676: soft line breaks undone first (spans count in the rejoined text)
                text, choice, defects = decode(body, declared=charset, origin=where)
                yield from defects
                flowed = unflow(text, delsp=parameter(entity, raw_type, "delsp") == "yes")
                yield TextPart(where, kind, flowed, charset, Charset(choice.name, choice.source), item.layer)
            else:
                yield TextPart(where, kind, body, charset, None, item.layer)
            yield from files


def _lift_uuencoded(body: bytes, where: Origin, layer: BaseLayer) -> Generator[Defect, None, tuple[bytes, list[TextPart]]]:
    """The part's text with its uuencoded blocks blanked, and the text files
    they hold as pieces of their own (:mod:`urisift.mail.uuencode`)."""
    blocks = uu_blocks(body)
    files = []
    for block in blocks:
        if block.truncated:
            yield Defect(DefectKind.BROKEN_MIME, f"uuencoded file {block.name!r} has no 'end' line: cut short "
                         f"after {len(block.data)} bytes; what there is was read", where, block.start)
        if block.is_text and block.data:
            files.append(TextPart(where, Kind.HTML if block.is_html else Kind.TEXT, block.data, None, None, layer, True))
    return (blanked(body, blocks) if blocks else body), files
