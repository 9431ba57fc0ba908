"""The MAPI model → records and nested content: one reader of a message, whether it was kept in a
``.msg`` file, a TNEF stream or a PST (ARCHITECTURE.md, readers/: the readers).

A message's pieces, each with its part path:

- the RFC 5322 heading it arrived with (PidTagTransportMessageHeaders): its references are
  records as a message's headers' are, its ``Message-ID`` names the message, and its
  ``Content-Base`` / ``Content-Location`` is the base of the bodies (RFC 2557 §4);
- every rendition of the body there is, as each part of a ``multipart/alternative`` is read:
  ``html`` (PidTagHtml, in PidTagInternetCodepage), ``rtf`` (PidTagRtfCompressed: the HTML it
  encapsulates, else its text and fields, :mod:`urisift.readers.mail.mapi.rtf`), ``text``
  (PidTagBody);
- each attachment, ``attachment-N``: one by value routed by its MIME tag, then its file name,
  then its bytes, as a MIME part is, and read as nested content (an archive's members become
  ``attachment-N!/member``); an embedded message (attach method 5) is read as a message, its
  pieces under ``attachment-N/``.  An attachment's PidTagAttachContentId makes it the part a
  ``cid:`` reference points to (RFC 2392), as a MIME part's ``Content-ID`` does.
"""

from __future__ import annotations

import io
import mmap
from collections.abc import Callable, Generator, Iterator
from email.message import Message
from email.parser import HeaderParser
from email.policy import compat32
from typing import BinaryIO, Literal, cast
from urllib.parse import unquote

from ....model import (
    BaseSource,
    Charset,
    CharsetSource,
    Content,
    Defect,
    DefectKind,
    Kind,
    Origin,
    Record,
    Tally,
    origin_with,
)
from ....model.events import is_message
from ....model.needs import POINTS_TO
from ....stages.base import BaseLayer
from ....stages.charset import choose
from ....stages.containment import Budget, Metered
from ....stages.found_to_record import Tail
from ....stages.media import kind_of
from ....stages.options import ScanOptions
from ....stages.sniff import CFB_SIGNATURE, SAMPLE, binary, kind_by_name, sniff
from ....stages.streams import replayed_file
from ..header_uris import header_references
from ..headers import heading_base
from .model import (
    PID_BODY,
    PID_BODY_CONTENT_LOCATION,
    PID_INTERNET_MESSAGE_ID,
    PID_RTF_COMPRESSED,
    PID_TRANSPORT_MESSAGE_HEADERS,
    PT_UNICODE,
    MapiMessage,
    tag,
)
from .msg_file import NotAMessage, NotCompoundFile, read_msg_file
from .rtf import rtf_content
from .rtf_compression import TooLarge, decompressed
from .tnef import NotTnef, read_tnef

#: the media types that say nothing of an attachment's content, so that its name says it (RFC 2046 §4.5.1)
_UNTYPED = frozenset({"application/octet-stream", "binary/octet-stream", "application/x-download",
                      "application/force-download"})
#: signatures of what a file named .msg may be instead, and how to say it
_OTHERWISE = ((b"\x89PNG", "a PNG image"), (b"\xff\xd8\xff", "a JPEG image"), (b"GIF8", "a GIF image"),
              (b"%PDF-", "a PDF"), (b"PK\x03\x04", "a ZIP archive"))


def read_msg(content: Content, options: ScanOptions, tally: Tally) -> Iterator[Record | Defect | Content]:
    """An Outlook message file (``.msg``, MS-OXMSG)."""
    origin = content.origin
    file, view, data, cut = _message_bytes(content, options)
    if cut is not None:
        yield cut
    try:
        head = data[:SAMPLE]
        if head[:len(CFB_SIGNATURE)] != CFB_SIGNATURE:
            if sniff(head, None).kind is Kind.IMAGE:
                # an image named .msg is an image (read for its codes with --qr, passed over without, as any image)
                image = data if isinstance(data, bytes) else cast(BinaryIO, file)  # (a map: read from its file)
                yield Content(image, Kind.IMAGE, origin, content.layer, sniffed=True, budget=content.budget)
                return
            what = next((what for magic, what in _OTHERWISE if head.startswith(magic)), "not a Compound File")
            yield Defect(DefectKind.UNSUPPORTED_KIND, f"not an Outlook message: its bytes are {what} (an Outlook "
                         "message is a Compound File, MS-OXMSG §2.1); not read", origin, 0)
            return
        try:
            message = read_msg_file(data)
        except NotAMessage as exc:
            for damage in exc.damage:
                yield Defect(DefectKind.BROKEN_DOCUMENT, damage, origin, None)
            yield Defect(DefectKind.UNSUPPORTED_KIND, f"a Compound File that is no Outlook message ({exc}): not read",
                         origin, None)
            return
        except NotCompoundFile as exc:
            yield Defect(DefectKind.BROKEN_DOCUMENT, f"the Outlook message's Compound File cannot be read ({exc})",
                         origin, None)
            return
    finally:
        if view is not None:
            view.close()  # (the model holds copies of what it read)
    yield from message_items(message, origin, content.layer, options, tally, content.budget, inside(origin))


def _message_bytes(content: Content, options: ScanOptions) -> tuple[BinaryIO | None, mmap.mmap | None,
                                                                      bytes | mmap.mmap, Defect | None]:
    """A ``.msg``'s bytes.  A file named on the command line (or standard input redirected from one) is
    mapped: the Compound File reader then reads of it only its tables and the streams it uses, so that a
    message of any size is read, where bytes held whole are bounded (a message with an attachment of a
    hundred MB was read only as far as its first 64 MiB).  Returns the file (rewound: what an image named
    ``.msg`` is read from), the map, the bytes (the map's, or those held), and what was cut of a file that
    cannot be mapped, read as far as bytes held whole may be."""
    body = content.body
    file = None if isinstance(body, (bytes, str)) or is_message(body) else replayed_file(body)
    if file is None:
        return None, None, _bytes(content), None
    try:
        view = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError, io.UnsupportedOperation):
        # an empty file (none can be mapped), or one on a file system that cannot map: read through the file,
        # bounded as its stream was (that stream, whose place the file now has, is done with)
        meter = Metered(file, content.budget or options.limits.budget(), content.origin, False, options.limits.whole)
        return file, None, io.BufferedReader(meter).read(), meter.defect
    return file, view, view, None


def inside(origin: Origin) -> str:
    """The prefix of the part paths of a message that is itself a part (a MIME attachment, an archive's
    member): that part's path and ``!/``, as an archive's members are named."""
    return "" if origin.part is None else f"{origin.part}!/"


def read_tnef_stream(content: Content, options: ScanOptions, tally: Tally) -> Iterator[Record | Defect | Content]:
    """A TNEF stream (``winmail.dat``, MS-OXTNEF)."""
    data = _bytes(content)
    try:
        message = read_tnef(data)
    except NotTnef as exc:
        yield Defect(DefectKind.BROKEN_DOCUMENT, f"not a TNEF stream: {exc}; not read", content.origin, 0)
        return
    yield from message_items(message, content.origin, content.layer, options, tally, content.budget,
                             inside(content.origin))


def _bytes(content: Content) -> bytes:
    body = content.body
    if isinstance(body, str) or is_message(body):
        raise TypeError("an Outlook message is bytes")
    return body if isinstance(body, bytes) else body.read()


def message_items(message: MapiMessage, origin: Origin, layer: BaseLayer, options: ScanOptions, tally: Tally,
                  budget: Budget | None, prefix: str = "") -> Iterator[Record | Defect | Content]:
    """The records and nested content of one message of the model (see the module doc); ``prefix``:
    the part path of the attachment an embedded message stands in, with its ``/``."""
    tally.messages += 1
    properties = message.properties
    for problem in message.problems:
        yield Defect(DefectKind.BROKEN_DOCUMENT, problem, origin, None)
    heading = _heading(properties.text(PID_TRANSPORT_MESSAGE_HEADERS))
    message_id = None if heading is None else heading.get("Message-ID")
    message_id = str(message_id).strip() if message_id is not None else properties.text(PID_INTERNET_MESSAGE_ID)
    top = origin_with(origin, message_id=message_id or origin.message_id,
                      part=prefix.removesuffix("/").removesuffix("!") or None)
    layer = yield from _bases(heading, properties.text(PID_BODY_CONTENT_LOCATION), layer, top)
    points_to = _pointer(message, prefix) if POINTS_TO in options.needs else _not_asked
    if heading is not None:
        tail = Tail(layer, top, None, browser=options.browser, needs=options.needs)
        for found in header_references(heading):
            record = tail(found)
            path = points_to(record.target or record.uri)
            yield record if path is None else record._replace(points_to=path)

    def part(name: str) -> Origin:
        return origin_with(top, part=prefix + name)

    html = message.html
    if html is not None:
        tally.parts += 1
        if isinstance(html, bytes):
            yield Content(html, Kind.HTML, part("html"), layer, message.html_codec, points_to=points_to, budget=budget)
        else:
            yield Content(html, Kind.HTML, part("html"), layer, decoding=_UTF16, points_to=points_to, budget=budget)
    compressed = properties.binary(PID_RTF_COMPRESSED)
    if compressed is not None or message.rtf is not None:
        try:
            rtf = rtf_content(message.rtf if message.rtf is not None else
                              decompressed(compressed or b"", options.limits.whole))
        except TooLarge as exc:
            yield Defect(DefectKind.BOMB, f"part {prefix}rtf: its compressed RTF (MS-OXRTFCP) is not read: {exc}; "
                         "the other bodies are read", part("rtf"), None)
        except ValueError as exc:
            yield Defect(DefectKind.BROKEN_DOCUMENT, f"part {prefix}rtf: its compressed RTF (MS-OXRTFCP) cannot be "
                         f"read: {exc}; the other bodies are read", part("rtf"), None)
        else:
            tally.parts += 1
            yield Content(rtf.text, Kind.HTML if rtf.html else Kind.TEXT, part("rtf"), layer,
                          decoding=Charset(choose(b"", declared=rtf.codec).name, CharsetSource.DECLARED),
                          points_to=points_to, budget=budget)
    if properties.values.get(tag(PID_BODY, PT_UNICODE)) is not None:
        body = properties.text(PID_BODY)
        if body:
            tally.parts += 1
            yield Content(body, Kind.TEXT, part("text"), layer, decoding=_UTF16, points_to=points_to, budget=budget)
    else:
        narrow = properties.values.get(tag(PID_BODY, 0x001E))
        if narrow:
            tally.parts += 1
            yield Content(narrow.rstrip(b"\x00"), Kind.TEXT, part("text"), layer, properties.codec,
                          points_to=points_to, budget=budget)
    for index, attachment in enumerate(message.attachments, start=1):
        name = f"attachment-{index}"
        if attachment.embedded is not None:
            yield from message_items(attachment.embedded, origin_with(top, part=prefix + name), layer, options,
                                     tally, budget, f"{prefix}{name}/")
            continue
        data = attachment.data
        if not data:
            continue
        kind = route(data, attachment.media_type, attachment.name)
        if kind is not None:
            tally.parts += 1
            yield Content(data, kind, part(name), layer, sniffed=True, points_to=points_to, budget=budget)


_UTF16 = Charset("UTF-16LE", CharsetSource.DECLARED)


def route(data: bytes, media_type: str | None, name: str | None) -> Kind | None:
    """The kind an attachment is read as: its media type's, else (for a type that says nothing) its
    name's, checked against its first bytes; None for one that holds nothing a reader takes (an
    image, a program), as a walk passes such files over."""
    head = data[:SAMPLE]
    by_bytes = sniff(head, None).kind
    if by_bytes in _BINARY_KINDS:
        # what the bytes say of a binary format wins over a name (a PDF sent as file.txt is a PDF)
        if by_bytes is Kind.MSG and binary(head, name or None):
            return None  # a Compound File named as no message (a .doc, an .xls)
        return by_bytes
    typed = kind_of(media_type)
    if typed is None and (media_type is None or media_type in _UNTYPED):
        typed = kind_by_name(name)
    if typed is not None and typed not in _BINARY_KINDS and binary(head, None):
        return None  # named or typed as text, and not text
    if typed is None:
        if binary(head, name):
            return None
        typed = sniff(head, name).kind
    return typed


#: the kinds whose files are binary by nature
_BINARY_KINDS = frozenset({Kind.ARCHIVE, Kind.OFFICE, Kind.PDF, Kind.MSG, Kind.TNEF, Kind.PST, Kind.EPUB, Kind.IMAGE})


def _heading(headers: str | None) -> Message | None:
    """The RFC 5322 heading a message arrived with, parsed (headers only: linear)."""
    if not headers or not headers.strip():
        return None
    return HeaderParser(policy=compat32).parsestr(headers.lstrip("\r\n"), headersonly=True)


def _bases(heading: Message | None, location: str | None, layer: BaseLayer, origin: Origin
           ) -> Generator[Defect, None, BaseLayer]:
    """The chain of bases of a message's bodies: its heading's ``Content-Base`` or
    ``Content-Location`` (RFC 2557 §4), else its PidTagBodyContentLocation (MS-OXCMSG §2.2.1.53);
    the defect of one that cannot serve."""
    name, value = heading_base(heading) if heading is not None else (None, None)
    if value is None and location:
        name, value = "Content-Location", location.strip()
    if value is None:
        return layer
    source = BaseSource.CONTENT_BASE if name == "Content-Base" else BaseSource.CONTENT_LOCATION
    own, defect = layer.push(value, source, f"{name} of the message heading", origin=origin,
                             naming=source is not BaseSource.CONTENT_BASE)
    if defect is not None:
        yield defect
    return own


def _pointer(message: MapiMessage, prefix: str) -> Callable[[str], str | None]:
    """What a ``cid:`` target points to among a message's attachments (RFC 2392: by PidTagAttachContentId)."""
    ids: dict[str, str] = {}
    for index, attachment in enumerate(message.attachments, start=1):
        content_id = attachment.content_id
        if content_id:
            ids.setdefault(content_id.strip().strip("<>").lower(), f"{prefix}attachment-{index}")

    def points_to(target: str) -> str | None:
        if not ids or target[:4].lower() != "cid:":
            return None
        return ids.get(unquote(target[4:]).strip("<>").lower())

    return points_to


def _not_asked(target: str) -> Literal[False]:
    return False

