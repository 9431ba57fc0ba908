"""Builds a WARC of the Common Crawl shape for bench_warc_readers.py: for each
page a request, a response and a metadata record, each a gzip member of its
own, with small HTTP responses (2-12 KB pages cut from the 130 shared pages).

    python bench/make_cc_warc.py OUT.warc.gz [PAGES]
"""

from __future__ import annotations

import glob
import gzip
import os
import sys
import uuid
from pathlib import Path

HERE = os.path.dirname(os.path.abspath(__file__))


def _record(kind: str, uri: str, content_type: str, block: bytes, number: int) -> bytes:
    head = (f"WARC/1.0\r\nWARC-Type: {kind}\r\nWARC-Target-URI: {uri}\r\nWARC-Date: 2024-01-01T00:00:00Z\r\n"
            f"WARC-Record-ID: <urn:uuid:{uuid.UUID(int=number)}>\r\nContent-Type: {content_type}\r\n"
            f"Content-Length: {len(block)}\r\n\r\n").encode()
    return gzip.compress(head + block + b"\r\n\r\n", 6, mtime=0)


def main(out_path: str, pages: int = 20_000) -> None:
    sources = sorted(glob.glob(os.path.join(HERE, "..", "..", "shared", "corpora", "html-readability-pages", "*",
                                            "source.html")))
    bodies = [Path(p).read_bytes() for p in sources]
    with open(out_path, "wb") as out:
        for n in range(pages):
            body = bodies[n % len(bodies)]
            start = (n * 7919) % max(1, len(body) - 12_000)
            page = body[start:start + 2_000 + (n * 104729) % 10_000]
            uri = f"http://site{n % 997}.example/page{n}.html"
            request = (f"GET /page{n}.html HTTP/1.1\r\nHost: site{n % 997}.example\r\nUser-Agent: CCBot/2.0\r\n"
                       "Accept: text/html\r\n\r\n").encode()
            response = (b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: %d\r\n\r\n"
                        % len(page) + page)
            metadata = f"fetchTimeMs: {n % 500}\r\ncharset-detected: UTF-8\r\nlanguages-cld2: {{}}\r\n".encode()
            out.write(_record("request", uri, "application/http; msgtype=request", request, 3 * n))
            out.write(_record("response", uri, "application/http; msgtype=response", response, 3 * n + 1))
            out.write(_record("metadata", uri, "application/warc-fields", metadata, 3 * n + 2))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 20_000)
