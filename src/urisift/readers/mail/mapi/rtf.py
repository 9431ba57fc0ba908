"""An Outlook message's RTF body → the HTML or the text it holds (MS-OXRTFCP, MS-OXRTFEX, RTF 1.9.1).

Outlook keeps a message's body as compressed RTF (PidTagRtfCompressed, MS-OXRTFCP §2.1.3): a
16-byte header (its size, the RTF's size, ``LZFu`` or ``MELA``, a CRC-32) before the LZ77 of the
RTF.  It is decompressed here, checked against its CRC first (compressed-rtf, the one library, took
a third of a ``.msg``'s whole scan, twice this one's time, and raised bare ``Exception``); a header
that lies, or a CRC that does not match, is a problem said and the body is not read (the other
renditions are).

An RTF body written from HTML (``\\fromhtml1`` in its header, MS-OXRTFEX §2.1.3.1.1) holds the
HTML whole: the tags in ``{\\*\\htmltagN …}`` groups, the text between them, and RTF of its own
marked off by ``\\htmlrtf … \\htmlrtf0``.  :func:`rtf_content` de-encapsulates it (§2.2.3.2):
the tags' groups and the text outside ``\\htmlrtf`` are the HTML; ``\\par`` is a line break and
``\\tab`` a tab; ``\\'hh`` is a byte in the header's ``\\ansicpgN`` code page, ``\\uN`` a
character (its ``\\ucN`` fallback characters skipped).  ``{\\*\\mhtmltagN …}`` holds the same
tag with its URL rewritten for MHTML (a ``cid:``), and is passed over for the original.

Other RTF gives its text, with each ``HYPERLINK`` field's target (RTF 1.9.1, "Fields") written
as ``<URL>`` before the field's visible text, so that the text scanner finds the link the field
makes.  One pass over the tokens, with a list for the groups: RTF nested 100,000 deep is read
as any other.
"""

from __future__ import annotations

import functools
import re
import struct
import zlib
from dataclasses import dataclass

from ....uri import patterns

#: the two compression types of MS-OXRTFCP §2.1.3.1.1
_COMPRESSED, _UNCOMPRESSED = b"LZFu", b"MELA"
# RTF 1.9.1: a control word (letters, an optional signed parameter, one space taken as its
# delimiter), a hex escape, a control symbol, a group's brace, a run of text; CR and LF are no text
_TOKEN = (rb"\\([a-zA-Z]{1,32})(-?\d{1,10})?(?: |(?=[^a-zA-Z]|\Z))|\\'([0-9a-fA-F]{2})|\\(.?)|([{}])"
          rb"|([^\\{}\r\n]+)|[\r\n]+")
# An HTML tag's group whole, ``{\*\htmltagN …}`` (or ``{\*\mhtmltagN …}``, passed over), when it holds
# nothing but text, hex escapes, \par, \line, \tab and the escaped \ { }: in a Word message's encapsulated
# HTML these groups are nearly all of the body (its style sheet), and one match takes what was dozens of
# tokens.  Any other group (nested, another control word) fails here and is read token by token; the
# repeats are atomic (uri.patterns), so that a failure costs no backtracking.
_TAG_GROUP = (rb"\{\\\*\\(m?)htmltag(?:\d{1,10})?(?: |(?=[^a-zA-Z0-9-]))"
              rb"((?>(?:[^\\{}]++|\\[\\{}]|\\(?:par|line|tab)(?: |(?![a-zA-Z0-9-]))|\\'[0-9a-fA-F]{2})*))\}")
_SCAN = patterns.compile(_TAG_GROUP + b"|" + _TOKEN, re.DOTALL)
#: the same tokens with no group read whole (never matching its first branch): what a group read whole must equal
_TOKENS_ONLY = patterns.compile(rb"(?!)(m?)()|" + _TOKEN, re.DOTALL)
# inside a tag's group: what ends a run of bytes decoded together (an emitted character, as in the loop below)
_TAG_BREAK = re.compile(rb"\\(?:(par|line|tab)(?: |(?![a-zA-Z0-9-]))|([\\{}]))")
_HEX = re.compile(rb"\\'([0-9a-fA-F]{2})")
# the byte after each backslash of a tag's group; a NUL and a SOH there stand in for a line break and a backslash
_ESCAPED = re.compile(rb"\\(.)", re.DOTALL)
#: a tag's escapes by the byte after their backslash, and what each stands for (``\par `` takes its delimiter)
_TAG_ESCAPES = ((b"\\", ((b"\\\\", b"\x01"),)), (b"p", ((b"\\par ", b"\x00"), (b"\\par", b"\x00"))),
                (b"l", ((b"\\line ", b"\x00"), (b"\\line", b"\x00"))), (b"t", ((b"\\tab ", b"\t"), (b"\\tab", b"\t"))),
                (b"{", ((b"\\{", b"{"),)), (b"}", ((b"\\}", b"}"),)))
#: destinations whose text is no part of the body (RTF 1.9.1: the header's tables, pictures, objects,
#: document information); any other destination marked ``\*`` is passed over too
_SKIPPED = frozenset({b"fonttbl", b"colortbl", b"stylesheet", b"info", b"pict", b"object", b"listtable",
                      b"listoverridetable", b"revtbl", b"rsidtbl", b"generator", b"xmlnstbl", b"themedata",
                      b"colorschememapping", b"latentstyles", b"datastore", b"filetbl", b"header", b"footer",
                      b"headerl", b"headerr", b"footerl", b"footerr", b"pntext", b"pntxta", b"pntxtb", b"mhtmltag",
                      b"bkmkstart", b"bkmkend", b"xe", b"tc", b"nonshppict", b"objdata", b"objclass"})
#: control symbols that stand for a character
_SYMBOLS = {b"\\": "\\", b"{": "{", b"}": "}", b"~": "\u00a0", b"_": "\u2011", b"-": "", b"|": "", b":": ""}
# a field instruction's hyperlink (RTF 1.9.1 "Fields"; Word's field codes: HYPERLINK "url" \l "anchor")
_HYPERLINK = re.compile(r'\s*HYPERLINK\s+(?:"([^"]*)"|(\S+))?(?:.*?\\l\s+"([^"]*)")?', re.DOTALL)


@dataclass(frozen=True, slots=True)
class RtfContent:
    """What an RTF body holds: HTML it encapsulates (``html``), else its text; the code page it was read in."""

    text: str
    html: bool
    codec: str


class TooLarge(ValueError):
    """Compressed RTF whose header says it inflates past what a body may be held."""


def decompressed(data: bytes, limit: int | None = None) -> bytes:
    """The RTF of a PidTagRtfCompressed value (MS-OXRTFCP §2.1.3.1), at most as many bytes as its
    header's size says.  Raises ValueError, saying what is wrong, for a header that lies or a CRC that
    does not match; :class:`TooLarge` for one that says more than ``limit`` bytes (the body is held
    whole: LZFu inflates up to eight times, and a 64 MB message would make 512 MB of RTF)."""
    if len(data) < 16:
        raise ValueError(f"{len(data)} bytes: shorter than the 16-byte header of compressed RTF")
    size, raw_size, kind, _crc = struct.unpack_from("<II4sI", data)
    if kind not in (_COMPRESSED, _UNCOMPRESSED):
        raise ValueError(f"its compression type is {kind!r}, neither LZFu nor MELA")
    if size - 12 > len(data) - 16:
        raise ValueError(f"its header says {size - 12} bytes of compressed RTF follow, and {len(data) - 16} do")
    if limit is not None and raw_size > limit:
        raise TooLarge(f"its header says it inflates to {raw_size} bytes, more than a body may be held ({limit})")
    if kind == _UNCOMPRESSED:
        return data[16:16 + min(raw_size, size - 12)]
    body = data[16:16 + size - 12]
    crc = zlib.crc32(body, 0xFFFFFFFF) ^ 0xFFFFFFFF  # §2.1.3.2: CRC-32 from 0, no final XOR (zlib's, undone)
    if crc != _crc:
        raise ValueError(f"its CRC is 0x{_crc:08X}, and its bytes' is 0x{crc:08X} (MS-OXRTFCP §2.1.3.2)")
    return _lzfu(body, raw_size)


#: the dictionary's first 207 bytes (MS-OXRTFCP §2.1.2.1): the RTF every compressed body is likely to start with
_PREBUF = (b"{\\rtf1\\ansi\\mac\\deff0\\deftab720{\\fonttbl;}{\\f0\\fnil \\froman \\fswiss \\fmodern \\fscript "
           b"\\fdecor MS Sans SerifSymbolArialTimes New RomanCourier{\\colortbl\\red0\\green0\\blue0\r\n\\par "
           b"\\pard\\plain\\f0\\fs20\\b\\i\\u\\tab\\tx")


def _lzfu(body: bytes, size: int) -> bytes:
    """LZFu decompression (MS-OXRTFCP §2.1.3.1.2): each control byte says, bit by bit from the lowest,
    whether a literal byte or a 2-byte reference (a 12-bit offset into the 4,096-byte dictionary, a 4-bit
    length less 2) follows; the reference to where the next byte would be written ends the stream.  The
    output stops at ``size``, the header's (a stream that would make more is cut there)."""
    window = bytearray(4096)
    window[:len(_PREBUF)] = _PREBUF
    write = len(_PREBUF)
    out = bytearray()
    at, end = 0, len(body)
    while at < end and len(out) < size:
        control = body[at]
        at += 1
        if not control and at + 8 <= end and write + 8 <= 4096:
            # eight literal bytes (the common case in text): one slice, where byte by byte is the same
            literal = body[at:at + 8]
            at += 8
            out += literal
            window[write:write + 8] = literal
            write = (write + 8) & 0xFFF
            continue
        for bit in range(8):
            if at >= end:
                break
            if not control >> bit & 1:
                byte = body[at]
                at += 1
                out.append(byte)
                window[write] = byte
                write = (write + 1) & 0xFFF
                continue
            if at + 1 >= end:
                at = end
                break
            token = body[at] << 8 | body[at + 1]
            at += 2
            offset, length = token >> 4, (token & 0xF) + 2
            if offset == write:
                return bytes(out[:size])
            if offset + length <= write or (write + length <= offset and offset + length <= 4096):
                if write + length <= 4096:
                    # the bytes read are none of those written, and neither run wraps: slices, as above
                    copied = window[offset:offset + length]
                    out += copied
                    window[write:write + length] = copied
                    write = (write + length) & 0xFFF
                    continue
            for step in range(length):
                byte = window[(offset + step) & 0xFFF]
                out.append(byte)
                window[write] = byte
                write = (write + 1) & 0xFFF
    return bytes(out[:size])


class _Group:
    """A group's state (RTF 1.9.1: a group inherits its parent's, and gets it back on leaving)."""

    __slots__ = ("field", "htmlrtf", "skip", "tag", "uc")

    def __init__(self, skip: bool = False, htmlrtf: bool = False, tag: bool = False, uc: int = 1,
                 field: bool = False) -> None:
        self.skip, self.htmlrtf, self.tag, self.uc, self.field = skip, htmlrtf, tag, uc, field

    def copy(self) -> _Group:
        return _Group(self.skip, self.htmlrtf, self.tag, self.uc, self.field)


def rtf_content(rtf: bytes) -> RtfContent:
    """The HTML an RTF body encapsulates, else its text (see the module doc)."""
    return _read(rtf, _SCAN)


def _read(rtf: bytes, scan: re.Pattern[bytes]) -> RtfContent:
    codec = "cp1252"
    ascii_kept = True  # the code page decodes ASCII bytes as ASCII: then ASCII's own decoder, many times faster
    html = False
    out: list[str] = []
    instruction: list[str] = []  # the text of the field instruction being read
    pending = bytearray()  # bytes of text not yet decoded (a DBCS character's two \'hh escapes belong together)
    group = _Group()
    stack: list[_Group] = []
    fresh = starred = False  # at a group's first token; after its \*
    skipping = 0  # fallback characters of a \uN still to skip

    def flush() -> None:
        if pending:
            (instruction if group.field else out).append(
                pending.decode("ascii") if ascii_kept and pending.isascii() else pending.decode(codec, "replace"))
            pending.clear()

    def emit(text: str) -> None:
        flush()
        (instruction if group.field else out).append(text)

    def shown() -> bool:
        # what goes to the body: not in a passed-over destination, nor RTF of its own in encapsulated HTML
        return not group.skip and (group.tag or not group.htmlrtf)

    for match in scan.finditer(rtf):
        mhtml, tagged, word, parameter, hexed, symbol, brace, run = match.groups()
        if tagged is not None:
            # a tag's group read whole: what its tokens would do, its braces flushing and leaving the state as it was
            flush()
            fresh = starred = False
            if not group.skip and not mhtml:
                text, skipping = _tag_text(tagged, codec, ascii_kept, "\r\n" if html else "\n", skipping)
                (instruction if group.field else out).append(text)
            continue
        if brace is not None:
            flush()
            if brace == b"{":
                stack.append(group)
                group = group.copy()
                fresh, starred = True, False
            else:
                if group.field and stack and not stack[-1].field:
                    _hyperlink("".join(instruction), emit_to=out, html=html)
                    instruction.clear()
                group = stack.pop() if stack else _Group()
                fresh = starred = False
            continue
        if symbol == b"*" and fresh:
            starred = True
            continue
        if word is not None:
            first, fresh = fresh, False
            if first and not group.skip:
                if word == b"fldinst":
                    group.field = True
                    continue
                if word == b"htmltag":
                    group.tag = True
                    continue
                if word in _SKIPPED or starred:
                    group.skip = True
                    continue
            if group.skip:
                continue
            if word == b"htmlrtf":
                group.htmlrtf = parameter != b"0"
            elif word == b"fromhtml":
                html = True
            elif word == b"ansicpg" and parameter is not None:
                codec = _codec(int(parameter)) or codec
                ascii_kept = _keeps_ascii(codec)
            elif word == b"uc" and parameter is not None:
                group.uc = max(0, int(parameter))
            elif word == b"u" and parameter is not None:
                if shown() or group.field:
                    value = int(parameter)
                    emit(chr(value + 0x10000 if value < 0 else value) if -0x8000 <= value < 0x110000 else "\ufffd")
                skipping = group.uc
            elif word in (b"par", b"line") and (shown() or group.field):
                emit("\r\n" if html else "\n")
            elif word == b"tab" and (shown() or group.field):
                emit("\t")
            continue
        fresh = False
        if group.skip:
            continue
        if hexed is not None:
            if skipping:
                skipping -= 1
            elif shown() or group.field:
                pending.append(int(hexed, 16))
        elif symbol is not None:
            if symbol in (b"\n", b"\r") and (shown() or group.field):
                emit("\r\n" if html else "\n")  # a backslash before a line break is \par
            elif symbol in _SYMBOLS and (shown() or group.field):
                if skipping:
                    skipping -= 1
                else:
                    emit(_SYMBOLS[symbol])
        elif run is not None and (shown() or group.field):
            if skipping:
                cut = min(skipping, len(run))
                skipping -= cut
                run = run[cut:]
            pending.extend(run)
    flush()
    return RtfContent("".join(out), html, codec)


def _tag_text(tagged: bytes, codec: str, ascii_kept: bool, line_break: str, skipping: int) -> tuple[str, int]:
    """The text of a tag's group (its bytes after the control word), as the token loop reads it: bytes decoded
    together up to each character emitted alone; ``skipping`` fallback characters of a ``\\uN`` passed over
    first (a byte, a hex escape or an escaped brace each one).  With ``ascii_kept`` (the codec decodes ASCII as
    ASCII), a run of ASCII takes ASCII's own decoder.  Returns the text and what is left to skip."""
    if not skipping and ascii_kept and tagged.isascii() and b"\x00" not in tagged and b"\x01" not in tagged:
        escaped = set(_ESCAPED.findall(tagged)) if b"\\" in tagged else set()
        if b"'" not in escaped:  # a hex escape is a byte of the code page: read below
            # each backslash starts one of the escapes below; an escaped backslash, replaced first, pairs the
            # backslashes of a run from its left as reading does, and none is written out with a backslash
            # (it stands as SOH until the end), so that replacing them one kind after another is reading them
            # left to right.  A line break stands as NUL until the CR and LF bytes (no text) are dropped.
            for after, replacements in _TAG_ESCAPES:
                if after in escaped:
                    for escape, character in replacements:
                        tagged = tagged.replace(escape, character)
            whole = tagged.translate(None, b"\r\n").decode("ascii")
            if "\x00" in whole:
                whole = whole.replace("\x00", line_break)
            return (whole.replace("\x01", "\\") if "\x01" in whole else whole), 0
    pieces = _TAG_BREAK.split(tagged)
    text: list[str] = []
    for at in range(0, len(pieces), 3):
        chunk = pieces[at].translate(None, b"\r\n")
        while skipping and chunk:
            skipping -= 1
            chunk = chunk[4:] if chunk.startswith(b"\\'") else chunk[1:]
        if chunk:
            if b"\\" in chunk:
                chunk = _HEX.sub(_hex_byte, chunk)
            text.append(chunk.decode("ascii") if ascii_kept and chunk.isascii() else chunk.decode(codec, "replace"))
        if at + 1 < len(pieces):
            word, symbol = pieces[at + 1], pieces[at + 2]
            if word is not None:
                text.append("\t" if word == b"tab" else line_break)
            elif skipping:
                skipping -= 1
            else:
                text.append(symbol.decode("ascii"))
    return "".join(text), skipping


def _hex_byte(match: re.Match[bytes]) -> bytes:
    return bytes((int(match.group(1), 16),))


def _hyperlink(instruction: str, *, emit_to: list[str], html: bool) -> None:
    """A field instruction read: a ``HYPERLINK`` one's target written as ``<URL>`` into plain text
    (in encapsulated HTML, the link is the ``<a>`` tag's, already there)."""
    match = _HYPERLINK.match(instruction)
    if html or match is None or not (match.group(1) or match.group(2) or match.group(3)):
        return
    target = (match.group(1) or match.group(2) or "") + (f"#{match.group(3)}" if match.group(3) else "")
    emit_to.append(f" <{target}> ")


@functools.lru_cache(maxsize=64)
def _keeps_ascii(codec: str) -> bool:
    """Whether ``codec`` decodes each ASCII byte as that character (every Windows ANSI code page does;
    EBCDIC and UTF-16 do not)."""
    ascii = bytes(range(128))
    return ascii.decode(codec, "replace") == ascii.decode("ascii")


def _codec(code_page: int) -> str | None:
    from .model import codec_of

    return codec_of(code_page)
