"""Hostile and broken WARC, ARC and compressed input (issue 20): each shape
ends in the records of every byte that could be read and a defect naming
what was wrong and where, never a crash, a hang or a silent loss.

Every sample is built here, byte by byte: what is broken in it is in plain sight."""

from __future__ import annotations

import bz2
import gzip
import io
import json
import lzma
import subprocess
import sys
import time
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest

from urisift import Defect, Record, iter_input
from urisift.readers.warc import link_values

Row = tuple[object, ...]

PAGE = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<a href='/p'>x</a>"


def record(n: int, block: bytes = PAGE, length: bytes | None = None) -> bytes:
    """A WARC response record numbered ``n``; ``length`` replaces its Content-Length."""
    declared = str(len(block)).encode() if length is None else length
    return (b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:%d>\r\n"
            b"WARC-Target-URI: http://h%d.example/\r\nContent-Type: application/http; msgtype=response\r\n"
            b"Content-Length: %s\r\n\r\n" % (n, n, declared)) + block + b"\r\n\r\n"


def http(headers: bytes, body: bytes) -> bytes:
    return b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n" + headers + b"\r\n" + body


def chunked(body: bytes, size: int = 7) -> bytes:
    """RFC 9112 §7.1: the body in chunks of ``size`` bytes, then the last chunk."""
    return b"".join(b"%x\r\n" % len(body[i:i + size]) + body[i:i + size] + b"\r\n"
                    for i in range(0, len(body), size)) + b"0\r\n\r\n"


def rows(items: object) -> list[Row]:
    """Records as (offset, target), defects as (kind, position, detail)."""
    out: list[Row] = []
    for item in items:  # type: ignore[attr-defined]
        if isinstance(item, Record):
            out.append((item.origin.offset, item.target))
        else:
            assert isinstance(item, Defect)
            out.append((item.kind.value, item.position, item.detail))
    return out


def scan(path: Path) -> list[Row]:
    return rows(iter_input(str(path)))


class _Pipe(io.RawIOBase):
    """Standard input from a pipe: bytes as they come, no seeking back."""

    def __init__(self, data: bytes) -> None:
        self._data = io.BytesIO(data)

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        data = self._data.read(min(len(buffer), 1000))  # a pipe gives what it has
        buffer[:len(data)] = data
        return len(data)


def piped(data: bytes) -> list[Row]:
    return rows(iter_input("-", stdin=io.BufferedReader(_Pipe(data))))


NOT_A_RECORD = ("a record could not be read (ArchiveLoadFailed: not a WARC or ARC record here: a corrupt gzip "
                "member or a wrong Content-Length before it)")


# -- WARC resynchronisation ------------------------------------------------------------------

def test_a_content_length_a_little_too_long_costs_nothing_after_it(tmp_path: Path) -> None:
    records = [record(0), record(1, length=b"%d" % (len(PAGE) + 5)), record(2), record(3)]
    starts = [sum(len(r) for r in records[:i]) for i in range(4)]
    path = tmp_path / "long.warc"
    path.write_bytes(b"".join(records))
    expected = [
        (0, "http://h0.example/p"),
        (starts[1], "http://h1.example/p"),
        # warcio looked for the next record after the 5 bytes too many, at its second line
        ("broken-warc", starts[2] + len(b"WARC/1.0\r\n"),
         f"{NOT_A_RECORD}; resumed at byte {starts[2]} (the record at byte {starts[1]} (<urn:uuid:1>, "
         "http://h1.example/) ran on into it: its Content-Length is likely too long)"),
        (starts[2], "http://h2.example/p"),
        (starts[3], "http://h3.example/p"),
    ]
    assert scan(path) == expected
    assert piped(path.read_bytes()) == expected  # standard input resumes as the file does


def _members(*records: bytes) -> list[bytes]:
    return [gzip.compress(r, mtime=0) for r in records]


def _corrupt(member: bytes) -> bytes:
    """A gzip member whose deflate data is garbage from its 20th byte."""
    return member[:20] + b"\xff" * (len(member) - 20)


def test_a_warc_gz_on_a_pipe_resumes_after_a_corrupt_member() -> None:
    members = _members(record(0), record(1), record(2))
    members[1] = _corrupt(members[1])
    starts = [sum(len(m) for m in members[:i]) for i in range(3)]
    expected = [
        (0, "http://h0.example/p"),
        ("broken-warc", starts[1], f"{NOT_A_RECORD}; resumed at byte {starts[2]}"),
        (starts[2], "http://h2.example/p"),
    ]
    assert piped(b"".join(members)) == expected


def test_a_corrupt_first_member_does_not_hide_a_warc_gz(tmp_path: Path) -> None:
    members = _members(record(0), record(1))
    members[0] = _corrupt(members[0])
    data = b"".join(members)
    expected = [
        ("broken-warc", 0, f"{NOT_A_RECORD}; resumed at byte {len(members[0])}"),
        (len(members[0]), "http://h1.example/p"),
    ]
    for name in ("crawl.warc.gz", "crawl.bin"):  # known by its name; by a later member
        (tmp_path / name).write_bytes(data)
        assert scan(tmp_path / name) == expected, name
    assert piped(data) == expected


def test_a_record_cut_short_by_the_end_of_the_file_is_named(tmp_path: Path) -> None:
    whole = record(0)
    cut = record(1)[:-30]  # the file ends 26 bytes into the payload's 19
    path = tmp_path / "cut.warc"
    path.write_bytes(whole + cut)
    detail = (f"the record at byte {len(whole)} (<urn:uuid:1>, http://h1.example/) is cut short: the file ends "
              f"26 bytes before the end its Content-Length ({len(PAGE)}) gives (a truncated download?)")
    assert scan(path) == [(0, "http://h0.example/p"), ("broken-warc", len(whole), detail)]
    gz = tmp_path / "cut.warc.gz"
    members = _members(record(0), record(1))
    gz.write_bytes(members[0] + members[1][:-12])  # the last member's end cut off
    assert scan(gz) == [
        (0, "http://h0.example/p"), (len(members[0]), "http://h1.example/p"),
        ("broken-warc", len(members[0]), f"the record at byte {len(members[0])} (<urn:uuid:1>, http://h1.example/) "
         "is cut short: the file ends inside its gzip member (a truncated download?)")]


def test_a_content_length_past_the_end_is_read_up_to_the_next_record(tmp_path: Path) -> None:
    first = record(0, length=b"%d" % 10**18)
    path = tmp_path / "huge.warc"
    path.write_bytes(first + record(1))
    assert scan(path) == [
        ("broken-warc", 0, f"the record at byte 0 (<urn:uuid:0>, http://h0.example/): its Content-Length "
         f"({10**18}) runs past the end of the file ({len(first) + len(record(1))} bytes); read up to the next "
         f"record, at byte {len(first)}"),
        (0, "http://h0.example/p"),
        (len(first), "http://h1.example/p"),
    ]


@pytest.mark.parametrize("length, problem", [
    (b"-5", "its Content-Length '-5' is not a number of bytes (ISO 28500 §5.3)"),
    (b"abc", "its Content-Length 'abc' is not a number of bytes (ISO 28500 §5.3)"),
])
def test_a_content_length_that_is_not_a_number_is_named_and_the_next_record_read(tmp_path: Path, length: bytes,
                                                                                  problem: str) -> None:
    first = record(0, length=length)
    path = tmp_path / "bad.warc"
    path.write_bytes(first + record(1))
    expected = [
        ("broken-warc", 0, f"the record at byte 0 (<urn:uuid:0>, http://h0.example/): {problem}; its payload is "
         f"not read; resumed at byte {len(first)}"),
        (len(first), "http://h1.example/p"),
    ]
    assert scan(path) == expected
    assert piped(path.read_bytes()) == expected


def test_junk_after_a_warc_line_is_a_defect(tmp_path: Path) -> None:
    path = tmp_path / "junk.warc"
    path.write_bytes(b"WARC/1.0\r\n" + bytes(range(256)) * 8)
    assert scan(path) == [("broken-warc", 0, "the record at byte 0: it has no Content-Length (ISO 28500 §5.3 "
                                             "requires one): where it ends is unknown; its payload is not read")]


def test_a_ten_megabyte_header_line_is_a_defect_in_linear_time(tmp_path: Path) -> None:
    timings = []
    for size in (2_500_000, 10_000_000):
        first = b"WARC/1.0\r\nWARC-Type: " + b"x" * size + b"\r\n\r\n"
        path = tmp_path / f"line{size}.warc"
        path.write_bytes(first + record(1))
        start = time.perf_counter()
        assert scan(path) == [
            ("broken-warc", 0, "the record at byte 0: it has no Content-Length (ISO 28500 §5.3 requires one): "
             f"where it ends is unknown; its payload is not read; resumed at byte {len(first)}"),
            (len(first), "http://h1.example/p")]
        timings.append(time.perf_counter() - start)
    assert timings[1] < 4 * timings[0] + 1.0, timings  # four times the bytes, about four times the time


# -- truncated compression ------------------------------------------------------------------

TEXT = b"".join(b"line %d http://l%d.example/\n" % (i, i) for i in range(300))


@pytest.mark.parametrize("compress, method", [(gzip.compress, "gzip"), (bz2.compress, "bzip2"),
                                              (lzma.compress, "xz")])
def test_a_small_truncated_file_gives_every_byte_decoded_then_the_defect(
        tmp_path: Path, compress: Callable[[bytes], bytes], method: str) -> None:
    packed = compress(TEXT)
    path = tmp_path / "notes.txt.z"
    path.write_bytes(packed[: len(packed) // 2])  # a download stopped half way
    decoded = _decodable(packed[: len(packed) // 2], method)
    # (bzip2 gives nothing of a block cut short: there, nothing is the right answer)
    assert 0 < len(decoded) < len(TEXT) or method == "bzip2" and not decoded
    # every line decoded whole, and the link of the line cut off, as far as it goes
    lines = decoded.split(b"\n")
    links = [f"http://l{i}.example/" for i in range(len(lines) - 1)]
    cut_link = lines[-1].partition(b" ")[2].partition(b" ")[2].decode()
    if cut_link.startswith("http://l") and len(cut_link) > len("http://l"):
        links.append(cut_link)
    items = scan(path)
    assert items[:-1] == [(None, link) for link in links]
    assert items[-1] == ("corrupt-compression", len(decoded),
                         f"{method} data is corrupt or truncated (the {method} stream ends before its end marker: "
                         f"truncated); the {len(decoded)} bytes before it were scanned")


def _decodable(data: bytes, method: str) -> bytes:
    """What a decoder gives of ``data`` before it runs out or meets an error
    (fed a byte at a time, so that the output before an error is kept)."""
    decoder = (zlib.decompressobj(31) if method == "gzip" else bz2.BZ2Decompressor() if method == "bzip2"
               else lzma.LZMADecompressor())
    out = []
    try:
        for i in range(len(data)):
            out.append(decoder.decompress(data[i: i + 1]))
    except (zlib.error, OSError, lzma.LZMAError):
        pass
    return b"".join(out)


def test_a_second_stream_cut_short_keeps_the_first(tmp_path: Path) -> None:
    path = tmp_path / "two.txt.bz2"
    path.write_bytes(bz2.compress(b"http://one.example/\n") + bz2.compress(b"http://two.example/\n")[:-5])
    assert scan(path) == [
        (None, "http://one.example/"), (None, "http://two.example/"),
        ("corrupt-compression", 40, "bzip2 data is corrupt or truncated (the bzip2 stream ends before its end "
         "marker: truncated); the 40 bytes before it were scanned")]



# -- HTTP headers and codings ---------------------------------------------------------------

@pytest.mark.parametrize("value, expected", [
    # RFC 8288 §3: a comma inside a quoted-string does not end the link-value
    ('<http://a.example/>; title="one, two <http://no.example/>"; rel="next", <http://b.example/>; rel=prev',
     [("http://a.example/", ("next",)), ("http://b.example/", ("prev",))]),
    # a quoted-pair (RFC 9110 §5.6.4) and a second rel, which §3.3 says to ignore
    ('<a>; rel="x\\"y"; rel=ignored, <b>', [("a", ('x"y',)), ("b", None)]),
    # BWS around "=", rel tokens in lower case, an ext-value (RFC 8187) parameter
    ("<a> ; REL = \"Up  Next\" ; title*=UTF-8'de'n%c3%a4chstes, <b>", [("a", ("up", "next")), ("b", None)]),
    # a "<" with no ">", a comma left out, and an unterminated quoted string: what can be read
    ('<broken, <a> <b>; rel=x', [("a", None), ("b", ("x",))]),
    ('<a>; rel="open, <b>', [("a", None)]),
    ("", []),
])
def test_link_header_values(value: str, expected: list[tuple[str, tuple[str, ...] | None]]) -> None:
    assert list(link_values(value)) == expected


def test_link_header_parsing_is_linear() -> None:
    timings = []
    for n in (50_000, 200_000):
        start = time.perf_counter()
        for value in ("<a>" * n, "<" * n, '<a>; rel="' + "x," * n, "<a>;" * n):
            list(link_values(value))
        timings.append(time.perf_counter() - start)
    assert timings[1] < 8 * timings[0] + 0.5, timings


def test_a_quoted_comma_in_a_link_header_of_a_warc_record(tmp_path: Path) -> None:
    block = http(b'Link: </style.css>; title="a, b"; rel="preload stylesheet", </next>; rel=next\r\n', b"")
    path = tmp_path / "link.warc"
    path.write_bytes(record(0, block))
    records = [r for r in iter_input(str(path)) if isinstance(r, Record)]
    assert [(r.header, r.target, r.rel) for r in records] == [
        ("Link", "http://h0.example/style.css", ("preload", "stylesheet")),
        ("Link", "http://h0.example/next", ("next",))]


LINK = b"<html><a href='/coded'>x</a></html>"


def test_transfer_codings_before_chunked_are_undone_last_first(tmp_path: Path) -> None:
    blocks = [
        http(b"Transfer-Encoding: gzip, chunked\r\n", chunked(gzip.compress(LINK, mtime=0))),
        http(b"Transfer-Encoding: deflate\r\nContent-Encoding: gzip\r\n", zlib.compress(gzip.compress(LINK, mtime=0))),
        http(b"Transfer-Encoding: Chunked\r\n", chunked(LINK)),  # codings are case-insensitive (RFC 9112 §7)
        # a raw deflate stream where a zlib one belongs, as some servers send
        http(b"Content-Encoding: deflate\r\n", zlib.compress(LINK)[2:-4]),
        http(b"Content-Encoding: x-gzip\r\n", gzip.compress(LINK, mtime=0)),
    ]
    path = tmp_path / "te.warc"
    records = [record(n, block) for n, block in enumerate(blocks)]
    path.write_bytes(b"".join(records))
    starts = [sum(len(r) for r in records[:i]) for i in range(len(records))]
    assert scan(path) == [(start, f"http://h{n}.example/coded") for n, start in enumerate(starts)]


def test_an_unknown_coding_is_a_defect_and_the_payload_is_left_as_it_is(tmp_path: Path) -> None:
    first = record(0, http(b"Transfer-Encoding: compress, chunked\r\n", chunked(b"<a href='/raw'>")))
    path = tmp_path / "unknown.warc"
    path.write_bytes(first + record(1))
    assert scan(path) == [
        (0, "http://h0.example/raw"),  # de-chunked: chunked was undone, compress was not
        ("broken-warc", 0, "the record at byte 0 (<urn:uuid:0>, http://h0.example/): its Transfer-Encoding "
         "'compress' is not a coding this reader knows: the payload is scanned as it is from there"),
        (len(first), "http://h1.example/p")]


def test_a_corrupt_or_truncated_gzip_body_keeps_what_came_before(tmp_path: Path) -> None:
    page = b"".join(b"<a href='/p%d'>x</a>\n" % i for i in range(3000))
    packed = gzip.compress(page, mtime=0)
    bad = packed[:2000] + bytes(range(200)) * 2 + packed[2400:]
    records = [record(0, http(b"Content-Encoding: gzip\r\n", bad)),
               record(1, http(b"Content-Encoding: gzip\r\n", packed[:3000])), record(2)]
    path = tmp_path / "body.warc"
    path.write_bytes(b"".join(records))
    starts = [sum(len(r) for r in records[:i]) for i in range(3)]
    items = scan(path)
    defects = [r for r in items if r[0] == "broken-warc"]
    good = _decodable(bad, "gzip")  # (what zlib gives of it before the error)
    cut = _decodable(packed[:3000], "gzip")
    assert defects == [
        ("broken-warc", 0, f"the record at byte 0 (<urn:uuid:0>, http://h0.example/): the payload could not be "
         f"decoded past byte {len(good)} (its Content-Encoding gzip could not be undone: Error -3 while "
         "decompressing data: invalid distance too far back); what came before was scanned"),
        ("broken-warc", starts[1], f"the record at byte {starts[1]} (<urn:uuid:1>, http://h1.example/): the payload "
         f"could not be decoded past byte {len(cut)} (its Content-Encoding gzip could not be undone: its gzip data "
         "ends before its end: truncated); what came before was scanned")]
    per_record = {start: sum(1 for r in items if r[0] == start) for start in starts}
    assert per_record == {starts[0]: good.count(b"</a>"), starts[1]: cut.count(b"</a>"), starts[2]: 1}
    assert items[-1] == (starts[2], "http://h2.example/p")


# -- as a user runs it -----------------------------------------------------------------------

def _run(args: list[str], data: bytes | None = None) -> tuple[int, list[dict[str, object]], str]:
    proc = subprocess.run([sys.executable, "-m", "urisift", "--format", "jsonl", *args], input=data,
                          capture_output=True, timeout=120, check=False)
    return proc.returncode, [json.loads(line) for line in proc.stdout.splitlines()], proc.stderr.decode()


def test_the_command_on_a_broken_warc_file_and_a_broken_warc_gz_on_a_pipe(tmp_path: Path) -> None:
    records = [record(0), record(1, length=b"%d" % (len(PAGE) + 5)), record(2)]
    path = tmp_path / "broken.warc"
    path.write_bytes(b"".join(records))
    code, lines, err = _run([str(path)])
    assert code == 0 and [(line.get("offset"), line.get("target"), line.get("defect")) for line in lines] == [
        (0, "http://h0.example/p", None), (len(records[0]), "http://h1.example/p", None),
        (None, None, "broken-warc"), (len(records[0]) + len(records[1]), "http://h2.example/p", None)]
    assert f"resumed at byte {len(records[0]) + len(records[1])}" in err

    members = _members(record(0), record(1), record(2))
    members[1] = _corrupt(members[1])
    code, lines, err = _run([], b"".join(members))  # cat broken.warc.gz | urisift --format jsonl
    assert code == 0 and [(line.get("offset"), line.get("target"), line.get("defect")) for line in lines] == [
        (0, "http://h0.example/p", None), (None, None, "broken-warc"),
        (len(members[0]) + len(members[1]), "http://h2.example/p", None)]
    assert f"resumed at byte {len(members[0]) + len(members[1])}" in err


def test_a_content_length_past_the_end_on_a_pipe_resumes_at_the_record_inside(tmp_path: Path) -> None:
    # a pipe cannot be measured first: the record takes in what follows it (its
    # payload then holds the next record's header and page: h1's target URI as
    # text, and its '/p' against h0), and the reader goes back for that record
    first = record(0, length=b"%d" % 10**18)
    assert piped(first + record(1)) == [
        (0, "http://h0.example/p"), (0, "http://h1.example/"), (0, "http://h0.example/p"),
        ("broken-warc", 0, f"the record at byte 0 (<urn:uuid:0>, http://h0.example/): its Content-Length runs past "
         f"the end of the input, and a record starts inside it, at byte {len(first)}: what it took in of the "
         "records after it was scanned as its payload too; resumed there"),
        (len(first), "http://h1.example/p")]


def test_a_content_length_longer_than_its_gzip_member_or_too_short(tmp_path: Path) -> None:
    members = _members(record(0, length=b"%d" % (len(PAGE) + 40)), record(1))
    gz = tmp_path / "long-member.warc.gz"
    gz.write_bytes(b"".join(members))
    assert scan(gz) == [
        (0, "http://h0.example/p"),
        ("broken-warc", 0, f"the record at byte 0 (<urn:uuid:0>, http://h0.example/) is cut short: its "
         f"Content-Length ({len(PAGE) + 40}) is 36 bytes more than its gzip member holds"),
        (len(members[0]), "http://h1.example/p")]
    short = record(0, length=b"%d" % (len(PAGE) - 5))
    path = tmp_path / "short.warc"
    path.write_bytes(short + record(1))
    # the record's last 5 bytes ("x</a>") are left out of it; the next record is still read
    assert scan(path) == [
        (0, "http://h0.example/p"),
        ("broken-warc", 0, "the record at byte 0 (<urn:uuid:0>, http://h0.example/) was not followed by a blank "
         f"line: its Content-Length is likely wrong; the next record was found at byte {len(short)}"),
        (len(short), "http://h1.example/p")]


@pytest.mark.parametrize("shape", ["line", "folded"])
def test_long_or_folded_http_header_lines_stay_linear(tmp_path: Path, shape: str) -> None:
    # warcio grew a line with += a block at a time, and a folded field with +=
    # a line at a time: a 40 MB line took 47 s, 10 MB of folded lines ten minutes
    timings = []
    for size in (250_000, 1_000_000):
        lines = b"X: " + b"a" * size + b"\r\n" if shape == "line" else b"X: a\r\n" + b" a\r\n" * (size // 4)
        path = tmp_path / f"{shape}{size}.warc"
        path.write_bytes(record(0, http(lines, b"<a href='/p'>x</a>")) + record(1))
        start = time.perf_counter()
        assert scan(path) == [(0, "http://h0.example/p"),
                              (len(path.read_bytes()) - len(record(1)), "http://h1.example/p")]
        timings.append(time.perf_counter() - start)
    assert timings[1] < 4 * timings[0] + 1.0, timings


def test_many_small_broken_records_stay_linear(tmp_path: Path) -> None:
    # each is a defect and a search for the next record: that search must not
    # read a megabyte each time (a 16 MB file of them took a minute)
    broken = b"WARC/1.0\r\nWARC-Type: x\r\nWARC-Record-ID: <y>\r\n\r\n"
    timings = []
    for count in (2_500, 10_000):
        path = tmp_path / f"many{count}.warc"
        path.write_bytes(broken * count + record(1))
        start = time.perf_counter()
        items = scan(path)
        timings.append(time.perf_counter() - start)
        assert len(items) == count + 1 and items[-1] == (len(broken) * count, "http://h1.example/p")
        assert items[0] == ("broken-warc", 0, "the record at byte 0 (<y>): it has no Content-Length (ISO 28500 "
                            f"§5.3 requires one): where it ends is unknown; its payload is not read; resumed at "
                            f"byte {len(broken)}")
    assert timings[1] < 6 * timings[0] + 0.5, timings


def test_a_response_without_a_target_uri_is_named_once_and_the_next_record_read(tmp_path: Path) -> None:
    # (warcio fails on it with an AttributeError; the resync found the record
    # itself again, and said so twice)
    untargeted = (b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:7>\r\nContent-Length: %d\r\n\r\n"
                  % len(PAGE) + PAGE + b"\r\n\r\n")
    path = tmp_path / "untargeted.warc"
    path.write_bytes(record(0) + untargeted + record(1))
    assert scan(path) == [
        (0, "http://h0.example/p"),
        ("broken-warc", len(record(0)), "a record could not be read (a response record without a WARC-Target-URI, "
         f"which ISO 28500 §5.14 requires of it); resumed at byte {len(record(0)) + len(untargeted)}"),
        (len(record(0)) + len(untargeted), "http://h1.example/p")]


# -- every version the reader accepts resynchronises ------------------------------------------

def versioned(n: int, version: bytes, length: bytes | None = None, end: bytes = b"\r\n\r\n") -> bytes:
    """:func:`record` written as WARC/``version``, ending with ``end``."""
    return record(n, length=length).replace(b"WARC/1.0", b"WARC/" + version, 1)[:-4] + end


_ARC_FIELDS = b"1 0 Example\nURL IP-address Archive-date Content-type Archive-length\n"
#: an ARC file's first record, the one that describes it
ARC_HEAD = b"filedesc://x.arc 0.0.0.0 20240603120000 text/plain %d\n" % len(_ARC_FIELDS) + _ARC_FIELDS + b"\n"


def arc(n: int, length: int | None = None, end: bytes = b"\n", path: bytes = b"") -> bytes:
    """An ARC (version 1) record numbered ``n``; ``length`` replaces its length."""
    return (b"http://h%d.example/%s 10.0.0.1 20240603120000 text/html %d\n"
            % (n, path, len(PAGE) if length is None else length) + PAGE + end)


def _starts(parts: list[bytes]) -> list[int]:
    return [sum(len(p) for p in parts[:i]) for i in range(len(parts))]


@pytest.mark.parametrize("version", [b"0.17", b"0.18", b"1.1"])
def test_a_draft_warc_resumes_after_a_content_length_too_long(tmp_path: Path, version: bytes) -> None:
    parts = [versioned(0, version), versioned(1, version, length=b"%d" % (len(PAGE) + 5)), versioned(2, version),
             versioned(3, version)]
    starts = _starts(parts)
    path = tmp_path / "draft.warc"
    path.write_bytes(b"".join(parts))
    line = len(b"WARC/%s\r\n" % version)
    assert scan(path) == [
        (0, "http://h0.example/p"), (starts[1], "http://h1.example/p"),
        ("broken-warc", starts[2] + line,
         f"{NOT_A_RECORD}; resumed at byte {starts[2]} (the record at byte {starts[1]} (<urn:uuid:1>, "
         "http://h1.example/) ran on into it: its Content-Length is likely too long)"),
        (starts[2], "http://h2.example/p"), (starts[3], "http://h3.example/p")]
    assert piped(path.read_bytes()) == scan(path)


def test_an_arc_file_resumes_after_a_length_too_long(tmp_path: Path) -> None:
    parts = [ARC_HEAD, arc(0), arc(1, length=len(PAGE) + 5), arc(2), arc(3)]
    starts = _starts(parts)
    path = tmp_path / "broken.arc"
    path.write_bytes(b"".join(parts))
    header = len(arc(2)) - len(PAGE) - 1  # (warcio looked for the next record after the 5 bytes)
    assert scan(path) == [
        (starts[1], "http://h0.example/p"), (starts[2], "http://h1.example/p"),
        ("broken-warc", starts[3] + header,
         f"{NOT_A_RECORD}; resumed at byte {starts[3]} (the record at byte {starts[2]} (http://h1.example/) ran on "
         "into it: its Content-Length is likely too long)"),
        (starts[3], "http://h2.example/p"), (starts[4], "http://h3.example/p")]
    assert piped(path.read_bytes()) == scan(path)


@pytest.mark.parametrize("first", [ARC_HEAD, versioned(9, b"0.18")], ids=["arc", "warc 0.18"])
def test_an_arc_gz_or_draft_warc_gz_resumes_after_a_corrupt_member(tmp_path: Path, first: bytes) -> None:
    arc_file = first.startswith(b"filedesc")
    # (an ARC record's header line is read whole: a long URL in it, too)
    records = [arc(n, path=b"q" * 300 if n == 2 else b"") if arc_file else versioned(n, b"0.18") for n in range(3)]
    members = _members(first, *records)
    members[2] = _corrupt(members[2])
    starts = _starts(members)
    path = tmp_path / ("broken.arc.gz" if arc_file else "broken.warc.gz")
    path.write_bytes(b"".join(members))
    own = [] if arc_file else [(0, "http://h9.example/p")]
    assert scan(path) == [
        *own, (starts[1], "http://h0.example/p"),
        ("broken-warc", starts[2], f"{NOT_A_RECORD}; resumed at byte {starts[3]}"),
        (starts[3], "http://h2.example/p")]
    assert piped(path.read_bytes()) == scan(path)


@pytest.mark.parametrize("version", [b"1.0", b"1.1", b"0.18", b"arc"])
def test_a_record_without_the_blank_line_after_it_costs_nothing(tmp_path: Path, version: bytes) -> None:
    # warcio took the next record's first line for the blank line it looks for: that
    # record, whole, was lost (and in ARC, every record after it)
    if version == b"arc":
        parts = [ARC_HEAD, arc(0), arc(1, end=b""), arc(2), arc(3)]
        starts = _starts(parts)[1:]
        who = f"the record at byte {starts[1]} (http://h1.example/)"
    else:
        parts = [versioned(0, version), versioned(1, version, end=b""), versioned(2, version), versioned(3, version)]
        starts = _starts(parts)
        who = f"the record at byte {starts[1]} (<urn:uuid:1>, http://h1.example/)"
    path = tmp_path / "blank.warc"
    path.write_bytes(b"".join(parts))
    assert scan(path) == [
        (starts[0], "http://h0.example/p"), (starts[1], "http://h1.example/p"),
        ("broken-warc", starts[1], f"{who} was not followed by a blank line; the next record starts right after "
         f"its block, at byte {starts[2]}"),
        (starts[2], "http://h2.example/p"), (starts[3], "http://h3.example/p")]
    assert piped(path.read_bytes()) == scan(path)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_an_arc_file_cut_for_parallel_work_loses_only_its_broken_record(tmp_path: Path, jobs: str) -> None:
    # 12,000 records (5.8 MB: cut in ranges for the workers), one of them broken: the
    # 6,000 after it were lost, with any --jobs
    parts = [ARC_HEAD] + [arc(n, length=len(PAGE) + 5 if n == 6000 else None) for n in range(12_000)]
    path = tmp_path / "big.arc"
    path.write_bytes(b"".join(parts))
    code, lines, err = _run(["-j", jobs, "--fields", "target", str(path)])
    targets = [line["target"] for line in lines if "defect" not in line]
    assert code == 0 and targets == [f"http://h{n}.example/p" for n in range(12_000)]
    assert [line["defect"] for line in lines if "defect" in line] == ["broken-warc"]
