"""An Outlook message's compressed RTF body → its RTF (MS-OXRTFCP).

Outlook keeps a message's body as compressed RTF (PidTagRtfCompressed, MS-OXRTFCP §2.1.3): a
16-byte header (its size, the RTF's size, ``LZFu`` or ``MELA``, a CRC-32) before the LZ77 of the
RTF.  It is decompressed here, checked against its CRC first (compressed-rtf, the one library, took
a third of a ``.msg``'s whole scan, twice this one's time, and raised bare ``Exception``); a header
that lies, or a CRC that does not match, is a problem said and the body is not read (the other
renditions are).  What the RTF holds is :mod:`urisift.readers.mail.mapi.rtf`'s to read.
"""

from __future__ import annotations

import struct
import zlib

#: the two compression types of MS-OXRTFCP §2.1.3.1.1
_COMPRESSED, _UNCOMPRESSED = b"LZFu", b"MELA"


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
            if (offset + length <= write or (write + length <= offset and offset + length <= 4096)) \
                    and write + length <= 4096:
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


__all__ = ["TooLarge", "decompressed"]
