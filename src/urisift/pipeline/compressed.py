"""Decompressing an input (gzip, bzip2, xz) without losing what was decoded
before a corruption or a truncation: the decoders are driven
here, member by member and stream by stream; what went wrong is a
``corrupt-compression`` defect."""

from __future__ import annotations

import bz2
import io
import lzma
import os
import zlib
from typing import BinaryIO

from ..model import Defect, DefectKind, Origin
from ..stages.sniff import WARC_STARTS

#: the bytes a gzip member is looked into, to tell what it holds
_SNIFF_SIZE = 4096

#: the compressions an input is recognized in, by its first bytes (whatever
#: its name): magic, method, the suffix a name has for it
MAGIC = (
    (b"\x1f\x8b", "gzip", ".gz"),
    (b"BZh", "bzip2", ".bz2"),
    (b"\xfd7zXZ\x00", "xz", ".xz"),
)


#: compressed bytes given to the decoder at a time.  An error loses the
#: output of the call that met it: a gzip decoder is copied before each call
#: and the failing one replayed a byte at a time, but bzip2 and xz decoders
#: cannot be copied, so theirs get small calls, to lose little
_FEED = {"gzip": 1 << 16, "bzip2": 1 << 13, "xz": 1 << 13}
#: decompressed bytes asked of the decoder at a time: bounds memory whatever the ratio
_OUT = 1 << 16


def _decoder(method: str) -> zlib._Decompress | bz2.BZ2Decompressor | lzma.LZMADecompressor:
    """A decoder for one member (gzip, RFC 1952 §2.2) or stream (bzip2, xz)."""
    if method == "gzip":
        return zlib.decompressobj(31)  # 16 + 15: a gzip header and trailer, the largest window
    if method == "bzip2":
        return bz2.BZ2Decompressor()
    return lzma.LZMADecompressor()


class Guarded(io.RawIOBase):
    """A decompressing stream that ends, instead of raising, where the
    compressed data is corrupt or truncated; the problem is kept as a defect,
    and every byte decoded before it is read first, so it is still scanned.

    The decoders are driven here, not through ``GzipFile``, ``BZ2File`` or
    ``LZMAFile``: those raise from a ``read()`` whose output is then lost, so
    a small truncated file gave nothing.  Several members (gzip, RFC 1952
    §2.2) or streams (bzip2, xz: ``cat a.xz b.xz``) follow one another; zero
    bytes between them are padding (as ``gzip`` and xz's stream padding have
    them); anything else after a complete one is a defect."""

    def __init__(self, under: BinaryIO, method: str, origin: Origin) -> None:
        self.under = under  # the compressed stream; closed with this one
        self.method = method
        self.origin = origin
        self.defects: list[Defect] = []
        self.done = 0  # decompressed bytes given out
        self._decoder = _decoder(method)
        self._pending = b""  # compressed bytes not yet given to the decoder
        self._consumed = 0  # compressed bytes read from ``under``, for the defect
        self._out = b""
        self._ended = False

    def readable(self) -> bool:
        return True

    def close(self) -> None:
        if not self.closed:
            self.under.close()
        super().close()

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        while not self._out and not self._ended:
            self._out = self._step()
        n = min(len(buffer), len(self._out))
        buffer[:n] = self._out[:n]
        self._out = self._out[n:]
        self.done += n
        return n

    def _fill(self) -> bool:
        """More compressed input in ``_pending``; False at the end of it."""
        data = self.under.read(_FEED[self.method])
        self._consumed += len(data)
        self._pending += data
        return bool(data)

    def _step(self) -> bytes:
        decoder = self._decoder
        if decoder.eof:
            # the member or stream is complete: padding, the next one, the end, or junk
            if self.method != "gzip":  # (zlib's unused data was taken when it ended)
                self._pending = decoder.unused_data + self._pending
            while True:
                rest = self._pending.lstrip(b"\0")
                if rest or not self._fill():
                    break
                self._pending = b""
            if not rest:
                self._ended = True
                return b""
            magic = next(m for m, method, _ in MAGIC if method == self.method)
            if not rest.startswith(magic[: len(rest)]):
                return self._fail(f"data after the end of the {self.method} stream is not another one")
            self._pending = rest
            self._decoder = decoder = _decoder(self.method)
        if not isinstance(decoder, (bz2.BZ2Decompressor, lzma.LZMADecompressor)):
            return self._step_zlib(decoder)
        if decoder.needs_input:
            if not self._pending and not self._fill():
                return self._truncated()
            data, self._pending = self._pending, b""
        else:
            data = b""  # the decoder still holds input: ask it for more output
        try:
            return decoder.decompress(data, _OUT)
        except (OSError, EOFError, lzma.LZMAError) as exc:
            return self._fail(str(exc) or type(exc).__name__)

    def _step_zlib(self, decoder: zlib._Decompress) -> bytes:
        if not self._pending and not self._fill():
            try:
                rest = decoder.flush()  # what the decoder holds back of the input it had
            except zlib.error:
                rest = b""
            return rest if rest or decoder.eof else self._truncated()
        data = self._pending
        saved = decoder.copy()
        try:
            out = decoder.decompress(data, _OUT)
        except zlib.error as exc:
            # the call's output is lost with the error: replay it a byte at a
            # time from the saved state, to give every byte before the error
            return self._replay(saved, data, str(exc))
        self._pending = decoder.unused_data if decoder.eof else decoder.unconsumed_tail
        return out

    def _replay(self, decoder: zlib._Decompress, data: bytes, reason: str) -> bytes:
        out = []
        try:
            for i in range(len(data)):
                out.append(decoder.decompress(data[i: i + 1]))
                while decoder.unconsumed_tail:  # (no max_length here: never)
                    out.append(decoder.decompress(decoder.unconsumed_tail))
        except zlib.error:
            pass
        self._out = b"".join(out)
        self._fail(reason)
        return self._out

    def _truncated(self) -> bytes:
        return self._fail(f"the {self.method} stream ends before its end marker: truncated")

    def _fail(self, reason: str) -> bytes:
        # the bytes given out, plus those already decoded and waiting, were scanned
        self.defects.append(Defect(
            DefectKind.CORRUPT_COMPRESSION,
            f"{self.method} data is corrupt or truncated ({reason}); the {self.done + len(self._out)} bytes "
            "before it were scanned", self.origin, self.done + len(self._out)))
        self._ended = True
        return b""


# -- a .warc.gz whose first member is corrupt -------------------------------------------



def _member(data: bytes, at: int) -> bytes | None:
    """The first bytes of the gzip member at ``data[at:]``: None when it is
    corrupt (b"" when its header alone fills the bytes there are)."""
    try:
        return zlib.decompressobj(31).decompress(memoryview(data)[at: at + _SNIFF_SIZE], 64)
    except zlib.error:
        return None


#: how far into a gzip file whose first member is corrupt the sniffer looks for a WARC record's member
_SNIFF_PAST = 1 << 20


def gzip_warc(head: bytes, raw: BinaryIO, name: str) -> tuple[bytes, bool]:
    """Whether a gzip input is a WARC or ARC file (``head`` and the bytes this
    read to decide): its first member decompresses to a WARC or ARC header.
    When that member is corrupt, the name says (``.warc.gz``, ``.arc.gz``),
    else a later member in the first megabyte that decompresses to one."""
    first = _member(head, 0)
    if first:
        return head, first.startswith(WARC_STARTS)
    base = name[:-3] if name.lower().endswith(".gz") else name
    if os.path.splitext(base)[1].lower() in (".warc", ".arc"):
        return head, True
    head += raw.read(_SNIFF_PAST - len(head))
    at = head.find(b"\x1f\x8b\x08", 1)
    for _ in range(64):  # a bound on the attempts, whatever the bytes
        if at == -1:
            break
        if (_member(head, at) or b"").startswith(WARC_STARTS):
            return head, True
        at = head.find(b"\x1f\x8b\x08", at + 1)
    return head, False
