"""The fuzz targets (issue 20): one function a reader, each taking the bytes
of one input and scanning them through the library's public API, as a user
or the command would.

A target returns normally when the scan kept its contract, and raises when it
did not: an exception out of the scanner (the contract is that a broken input
is a :class:`~urisift.Defect` and the scan goes on), a ``scan-failed`` defect
(the command's name for the same bug), or a record that contradicts its input
(:class:`ContractError`).  Time and memory are the runner's to watch
(``fuzz/run.py``); the targets are plain functions, so that the CI smoke test
can run them on the seed corpus without atheris.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterable

from urisift import (
    Defect,
    DefectKind,
    Flag,
    Kind,
    Record,
    ScanOptions,
    UriReference,
    iter_input,
    record_line,
    scan_html,
    scan_mbox,
    scan_message,
    scan_stream,
    scan_text,
)

#: the retrieval URI every target scans under, so that relative references
#: go through resolution (RFC 3986 §5.2) rather than stay unresolved
BASE = "http://fuzz.example/dir/page.html?q#f"

#: the flags under which a record's ``uri`` is not its span's text verbatim:
#: white space, line breaks and quote markers inside the delimiters were removed
_REWRITTEN = frozenset({Flag.WRAPPED, Flag.HYPHEN_BREAK, Flag.QUOTE_MARKERS})
_MARKERS = str.maketrans("", "", ">|")

#: text streams through in pieces this size when the text target checks that
#: a chunked scan finds what a whole one does (small, so that a fuzzed input
#: of a few KB is cut several times)
CHUNK = 512


class ContractError(AssertionError):
    """A record or defect that breaks the record contract (DESIGN §2)."""


def _check(items: Iterable[Record | Defect], size: int | None = None) -> list[Record]:
    """The records of ``items``, each checked against the contract that
    holds whatever the input: JSON-serializable, an absolute target or none,
    offsets inside the input; defects with a kind and a detail, and never
    ``scan-failed``, which is a bug by definition."""
    records = []
    for item in items:
        if isinstance(item, Defect):
            if item.kind is DefectKind.SCAN_FAILED:
                raise ContractError(f"scan-failed defect: {item.detail}")
            if not isinstance(item.kind, DefectKind) or not item.detail:
                raise ContractError(f"defect without a kind or detail: {item!r}")
            continue
        if not isinstance(item, Record):
            raise ContractError(f"neither a record nor a defect: {item!r}")
        if item.target is not None and UriReference.parse(item.target).scheme is None:
            # RFC 3986 §5.2.2: a resolved target always has a scheme
            raise ContractError(f"relative target {item.target!r} for {item.uri!r}")
        offset = item.origin.offset
        if size is not None and offset is not None and not 0 <= offset < size:
            raise ContractError(f"offset {offset} outside the {size}-byte input: {item!r}")
        json.loads(record_line(item))
        records.append(item)
    return records


def span_text_matches(raw: str, record: Record) -> bool:
    """Whether ``raw``, the text a record's span covers, is its ``uri`` as it
    stands in the text: verbatim, or with the white space inside its
    delimiters removed when it was wrapped or broken at a hyphen, and the
    quote markers (``>``, ``|``) of its continuation lines too (DESIGN §3)."""
    uri = record.uri
    flags = record.flags
    if not _REWRITTEN.intersection(flags):
        return raw == uri
    joined = "".join(raw.split())
    if Flag.QUOTE_MARKERS in flags:
        return joined.translate(_MARKERS) == uri.translate(_MARKERS)
    return joined == uri


def check_text_records(text: str, records: list[Record]) -> None:
    """The text scanner's promise about positions: each span indexes
    ``text`` and covers the reference (DESIGN §2 ``span``, ``line``,
    ``column``); ``line`` and ``column`` are those of its start.  Lines are
    counted forward from one record to the next, so that the check is
    linear, as the scan is (out of order, a record is counted from the top)."""
    line, line_start, upto = 1, 0, 0
    for record in records:
        span = record.span
        if span is None:
            raise ContractError(f"text record without a span: {record!r}")
        start, end = span
        if not 0 <= start < end <= len(text):
            raise ContractError(f"span {span} outside the {len(text)}-character text: {record.uri!r}")
        raw = text[start:end]
        if not span_text_matches(raw, record):
            raise ContractError(f"span {span} holds {raw!r}, not {record.uri!r} ({record.flags})")
        if start < upto:
            line, line_start, upto = 1, 0, 0
        newlines = text.count("\n", upto, start)
        if newlines:
            line += newlines
            line_start = text.rfind("\n", upto, start) + 1
        upto = start
        column = start - line_start + 1
        if (record.line, record.column) != (line, column):
            raise ContractError(f"{record.uri!r} at {span} is at line {line} column {column}, "
                                f"not {record.line}:{record.column}")


def _key(record: Record) -> tuple[object, ...]:
    # the column second to last: the chunked comparison names it apart
    return record.uri, record.target, tuple(record.span or ()), record.line, record.column, record.flags


def cut_may_split_a_reference(text: str, chunk: int = CHUNK) -> bool:
    """Whether pieces of ``chunk`` characters may be cut inside a reference,
    as DESIGN §3's safe cut does by design when it finds no better place: a
    line of a quarter piece or more (then the cut falls back to white space,
    or to anywhere), a "<" with no ">" within half a piece (the cut moves
    back to the start of its line), or lines continued by a "-" or "//" at
    their end over a quarter piece (it moves back over them)."""
    quarter = chunk // 4
    continued = 0
    for line in text.split("\n"):
        if len(line) >= quarter:
            return True
        if line.rstrip("\r").endswith(("-", "//")):
            continued += len(line) + 1
            if continued >= quarter:
                return True
        else:
            continued = 0
    close = -1
    at = text.find("<")
    while at != -1:
        if close < at:
            close = text.find(">", at)
        if close == -1 or close - at >= chunk // 2:
            return True
        at = text.find("<", at + 1)
    return False


def text(data: bytes) -> None:
    """Plain text (DESIGN §3): the bytes as UTF-8 text, whole; and the bytes
    as a stream, through the charset chain and cut into pieces, which must
    find the same references at the same places when they are UTF-8 and
    no piece has to be cut inside a reference."""
    decoded = data.decode("utf-8", "replace")
    whole = _check(scan_text(decoded, base=BASE))
    check_text_records(decoded, whole)
    _check(scan_stream(io.BytesIO(data), base=BASE, chunk_size=CHUNK))
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return
    if data.startswith(b"\xef\xbb\xbf"):
        return  # the stream strips the BOM (a charset signature, not text); the string keeps it
    if cut_may_split_a_reference(decoded):
        return
    declared = _check(scan_stream(io.BytesIO(data), base=BASE, declared="utf-8", chunk_size=CHUNK))
    pieces, once = [_key(r) for r in declared], [_key(r) for r in whole]
    if pieces != once:
        if [k[:-2] + k[-1:] for k in pieces] == [k[:-2] + k[-1:] for k in once]:
            # only columns: said apart, so that a run can tolerate it once reported
            raise ContractError(f"chunked scan: columns differ: {[k[-2] for k in pieces]} != {[k[-2] for k in once]}")
        raise ContractError(f"chunked scan differs: {pieces} != {once}")


def html(data: bytes) -> None:
    """An HTML page's bytes: decoded by the chain, parsed, walked, comments
    scanned too."""
    _check(scan_html(data, base=BASE, comments=True))


def message(data: bytes) -> None:
    """One message (RFC 5322, MIME, MHTML)."""
    _check(scan_message(data, base=BASE))


def mbox(data: bytes) -> None:
    """An mbox archive (RFC 4155): each record's offset is its message's,
    inside the archive."""
    _check(scan_mbox(io.BytesIO(data), base=BASE), len(data))


def warc(data: bytes) -> None:
    """A WARC or ARC file, plain or gzip-member compressed, read the way the
    command reads standard input (``urisift --kind warc -``), from a stream
    it can seek in to resynchronize after a corrupt record."""
    options = ScanOptions(kind=Kind.WARC)
    _check(iter_input("-", options, stdin=io.BytesIO(data)), len(data))


def _as(kind: Kind) -> Callable[[bytes], None]:
    """A target reading the bytes as ``--kind KIND`` from standard input does
    (issue 35: the readers added last, each inside the nesting boundary and
    its budgets)."""

    def target(data: bytes) -> None:
        _check(iter_input("-", ScanOptions(kind=kind, base=BASE), stdin=io.BytesIO(data)), len(data))

    target.__name__ = target.__qualname__ = kind.value
    target.__doc__ = f"A {kind.value} input, read as ``urisift --kind {kind.value} -`` reads it."
    return target


def drawn(data: bytes) -> None:
    """A code drawn without an image (``--qr``, issue 55): the bytes as text, whose block characters are
    rebuilt as a bitmap, and as an HTML page, whose tables of coloured cells are too; each bitmap decoded."""
    for kind in (Kind.TEXT, Kind.HTML):
        _check(iter_input("-", ScanOptions(kind=kind, base=BASE, qr=True), stdin=io.BytesIO(data)), len(data))


def image(data: bytes) -> None:
    """An image read for its codes (``urisift --qr --kind image -``): Pillow's decoders and zxing-cpp's."""
    _check(iter_input("-", ScanOptions(kind=Kind.IMAGE, base=BASE, qr=True), stdin=io.BytesIO(data)), len(data))


# -- the stages before a reader: the kind sniffer, the decompressors --------------------------

#: the names an input is sniffed under: none (standard input), a name of each strength
_NAMES = (None, "-", "feed.rss", "notes.txt", "page", "x.xhtml", "a.css")
#: what a decompressing target may inflate an input to: more is the budget's to stop
_INFLATE = 1 << 20


def sniff(data: bytes) -> None:
    """The kind sniffer (``--kind auto``) on an input's first bytes, under
    each strength of name: it ends, looks at its sample only, and tells a
    kind; then the bytes as standard input, sniffed and read."""
    from urisift.stages.sniff import SAMPLE
    from urisift.stages.sniff import sniff as sniffed

    for name in _NAMES:
        told = sniffed(data, name)
        if not isinstance(told.kind, Kind):
            raise ContractError(f"not a kind: {told!r}")
        if sniffed(data[:SAMPLE], name) != told:
            raise ContractError(f"the kind of {name!r} depends on bytes past the first {SAMPLE}")
    _check(iter_input("-", ScanOptions(base=BASE), stdin=io.BytesIO(data)))


def _inflating(method: str) -> Callable[[bytes], None]:
    """A target decompressing its bytes as an input compressed with
    ``method`` is (:class:`urisift.pipeline.compressed.Guarded`): it never raises,
    every problem a ``corrupt-compression`` defect; then the bytes as
    standard input, sniffed, inflated within a small inflate budget."""
    from urisift.model import Origin
    from urisift.pipeline.compressed import MAGIC, Guarded
    from urisift.stages.containment import Limits

    magic = next(m for m, name, _ in MAGIC if name == method)

    def target(data: bytes) -> None:
        guard = Guarded(io.BytesIO(data), method, Origin(file="fuzz"))
        stream = io.BufferedReader(guard)
        total = 0
        while total <= _INFLATE:
            chunk = stream.read(1 << 16)
            if not chunk:
                break
            total += len(chunk)
        if total > guard.done:
            raise ContractError(f"{total} bytes read, only {guard.done} said given out")
        for defect in guard.defects:
            if defect.kind is not DefectKind.CORRUPT_COMPRESSION or not defect.detail:
                raise ContractError(f"not a corrupt-compression defect: {defect!r}")
        options = ScanOptions(base=BASE, limits=Limits(inflated=_INFLATE))
        _check(iter_input("-", options, stdin=io.BytesIO(data if data.startswith(magic) else magic + data)))

    target.__name__ = target.__qualname__ = method
    target.__doc__ = f"A {method} input, decompressed, then read as ``urisift -`` reads it."
    return target


#: the HTTP codings a payload is fuzzed under, chosen by its first byte (RFC 9112 §6.1, RFC 9110 §8.4)
_CODINGS = (b"Content-Encoding: gzip", b"Content-Encoding: deflate", b"Content-Encoding: br",
            b"Transfer-Encoding: chunked", b"Transfer-Encoding: gzip, chunked",
            b"Content-Encoding: gzip, deflate", b"Transfer-Encoding: chunked\r\nContent-Encoding: gzip")


def codings(data: bytes) -> None:
    """An HTTP response's payload with the coding its first byte chooses,
    in a WARC record followed by another: undone within a small inflate
    budget, a broken coding a defect, the next record still read."""
    from urisift.stages.containment import Limits

    coding = _CODINGS[data[0] % len(_CODINGS)] if data else _CODINGS[0]
    body = data[1:]
    records = b""
    for number, (headers, payload) in enumerate(((b"Content-Type: text/html\r\n" + coding + b"\r\n", body),
                                                 (b"Content-Type: text/html\r\n", b"<a href='/next'>n</a>"))):
        http = b"HTTP/1.1 200 OK\r\n" + headers + b"\r\n" + payload
        records += (b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://fuzz.example/%d\r\n"
                    b"WARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-%012d>\r\n"
                    b"Content-Type: application/http; msgtype=response\r\nContent-Length: %d\r\n\r\n"
                    % (number, number, len(http)) + http + b"\r\n\r\n")
    options = ScanOptions(kind=Kind.WARC, limits=Limits(inflated=_INFLATE))
    found = _check(iter_input("-", options, stdin=io.BytesIO(records)), len(records))
    if "http://fuzz.example/next" not in {r.target for r in found}:
        raise ContractError("the record after the coded one was not read")


TARGETS: dict[str, Callable[[bytes], None]] = {
    "text": text,
    "html": html,
    "message": message,
    "mbox": mbox,
    "warc": warc,
    "css": _as(Kind.CSS),
    "xml": _as(Kind.XML),
    "pdf": _as(Kind.PDF),
    "office": _as(Kind.OFFICE),
    "sniff": sniff,
    "gzip": _inflating("gzip"),
    "bzip2": _inflating("bzip2"),
    "xz": _inflating("xz"),
    "codings": codings,
    "markdown": _as(Kind.MARKDOWN),
    "notebook": _as(Kind.NOTEBOOK),
    "rst": _as(Kind.RST),
    "asciidoc": _as(Kind.ASCIIDOC),
    "org": _as(Kind.ORG),
    "latex": _as(Kind.LATEX),
    "bibtex": _as(Kind.BIBTEX),
    "wikitext": _as(Kind.WIKITEXT),
    "archive": _as(Kind.ARCHIVE),
    "emlx": _as(Kind.EMLX),
    "calendar": _as(Kind.CALENDAR),
    "msg": _as(Kind.MSG),
    "tnef": _as(Kind.TNEF),
    "drawn": drawn,
    "image": image,
    "csv": _as(Kind.CSV),
}
