"""The fast path of the WARC reader (issue 36): FastWARC reads a file's clean
records, warcio the rest, and what comes out is what the warcio-only reader
gives, item for item: each unit's fields and whole payload, each defect's
kind, detail and position, the records counted by type, the bytes inflated.

Held on every WARC the other tests build or read, and on valid WARCs damaged
by hypothesis (a byte flipped, the file cut, a Content-Length changed, a
member dropped, a blank line removed), gzipped and plain."""

from __future__ import annotations

import dataclasses
import gzip
import io
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from urisift.model import Defect, Origin
from urisift.readers.warc import WarcReader, WarcUnit, fast

from .conftest import ROOT, SHARED
from .test_hostile_warc import PAGE, chunked, http, record

pytestmark = pytest.mark.skipif(not fast.applies(io.BytesIO(), b"WARC/1.0\r\n"), reason="fastwarc is not installed")

Items = tuple[list[object], dict[str, int], int, int]


def _items(path: Path, *, use_fast: bool, locations: bool = False, read: int | None = -1,
           memory: bool = False) -> Items:
    """What the reader gives of ``path``: units (fields, and the payload read
    as the scan reads it: whole, ``read`` bytes, or not at all when None) and
    defects; its counts by type; the bytes it inflated; the records FastWARC read."""
    stream = io.BytesIO(path.read_bytes()) if memory else path.open("rb")
    with stream:
        reader = WarcReader(stream, Origin(file=path.name), locations=locations, fast=use_fast)
        out: list[object] = []
        for item in reader:
            if isinstance(item, Defect):
                out.append((item.kind, item.detail, item.position))
                continue
            assert isinstance(item, WarcUnit)
            body = None if item.payload is None or read is None else item.payload.read(read)
            out.append((dataclasses.replace(item, payload=None), body))
        return out, dict(reader.types), reader.decompressed, reader.fast_records


def same(path: Path, **options: object) -> Items:
    """The fast reader's items of ``path``, asserted equal to the warcio-only reader's.

    The bytes inflated too, but in a plain file with a broken record: there
    warcio counts what it read ahead, 16 kB at a time from where it started,
    and the fast path hands over to a warcio that starts at a record."""
    fast_items = _items(path, use_fast=True, **options)  # type: ignore[arg-type]
    slow = _items(path, use_fast=False, **options)  # type: ignore[arg-type]
    assert slow[3] == 0
    assert fast_items[:2] == slow[:2], path.name
    broken = any(isinstance(item, tuple) and len(item) == 3 for item in slow[0])
    if path.name.endswith(".gz") or not broken:
        assert fast_items[2] == slow[2], path.name
    return fast_items


def _gzipped(*records: bytes) -> bytes:
    return b"".join(gzip.compress(r, mtime=0) for r in records)


def _resource(n: int, body: bytes, media: bytes = b"text/html") -> bytes:
    return (b"WARC/1.1\r\nWARC-Type: resource\r\nWARC-Record-ID: <urn:uuid:r%d>\r\nWARC-Target-URI: file:///r%d\r\n"
            b"Content-Type: %s\r\nContent-Length: %d\r\n\r\n" % (n, n, media, len(body)) + body + b"\r\n\r\n")


def _typed(n: int, kind: bytes, block: bytes, target: bytes = b"http://t.example/") -> bytes:
    return (b"WARC/1.0\r\nWARC-Type: %s\r\nWARC-Record-ID: <urn:uuid:t%d>\r\nWARC-Target-URI: %s\r\n"
            b"Content-Length: %d\r\n\r\n" % (kind, n, target, len(block)) + block + b"\r\n\r\n")


REQUEST = b"GET / HTTP/1.1\r\nHost: t.example\r\n\r\n"
CODED = http(b"Transfer-Encoding: chunked\r\nContent-Encoding: gzip\r\n",
             chunked(gzip.compress(b"<a href='/coded'>c</a> http://text.example/", mtime=0), 9))

#: a few valid WARCs: every record type, HTTP and not, codings, a sniffed payload, a skipped type
VALID = [
    [_typed(0, b"warcinfo", b"software: test\r\n"), _typed(1, b"request", REQUEST), record(2), record(3, CODED),
     _typed(4, b"metadata", b"via: x\r\n"), _resource(5, b"<a href=x>r</a>"), record(6, PAGE.replace(b"text/html",
     b"image/png")), _typed(7, b"revisit", b"HTTP/1.1 304 Not Modified\r\nLink: </c>; rel=canonical\r\n\r\n")],
    [record(0, b"HTTP/1.1 200 OK\r\n\r\n<!doctype html><a href='/s'>s</a>"), _typed(1, b"response", PAGE,
     b"<http://bracketed.example/a b>"), _resource(2, b"http://plain.example/ text", b"text/plain"), record(3)],
]


# -- every WARC the other tests read or build --------------------------------------------------------

def _corpus() -> list[Path]:
    paths = sorted((ROOT / "corpora" / "warc").glob("*.warc*"))
    paths = [p for p in paths if not p.name.endswith(".jsonl")]
    samples = SHARED / "corpora" / "warc-samples" / "warcio-test-data"
    return paths + (sorted(samples.iterdir()) if samples.is_dir() else [])


@pytest.mark.parametrize("path", _corpus(), ids=lambda p: p.name)
def test_the_corpus_and_the_shared_samples_read_the_same(path: Path) -> None:
    for locations in (False, True):
        same(path, locations=locations)
        same(path, locations=locations, memory=True)
    same(path, read=None)
    same(path, read=100)


def _hostile() -> dict[str, bytes]:
    """The shapes of tests/test_hostile_warc.py and tests/test_warc.py, built the same way."""
    long_member = record(0, length=b"%d" % (len(PAGE) + 40))
    page = b"".join(b"<a href='/p%d'>x</a>\n" % i for i in range(3000))
    packed = gzip.compress(page, mtime=0)
    corrupt = [gzip.compress(r, mtime=0) for r in (record(0), record(1), record(2))]
    corrupt[1] = corrupt[1][:20] + b"\xff" * (len(corrupt[1]) - 20)
    untargeted = (b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:7>\r\nContent-Length: %d\r\n\r\n"
                  % len(PAGE) + PAGE + b"\r\n\r\n")
    broken_block = (b"HTTP/1.1 200\r\nContent-Type text/html\r\nX: \xff\xfe\r\ncontent-type: text/html\r\n\r\n"
                    b"<a href='ok.html'>ok</a>")
    return {
        "long.warc": b"".join([record(0), record(1, length=b"%d" % (len(PAGE) + 5)), record(2), record(3)]),
        "corrupt-member.warc.gz": b"".join(corrupt),
        "corrupt-first.warc.gz": corrupt[1] + corrupt[2],
        "cut.warc": record(0) + record(1)[:-30],
        "cut-member.warc.gz": _gzipped(record(0)) + _gzipped(record(1))[:-12],
        "huge.warc": record(0, length=b"%d" % 10**18) + record(1),
        "minus.warc": record(0, length=b"-5") + record(1),
        "letters.warc": record(0, length=b"abc") + record(1),
        "junk.warc": b"WARC/1.0\r\n" + bytes(range(256)) * 8,
        "header-line.warc": b"WARC/1.0\r\nWARC-Type: " + b"x" * 100_000 + b"\r\n\r\n" + record(1),
        "te.warc": b"".join(record(n, block) for n, block in enumerate([
            http(b"Transfer-Encoding: gzip, chunked\r\n", chunked(gzip.compress(b"<a href='/c'>", mtime=0))),
            http(b"Transfer-Encoding: deflate\r\nContent-Encoding: gzip\r\n",
                 zlib.compress(gzip.compress(b"<a href='/c'>", mtime=0))),
            http(b"Transfer-Encoding: Chunked\r\n", chunked(b"<a href='/c'>")),
            http(b"Content-Encoding: deflate\r\n", zlib.compress(b"<a href='/c'>")[2:-4]),
            http(b"Content-Encoding: x-gzip\r\n", gzip.compress(b"<a href='/c'>", mtime=0))])),
        "unknown-coding.warc": record(0, http(b"Transfer-Encoding: compress, chunked\r\n", chunked(b"<a href='/r'>")))
        + record(1),
        "broken-body.warc": b"".join([
            record(0, http(b"Content-Encoding: gzip\r\n", packed[:2000] + bytes(range(200)) * 2 + packed[2400:])),
            record(1, http(b"Content-Encoding: gzip\r\n", packed[:3000])), record(2)]),
        "long-member.warc.gz": _gzipped(long_member, record(1)),
        "short.warc": record(0, length=b"%d" % (len(PAGE) - 5)) + record(1),
        "folded.warc": record(0, http(b"X: a\r\n" + b" a\r\n" * 2000, b"<a href='/p'>x</a>")) + record(1),
        "many-broken.warc": b"WARC/1.0\r\nWARC-Type: x\r\nWARC-Record-ID: <y>\r\n\r\n" * 50 + record(1),
        "untargeted.warc": record(0) + untargeted + record(1),
        "broken-http-block.warc": _typed(0, b"response", broken_block) + record(1),
        "not-a-warc.warc": b"hello\r\n" + record(1),
        # headers FastWARC reads otherwise than warcio, each as long as the fields written the one way
        # (what they lack in one field, another has too much of): a form feed that warcio keeps in a
        # name, a tab in a folded value that FastWARC makes a space
        "same-length.warc": record(0) + _typed(1, b"response", PAGE).replace(
            b"WARC-Type: response\r\n", b"WARC-Type\x0c: response\r\n").replace(b"Content-Length: ", b"Content-Length:")
        + record(2),
        "folded-target.warc": record(0) + _typed(1, b"response", PAGE, b"http://f.example/a").replace(
            b"http://f.example/a\r\n", b"http://f.example/a\r\n\tb\r\n").replace(b"WARC-Type: ", b"WARC-Type:")
        .replace(b"WARC-Record-ID: ", b"WARC-Record-ID:") + record(2),
        # a line ended by LF alone (warcio ends it there, FastWARC reads on), a vertical tab warcio strips
        "bare-lf.warc": record(0) + record(1).replace(b"WARC-Type: response\r\n", b"X: y\nWARC-Type: response\r\n")
        + record(2),
        "vertical-tab.warc": record(0) + record(1).replace(b"http://h1.example/", b"http://h1.example/\x0b")
        + record(2),
        "extra-blank-lines.warc": record(0) + b"\r\n\r\n" + record(1) + record(2),
        "two-targets.warc": record(0) + _typed(1, b"response", PAGE, b"<http://t1.example/a b>").replace(
            b"Content-Length", b"WARC-Target-URI: http://t2.example/\r\nContent-Length") + record(2),
        "two-lengths.warc": record(0) + record(1).replace(b"Content-Length: %d\r\n" % len(PAGE), b"Content-Length: "
                                                          b"%d\r\nContent-Length: %d\r\n" % (len(PAGE), len(PAGE) - 9))
        + record(2),
        "plus-length.warc": record(0) + record(1, length=b"+%d" % len(PAGE)) + record(2),
        # a payload that breaks, then a record the fast path leaves to warcio: warcio says the break
        "problem-then-unclean.warc": record(0, http(b"Content-Encoding: gzip\r\n", packed[:3000]))
        + record(1).replace(b"WARC-Type: ", b"WARC-Type:") + record(2),
        "one-stream.warc.gz": gzip.compress(record(0) + record(1) + record(2), mtime=0),
        # after the last record: an empty gzip member, a blank line, a stray byte
        "empty-member-after.warc.gz": _gzipped(record(0), record(1)) + gzip.compress(b"", mtime=0),
        "blank-after.warc": record(0) + record(1) + b"\r\n",
        "byte-after.warc.gz": _gzipped(record(0), record(1)) + b"\x1f",
        "empty.warc": b"",
    }


@pytest.mark.parametrize("name", sorted(_hostile()))
def test_the_hostile_shapes_read_the_same(tmp_path: Path, name: str) -> None:
    data = _hostile()[name]
    path = tmp_path / name
    path.write_bytes(data)
    for locations in (False, True):
        same(path, locations=locations)
    same(path, read=None)
    same(path, memory=True)
    if not name.endswith(".gz"):  # each record a member of its own, where the shape survives that
        packed = tmp_path / (name + ".gz")
        packed.write_bytes(_gzipped(*_split(data)))
        same(packed)


def _split(data: bytes) -> list[bytes]:
    """A plain file cut where its records start (``WARC/1.`` at a line start after a blank line)."""
    starts = [0] + [i + 4 for i in range(len(data)) if data.startswith(b"\r\n\r\nWARC/1.", i)]
    return [data[a:b] for a, b in zip(starts, starts[1:] + [len(data)], strict=True) if b > a]


def test_a_broken_record_past_warcios_first_block_reads_the_same(tmp_path: Path) -> None:
    records = [record(n, PAGE + b"<!-- %s -->" % (b"x" * 3000)) for n in range(40)]
    records[30] = record(30, length=b"%d" % (len(PAGE) + 7))
    for name, data in (("big.warc", b"".join(records)), ("big.warc.gz", _gzipped(*records))):
        path = tmp_path / name
        path.write_bytes(data)
        items, _, _, read = same(path)
        assert read == 30 and sum(1 for item in items if len(item) == 3) == 1  # (the broken one is warcio's)


# -- the fast path is taken, and only where it may be --------------------------------------------

def test_a_clean_file_is_read_by_fastwarc(tmp_path: Path) -> None:
    for name, data in (("clean.warc", b"".join(VALID[0])), ("clean.warc.gz", _gzipped(*VALID[0]))):
        path = tmp_path / name
        path.write_bytes(data)
        items, types, inflated, read = same(path)
        assert read == len(VALID[0])
        assert _items(path, use_fast=True, memory=True)[3] == len(VALID[0])  # (bytes in memory too)
        assert types == {"warcinfo": 1, "request": 1, "response": 3, "metadata": 1, "resource": 1, "revisit": 1}
        assert inflated == sum(len(r) for r in VALID[0])
        assert [i[0].target_uri for i in items if isinstance(i, tuple) and isinstance(i[0], WarcUnit)] == [
            "http://h2.example/", "http://h3.example/", "file:///r5", "http://h6.example/", "http://t.example/"]


def test_the_bench_archives_are_read_by_fastwarc() -> None:
    bench = ROOT / "bench" / ".data"
    paths = [p for p in (bench / "pages.warc.gz", bench / "cc-shape.warc.gz") if p.exists()]
    if not paths:
        pytest.skip("bench/.data holds no WARC (bench/make_cc_warc.py, shared/bench/make_pages_warc.py make them)")
    for path in paths:
        _, types, _, read = _items(path, use_fast=True, read=None)
        assert read == sum(types.values()) > 0


def test_where_the_fast_path_does_not_apply_warcio_reads_all(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "clean.warc.gz"
    path.write_bytes(_gzipped(*VALID[0]))
    assert same(path)[3] > 0
    arc = SHARED / "corpora" / "warc-samples" / "warcio-test-data" / "example.arc.gz"
    if arc.exists():
        assert same(arc)[3] == 0  # ARC
    one = tmp_path / "one.warc.gz"
    one.write_bytes(gzip.compress(b"".join(VALID[0]), mtime=0))
    assert same(one)[3] == 0  # one gzip stream around all: warcio says so
    monkeypatch.setattr(fast, "_archive_iterator", lambda: None)  # fastwarc not installed
    assert _items(path, use_fast=True)[3] == 0


# -- damage made by hypothesis ----------------------------------------------------------------------

TRICKY = [b" ", b"\t", b"\x0b", b"\x0c", b"\r", b"\n", b":", b"\x1c", b"\xc2\x85", b"\xc2\xa0", b"\xc3\xa9",
          b"\xff", b"\x00", b"\r\n", b"\r\n ", b"\r\n\t", b"<", b">", b"\r\n\r\n", b"WARC/1.0\r\n"]


def _damaged(draw: Callable[..., object]) -> tuple[bytes, bool]:
    records = list(draw(st.sampled_from(VALID)))  # type: ignore[call-overload]
    gzipped = draw(st.booleans())
    ways = ["flip", "cut", "length", "drop", "blank", "flip-inside", "insert"]
    way = draw(st.sampled_from(ways))
    if way in ("length", "blank", "flip-inside", "insert"):  # inside a record, before it is packed
        n = draw(st.integers(0, len(records) - 1))
        one = records[n]
        if way == "length":
            at = one.index(b"Content-Length: ") + len(b"Content-Length: ")
            end = one.index(b"\r\n", at)
            new = draw(st.sampled_from([b"%d" % (int(one[at:end]) + d) for d in (-40, -5, -2, -1, 1, 2, 3, 4, 5, 40)]
                                       + [b"0", b"x", b"", b" 7", b"99999999"]))
            one = one[:at] + new + one[end:]  # type: ignore[operator]
        elif way == "blank":
            spots = [i for i in range(len(one)) if one.startswith(b"\r\n\r\n", i)]
            at = draw(st.sampled_from(spots))
            one = one[:at] + one[at + 2:]  # type: ignore[operator]
        elif way == "insert":  # what header parsers read differently: white space, folds, line ends, 8 bits
            at = draw(st.integers(0, len(one)))
            one = one[:at] + draw(st.sampled_from(TRICKY)) + one[at:]  # type: ignore[operator]
        else:
            at = draw(st.integers(0, len(one) - 1))
            one = one[:at] + bytes([one[at] ^ draw(st.integers(1, 255))]) + one[at + 1:]  # type: ignore[operator]
        records[n] = one
    data = _gzipped(*records) if gzipped else b"".join(records)
    if way == "flip":
        at = draw(st.integers(0, len(data) - 1))
        data = data[:at] + bytes([data[at] ^ draw(st.integers(1, 255))]) + data[at + 1:]  # type: ignore[operator]
    elif way == "cut":
        data = data[:draw(st.integers(0, len(data)))]  # type: ignore[misc]
    elif way == "drop":
        members = [gzip.compress(r, mtime=0) for r in records] if gzipped else records
        n = draw(st.integers(0, len(members) - 1))
        kept = members[n]
        a = draw(st.integers(0, len(kept)))
        b = draw(st.integers(a, len(kept)))
        data = b"".join(members[:n]) + kept[:a] + kept[b:] + b"".join(members[n + 1:])  # type: ignore[misc]
    return data, gzipped


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.composite(_damaged)())  # type: ignore[arg-type]
def test_damaged_warcs_read_the_same(tmp_path: Path, damaged: tuple[bytes, bool]) -> None:
    data, gzipped = damaged
    path = tmp_path / ("damaged.warc.gz" if gzipped else "damaged.warc")
    path.write_bytes(data)
    same(path)
    same(path, locations=True, read=7)


# -- the HTTP header's quick split ------------------------------------------------------------------

_PLAIN = [b"HTTP/1.1 200 OK", b"HTTP/1.0", b" ", b"200", b"Content-Type", b":", b": ", b" :", b"::", b"text/html",
          b"X", b"a,b", b"  ", b"Link: </a>; rel=x"]
# a line of printable ASCII (the quick split's), or one of anything a parser may read otherwise
_LINE = st.one_of(st.lists(st.sampled_from(_PLAIN), max_size=8),
                  st.lists(st.sampled_from([*_PLAIN, b"\t", b"\r", b"\n", b"\r\n", b"\x0b", b"\x0c", b"\xc3\xa9",
                                            b"\xff"]), max_size=8)).map(b"".join)


@settings(max_examples=500, deadline=None)
@given(st.lists(_LINE, min_size=1, max_size=6), st.sampled_from([b"\r\n\r\n", b"\r\n", b"\n\n", b""]),
       st.binary(max_size=20))
@example([b"HTTP/1.1  301  Moved ", b"Location :/x  ", b"X:", b"no colon", b"Y::z"], b"\r\n\r\n", b"<a>")
@example([b"HTTP/1.1 200 OK", b"X: a", b" folded"], b"\r\n\r\n", b"")
@example([b"HTTP/1.1 200 OK", b"X: a", b"  "], b"\r\n\r\n", b"")
def test_the_quick_split_of_an_http_header_is_warcios_parse(lines: list[bytes], end: bytes, body: bytes) -> None:
    from urisift.readers.warc.parsing import http_header, http_parser

    data = b"\r\n".join(lines) + end + body
    stream = io.BytesIO(data)
    try:
        expected = http_parser().parse(stream)
    except EOFError:
        with pytest.raises(EOFError):
            http_header(data)
        return
    quick, where = http_header(data)
    assert (quick.headers, quick.statusline, quick.total_len, quick.get_statuscode(), where) == (
        expected.headers, expected.statusline, expected.total_len, expected.get_statuscode(), stream.tell())
    assert [quick.get_header(name) for name, _ in expected.headers] == [
        expected.get_header(name) for name, _ in expected.headers]
