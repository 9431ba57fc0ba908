"""A TNEF stream (``winmail.dat``, ``application/ms-tnef``) → the MAPI model (MS-OXTNEF).

A TNEF stream (§2.1.3) is a signature, a key, then attributes, each a level (message or
attachment), an identifier, a length, its bytes and a checksum (the sum of its bytes, modulo
65,536: §2.1.3.2).  The message's properties stand in ``attMsgProps`` and each attachment's in
``attAttachment``, encoded as a property list (§2.1.3.4); older attributes carry the body, the
message class and each attachment's title and data (§2.1.3.3), and are kept where no property
says the same.  An attachment starts at its ``attAttachRendData`` (§2.1.3.3.13).

A checksum that does not match is a problem said, and the attribute is read (its bytes are
usually right: writers that get the sum wrong are known); a length that runs past the stream's
end is a problem, and the stream is read no further.  An embedded message (an attachment whose
``PidTagAttachDataObject`` is a TNEF stream of its own, §2.1.3.4.1) is read as a message.
"""

from __future__ import annotations

import struct

from ....stages.sniff import TNEF_SIGNATURE
from .model import (
    DEFAULT_CODE_PAGE,
    PID_ATTACH_DATA,
    PID_ATTACH_FILENAME,
    PID_BODY,
    PID_MESSAGE_CLASS,
    PID_SUBJECT,
    PT_BINARY,
    PT_OBJECT,
    PT_STRING8,
    PT_UNICODE,
    MapiAttachment,
    MapiMessage,
    Properties,
    codec_of,
    tag,
)

#: messages embedded in messages, at most
MAX_DEPTH = 8
#: properties of one list read at most (a count past it is a lie)
MAX_PROPERTIES = 100_000
#: the values of one multi-valued property read at most
MAX_VALUES = 100_000
#: attributes (§2.1.3.3), by identifier
_MESSAGE_PROPS = 0x00069003  # attMsgProps
_ATTACHMENT_PROPS = 0x00069005  # attAttachment
_REND_DATA = 0x00069002  # attAttachRendData: an attachment starts
_ATTACH_DATA = 0x0006800F  # attAttachData
_ATTACH_TITLE = 0x00018010  # attAttachTitle
_BODY = 0x0002800C  # attBody
_MESSAGE_CLASS = 0x00078008  # attMessageClass
_SUBJECT = 0x00018004  # attSubject
_OEM_CODEPAGE = 0x00069007  # attOemCodepage
#: the sizes of fixed-size property values in a property list (§2.1.3.4.2: each padded to 4 bytes)
_FIXED = {0x0002: 4, 0x0003: 4, 0x0004: 4, 0x0005: 8, 0x0006: 8, 0x0007: 8, 0x000A: 4, 0x000B: 4, 0x0014: 8,
          0x0040: 8, 0x0048: 16, 0x0001: 0}
_VARIABLE = frozenset({PT_STRING8, PT_UNICODE, PT_BINARY, PT_OBJECT})
_MULTIPLE = 0x1000


class NotTnef(Exception):
    """Bytes that do not start with the TNEF signature."""


class _Cut(Exception):
    """A property list that ends inside a value."""


def read_tnef(data: bytes, depth: int = 1) -> MapiMessage:
    """The message a TNEF stream holds (see the module doc).  Raises :class:`NotTnef` when the bytes
    are no TNEF stream."""
    if not data.startswith(TNEF_SIGNATURE):
        raise NotTnef("its first bytes are not the TNEF signature (78 9F 3E 22)")
    problems: list[str] = []
    message: dict[int, bytes] = {}
    legacy: dict[int, bytes] = {}  # what the older attributes say, kept where no property says it
    attachments: list[tuple[dict[int, bytes], dict[int, bytes], MapiMessage | None]] = []
    code_page: int | None = None
    at = 6
    while at < len(data):
        if len(data) - at < 9:
            problems.append(f"at byte {at}: {len(data) - at} bytes after the last attribute, too few for one: "
                            "passed over")
            break
        level, identifier, length = struct.unpack_from("<BII", data, at)
        start = at + 9
        if length > len(data) - start:
            problems.append(f"at byte {at}: attribute 0x{identifier:08X} says it holds {length} bytes, and "
                            f"{len(data) - start} follow: read no further")
            break
        value = data[start:start + length]
        if len(data) - start - length < 2:
            problems.append(f"at byte {at}: the stream ends before attribute 0x{identifier:08X}'s checksum: "
                            "read as it is")
        elif sum(value) & 0xFFFF != (checksum := struct.unpack_from("<H", data, start + length)[0]):
            problems.append(f"at byte {at}: attribute 0x{identifier:08X}'s checksum is {checksum}, and its bytes "
                            f"sum to {sum(value) & 0xFFFF}: read as it is")
        at = start + length + 2
        if identifier == _REND_DATA or level == 2 and not attachments:
            attachments.append(({}, {}, None))
        if identifier == _OEM_CODEPAGE and len(value) >= 4:
            code_page = int.from_bytes(value[:4], "little")
        elif identifier == _MESSAGE_PROPS:
            message.update(_property_list(value, start, problems))
        elif identifier == _BODY:
            legacy[tag(PID_BODY, PT_STRING8)] = value
        elif identifier == _MESSAGE_CLASS:
            legacy[tag(PID_MESSAGE_CLASS, PT_STRING8)] = value
        elif identifier == _SUBJECT:
            legacy[tag(PID_SUBJECT, PT_STRING8)] = value
        elif attachments and identifier == _ATTACH_DATA:
            attachments[-1][1][tag(PID_ATTACH_DATA, PT_BINARY)] = value
        elif attachments and identifier == _ATTACH_TITLE:
            attachments[-1][1][tag(PID_ATTACH_FILENAME, PT_STRING8)] = value
        elif attachments and identifier == _ATTACHMENT_PROPS:
            attachments[-1][0].update(_property_list(value, start, problems))
    codec = codec_of(code_page) or codec_of(DEFAULT_CODE_PAGE) or "cp1252"
    objects = []
    for own, older, _ in attachments:
        values = {**older, **own}
        embedded = None
        inner = values.pop(tag(PID_ATTACH_DATA, PT_OBJECT), None)
        if inner is not None:
            if depth >= MAX_DEPTH:
                problems.append(f"a message embedded {depth + 1} deep (bound: {MAX_DEPTH}): not read")
            else:
                try:
                    embedded = read_tnef(inner, depth + 1)
                except NotTnef:
                    values[tag(PID_ATTACH_DATA, PT_BINARY)] = inner  # an OLE object: its bytes, routed by name
        objects.append(MapiAttachment(Properties(values, codec), embedded))
    return MapiMessage(Properties({**legacy, **message}, codec), tuple(objects), tuple(problems))


def _property_list(data: bytes, offset: int, problems: list[str]) -> dict[int, bytes]:
    """A property list's properties (§2.1.3.4): tag → the value's bytes (an object's without its IID);
    a list that ends inside a value is a problem, and the properties before it stand."""
    values: dict[int, bytes] = {}
    at = 0
    try:
        (count,) = _unpack("<I", data, at)
        at = 4
        if count > MAX_PROPERTIES:
            problems.append(f"at byte {offset}: a property list says it holds {count} properties (bound: "
                            f"{MAX_PROPERTIES}): the first are read")
            count = MAX_PROPERTIES
        for _ in range(count):
            (property_tag,) = _unpack("<I", data, at)
            at += 4
            ptype, pid = property_tag & 0xFFFF, property_tag >> 16
            if pid >= 0x8000:  # a named property: its GUID, then a number or a name (§2.1.3.4.1)
                (kind,) = _unpack("<I", data, at + 16)
                at += 20
                if kind == 0:
                    at += 4
                else:
                    (length,) = _unpack("<I", data, at)
                    at += 4 + _padded(length)
            base = ptype & ~_MULTIPLE
            several = bool(ptype & _MULTIPLE) or base in _VARIABLE
            values_count = 1
            if several:
                (values_count,) = _unpack("<I", data, at)
                at += 4
                if values_count > MAX_VALUES:
                    raise _Cut(f"a property says it has {values_count} values")
            if base in _VARIABLE:
                first: bytes | None = None
                for _ in range(values_count):
                    (size,) = _unpack("<I", data, at)
                    at += 4
                    if size > len(data) - at:
                        raise _Cut(f"a value says it holds {size} bytes, and {len(data) - at} follow")
                    first = data[at:at + size] if first is None else first
                    at += _padded(size)
                if first is not None and not ptype & _MULTIPLE and pid < 0x8000:
                    values[tag(pid, base)] = first[16:] if base == PT_OBJECT else first
            elif base in _FIXED:
                size = _FIXED[base]
                if at + size * values_count > len(data):
                    raise _Cut("a value runs past the list's end")
                if not ptype & _MULTIPLE and pid < 0x8000:
                    values[property_tag] = data[at:at + size]
                at += size * values_count
            else:
                raise _Cut(f"property 0x{property_tag:08X} has type 0x{base:04X}, which MS-OXCDATA does not define")
    except _Cut as exc:
        problems.append(f"at byte {offset}: a property list cut short ({exc}): the properties before it are read")
    return values


def _unpack(form: str, data: bytes, at: int) -> tuple[int, ...]:
    if at + struct.calcsize(form) > len(data):
        raise _Cut("it ends inside a property")
    return struct.unpack_from(form, data, at)


def _padded(size: int) -> int:
    return size + (-size) % 4
