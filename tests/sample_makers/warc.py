#!/usr/bin/env python3
"""Writes the project's WARC samples (issue 11), byte for byte the same on
every run: ``python tests/sample_makers/warc.py``.

- ``crawl.warc.gz``: a gzip member a record (ISO 28500 Annex D), holding a
  warcinfo, a request, a page with a ``<base>``, a redirect with a ``Link``
  header, a chunked and gzip-encoded page, a Latin-1 page whose charset only
  HTTP declares, a page with ``Content-Location``, a revisit, a truncated
  record, a gzip member that is corrupt, and a page after it (which must
  still be read), and a plain-text resource.
- ``plain.warc``: the same kind of records uncompressed, with the ``<…>``
  around ``WARC-Target-URI`` that WARC 1.0 writers put there.
"""

from __future__ import annotations

import gzip
import zlib
from pathlib import Path

HERE = Path(__file__).resolve().parents[2] / "corpora" / "warc"
DATE = "2024-05-03T12:00:00Z"


def record(kind: str, target: str | None, block: bytes, number: int, extra: str = "",
           content_type: str = "application/http; msgtype=response") -> bytes:
    head = f"WARC/1.0\r\nWARC-Type: {kind}\r\nWARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-{number:012d}>\r\n"
    head += f"WARC-Date: {DATE}\r\n"
    if target is not None:
        head += f"WARC-Target-URI: {target}\r\n"
    head += extra
    head += f"Content-Type: {content_type}\r\nContent-Length: {len(block)}\r\n\r\n"
    return head.encode("utf-8") + block + b"\r\n\r\n"


def http(status: str, headers: list[tuple[str, str]], body: bytes) -> bytes:
    lines = [f"HTTP/1.1 {status}"] + [f"{name}: {value}" for name, value in headers]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


def member(data: bytes) -> bytes:
    return gzipped(data)


def gzipped(data: bytes) -> bytes:
    """``data`` gzipped with the same bytes on every Python: the header's OS
    byte is 3 (Unix), which Python 3.12 began to write as 255 (unknown)."""
    packed = gzip.compress(data, mtime=0)
    return packed[:9] + b"\x03" + packed[10:]


def chunked(body: bytes, size: int) -> bytes:
    out = b""
    for i in range(0, len(body), size):
        piece = body[i:i + size]
        out += f"{len(piece):x}\r\n".encode() + piece + b"\r\n"
    return out + b"0\r\n\r\n"


BASE_PAGE = b"""<!doctype html><html><head><base href="/static/v2/"><title>Base</title></head>
<body><a href="page.html">first base wins</a> <img srcset="a.png 1x, b.png 2x">
<base href="http://ignored.example/"><a href="http://other.example/abs">absolute</a></body></html>
"""
GZIP_PAGE = (b"<html><body><p>chunked and gzip: <a href='/gz/one'>one</a> "
             b"<img data-src='/gz/lazy.jpg'> http://text.example/in-the-body</p></body></html>\n")
LATIN1_PAGE = "<html><body><a href='/caf\u00e9/men\u00fc'>Caf\u00e9</a></body></html>\n".encode("latin-1")
LOCATED_PAGE = b"<html><body><a href='sibling.html'>relative</a></body></html>\n"
TRUNCATED_PAGE = b"<html><body><a href='/kept'>kept</a> <a href='/cut"
AFTER_PAGE = b"<html><body><a href='after.html'>after the corrupt member</a></body></html>\n"
NOTES = b"Plain notes: see <http://notes.example/a> and http://notes.example/b.\n"


def crawl() -> bytes:
    # (the path the builder had when the samples were first written: kept, so that the samples, and the
    # offsets that tests pin in them, stay as they were)
    info = b"software: urisift corpora/warc/build.py\r\nformat: WARC File Format 1.0\r\n"
    parts = [
        member(record("warcinfo", None, info, 1, content_type="application/warc-fields")),
        member(record("request", "http://site.example/dir/index.html",
                      b"GET /dir/index.html HTTP/1.1\r\nHost: site.example\r\n\r\n", 2,
                      content_type="application/http; msgtype=request")),
        member(record("response", "http://site.example/dir/index.html",
                      http("200 OK", [("Content-Type", "text/html; charset=utf-8")], BASE_PAGE), 3)),
        member(record("response", "http://site.example/old",
                      http("301 Moved Permanently", [("Location", "/new/place?x=1"),
                                                     ("Link", '</style.css>; rel="preload stylesheet", '
                                                              '<https://cdn.example/font.woff2>; rel=preload'),
                                                     ("Content-Type", "text/html"),
                                                     ("Content-Length", "0")], b""), 4)),
        member(record("response", "http://site.example/gz/",
                      http("200 OK", [("Content-Type", "text/html"), ("Transfer-Encoding", "chunked"),
                                      ("Content-Encoding", "gzip")],
                           chunked(gzipped(GZIP_PAGE), 40)), 5)),
        member(record("response", "http://site.example/latin/",
                      http("200 OK", [("Content-Type", "text/html; charset=ISO-8859-1")], LATIN1_PAGE), 6)),
        member(record("response", "http://site.example/a/b",
                      http("200 OK", [("Content-Type", "text/html"),
                                      ("Content-Location", "http://mirror.example/x/y.html")], LOCATED_PAGE), 7)),
        member(record("revisit", "http://site.example/dir/index.html",
                      http("200 OK", [("Content-Type", "text/html"), ("Link", "<../canonical>; rel=canonical")], b""),
                      8, extra="WARC-Profile: http://netpreserve.org/warc/1.0/revisit/identical-payload-digest\r\n")),
        member(record("response", "http://site.example/long",
                      http("200 OK", [("Content-Type", "text/html")], TRUNCATED_PAGE), 9,
                      extra="WARC-Truncated: length\r\n")),
    ]
    good = member(record("response", "http://site.example/broken",
                         http("200 OK", [("Content-Type", "text/html")], b"<a href='/lost'>lost</a>"), 10))
    # a member whose deflate data is garbled in the middle: its header is intact
    corrupt = good[:30] + bytes(b ^ 0x5A for b in good[30:60]) + good[60:]
    assert _is_corrupt(corrupt)
    parts.append(corrupt)
    parts.append(member(record("response", "http://site.example/after/",
                               http("200 OK", [("Content-Type", "text/html")], AFTER_PAGE), 11)))
    parts.append(member(record("resource", "http://site.example/notes.txt", NOTES, 12, content_type="text/plain")))
    return b"".join(parts)


def _is_corrupt(data: bytes) -> bool:
    try:
        gzip.decompress(data)
    except (OSError, EOFError, zlib.error):
        return True
    return False


def plain() -> bytes:
    return (record("response", "<http://old-writer.example/page>",
                   http("200 OK", [("Content-Type", "text/html")],
                        b"<html><body><a href='rel/x.html'>x</a></body></html>\n"), 21)
            + record("metadata", "<http://old-writer.example/page>", b"via: somewhere\r\n", 22,
                     content_type="application/warc-fields"))


if __name__ == "__main__":
    (HERE / "crawl.warc.gz").write_bytes(crawl())
    (HERE / "plain.warc").write_bytes(plain())
