"""An Outlook message file (``.msg``) → the MAPI model (MS-OXMSG over MS-CFB).

The Compound File is read with olefile, which checks its structure as it opens it (a FAT
that loops, a directory entry met twice, a sector past the end are its errors).  MS-OXMSG
§2.1 lays the message out in it:

- ``__properties_version1.0``: the fixed-size properties, 16 bytes each (tag, flags, an
  8-byte value) after a header of 32 bytes (the message), 24 (an embedded message) or 8
  (an attachment, a recipient) (§2.4.1, §2.4.2);
- ``__substg1.0_TTTTTTTT``: one stream a variable-size property, named by its tag in hex
  (§2.1.3);
- ``__attach_version1.0_#XXXXXXXX``: a storage an attachment (§2.2.2), in which an embedded
  message is the storage ``__substg1.0_3701000D`` (§2.2.2.1);
- ``__nameid_version1.0``: the named properties' map, which holds no link and is not read.
"""

from __future__ import annotations

import io
import re
import struct
from dataclasses import replace
from collections.abc import Sequence
from typing import Any

from ....stages.sniff import CFB_SIGNATURE
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
    what olefile found wrong in it on the way."""

    def __init__(self, what: str, damage: tuple[str, ...]) -> None:
        super().__init__(what)
        self.damage = damage


def is_message_file(names: Sequence[Sequence[str]]) -> bool:
    """Whether a Compound File whose entries are ``names`` (olefile's paths) is a message:
    it has the properties stream at its root (MS-OXMSG §2.4)."""
    return any(len(path) == 1 and path[0] == PROPERTIES for path in names)


def read_msg_file(data: bytes) -> MapiMessage:
    """The message a ``.msg`` file holds.  Raises olefile's errors (OSError) when the Compound
    File is broken, :class:`NotAMessage` when it holds no message."""
    import olefile  # (a core dependency: imported here so that the package imports without reading one)

    # (a file object: bytes shorter than 1,536 olefile would take for a file's name)
    ole = olefile.OleFileIO(io.BytesIO(data))
    try:
        tree = _Tree(ole.listdir(streams=True, storages=True), len(data))
        # what olefile repaired or passed over as it opened the file (a directory entry met twice: a cycle)
        damage = tuple(f"the Compound File is damaged: {message}; read as far as it goes"
                       for _, message in getattr(ole, "parsing_issues", ()))
        if not is_message_file(tree.paths):
            raise NotAMessage(_what(tree.paths), damage)
        message = _message(ole, tree, (), _TOP, 1)
        damage += _loops(ole)
        return replace(message, problems=damage + message.problems) if damage else message
    finally:
        ole.close()


def _loops(ole: Any) -> tuple[str, ...]:
    """The streams whose sector chains loop (MS-CFB §2.3: a chain ends at ENDOFCHAIN): olefile reads
    such a stream as far as its size, the same sectors again, and says nothing."""
    found = []
    for entry in ole.direntries:
        if entry is None or entry.entry_type != 2 or entry.size == 0:
            continue
        small = entry.size < ole.minisectorcutoff
        table = getattr(ole, "minifat", None) if small else ole.fat
        if table is None:
            continue
        seen: set[int] = set()
        sector = entry.isectStart
        while 0 <= sector < len(table) and sector not in seen:
            seen.add(sector)
            sector = table[sector]
        if sector in seen:
            found.append(f"the Compound File is damaged: stream {entry.name}'s chain of sectors loops back to "
                         f"sector {sector} (MS-CFB §2.3); read as far as its size")
    return tuple(found)


def _what(paths: Sequence[Sequence[str]]) -> str:
    """What a Compound File that is no message holds, by its streams (MS-DOC, MS-XLS, MS-PPT)."""
    names = {path[0] for path in paths}
    for stream, kind in (("WordDocument", "a Word document"), ("Workbook", "an Excel workbook"),
                         ("Book", "an Excel workbook"), ("PowerPoint Document", "a PowerPoint presentation")):
        if stream in names:
            return kind
    return "a Compound File of no kind urisift reads"


class _Tree:
    """The entries of a Compound File, by the storage they stand in."""

    def __init__(self, paths: list[list[str]], size: int) -> None:
        self.paths = paths
        self.size = size  # the file's: no stream holds more (one that says so loops, and olefile reads it round)
        self.children: dict[tuple[str, ...], list[str]] = {}
        for path in paths:
            self.children.setdefault(tuple(path[:-1]), []).append(path[-1])


def _message(ole: Any, tree: _Tree, where: tuple[str, ...], header: int, depth: int) -> MapiMessage:
    problems: list[str] = []
    values = _properties(ole, tree, where, header, problems)
    code_page = _integer(values.get(tag(PID_MESSAGE_CODEPAGE, 0x0003)))
    codec = codec_of(code_page) or codec_of(DEFAULT_CODE_PAGE) or "cp1252"
    if code_page is not None and codec_of(code_page) is None:
        problems.append(f"its strings are in code page {code_page}, which Python has no codec for: read as "
                        "windows-1252")
    attachments = []
    names = sorted(name for name in tree.children.get(where, ()) if _ATTACHMENT.match(name))
    if len(names) > MAX_ATTACHMENTS:
        problems.append(f"it has {len(names)} attachments: the first {MAX_ATTACHMENTS} are read")
    for name in names[:MAX_ATTACHMENTS]:
        inside = (*where, name)
        properties = Properties(_properties(ole, tree, inside, _SUBOBJECT, problems), codec)
        embedded = None
        method = properties.integer(0x3705)
        if method == ATTACH_EMBEDDED_MSG and _EMBEDDED in tree.children.get(inside, ()):
            if depth >= MAX_DEPTH:
                problems.append(f"a message embedded {depth + 1} deep (bound: {MAX_DEPTH}): not read")
            else:
                embedded = _message(ole, tree, (*inside, _EMBEDDED), _EMBEDDED_HEADER, depth + 1)
        attachments.append(MapiAttachment(properties, embedded))
    return MapiMessage(Properties(values, codec), tuple(attachments), tuple(problems))


def _properties(ole: Any, tree: _Tree, where: tuple[str, ...], header: int, problems: list[str]) -> dict[int, bytes]:
    """The properties of the object stored at ``where``: the fixed-size ones of its properties
    stream, then each variable-size one of its own stream."""
    values: dict[int, bytes] = {}
    names = tree.children.get(where, ())
    if PROPERTIES in names:
        stream = _stream(ole, tree, (*where, PROPERTIES), problems)
        if stream is not None:
            end = len(stream) - (len(stream) - header) % 16
            for at in range(header, end, 16):
                property_tag, _flags = struct.unpack_from("<II", stream, at)
                if property_tag & 0xFFFF not in _VARIABLE and not property_tag & 0x1000:
                    values[property_tag] = stream[at + 8:at + 16]
    for name in names:
        match = _SUBSTORAGE.match(name)
        if match is None:
            continue
        property_tag = int(match.group(1), 16)
        if property_tag & 0xFFFF in (PT_STRING8, PT_UNICODE, PT_BINARY) and property_tag >> 16 in WANTED:
            value = _stream(ole, tree, (*where, name), problems)
            if value is not None:
                values[property_tag] = value
    return values


def _stream(ole: Any, tree: _Tree, path: tuple[str, ...], problems: list[str]) -> bytes | None:
    """A stream's bytes; None, and the problem said, when the Compound File cannot give them."""
    try:
        size = ole.get_size(list(path))
        if size > tree.size:
            problems.append(f"its stream {'/'.join(path)} says it holds {size} bytes, more than the whole file's "
                            f"{tree.size} (its chain of sectors loops): passed over")
            return None
        return bytes(ole.openstream(list(path)).read())
    except (OSError, ValueError, IndexError, struct.error, RecursionError) as exc:
        problems.append(f"its stream {'/'.join(path)} cannot be read ({exc}): passed over")
        return None


def _integer(value: bytes | None) -> int | None:
    return None if value is None or len(value) < 4 else int.from_bytes(value[:4], "little")
