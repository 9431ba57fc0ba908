"""WARC and ARC (issue 11): records against their own retrieval URI, HTTP
headers, payload decoding, broken records, offsets, Parquet and edges."""

from __future__ import annotations

import gzip
import io
import json
import shutil
from pathlib import Path

import pytest

from urisift import BaseSource, Defect, DefectKind, Flag, Record, Style, iter_input
from urisift.cli.command import main
from urisift.pipeline.scan import ScanOptions

from .conftest import ROOT, shared_path

WARC = ROOT / "corpora" / "warc"
CRAWL = WARC / "crawl.warc.gz"


def _scan(path: Path, **options: object) -> list[Record | Defect]:
    return list(iter_input(str(path), ScanOptions(**options)))  # type: ignore[arg-type]


def _records(path: Path, **options: object) -> list[Record]:
    return [r for r in _scan(path, **options) if isinstance(r, Record)]


def _by_record(records: list[Record], number: int) -> list[Record]:
    return [r for r in records if (r.origin.warc_record_id or "").endswith(f"{number:012d}>")]


def test_each_record_resolves_against_its_target_uri_and_the_first_base_wins() -> None:
    page = _by_record(_records(CRAWL), 3)
    assert [(r.uri, r.target, r.base_source) for r in page if r.element != "base"] == [
        ("page.html", "http://site.example/static/v2/page.html", BaseSource.HTML_BASE),
        ("a.png", "http://site.example/static/v2/a.png", BaseSource.HTML_BASE),
        ("b.png", "http://site.example/static/v2/b.png", BaseSource.HTML_BASE),
        ("http://other.example/abs", "http://other.example/abs", None),
    ]
    first = page[0]
    assert (first.origin.warc_target_uri, first.origin.warc_date, first.origin.offset) == (
        "http://site.example/dir/index.html", "2024-05-03T12:00:00Z", 428)
    assert first.base == "http://site.example/dir/index.html"  # <base href> against the target URI


def test_request_metadata_and_warcinfo_records_are_skipped() -> None:
    records = _records(CRAWL) + _records(WARC / "plain.warc")
    numbers = {r.origin.warc_record_id[-4:-1] for r in records if r.origin.warc_record_id}
    assert numbers.isdisjoint({"001", "002", "022"})


def test_redirect_location_and_link_headers_resolve_against_the_target_uri() -> None:
    headers = _by_record(_records(CRAWL), 4)
    assert [(r.header, r.style, r.uri, r.target, r.rel) for r in headers] == [
        ("Location", Style.HEADER, "/new/place?x=1", "http://site.example/new/place?x=1", None),
        ("Link", Style.HEADER, "/style.css", "http://site.example/style.css", ("preload", "stylesheet")),
        ("Link", Style.HEADER, "https://cdn.example/font.woff2", "https://cdn.example/font.woff2", ("preload",)),
    ]
    assert headers[0].base_source is BaseSource.RETRIEVAL


def test_a_chunked_gzip_response_is_decoded() -> None:
    page = _by_record(_records(CRAWL), 5)
    assert [(r.target, r.flags) for r in page] == [
        ("http://site.example/gz/one", ()), ("http://site.example/gz/lazy.jpg", (Flag.LAZY,)),
        ("http://text.example/in-the-body", ())]


def test_the_http_charset_is_the_declared_one() -> None:
    # (declared ISO-8859-1: an HTML document's label means its WHATWG encoding, windows-1252)
    (record,) = _by_record(_records(CRAWL), 6)
    assert (record.uri, record.charset, record.charset_source.value) == (  # type: ignore[union-attr]
        "/café/menü", "windows-1252", "declared")


def test_content_location_is_a_base_only_when_asked() -> None:
    (plain,) = _by_record(_records(CRAWL), 7)
    (opted,) = _by_record(_records(CRAWL, content_location=True), 7)
    assert (plain.target, plain.base_source) == ("http://site.example/a/sibling.html", BaseSource.RETRIEVAL)
    assert (opted.target, opted.base_source) == ("http://mirror.example/x/sibling.html", BaseSource.CONTENT_LOCATION)


def test_a_revisit_has_its_headers_read() -> None:
    (record,) = _by_record(_records(CRAWL), 8)
    assert (record.header, record.target, record.rel) == ("Link", "http://site.example/canonical", ("canonical",))


def test_a_truncated_record_is_flagged() -> None:
    (record,) = _by_record(_records(CRAWL), 9)
    assert (record.target, record.flags) == ("http://site.example/kept", (Flag.TRUNCATED,))


def test_a_corrupt_gzip_member_is_a_defect_and_the_next_record_is_read() -> None:
    items = _scan(CRAWL)
    (defect,) = [d for d in items if isinstance(d, Defect)]
    assert (defect.kind, defect.position) == (DefectKind.BROKEN_WARC, 2607)
    assert "resumed at byte 2844" in defect.detail
    after = [r.target for r in items if isinstance(r, Record) and r.origin.offset == 2844]
    assert after == ["http://site.example/after/after.html"]
    assert not [r for r in items if isinstance(r, Record) and r.target == "http://site.example/lost"]


def test_offsets_are_where_a_reader_seeks_to() -> None:
    data = CRAWL.read_bytes()
    for record in _records(CRAWL):
        assert record.origin.offset is not None
        head = gzip.GzipFile(fileobj=io.BytesIO(data[record.origin.offset:])).read(64)
        assert head.startswith(b"WARC/1.0\r\n")
        assert record.origin.warc_record_id is not None
        assert record.origin.warc_record_id.encode() in gzip.GzipFile(
            fileobj=io.BytesIO(data[record.origin.offset:])).read(300)


def test_warc_1_0_brackets_around_the_target_uri_are_removed() -> None:
    (record,) = _records(WARC / "plain.warc")
    assert (record.origin.warc_target_uri, record.target) == (
        "http://old-writer.example/page", "http://old-writer.example/rel/x.html")


def test_warc_is_sniffed_by_content(tmp_path: Path) -> None:
    shutil.copy(CRAWL, tmp_path / "crawl.bin")
    assert [r.target for r in _records(tmp_path / "crawl.bin")] == [r.target for r in _records(CRAWL)]


def _cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_parquet_has_the_fixed_schema_and_the_jsonl_rows(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    from urisift.output import RECORD_KEYS
    from urisift.output.parquet import schema

    path = tmp_path / "links.parquet"
    assert _cli("--format", "parquet", "--output", str(path), str(CRAWL))[0] == 0
    table = pq.read_table(path)
    assert table.schema.equals(schema()) and tuple(table.schema.names) == RECORD_KEYS
    rows = [json.loads(line) for line in _cli("--format", "jsonl", str(CRAWL))[1].splitlines()]
    assert table.to_pylist() == [row for row in rows if "defect" not in row]


def test_parquet_without_output_is_a_usage_error() -> None:
    code, _, err = _cli("--format", "parquet", str(CRAWL))
    assert code == 2 and "--output" in err


def test_edges_are_source_tab_target() -> None:
    code, out, _ = _cli("--format", "edges", str(CRAWL))
    lines = out.splitlines()
    # (the page's <base href="/static/v2/"> is no edge: it sets where the links resolve, issue 53)
    assert code == 0 and lines[:2] == ["http://site.example/dir/index.html\thttp://site.example/static/v2/page.html",
                                       "http://site.example/dir/index.html\thttp://site.example/static/v2/a.png"]
    assert "http://site.example/old\thttp://site.example/new/place?x=1" in lines
    assert len(lines) == len([r for r in _records(CRAWL) if r.target is not None and r.element != "base"])


def test_the_shared_warc_samples_scan_without_a_crash() -> None:
    folder = shared_path("corpora", "warc-samples", "warcio-test-data")
    for path in sorted(folder.iterdir()):
        items = list(iter_input(str(path), ScanOptions(kind=__import__("urisift").Kind.WARC)))
        assert all(isinstance(i, (Record, Defect)) for i in items), path.name
    arc = [r.target for r in _records(folder / "example.arc.gz")]
    assert arc == ["http://www.iana.org/domains/example"]
    whole = _scan(folder / "example-bad-non-chunked.warc.gz")
    assert "one gzip stream" in next(d for d in whole if isinstance(d, Defect)).detail


def test_brotli_and_deflate_payloads_are_decoded(tmp_path: Path) -> None:
    import zlib

    import brotli

    page = b"<html><body><a href='/enc'>x</a></body></html>"
    parts = []
    for n, (coding, body) in enumerate([("br", brotli.compress(page)), ("deflate", zlib.compress(page))]):
        block = (f"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: {coding}\r\n"
                 f"Content-Length: {len(body)}\r\n\r\n").encode() + body
        parts.append(gzip.compress(
            (f"WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:{n}>\r\n"
             f"WARC-Target-URI: http://{coding}.example/\r\nContent-Type: application/http; msgtype=response\r\n"
             f"Content-Length: {len(block)}\r\n\r\n").encode() + block + b"\r\n\r\n", mtime=0))
    path = tmp_path / "encoded.warc.gz"
    path.write_bytes(b"".join(parts))
    assert [r.target for r in _records(path)] == ["http://br.example/enc", "http://deflate.example/enc"]


def test_a_broken_http_header_block_is_tolerated(tmp_path: Path) -> None:
    block = (b"HTTP/1.1 200\r\nContent-Type text/html\r\nX: \xff\xfe\r\ncontent-type: text/html\r\n\r\n"
             b"<a href='ok.html'>ok</a>")
    record = (b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://h.example/d/\r\n"
              b"Content-Length: %d\r\n\r\n" % len(block) + block + b"\r\n\r\n")
    path = tmp_path / "broken.warc"
    path.write_bytes(record)
    assert [r.target for r in _records(path)] == ["http://h.example/d/ok.html"]


def test_a_payload_without_a_media_type_is_sniffed(tmp_path: Path) -> None:
    page = b"<!doctype html><a href='sniffed.html'>x</a> http://text.example/"
    block = b"HTTP/1.1 200 OK\r\n\r\n" + page
    path = tmp_path / "untyped.warc"
    path.write_bytes(b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://u.example/d/\r\n"
                     b"Content-Length: %d\r\n\r\n" % len(block) + block + b"\r\n\r\n")
    assert [(r.element, r.target) for r in _records(path)] == [
        ("a", "http://u.example/d/sniffed.html"), ("body", "http://text.example/")]


def test_arc_records_have_no_made_up_record_id() -> None:
    folder = shared_path("corpora", "warc-samples", "warcio-test-data")
    for name in ("example.arc", "example.arc.gz"):
        runs = [[(r.origin.warc_record_id, r.origin.offset, r.target) for r in _records(folder / name)]
                for _ in range(2)]
        assert runs[0] == runs[1] and runs[0] and all(rid is None for rid, _, _ in runs[0])


def test_a_warc_gz_on_standard_input_is_read_as_warc() -> None:
    import subprocess
    import sys

    data = CRAWL.read_bytes()
    everything = [r.target for r in _records(CRAWL)]
    out, err = io.StringIO(), io.StringIO()
    # a seekable standard input (a file redirected in): read as the file is
    assert main(["--format", "jsonl", "--jobs", "1", "-"], stdin=io.BytesIO(data), stdout=out, stderr=err) == 0
    assert [json.loads(line).get("target") for line in out.getvalue().splitlines() if '"defect"' not in line] == \
        everything
    # a pipe cannot be sought in, but the reader keeps the last bytes it read and
    # looks forward from the corrupt member for the next one (issue 20): all is read
    proc = subprocess.run([sys.executable, "-m", "urisift", "--format", "jsonl"], input=data, capture_output=True,
                          timeout=60, check=False)
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    assert proc.returncode == 0 and [line["target"] for line in lines if "target" in line] == everything
    assert [line["defect"] for line in lines if "defect" in line] == ["broken-warc"]
    assert b"resumed at byte 2844" in proc.stderr


def test_junk_after_a_warc_header_and_a_record_cut_off_are_defects_and_the_next_input_is_read(tmp_path: Path) -> None:
    junk = tmp_path / "junk.warc"
    junk.write_bytes(b"WARC/1.0\r\nWARC-Type: response\r\nContent-Length: 99999\r\n\r\n" + bytes(range(256)) * 8)
    cut = tmp_path / "cut.warc.gz"
    cut.write_bytes(CRAWL.read_bytes()[:1300])  # ends inside the chunked gzip response's member
    after = tmp_path / "z.txt"
    after.write_text("http://after.example/\n")
    out, err = io.StringIO(), io.StringIO()
    assert main(["--format", "jsonl", "--jobs", "1", str(junk), str(cut), str(after)], stdout=out, stderr=err) == 0
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    by_file = {(line["file"].rsplit("/", 1)[-1], "defect" in line) for line in lines}
    assert ("junk.warc", True) in by_file and ("cut.warc.gz", True) in by_file
    assert [line["target"] for line in lines if line["file"].endswith("z.txt")] == ["http://after.example/"]
    # what the cut file held before its end is still there, and its last record is reported as cut short
    assert "http://site.example/new/place?x=1" in [line.get("target") for line in lines]
    (cut_defect,) = [line for line in lines if "defect" in line and line["file"].endswith("cut.warc.gz")]
    assert cut_defect["position"] == 1097 and "cut short" in cut_defect["detail"]
