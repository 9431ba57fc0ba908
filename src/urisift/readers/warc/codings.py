"""A record's payload with its transfer and content codings undone
(RFC 9112 §6.1, RFC 9110 §8.4), every byte decoded kept when one breaks."""

from __future__ import annotations

import io
import zlib
from typing import Any, BinaryIO

from .unit import printable

# RFC 9110 §8.4.1: the content codings undone here (x-gzip is gzip, §8.4.1.3)
_CODINGS = {"gzip": "gzip", "x-gzip": "gzip", "deflate": "deflate", "br": "br"}


def _codings(value: str | None) -> list[str]:
    """The codings a Transfer-Encoding or Content-Encoding lists, in the order applied."""
    if not value:
        return []
    return [c for c in (part.strip().lower() for part in value.split(",")) if c and c != "identity"]


def decoded(record: Any) -> tuple[BinaryIO, str | None]:
    """The record's payload with its codings undone, and what could not be.

    RFC 9112 §6.1: a Transfer-Encoding lists the codings applied to the
    content in order (``gzip, chunked``); undo each, last first, then the
    Content-Encoding's (RFC 9110 §8.4), last first too.  An unknown coding
    stops there: the payload is left as it is from that coding on."""
    stream: Any = record.raw_stream
    http = record.http_headers
    if http is None:
        return stream, None
    steps = ([("Transfer-Encoding", c) for c in reversed(_codings(http.get_header("Transfer-Encoding")))]
             + [("Content-Encoding", c) for c in reversed(_codings(http.get_header("Content-Encoding")))])
    for name, coding in steps:
        if name == "Transfer-Encoding" and coding == "chunked":
            from warcio.bufferedreaders import ChunkedDataReader  # (warcio: imported where it is needed)

            stream = ChunkedDataReader(stream)  # a body not chunked after all is read as it is (warcio)
        elif coding in _CODINGS and (coding != "br" or _brotli() is not None):
            stream = _Decoding(stream, _CODINGS[coding], name)
        else:
            return stream, (f"its {name} {printable(coding)!r} is not a coding this reader knows: "
                            "the payload is scanned as it is from there")
    return stream, None


def inflating(stream: Any) -> bool:
    """Whether a payload :func:`decoded` gives is inflated as it is read (its
    last coding undone is gzip, deflate or br), rather than as it is stored."""
    return isinstance(stream, _Decoding)


def _brotli() -> Any:
    try:
        import brotli
    except ImportError:  # a dependency; without it, br is a coding this reader does not know
        return None
    return brotli


class _Broken(Exception):
    """A payload's coding is broken past the bytes already given."""


class _Decoding(io.RawIOBase):
    """One content or transfer coding undone (gzip RFC 1952, deflate RFC
    1950 — or the raw RFC 1951 some servers send —, br RFC 7932), every byte
    decoded given before a problem is raised as :class:`_Broken`: a corrupt
    or truncated body keeps what came before the break.  A body that is not
    in its coding at all (the label is wrong) is read as it is, as browsers do."""

    def __init__(self, inner: Any, coding: str, header: str) -> None:
        self.inner = inner
        self.coding = coding
        self.header = header
        self.decoder: Any = None
        self.pending = b""
        self.out = b""
        self.ended = False
        self.error: str | None = None
        self.plain = False  # not in its coding: passed through
        self.fed = 0  # coded bytes given to the decoder

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        while not self.out and not self.ended:
            self.out = self._step()
        if not self.out and self.error is not None:
            error, self.error = self.error, None
            raise _Broken(error)
        n = min(len(buffer), len(self.out))
        buffer[:n] = self.out[:n]
        self.out = self.out[n:]
        return n

    def _step(self) -> bytes:
        data = self.pending or self.inner.read(1 << 14)
        self.pending = b""
        if self.plain:
            self.ended = not data
            return bytes(data)
        if self.decoder is None:
            if not data:
                self.ended = True
                return b""
            self.decoder = self._new(data)
        if self.decoder.eof if self.coding != "br" else self.decoder.is_finished():
            self.ended = True  # what follows the end of the coded data is not content
            return b""
        if not data:
            rest = b"" if self.coding == "br" else self.decoder.flush()
            if self.coding != "br" and self.decoder.eof:
                return bytes(rest)
            return self._fail(f"its {self.coding} data ends before its end: truncated", rest)
        first = not self.fed
        self.fed += len(data)
        if self.coding == "br":
            try:
                return bytes(self.decoder.process(data))
            except Exception as exc:  # noqa: BLE001 - brotli.error, whatever the binding calls it
                return self._broken(first, data, b"", str(exc) or type(exc).__name__)
        saved = self.decoder.copy()
        try:
            out: bytes = self.decoder.decompress(data, 1 << 16)
        except zlib.error as exc:
            # the call's output is lost with the error: replay it a byte at a
            # time from the state before it, to give every byte before the error
            good = []
            try:
                for i in range(len(data)):
                    good.append(saved.decompress(data[i: i + 1]))
            except zlib.error:
                pass
            return self._broken(first, data, b"".join(good), str(exc))
        self.pending = self.decoder.unconsumed_tail
        return out

    def _new(self, data: bytes) -> Any:
        if self.coding == "br":
            return _brotli().Decompressor()
        if self.coding == "gzip":
            return zlib.decompressobj(31)
        # RFC 9110 §8.4.1.2: deflate is the zlib format; a raw deflate stream
        # has no zlib header (CMF 8, and CMF·256+FLG a multiple of 31)
        zlib_header = len(data) >= 2 and data[0] & 0x0F == 8 and (data[0] << 8 | data[1]) % 31 == 0
        return zlib.decompressobj(15 if zlib_header else -15)

    def _broken(self, first: bool, data: bytes, good: bytes, reason: str) -> bytes:
        if first and not good:
            self.plain = True  # not in its coding from its first byte: the label is wrong
            return bytes(data)
        return self._fail(reason, good)

    def _fail(self, reason: str, good: bytes) -> bytes:
        """``good`` is given, then the problem raised."""
        self.ended = True
        self.error = f"its {self.header} {self.coding} could not be undone: {reason}"
        return bytes(good)


class Payload(io.RawIOBase):
    """A record's decoded payload that ends, instead of raising, where it
    cannot be decoded (a broken chunk, a corrupt gzip body): the problem is
    kept for the reader to report, and what came before is scanned."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.problem: str | None = None
        self.done = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        if self.problem is not None and self.inner is None:
            return 0
        try:
            data = self.inner.read(len(buffer))
        except Exception as exc:  # noqa: BLE001 - whatever a broken body makes warcio or zlib raise
            reason = str(exc) if isinstance(exc, _Broken) else f"{type(exc).__name__}: {exc}"
            self.problem = (f"the payload could not be decoded past byte {self.done} ({printable(reason)}); "
                            "what came before was scanned")
            self.inner = None
            return 0
        n = len(data)
        buffer[:n] = data
        self.done += n
        return n
