"""The ``warc`` case of bench.py (issue 11): urisift on a WARC of at least
50 MB built from the 130 saved pages of ``html-readability-pages`` (a
response record a page, gzip member a record, repeated until 50 MB), against
the loop people write today: warcio to read, lxml.html to parse,
``make_links_absolute`` with the target URI, then ``iterlinks``.
"""

from __future__ import annotations

import gzip
import io
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO

PAGES = "corpora/html-readability-pages"
TARGET_SIZE = 50_000_000


def build(shared: Path) -> bytes:
    pages = sorted((shared / PAGES).glob("*/source.html"))
    members: list[bytes] = []
    size = n = 0
    while size < TARGET_SIZE:
        for page in pages:
            body = page.read_bytes()
            http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n" % len(body) + body
            head = (f"WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:{n:032x}>\r\n"
                    f"WARC-Date: 2024-01-01T00:00:00Z\r\nWARC-Target-URI: http://pages.example/{n}/{page.parent.name}/\r\n"
                    f"Content-Type: application/http; msgtype=response\r\nContent-Length: {len(http)}\r\n\r\n")
            member = gzip.compress(head.encode() + http + b"\r\n\r\n", compresslevel=6, mtime=0)
            members.append(member)
            size += len(head) + len(http)
            n += 1
    return b"".join(members)


def _urisift(data: bytes) -> Callable[[], object]:
    from urisift.model import Content, Kind, Origin
    from urisift.pipeline.scan import ScanOptions, scan_content
    from urisift.stages.base import retrieval_layers

    layer, _ = retrieval_layers(None)
    options = ScanOptions(positions=False)
    return lambda: sum(1 for _ in scan_content(Content(io.BytesIO(data), Kind.WARC, Origin(), layer), options))


def warcio_lxml_links(stream: BinaryIO, types: tuple[str, ...] = ("response",)) -> Iterator[tuple[int, list[str]]]:
    """The loop people write today, record by record: (offset, links) of each
    HTML record of ``types``, warcio to read, lxml.html to parse,
    ``make_links_absolute`` with the target URI, then ``iterlinks``."""
    import lxml.html
    from warcio.archiveiterator import ArchiveIterator

    iterator = ArchiveIterator(stream, arc2warc=True)
    for record in iterator:
        offset = iterator.offset
        if record.rec_type not in types or record.rec_type != "resource" and not record.http_headers:
            continue
        body = record.content_stream().read()
        try:
            tree = lxml.html.document_fromstring(body)
        except Exception:  # noqa: BLE001 - lxml refuses empty documents
            continue
        tree.make_links_absolute(record.rec_headers.get_header("WARC-Target-URI"), resolve_base_href=True)
        yield offset, [link for _, _, link, _ in tree.iterlinks()]


def _warcio_lxml(data: bytes) -> Callable[[], object] | None:
    try:
        import lxml.html  # noqa: F401
        import warcio  # noqa: F401
    except ImportError:
        return None
    return lambda: sum(len(links) for _, links in warcio_lxml_links(io.BytesIO(data)))


def bench_warc(rounds: int, shared: Path, timeit: Callable[[Callable[[], object], int], float],
               table: Callable[..., None]) -> None:
    if not (shared / PAGES).exists():
        print(f"\n## warc: skipped, no {shared / PAGES}")
        return
    data = build(shared)
    size = TARGET_SIZE / 1e6
    ours = "urisift (positions off)"
    rows: list[tuple[str, float | None, str]] = [(ours, timeit(_urisift(data), rounds), "")]
    peer = _warcio_lxml(data)
    rows.append(("warcio + lxml make_links_absolute + iterlinks", None if peer is None else timeit(peer, rounds),
                 "not installed"))
    table(f"warc: {len(data) / 1e6:.0f} MB gzip ({size:.0f} MB of records), html-readability pages", "MB", size,
          rows, ours)
    print("\n(target of issue 11: urisift >= 1.5x the warcio + lxml loop)")
