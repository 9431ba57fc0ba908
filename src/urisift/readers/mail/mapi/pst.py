"""An Outlook PST or OST file → each message it holds, read as a ``.msg`` is (MS-PST).

The file is read with libpff's binding (``pypff``, the ``pst`` extra), which gives each object's
properties as the entries of its property context (MS-PST §2.3.3): the same tags and stored
bytes a ``.msg`` file's streams hold, so that one model (:mod:`urisift.readers.mail.mapi.model`)
and one reader of it serve both.  The folder tree is walked depth first with a list, not by
recursion; each message is a document of its own, as an mbox's is, with its own budgets.  A
record names its message by the folder path and the message's identifier in ``part``
(``Inbox/Projects/2097188/html``), and by its running number in the file (``message``).

A message or folder libpff cannot read is a defect where it is, and the rest is read; a file
it cannot open at all (cut short before its root) is one defect.  Without the extra, a PST is a
``missing-extra`` defect (exit 2), as a PDF is without ``pdf``.
"""

from __future__ import annotations

import contextlib
import io
import os
import struct
from collections.abc import Iterator
from typing import Any, BinaryIO

from ....model import Content, Defect, DefectKind, Record, Tally, origin_with
from ....model.events import is_message
from ....stages.options import ScanOptions
from ....stages.streams import replayed_file
from .model import (
    DEFAULT_CODE_PAGE,
    PID_MESSAGE_CODEPAGE,
    PID_RTF_COMPRESSED,
    PT_BINARY,
    WANTED,
    MapiAttachment,
    MapiMessage,
    Properties,
    codec_of,
    tag,
)
from .reading import inside, message_items

#: folders nested deeper than this are not walked (a loop in a damaged file's hierarchy)
MAX_DEPTH = 64
#: what pypff raises on a damaged file (IOError for libpff's own errors)
_PFF_ERRORS = (OSError, ValueError, IndexError, TypeError, MemoryError, OverflowError)


def read_pst(content: Content, options: ScanOptions, tally: Tally) -> Iterator[Record | Defect | Content]:
    try:
        import pypff  # type: ignore[import-not-found]
    except ImportError:
        yield Defect(DefectKind.MISSING_EXTRA, "reading a PST needs libpff-python: pip install 'urisift[pst]'",
                     content.origin, None)
        return
    origin = content.origin
    pst = pypff.file()
    stream = _seekable(content)
    cut = _cut_short(stream)
    if cut is not None:
        yield Defect(DefectKind.BROKEN_DOCUMENT, cut, origin, None)
    try:
        path = _local_path(stream)
        if path is not None:
            pst.open(path)  # (libpff's own reads of the file: each of its reads through Python costs more)
        else:
            pst.open_file_object(stream)
        root = pst.get_root_folder()
    except _PFF_ERRORS as exc:
        yield Defect(DefectKind.BROKEN_DOCUMENT, f"the PST cannot be opened ({exc}): not read", origin, None)
        return
    documents = content.documents
    count = 0
    for folder in _folders(root):
        if isinstance(folder, str):
            yield Defect(DefectKind.BROKEN_DOCUMENT, folder, origin, None)
            continue
        handle, path, messages = folder
        if documents is not None and (count + messages <= documents[0] or count >= documents[1]):
            count += messages  # another unit's share (the planner cuts a large PST into shares of messages)
            continue
        for index in range(messages):
            count += 1
            if documents is not None and not documents[0] < count <= documents[1]:
                continue
            where = origin_with(origin, message=count)
            try:
                item = handle.get_sub_message(index)
                identifier = item.get_identifier()
                message = _message(item)
            except _PFF_ERRORS as exc:
                yield Defect(DefectKind.BROKEN_DOCUMENT, f"message {index + 1} of folder {path or '/'} cannot be read "
                             f"({exc}): passed over", where, None)
                continue
            prefix = inside(origin) + f"{path}/{identifier}/".lstrip("/")
            # each message a document of its own (ARCHITECTURE.md, Budgets), as an mbox's is
            yield from message_items(message, where, content.layer, options, tally, options.limits.budget(), prefix)
    pst.close()


def _folders(root: Any) -> Iterator[tuple[Any, str, int] | str]:
    """Each folder of the tree under ``root``, depth first, as (the folder, its path, how many messages it
    holds), and what cannot be read as a problem said; the same walk for the reader and the planner.  A
    folder's name is read when the folder is reached, and only when it holds a message or a folder: it is a
    read of the folder's own properties, and an empty folder (most of a store's are) has no use for it."""
    # (folder, its parent's path, its index there, its depth): the first folder is the file's root, whose name
    # is no folder's
    pending: list[tuple[Any, str | None, int, int]] = [(root, None, 0, 0)]
    while pending:
        folder, parent, index, depth = pending.pop()
        try:
            messages = folder.get_number_of_sub_messages()
            folders = folder.get_number_of_sub_folders()
        except _PFF_ERRORS as exc:
            try:
                named = _path(folder, parent) or "/"
            except _PFF_ERRORS:
                named = f"{index + 1} of {parent or '/'}"
            yield f"folder {named} cannot be read ({exc}): passed over"
            continue
        if not messages and not folders:
            continue
        try:
            path = _path(folder, parent)
        except _PFF_ERRORS as exc:
            yield f"folder {index + 1} of {parent or '/'} cannot be read ({exc}): passed over"
            continue
        yield folder, path, messages
        if depth >= MAX_DEPTH and folders:
            yield f"folder {path} is nested {depth} deep (bound: {MAX_DEPTH}): its folders are not walked"
            continue
        inner = []
        for at in range(folders):
            try:
                inner.append((folder.get_sub_folder(at), path, at, depth + 1))
            except _PFF_ERRORS as exc:
                yield f"folder {at + 1} of {path or '/'} cannot be read ({exc}): passed over"
        pending.extend(reversed(inner))  # the first folder is walked next


def _path(folder: Any, parent: str | None) -> str:
    """A folder's path: its parent's and its name (a ``/`` in a name written ``%2F``); the root's is ""."""
    if parent is None:
        return ""
    name = (folder.get_name() or "").replace("/", "%2F")
    return f"{parent}/{name}" if parent else name


def message_count(path: str) -> int | None:
    """How many messages the PST at ``path`` holds, by the reader's own walk (what its planner cuts into
    shares); None without the extra or for a file libpff cannot open."""
    try:
        import pypff
    except ImportError:
        return None
    pst = pypff.file()
    try:
        pst.open(path)
        return sum(folder[2] for folder in _folders(pst.get_root_folder()) if not isinstance(folder, str))
    except _PFF_ERRORS:
        return None
    finally:
        with contextlib.suppress(*_PFF_ERRORS):
            pst.close()


def _message(item: Any) -> MapiMessage:
    """A PST message as the model: its first property context's entries, and its attachments'."""
    values = _entries(item)
    code_page = values.get(tag(PID_MESSAGE_CODEPAGE, 0x0003))
    codec = codec_of(int.from_bytes(code_page[:4], "little") if code_page else DEFAULT_CODE_PAGE) or "cp1252"
    problems: list[str] = []
    attachments = []
    for index in range(item.get_number_of_attachments()):
        try:
            attachment = item.get_attachment(index)
            attachments.append(MapiAttachment(Properties(_entries(attachment), codec)))
        except _PFF_ERRORS as exc:
            problems.append(f"attachment {index + 1} cannot be read ({exc}): passed over")
    rtf = None
    if tag(PID_RTF_COMPRESSED, PT_BINARY) in values:
        try:  # decompressed by libpff (C), which checks its CRC: in a fraction of the time Python takes
            rtf = item.get_rtf_body()
        except _PFF_ERRORS as exc:
            problems.append(f"its compressed RTF (MS-OXRTFCP) cannot be read ({exc}): the other bodies are read")
            del values[tag(PID_RTF_COMPRESSED, PT_BINARY)]
    return MapiMessage(Properties(values, codec), tuple(attachments), tuple(problems),
                       rtf.rstrip(b"\x00") if isinstance(rtf, bytes) else None)


def _entries(item: Any) -> dict[int, bytes]:
    values: dict[int, bytes] = {}
    if item.get_number_of_record_sets() == 0:
        return values
    for entry in item.get_record_set(0).entries:
        if entry.get_entry_type() not in WANTED:
            continue
        data = entry.get_data()
        if data is not None:
            values[tag(entry.get_entry_type(), entry.get_value_type())] = bytes(data)
    return values


def _cut_short(stream: BinaryIO) -> str | None:
    """What the header says of a file cut short: its ibFileEof (MS-PST §2.2.2.6: at byte 184 of a
    Unicode header, 168 of an ANSI one) past the bytes there are; None for a whole file."""
    start = stream.tell()
    head = stream.read(512)
    end = stream.seek(0, io.SEEK_END) - start
    stream.seek(start)
    if len(head) < 200 or not head.startswith(b"!BDN"):
        return None
    (version,) = struct.unpack_from("<H", head, 10)
    (claimed,) = struct.unpack_from("<Q", head, 184) if version >= 23 else struct.unpack_from("<I", head, 168)
    if claimed <= end:
        return None
    return (f"the PST is cut short: its header says it is {claimed} bytes, and {end} are there (MS-PST §2.2.2.6); "
            "what is there is read")


def _seekable(content: Content) -> BinaryIO:
    """The PST's bytes as a file libpff can seek in: the file itself when it is one (a PST of many GB is
    never held), else its bytes held (an attachment's, an archive member's, standard input's)."""
    body = content.body
    if isinstance(body, str) or is_message(body):
        raise TypeError("a PST is bytes")
    if isinstance(body, bytes):
        return io.BytesIO(body)
    file = replayed_file(body)
    if file is not None:
        return file
    try:
        body.seek(0, io.SEEK_CUR)
        return body
    except (OSError, AttributeError, ValueError):
        return io.BytesIO(body.read())


def _local_path(stream: BinaryIO) -> str | None:
    """The path of ``stream`` when it is a local file opened by its name (libpff opens it itself)."""
    raw = getattr(stream, "raw", stream)
    name = getattr(raw, "name", None)
    if not isinstance(raw, io.FileIO) or not isinstance(name, str) or not os.path.isfile(name):
        return None
    return name


__all__ = ["message_count", "read_pst"]
