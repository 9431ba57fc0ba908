"""A parsed message as the pieces to scan: its headings' URI references and
its text parts, decoded as far as mail decodes them (transfer encoding,
``format=flowed``), each with its part path.

Parts that are not text (images, archives, programs) are never decoded.
Each piece carries the chain of bases around it
(:class:`~urisift.stages.base.BaseLayer`), so pieces may be scanned in any order.
"""

from __future__ import annotations

import quopri
from collections.abc import Generator, Iterator

# (the decoder get_payload itself calls: the same bytes, the same defects)
from email._encoded_words import decode_b  # type: ignore[import-not-found]
from email.message import Message
from typing import NamedTuple

from ...model import Charset, Defect, DefectKind, Found, Kind, Origin, origin_with
from ...stages.base import BaseLayer
from ...stages.charset import decode
from ...stages.media import kind_of
from ...stages.placing import Placing
from ...stages.sniff import SAMPLE, binary, kind_by_name
from ...uri import patterns
from .flowed import unflow
from .header_uris import header_references
from .headers import parameter
from .lines import Place, QuotedPrintable, part_place
from .lines import flowed as flowed_lines
from .uuencode import blanked, uu_blocks
from .walk import Heading, walk_message


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
    placed: Place | None = None  # where its text stands in the message (text output's location), when asked and it does


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


def message_pieces(message: Message, layer: BaseLayer, origin: Origin, lines: Placing | None = None,
                   images: bool = False) -> Iterator[TextPart | HeaderReference | Defect]:
    """The pieces of one parsed message, in order (see the module doc);
    with ``lines`` (the message's bytes), each text part says where its
    text stands in them (:mod:`urisift.readers.mail.lines`); with ``images``
    (``--qr``), its image parts too (attachments and inline ``cid:`` images
    alike), undecoded, for the image reader (without it they are never decoded)."""
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
        elif item.content_type.startswith(("text/", "multipart/")) or (
                typed := kind_of(item.content_type) or (
                    _named(item.entity) if item.content_type in _UNTYPED else None)) is not None:
            if not images and not item.content_type.startswith(("text/", "multipart/")) and typed is Kind.IMAGE:
                continue  # an image, read only with --qr: not even its transfer encoding undone
            body = transfer_decoded(item.entity)
            if not isinstance(body, bytes):
                continue
            # by the one table of media types (a style sheet, a feed, a PDF or
            # office attachment has its own reader), else by the attachment's name; other text is text
            kind = kind_of(item.content_type) or Kind.TEXT
            if not item.content_type.startswith(("text/", "multipart/")) and typed is not None:
                if typed not in _BINARY_KINDS and binary(body[:SAMPLE], None):
                    continue  # named as text, and not text: nothing to read (a walk passes such a file over)
                kind = typed
            where = origin_with(top, part=item.path)
            entity, raw_type = item.entity, item.raw_type
            if item.content_type.startswith("multipart/"):
                # the parser found no parts (a multipart is never a leaf else)
                yield _unsplit(item.content_type, entity, raw_type, where)
            charset = _charset(entity, raw_type)
            start, body_lines = _standing(entity, charset, lines)
            files: list[TextPart] = []
            if kind is Kind.TEXT and b"begin " in body:
                body, files = yield from _lift_uuencoded(body, where, item.layer)
            if kind is Kind.TEXT and raw_type is not None and "flowed" in raw_type.lower() \
                    and parameter(entity, raw_type, "format") == "flowed":
                # RFC 3676: soft line breaks undone first (spans count in the rejoined text)
                text, choice, defects = decode(body, declared=charset, origin=where)
                yield from defects
                delsp = parameter(entity, raw_type, "delsp") == "yes"
                flowed = unflow(text, delsp=delsp)
                placed = None if start is None or lines is None else part_place(
                    start, flowed_lines(text, delsp), body_lines, lines.in_file)
                yield TextPart(where, kind, flowed, charset, Charset(choice.name, choice.source), item.layer,
                               placed=placed)
            else:
                placed = None if start is None or lines is None else part_place(start, None, body_lines, lines.in_file)
                yield TextPart(where, kind, body, charset, None, item.layer, placed=placed)
            yield from files


#: the media types that say nothing of what a part holds, so that its file name says it (RFC 2046 §4.5.1:
#: octet-stream is "arbitrary binary data"); any other type is what the part is (a signature.asc sent as
#: application/pgp-signature is a signature, not the AsciiDoc its name would say)
_UNTYPED = frozenset({"application/octet-stream", "binary/octet-stream", "application/x-download",
                      "application/force-download"})
#: the kinds whose files are binary by nature: an attachment named as one is read whatever its bytes
_BINARY_KINDS = frozenset({Kind.ARCHIVE, Kind.OFFICE, Kind.PDF, Kind.MSG, Kind.TNEF, Kind.PST, Kind.EPUB,
                           Kind.IMAGE})


def _named(entity: Message) -> Kind | None:
    """The kind an attachment's file name says (Content-Disposition's filename, else
    Content-Type's name: RFC 2183 §2.3), for a part whose media type says none
    (``application/octet-stream``): a zip sent as bytes is still a zip."""
    try:
        name = entity.get_filename()
    except (TypeError, ValueError, LookupError):  # a broken RFC 2231 parameter: no name
        return None
    return kind_by_name(name) if isinstance(name, str) else None


def _standing(entity: Message, charset: str | None, lines: Placing | None) -> tuple[int | None, Place | None]:
    """Where a leaf part's text stands in the message (see
    :mod:`urisift.readers.mail.lines`): the line its body starts on, and how its
    decoded lines stand on the body's (None: one for one); (None, None)
    when it does not stand there as written (base64), or is not looked for."""
    payload = getattr(entity, "_payload", None)
    if lines is None or not isinstance(payload, str):
        return None, None
    try:
        raw = payload.encode("ascii", "surrogateescape")
    except UnicodeEncodeError:  # a message built from text, not parsed from bytes
        return None, None
    start = lines.after(raw)  # (a base64 body is found too: the parts after it are looked for past it)
    cte = entity.get("Content-Transfer-Encoding")
    encoding = None if cte is None else str(cte).strip().lower()
    # (an encoding that is none of these leaves the body as it is, as the email package reads it: "7-bit")
    if start is None or encoding in ("base64", "x-uuencode", "uuencode", "x-uue", "uue"):
        return None, None
    return start, QuotedPrintable(raw, charset) if encoding == "quoted-printable" else None


def _unsplit(content_type: str, entity: Message, raw_type: str | None, where: Origin) -> Defect:
    """The defect of a multipart the parser could not split (RFC 2046
    §5.1.1): it names no boundary, or its boundary never starts a line."""
    boundary = parameter(entity, raw_type, "boundary", lower=False)
    why = "names no boundary" if boundary is None else f"has no line '--{boundary}' to start its first part"
    return Defect(DefectKind.BROKEN_MIME, f"part {where.part}: this {content_type} {why}; its body was read as text",
                  where)


# RFC 2045 §6.7 (3): white space at the end of an encoded line was added in
# transport and is deleted, so "=" before it is a soft line break.  Only a
# run's first character may start a match (the look-behind), and the run is
# taken whole (possessive): linear however long the run.
_QP_PADDING = patterns.compile(rb"(?<![ \t])[ \t]++(?=\r?\n|\r|\Z)")


#: transfer encodings that leave the body as it is (RFC 2045 §6.2)
_IDENTITY = frozenset({"7bit", "8bit", "binary"})


def transfer_decoded(entity: Message) -> bytes | None:
    """The body of a leaf entity with its Content-Transfer-Encoding undone,
    as ``get_payload(decode=True)`` gives it, but quoted-printable with the
    transport padding at line ends ignored first (RFC 2045 §6.7 rule 3):
    the email package leaves ``=`` followed by spaces as it is, so a URI
    wrapped at such a soft line break was cut in two.  None for a multipart."""
    cte = entity.get("Content-Transfer-Encoding")
    payload = getattr(entity, "_payload", None)  # the bytes as received: get_payload() mangles what is not ASCII
    encoding = None if cte is None else str(cte).strip().lower()
    if (encoding is None or encoding in _IDENTITY) and isinstance(payload, str):
        # what get_payload(decode=True) gives a body parsed from bytes (ASCII and
        # the surrogates standing for the other bytes), without its lookups
        try:
            return payload.encode("ascii", "surrogateescape")
        except UnicodeEncodeError:  # text a caller put in a message it built
            pass
    if isinstance(payload, str) and cte is not None and str(cte).lower() == "base64":
        body = _base64(entity, payload)
        if body is not None:
            return body
    if encoding != "quoted-printable" or not isinstance(payload, str):
        decoded = entity.get_payload(decode=True)
        return decoded if isinstance(decoded, bytes) else None
    try:
        data = payload.encode("ascii", "surrogateescape")
    except UnicodeEncodeError:  # a message built from text, not parsed from bytes (as the email package does)
        data = payload.encode("raw-unicode-escape")
    return quopri.decodestring(_QP_PADDING.sub(b"", data))


def _base64(entity: Message, payload: str) -> bytes | None:
    """What ``get_payload(decode=True)`` gives a base64 body (RFC 2045 §6.8),
    its defects registered on ``entity`` as it registers them, without the
    list of its lines that it joins first (a 50 MB part was 650,000 bytes
    objects); None for a payload of text a caller built (not ASCII nor the
    parser's surrogates), left to it."""
    try:
        joined = payload.encode("ascii", "surrogateescape").translate(None, b"\r\n")  # (its lines, joined)
    except UnicodeEncodeError:
        return None
    value, defects = decode_b(joined)
    for defect in defects:
        entity.policy.handle_defect(entity, defect)
    return value if isinstance(value, bytes) else None


def _lift_uuencoded(body: bytes, where: Origin, layer: BaseLayer
                    ) -> Generator[Defect, None, tuple[bytes, list[TextPart]]]:
    """The part's text with its uuencoded blocks blanked, and the text files
    they hold as pieces of their own (:mod:`urisift.readers.mail.uuencode`)."""
    blocks = uu_blocks(body)
    files = []
    for block in blocks:
        if block.truncated:
            yield Defect(DefectKind.BROKEN_MIME, f"uuencoded file {block.name!r} has no 'end' line: cut short "
                         f"after {len(block.data)} bytes; what there is was read", where, block.start)
        if block.is_text and block.data:
            kind = Kind.HTML if block.is_html else Kind.TEXT
            files.append(TextPart(where, kind, block.data, None, None, layer, True))
    return (blanked(body, blocks) if blocks else body), files
