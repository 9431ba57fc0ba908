"""uuencoded files inside a text part.

Before MIME, and in many clients long after, a file was sent inside the
text of a message as a uuencoded block::

    begin 644 notes.txt
    M...61 characters a line, each holding 45 bytes...
    `
    end

A block is lifted out of the text it stands in: its lines are blanked
(spaces, the line breaks kept, so every position and line number in the
rest of the text stays what it was), and the file it holds is decoded.  A
file that is text (no NUL byte in its first 4 KiB, no known binary name) is
scanned as a text of its own; an image or program is never looked at.  A
block cut short (no ``end`` line) is a defect, and what was decoded of it
is still scanned.

(``Content-Transfer-Encoding: x-uuencode`` on a whole part is undone by the
``email`` package itself; this module is for blocks written in the text.)
"""

from __future__ import annotations

import binascii
import re
from typing import NamedTuple

from ...uri import patterns

# "begin", the octal mode, the file name: the rest of the line, taken
# greedily and stripped after (a lazy name before optional blanks would
# retry the blanks at every character: quadratic on a line of spaces)
_BEGIN = patterns.compile(rb"^begin [0-7]{3,4} ([^\r\n]*)$", re.MULTILINE)
_TEXT_NAMES = patterns.compile(r"(?i)\.(?:txt|text|html?|xhtml|xml|diff|patch|c|h|cc|cpp|py|pl|pm|sh|rb|java|js|"
                         r"css|md|rst|tex|csv|tsv|json|ya?ml|ini|cfg|conf|log|eml|mbox|readme|s|asm|mk|in)$|"
                         r"^(?:readme|makefile|changelog|copying|todo)$")
_BINARY_NAMES = patterns.compile(r"(?i)\.(?:png|gif|jpe?g|bmp|tiff?|ico|zip|gz|tgz|bz2|xz|z|tar|rpm|deb|exe|dll|so|o|a|"
                           r"bin|img|iso|pdf|doc|xls|ppt|docx|xlsx|pptx|mp3|wav|au|avi|mpe?g|mov|class|jar|elf)$")

_NOT_BREAK = patterns.compile(rb"[^\r\n]")


class Block(NamedTuple):
    """One uuencoded block: the file's name, its bytes, where the block
    starts and ends in the text (bytes), and whether it was cut short."""

    name: str
    data: bytes
    start: int
    end: int
    truncated: bool

    @property
    def is_text(self) -> bool:
        """Whether the file is worth scanning: named like text, or not named
        like a binary and free of NUL bytes."""
        named_binary = _TEXT_NAMES.search(self.name) is None and _BINARY_NAMES.search(self.name) is not None
        return not named_binary and b"\x00" not in self.data[:4096]

    @property
    def is_html(self) -> bool:
        return re.search(r"(?i)\.x?html?$", self.name) is not None


def _line(line: bytes) -> bytes | None:
    """One encoded line's bytes; None when it is not a uuencoded line."""
    if not line:
        return None
    count = (line[0] - 32) & 63
    # 4 characters carry 3 bytes; writers that pad with spaces, or strip
    # trailing ones (which mail gateways did), are both read
    needed = (count * 4 + 2) // 3 + 1
    if len(line) > needed + 2 and len(line.rstrip()) > needed + 1:
        return None  # longer than its count says (one extra character is a checksum some writers add)
    body = line.ljust(needed)[:needed]
    if any(c < 32 or c > 96 for c in body):
        return None
    try:
        return binascii.a2b_uu(body)
    except binascii.Error:
        return None


def uu_blocks(text: bytes) -> list[Block]:
    """The uuencoded blocks of ``text`` (bytes of a text part), in order."""
    blocks: list[Block] = []
    position = 0
    while (m := _BEGIN.search(text, position)) is not None:
        name = m.group(1).decode("latin-1").strip()
        if not name:
            position = m.end()
            continue
        cursor = m.end() + 1 if text.startswith(b"\n", m.end()) else m.end()
        chunks: list[bytes] = []
        truncated = True
        end = cursor
        while cursor < len(text):
            stop = text.find(b"\n", cursor)
            line_end = len(text) if stop < 0 else stop
            after = len(text) if stop < 0 else stop + 1
            line = text[cursor:line_end].rstrip(b"\r")
            if line.rstrip() == b"end":
                truncated = False
                end = line_end
                break
            decoded = _line(line)
            if decoded is None:
                break  # not a block line: the block was cut short before it
            chunks.append(decoded)
            end = line_end
            cursor = after
        if not chunks:
            position = m.end()  # "begin 644 of the steps" in prose, with nothing encoded after it
            continue
        blocks.append(Block(name, b"".join(chunks), m.start(), end, truncated))
        position = end
    return blocks


def blanked(text: bytes, blocks: list[Block]) -> bytes:
    """``text`` with every block's characters but its line breaks made spaces."""
    pieces: list[bytes] = []
    upto = 0
    for block in blocks:
        pieces.append(text[upto:block.start])
        pieces.append(_NOT_BREAK.sub(b" ", text[block.start:block.end]))
        upto = block.end
    pieces.append(text[upto:])
    return b"".join(pieces)
