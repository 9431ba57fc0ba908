"""warcio's record iterator, made linear and quiet for hostile input."""

from __future__ import annotations

import contextlib
import functools
import io
from collections.abc import Iterator
from typing import Any, BinaryIO

from ...uri import patterns
from .making import Fields


class NoTarget(Exception):
    """A record of a type that must name its target has none."""


@functools.cache
def header_parser_class() -> Any:
    """warcio's parser of a status line and its header fields, with
    continuation lines (RFC 9112 §5.2 obs-fold) joined once, not with
    ``+=`` each: 10 MB of them took ten minutes.  The WARC reader's, and
    the fast path's for the HTTP headers of the records it reads (what it
    reads is what warcio reads, field for field)."""
    from warcio.statusandheaders import StatusAndHeaders, StatusAndHeadersParser, StatusAndHeadersParserException

    class HeaderParser(StatusAndHeadersParser):  # type: ignore[misc]
        def parse(self, stream: Any, full_statusline: bytes | None = None) -> Any:
            total = 0  # what was read, counted as warcio counts it (decoded characters)

            def line(raw: bytes) -> str:
                nonlocal total
                # warcio's decode_header: UTF-8, else ISO-8859-1 (a call less a line)
                try:
                    text = raw.decode("utf-8")
                except UnicodeDecodeError:
                    text = raw.decode("iso-8859-1")
                total += len(text)
                return text.rstrip()

            first: str = self.decode_header(stream.readline() if full_statusline is None else full_statusline)
            statusline = first.rstrip()
            total = len(first)
            if total == 0:
                raise EOFError()
            if not statusline:
                return StatusAndHeaders(statusline=statusline, headers=[], protocol="", total_len=total)
            if self.verify:
                protocol_status = self.split_prefix(statusline, self.statuslist)
                if not protocol_status:
                    raise StatusAndHeadersParserException(
                        f"Expected Status Line starting with {self.statuslist} - Found: {statusline}", first)
            else:
                protocol_status = statusline.split(" ", 1)
            headers = []
            current = line(stream.readline())
            while current:
                name, colon, value = current.partition(":")
                parts = [value.lstrip()] if colon else None
                following = line(stream.readline())
                while following and following.startswith((" ", "\t")):
                    if parts is not None:
                        parts.append(following)
                    following = line(stream.readline())
                if parts is not None:  # a line without a colon is no field: left out
                    headers.append((name.rstrip(" \t"), "".join(parts)))
                current = following
            return StatusAndHeaders(statusline=protocol_status[1].strip() if len(protocol_status) > 1 else "",
                                    headers=headers, protocol=protocol_status[0], total_len=total)

    return HeaderParser


@functools.cache
def http_parser() -> Any:
    """A parser of an HTTP message's status line and header fields, as
    warcio's loader has for a response record (``verify_http=False``)."""
    from warcio.recordloader import ArcWarcRecordLoader

    return header_parser_class()(ArcWarcRecordLoader.HTTP_TYPES, False)


# an HTTP header whose every line is printable ASCII, none folded or blank (a line
# starting with a space or tab would be folded, RFC 9112 §5.2; one of spaces ends it)
_PLAIN_HEAD = patterns.compile(rb"[!-~][ -~]*(?:\r\n[!-~][ -~]*)*")


def http_header(data: bytes) -> tuple[Any, int]:
    """The status line and header fields at the start of a block, read as
    :func:`http_parser` reads them (EOFError on an empty one), and where they
    end.  The common header (printable ASCII lines, CRLF, none folded) is
    split here at once; any other is read by that parser."""
    end = data.find(b"\r\n\r\n", 0, 1 << 16)
    if end > 0 and _PLAIN_HEAD.fullmatch(data, 0, end) is not None:
        status, *lines = data[:end].decode("ascii").split("\r\n")
        headers = []
        for line in lines:
            name, colon, value = line.rstrip().partition(":")
            if colon:  # (a line without a colon is no field: left out)
                headers.append((name.rstrip(" \t"), value.lstrip()))
        # warcio's statusline is what follows the protocol (HTTP/1.1), stripped
        protocol_status = status.rstrip().split(" ", 1)
        return Fields(headers, protocol_status[1].strip() if len(protocol_status) > 1 else "", end + 4), end + 4
    stream = io.BytesIO(data)
    return http_parser().parse(stream), stream.tell()


@functools.cache
def iterator_class() -> Any:
    """warcio's ``ArchiveIterator``, linear in the length of header lines
    and their number: warcio's reader grows a line with ``+=`` a 16 kB block
    at a time (a header line of 40 MB took 47 s, 10 MB 0.8 s), and its header
    parser a folded field with ``+=`` a line at a time.  Built on first use:
    warcio is a heavy import, needed only for WARC input."""
    from warcio.archiveiterator import ArchiveIterator
    from warcio.bufferedreaders import DecompressingBufferedReader
    from warcio.utils import BUFF_SIZE

    HeaderParser = header_parser_class()

    class LineReader(DecompressingBufferedReader):  # type: ignore[misc]
        def readline(self, length: int | None = None) -> bytes:
            if length == 0:
                return b""
            buff = self.buff
            if buff is not None:
                # the commonest line: whole in the block read already (a header
                # field, a status line), given without a list or a join
                first: bytes = buff.readline(length)
                if first[-1:] == b"\n":
                    return first
                if first:
                    if length:
                        length -= len(first)
                        if length <= 0:
                            return first
                    self._fillbuff()
                    if self.empty():
                        return first
                    parts = [first, self.buff.readline(length)]
                    return self._rest(parts, length)
            self._fillbuff()
            if self.empty():
                return b""
            return self._rest([self.buff.readline(length)], length)

        def _rest(self, parts: list[bytes], length: int | None) -> bytes:
            while not parts[-1].endswith(b"\n"):  # at the end of a block: the line goes on in the next
                if length:
                    length -= len(parts[-1])
                    if length <= 0:
                        break
                self._fillbuff()
                if self.empty():
                    break
                parts.append(self.buff.readline(length))
            return b"".join(parts)

    class Iterator(ArchiveIterator):  # type: ignore[misc]
        def __init__(self, stream: BinaryIO) -> None:
            super().__init__(stream, arc2warc=True)
            self.reader = LineReader(self.fh, block_size=BUFF_SIZE)  # warcio's own: nothing read yet
            self.counted = self.reader  # (warcio drops its reader when it closes: its count is kept here)
            loader = self.loader
            for name in ("warc_parser", "http_parser", "http_req_parser"):
                parser = getattr(loader, name)
                setattr(loader, name, HeaderParser(parser.statuslist, parser.verify))
            http_headers = loader.load_http_headers

            def load_http_headers(rec_type: str, uri: str | None, stream: Any, length: int | None) -> Any:
                # warcio fails with an AttributeError on a record without a target URI
                if uri is None and length and rec_type in loader.HTTP_RECORDS:
                    raise NoTarget(f"a {rec_type} record without a WARC-Target-URI, which ISO 28500 §5.14 "
                                    "requires of it")
                return http_headers(rec_type, uri, stream, length)

            loader.load_http_headers = load_http_headers
            # an ARC record has no record ID: warcio makes up a random one when it converts
            # its header to WARC's, which would make every run's records and defects differ
            made_up = loader.arc_parser._get_protocol_and_headers

            def arc_headers(headerline: str, parts: list[str]) -> tuple[str, list[tuple[str, str]]]:
                protocol, headers = made_up(headerline, parts)
                return protocol, [(name, value) for name, value in headers if name != "WARC-Record-ID"]

            loader.arc_parser._get_protocol_and_headers = arc_headers

    return Iterator


def archive_iterator(stream: BinaryIO) -> Any:
    return iterator_class()(stream)


def readable(exc: Exception) -> str:
    """What went wrong, in one printable line of reasonable length."""
    text = " ".join(str(exc).split())
    if text.startswith("Unknown archive format"):
        text = "not a WARC or ARC record here: a corrupt gzip member or a wrong Content-Length before it"
    text = "".join(c if c.isprintable() else "?" for c in text)
    if isinstance(exc, NoTarget):
        return text  # our own words
    return f"{type(exc).__name__}: {text[:200]}" if text else type(exc).__name__


def quiet(iterator: Any) -> Iterator[Any]:
    """The records of a warcio iterator, without the warnings it writes to
    standard error itself (each becomes a defect of ours instead)."""
    records = iter(iterator)
    while True:
        with contextlib.redirect_stderr(io.StringIO()):
            record = next(records, None)
        if record is None:
            return
        yield record
