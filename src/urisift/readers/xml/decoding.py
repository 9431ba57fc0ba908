"""An XML document's bytes → the UTF-8 the parser is fed.

libxml2 decodes by itself only the encodings it was built with, and stops
the parse at the first byte that is not in the document's encoding: one bad
byte in a sitemap lost every URL after it, and a feed in ``IBM855`` gave
nothing.  So the document goes through the charset chain every other reader
uses (:func:`urisift.stages.charset.decode_stream`: constant memory, a bad byte is
U+FFFD and a defect naming its offset), in the order XML gives (XML 1.0
Appendix F; RFC 7303 §3): a byte-order mark, else the charset the
container declares (a MIME part's or HTTP response's ``charset``), else the
document's own XML declaration, else UTF-8 (and detection, for what is not
UTF-8 and says nothing).  The parser is then told the text is UTF-8, whatever
its declaration says.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import BinaryIO

from ...model import Charset, Defect, Origin
from ...stages.charset import decode_stream
from ...uri import patterns

# XML 1.0 §2.8 and §4.3.3: <?xml version="1.0" encoding="label" ...?>
_S = rb"[ \t\r\n]"
_LABEL = rb"([A-Za-z][\w.:-]{0,40})"
_DECLARATION = patterns.compile(rb"<\?xml" + _S + rb"+version" + _S + rb"*=" + _S
                          + rb"*(?:\"[^\"]{0,10}\"|'[^']{0,10}')"
                          + _S + rb"+encoding" + _S + rb"*=" + _S + rb"*(?:\"" + _LABEL + rb"\"|'" + _LABEL + rb"')")
# Appendix F.1: "<?xml" in UTF-16 without a byte-order mark
_UTF16 = ((b"<\x00?\x00x\x00m\x00l\x00", "utf-16le"), (b"\x00<\x00?\x00x\x00m\x00l", "utf-16be"))


def declared_encoding(sample: bytes) -> str | None:
    """The ``encoding`` of the XML declaration that opens ``sample`` (or the
    UTF-16 its first bytes are in), None when it declares none."""
    for start, label in _UTF16:
        if sample.startswith(start):
            return label
    m = _DECLARATION.match(sample)
    if m is None:
        return None
    return (m.group(1) or m.group(2)).decode("ascii")


class Utf8Feed:
    """The document as pieces of UTF-8 for the parser, decoded by the chain;
    the defects of each piece are kept in :attr:`defects` until taken."""

    def __init__(self, stream: BinaryIO, declared: str | None, origin: Origin, chunk_size: int = 1 << 16) -> None:
        choice, self._chunks = decode_stream(stream, declared=declared, sniff=declared_encoding, origin=origin,
                                             chunk_size=chunk_size)
        self.decoding = Charset(choice.name, choice.source)
        self.defects: list[Defect] = []

    def __iter__(self) -> Iterator[bytes]:
        for text, defects in self._chunks:
            self.defects.extend(defects)
            if text:
                # "surrogatepass": a lone surrogate a codec let through is the
                # parser's to refuse, with its position, not an exception here
                yield text.encode("utf-8", "surrogatepass")

    def take(self) -> list[Defect]:
        """The defects met so far, once."""
        defects, self.defects = self.defects, []
        return defects


__all__ = ["Utf8Feed", "declared_encoding"]
