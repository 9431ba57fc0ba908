"""An Outlook message file (``.msg``) → the MAPI model (MS-OXMSG over MS-CFB).

The Compound File is read by :mod:`urisift.readers.mail.mapi.compound_file`, which says each damage
it meets (a chain of sectors that loops, a directory cycle, a file cut short) and reads on.  MS-OXMSG
§2.1 lays the message out in it:

- ``__properties_version1.0``: the fixed-size properties, 16 bytes each (tag, flags, an
  8-byte value) after a header of 32 bytes (the message), 24 (an embedded message) or 8
  (an attachment, a recipient) (§2.4.1, §2.4.2);
- ``__substg1.0_TTTTTTTT``: one stream a variable-size property, named by its tag in hex
  (§2.1.3); only those the model's reader uses are read (:data:`~urisift.readers.mail.mapi.model.WANTED`);
- ``__attach_version1.0_#XXXXXXXX``: a storage an attachment (§2.2.2), in which an embedded
  message is the storage ``__substg1.0_3701000D`` (§2.2.2.1);
- ``__nameid_version1.0``: the named properties' map, which holds no link and is not read.
"""

from __future__ import annotations

import re
import struct
from collections.abc import Iterable
from dataclasses import replace
from mmap import mmap

from ....stages.sniff import CFB_SIGNATURE
from .compound_file import CompoundFile, NotCompoundFile
from .model import (
    ATTACH_EMBEDDED_MSG,
    DEFAULT_CODE_PAGE,
    PID_MESSAGE_CODEPAGE,
    PT_BINARY,
    PT_OBJECT,
    PT_STRING8,
    PT_UNICODE,
    WANTED,
    MapiAttachment,
    MapiMessage,
    Properties,
    codec_of,
    tag,
)

#: the storage of properties every message object has (MS-OXMSG §2.4)
PROPERTIES = "__properties_version1.0"
#: messages embedded in messages, at most (a .msg in a .msg in a .msg ...)
MAX_DEPTH = 8
#: attachments of one message read at most
MAX_ATTACHMENTS = 10_000
_SUBSTORAGE = re.compile(r"__substg1\.0_([0-9A-Fa-f]{8})\Z")
_ATTACHMENT = re.compile(r"__attach_version1\.0_#[0-9A-Fa-f]{8}\Z")
_EMBEDDED = "__substg1.0_3701000D"
#: the size of a properties stream's header, by object (MS-OXMSG §2.4.1.1, §2.4.1.2, §2.4.2)
_TOP, _EMBEDDED_HEADER, _SUBOBJECT = 32, 24, 8
#: the types whose values stand in streams of their own (§2.1.3), not in the properties stream
_VARIABLE = frozenset({PT_STRING8, PT_UNICODE, PT_BINARY, PT_OBJECT})


class NotAMessage(Exception):
    """A Compound File that is not an Outlook message (a Word document, an Excel workbook); ``damage``:
    what was found wrong in it on the way."""

    def __init__(self, what: str, damage: tuple[str, ...]) -> None:
        super().__init__(what)
        self.damage = damage


def read_msg_file(data: bytes | mmap) -> MapiMessage:
    """The message a ``.msg`` file holds.  Raises :class:`NotCompoundFile` for bytes that are none,
    :class:`NotAMessage` for a Compound File that holds no message."""
    cfb = CompoundFile(data)
    root = cfb.children(0)
    if PROPERTIES not in root or not cfb.is_stream(root[PROPERTIES]):
        raise NotAMessage(_what(root), _damage(cfb.damage))
    message = _message(cfb, root, _TOP, 1)
    damage = _damage(cfb.damage)
    return replace(message, problems=damage + message.problems) if damage else message


def _damage(found: Iterable[str]) -> tuple[str, ...]:
    return tuple(f"the Compound File is damaged: {what}" for what in dict.fromkeys(found))


def _what(names: Iterable[str]) -> str:
    """What a Compound File that is no message holds, by its streams (MS-DOC, MS-XLS, MS-PPT)."""
    names = set(names)
    for stream, kind in (("WordDocument", "a Word document"), ("Workbook", "an Excel workbook"),
                         ("Book", "an Excel workbook"), ("PowerPoint Document", "a PowerPoint presentation")):
        if stream in names:
            return kind
    return "a Compound File of no kind urisift reads"


def _message(cfb: CompoundFile, names: dict[str, int], header: int, depth: int) -> MapiMessage:
    problems: list[str] = []
    values = _properties(cfb, names, header)
    code_page = _integer(values.get(tag(PID_MESSAGE_CODEPAGE, 0x0003)))
    codec = codec_of(code_page) or codec_of(DEFAULT_CODE_PAGE) or "cp1252"
    if code_page is not None and codec_of(code_page) is None:
        problems.append(f"its strings are in code page {code_page}, which Python has no codec for: read as "
                        "windows-1252")
    attachments = []
    storages = sorted(name for name, index in names.items() if _ATTACHMENT.match(name) and cfb.is_storage(index))
    if len(storages) > MAX_ATTACHMENTS:
        problems.append(f"it has {len(storages)} attachments: the first {MAX_ATTACHMENTS} are read")
    for name in storages[:MAX_ATTACHMENTS]:
        inside = cfb.children(names[name])
        properties = Properties(_properties(cfb, inside, _SUBOBJECT), codec)
        embedded = None
        if properties.integer(0x3705) == ATTACH_EMBEDDED_MSG and _EMBEDDED in inside \
                and cfb.is_storage(inside[_EMBEDDED]):
            if depth >= MAX_DEPTH:
                problems.append(f"a message embedded {depth + 1} deep (bound: {MAX_DEPTH}): not read")
            else:
                embedded = _message(cfb, cfb.children(inside[_EMBEDDED]), _EMBEDDED_HEADER, depth + 1)
        attachments.append(MapiAttachment(properties, embedded))
    return MapiMessage(Properties(values, codec), tuple(attachments), tuple(problems))


def _properties(cfb: CompoundFile, names: dict[str, int], header: int) -> dict[int, bytes]:
    """The properties of an object whose storage holds ``names``: the fixed-size ones of its properties
    stream, then each variable-size one the model's reader uses, of its own stream."""
    values: dict[int, bytes] = {}
    if PROPERTIES in names and cfb.is_stream(names[PROPERTIES]):
        stream = cfb.read(names[PROPERTIES])
        end = len(stream) - (len(stream) - header) % 16
        for at in range(header, end, 16):
            property_tag, _flags = struct.unpack_from("<II", stream, at)
            if property_tag & 0xFFFF not in _VARIABLE and not property_tag & 0x1000 and property_tag >> 16 in WANTED:
                values[property_tag] = stream[at + 8:at + 16]
    for name, index in names.items():
        match = _SUBSTORAGE.match(name)
        if match is None or not cfb.is_stream(index):
            continue
        property_tag = int(match.group(1), 16)
        if property_tag & 0xFFFF in (PT_STRING8, PT_UNICODE, PT_BINARY) and property_tag >> 16 in WANTED:
            values[property_tag] = cfb.read(index)
    return values


def _integer(value: bytes | None) -> int | None:
    return None if value is None or len(value) < 4 else int.from_bytes(value[:4], "little")


__all__ = ["CFB_SIGNATURE", "NotAMessage", "NotCompoundFile", "read_msg_file"]
