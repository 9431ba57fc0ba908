"""Apple Mail's message files (``.emlx``, ``.partial.emlx``): a line holding the
message's length in bytes, the RFC 5322 message itself, then an XML property list
of Mail's own metadata (flags, dates, a conversation id), which holds no link of
the message's and is not read: its DTD's URL is no reference the message makes.

A ``.partial.emlx`` is the same file for a message whose attachments Mail keeps
beside it; its text parts are read as any message's.  A length that is not a
number, or one past the file's end, is a defect, and the message is read as far
as the file holds it."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...model import Content, Defect, DefectKind, Kind, Record, Tally, origin_with
from ...stages.options import ScanOptions

#: the first line: the message's length in bytes (Mail pads it with spaces)
_LENGTH = re.compile(rb"[ \t]*(\d{1,12})[ \t]*\r?\n")


def read_emlx(content: Content, options: ScanOptions, tally: Tally) -> Iterator[Record | Defect | Content]:
    data = content.stream().read()
    origin = content.origin
    match = _LENGTH.match(data)
    if match is None:
        yield Defect(DefectKind.BROKEN_MIME, "not an Apple Mail message file: its first line is no byte count; "
                     "read as a message", origin, 0)
        message, line = data, 1
    else:
        length = int(match.group(1))
        message = data[match.end():match.end() + length]
        line = 2
        if len(message) < length:
            yield Defect(DefectKind.BROKEN_MIME, f"its first line says the message is {length} bytes, and the file "
                         f"holds {len(message)} after it: read as far as it goes", origin, match.end())
    # the message's own lines start on the file's second line (text output's location, file_line)
    yield Content(message, Kind.MAIL, origin_with(origin, line=line), content.layer, budget=content.budget)


__all__ = ["read_emlx"]
