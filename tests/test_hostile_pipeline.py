"""The guarantees before and around the readers: the kind sniffer, the
decompression of an input or a payload, and the budgets the pipeline
enforces whatever the reader.  Each class with the input, record or link
after it still found; each run as the command in a child process with a
timeout, since what it guards against is a hang."""

from __future__ import annotations

import bz2
import gzip
import lzma
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from .conftest import ROOT

SRC = str(ROOT / "src")


def _run(args: list[str], stdin: bytes = b"", timeout: float = 60) -> subprocess.CompletedProcess[bytes]:
    """The command on ``args``, this tree's package; a hang fails the test at ``timeout``."""
    env = {**os.environ, "PYTHONPATH": SRC}
    return subprocess.run([sys.executable, "-m", "urisift", *args], input=stdin, capture_output=True, env=env,
                          timeout=timeout, check=False)


# -- the kind sniffer ----------------------------------------------------------------------

#: an RSS feed whose licence comment does not close within the sniffer's first 4 KiB
_FEED = (b'<?xml version="1.0"?>\n<!-- licence ' + b"x" * 5000 + b" -->\n"
         b"<rss><channel><link>http://feed.example/</link></channel></rss>\n")
#: a markup declaration first, then a comment that does not close within the first 4 KiB
_DECLARED = b"<!DOCTYPE x>\n<!-- " + b" " * 5000 + b"\n http://stdin.example/ -->\n"


@pytest.mark.parametrize("name", ["feed.rss", "feed"])
def test_sniffer_ends_on_a_comment_open_past_its_sample(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_bytes(_FEED)
    done = _run([str(path)], timeout=30)
    assert done.stdout.decode() == "http://feed.example/\n"
    assert done.returncode == 0


def test_sniffer_ends_on_standard_input_opening_with_a_declaration() -> None:
    done = _run([], stdin=_DECLARED, timeout=30)
    assert done.stdout.decode() == "http://stdin.example/\n"
    assert b"uncertain-kind" in done.stderr


def test_sniffer_ends_on_an_xml_declaration_on_standard_input() -> None:
    done = _run([], stdin=_FEED, timeout=30)
    # no name, and a root past the sample: read as text, its link still found
    assert done.stdout.decode() == "http://feed.example/\n"


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_directory_walk_reads_the_file_after_one_the_sniffer_cannot_place(tmp_path: Path, jobs: str) -> None:
    (tmp_path / "a.rss").write_bytes(_FEED)
    (tmp_path / "b").write_bytes(_DECLARED)
    (tmp_path / "c.txt").write_bytes(b"see http://later.example/ ok\n")
    done = _run(["-j", jobs, str(tmp_path)], timeout=30)
    assert done.stdout.decode().splitlines() == ["http://feed.example/", "http://stdin.example/",
                                                 "http://later.example/"]


# -- every inflation of a document counts against its inflate budget --------------------------

def _page(size: int) -> bytes:
    """A page with a link first, ``size`` bytes of paragraphs, and a link last."""
    return (b"<html><body><a href='http://first.example/'>x</a>\n" + b"<p>" + b"z" * (size - 70) + b"</p>\n"
            + b"<a href='http://last.example/'>e</a>")


def _bombs(stderr: bytes) -> list[str]:
    return [line for line in stderr.decode().splitlines() if ": bomb: " in line]


@pytest.mark.parametrize(("name", "pack"), [
    ("a.html.gz", lambda data: gzip.compress(data)),
    ("a.html.bz2", lambda data: bz2.compress(data)),
    ("a.html.xz", lambda data: lzma.compress(data)),
])
def test_a_compressed_input_inflates_within_its_budget(tmp_path: Path, name: str, pack: Any) -> None:
    (tmp_path / name).write_bytes(pack(_page(4 << 20)))
    (tmp_path / "b.txt").write_bytes(b"see http://later.example/\n")
    done = _run(["--inflate-budget", "1M", str(tmp_path)])
    assert done.stdout.decode().splitlines() == ["http://first.example/", "http://later.example/"]
    assert _bombs(done.stderr) == [
        f"urisift: {tmp_path / name}: bomb: it inflates past the document's inflate budget (1048576 bytes, "
        "--inflate-budget): what it inflates to from byte 1048576 on not read"]


def test_a_compressed_style_sheet_inflates_within_its_budget(tmp_path: Path) -> None:
    sheet = b"a{background:url(http://first.example/c.png)}/*" + b" " * (4 << 20) + b"*/b{background:url(last.png)}"
    (tmp_path / "a.css.xz").write_bytes(lzma.compress(sheet))
    (tmp_path / "b.txt").write_bytes(b"see http://later.example/\n")
    done = _run(["--inflate-budget", "1M", str(tmp_path)])
    assert done.stdout.decode().splitlines() == ["http://first.example/c.png", "http://later.example/"]
    assert len(_bombs(done.stderr)) == 1


def _response(uri: bytes, http_headers: bytes, body: bytes, number: int) -> bytes:
    http = b"HTTP/1.1 200 OK\r\n" + http_headers + b"Content-Length: %d\r\n\r\n" % len(body) + body
    return (b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: " + uri + b"\r\nWARC-Date: 2024-06-03T12:00:00Z\r\n"
            b"WARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-%012d>\r\n" % number
            + b"Content-Type: application/http; msgtype=response\r\nContent-Length: %d\r\n\r\n" % len(http)
            + http + b"\r\n\r\n")


def test_a_payload_content_coding_inflates_within_the_record_budget(tmp_path: Path) -> None:
    coded = gzip.compress(_page(4 << 20))
    warc = (gzip.compress(_response(b"http://h.example/big", b"Content-Type: text/html\r\nContent-Encoding: gzip\r\n",
                                    coded, 1))
            + gzip.compress(_response(b"http://h.example/next", b"Content-Type: text/html\r\n",
                                      b"<a href='http://next.example/'>n</a>", 2)))
    path = tmp_path / "a.warc.gz"
    path.write_bytes(warc)
    done = _run(["--inflate-budget", "1M", str(path)])
    assert [line for line in done.stdout.decode().splitlines() if "example/" in line and "h.example" not in line] == [
        "http://first.example/", "http://next.example/"]
    assert len(_bombs(done.stderr)) == 1
    assert _bombs(done.stderr)[0].startswith(
        f"urisift: {path} record <urn:uuid:00000000-0000-0000-0000-000000000001>: bomb: it inflates past "
        "the document's inflate budget (1048576 bytes, --inflate-budget)")


# -- the time budget, kept by the pipeline whatever the reader --------------------------------

def _timed(tmp_path: Path, name: str, data: bytes, jobs: str = "1") -> subprocess.CompletedProcess[bytes]:
    (tmp_path / name).write_bytes(data)
    (tmp_path / "z.txt").write_bytes(b"see http://later.example/\n")
    return _run(["-j", jobs, "--time-budget", "0.2", str(tmp_path)], timeout=60)


def _ended_in_time(done: subprocess.CompletedProcess[bytes], name: str, workers: int = 1) -> None:
    lines = done.stdout.decode().splitlines()
    assert lines[-1] == "http://later.example/"
    assert 200 < len(lines) < 1_000_000  # some read, the rest not
    bombs = _bombs(done.stderr)
    # a file the plan cuts into ranges (-j 2): each worker's ranges share one account, said once
    assert 1 <= len(bombs) <= workers
    for bomb in bombs:
        assert bomb.startswith(f"urisift: {done.args[-1]}/{name}")
        assert ": bomb: the document's time budget (0.2 s, --time-budget) ran out: " in bomb


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_text_file_ends_at_its_time_budget(tmp_path: Path, jobs: str) -> None:
    data = b"".join(b"http://t%d.example/p\n" % i for i in range(1_000_000))
    _ended_in_time(_timed(tmp_path, "a.txt", data, jobs), "a.txt", int(jobs))


def test_a_style_sheet_ends_at_its_time_budget(tmp_path: Path) -> None:
    data = b"".join(b"a%d{background:url(http://c%d.example/i.png)}\n" % (i, i) for i in range(1_000_000))
    _ended_in_time(_timed(tmp_path, "a.css", data), "a.css")


def test_a_mail_text_part_ends_at_its_time_budget(tmp_path: Path) -> None:
    body = b"".join(b"http://m%d.example/p\r\n" % i for i in range(1_000_000))
    message = (b"From: a@example.com\r\nDate: Mon, 3 Jun 2024 12:00:00 +0000\r\nSubject: s\r\n"
               b"Content-Type: text/plain\r\n\r\n" + body)
    _ended_in_time(_timed(tmp_path, "a.eml", message), "a.eml")


def test_a_compressed_text_ends_at_its_time_budget(tmp_path: Path) -> None:
    data = b"".join(b"http://t%d.example/p\n" % i for i in range(1_000_000))
    _ended_in_time(_timed(tmp_path, "a.txt.bz2", bz2.compress(data)), "a.txt.bz2")


# -- a document a reader holds whole is bounded ---------------------------------------------

def test_a_page_held_whole_is_read_up_to_its_bound(tmp_path: Path) -> None:
    from urisift import Defect, Record, ScanOptions, iter_input
    from urisift.stages.containment import Limits

    (tmp_path / "a.html").write_bytes(_page(4 << 20))
    (tmp_path / "b.css").write_bytes(b"a{background:url(http://first.example/c.png)}/*" + b" " * (4 << 20) + b"*/"
                                     b"b{background:url(http://last.example/c.png)}")
    options = ScanOptions(limits=Limits(whole=1 << 20))
    for name, first in (("a.html", "http://first.example/"), ("b.css", "http://first.example/c.png")):
        items = list(iter_input(str(tmp_path / name), options))
        assert [i.uri for i in items if isinstance(i, Record)] == [first]
        assert [i.detail for i in items if isinstance(i, Defect)] == [
            "its reader holds it whole, and it is longer than 1048576 bytes, the bound of a document held whole: "
            "its bytes from byte 1048576 on not read"]
    # a page of exactly the bound is whole
    (tmp_path / "c.html").write_bytes(_page(1 << 20)[: 1 << 20])
    assert not [i for i in iter_input(str(tmp_path / "c.html"), options) if isinstance(i, Defect)]


# -- a long header is held a bounded number of times --------------------------------------------

@pytest.mark.parametrize("message", [
    b"From: a@example.com\nSubject: " + b"word " * 1_000_000 + b"\n\nhttp://body.example/\n",  # one 5 MB line
    b"From: a@example.com\nSubject: " + b"<id@example.com>\n " * 275_000 + b"x\n\nhttp://body.example/\n",  # folded
], ids=["line", "folded"])
def test_a_long_header_is_not_copied_line_by_line(message: bytes) -> None:
    import tracemalloc

    from urisift import scan_message

    tracemalloc.start()
    try:
        uris = [r.uri for r in scan_message(message)]
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert uris == ["http://body.example/"]
    # the message, its text, the value and its unfolded copy: about 3.4 times it (5.4 and 6.1 before:
    # the heading copied three times; the folded value split into a string a line)
    # (CPython's email package of 3.11.2 takes 8 times the message to parse such a header)
    assert peak < (4.2 if sys.version_info >= (3, 11, 7) else 9) * len(message)


def _base64_part_message(size: int) -> bytes:
    import base64

    page = b"<a href='http://first.example/'>f</a>" + b"<p>words words words</p>\n" * (size * 3 // 4 // 26)
    return (b"From: a@example.com\nDate: Mon, 3 Jun 2024 12:00:00 +0000\nMIME-Version: 1.0\n"
            b"Content-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: text/html\n"
            b"Content-Transfer-Encoding: base64\n\n" + base64.encodebytes(page) + b"\n--b\nContent-Type: text/plain\n\n"
            b"see http://after.example/\n--b--\n")


def test_a_large_base64_part_is_parsed_and_decoded_without_copies_a_line() -> None:
    import tracemalloc

    from urisift import scan_message
    from urisift.model import Origin
    from urisift.readers.mail.nesting import checked_parse
    from urisift.readers.mail.parts import transfer_decoded

    data = _base64_part_message(5_000_000)
    tracemalloc.start()
    try:
        message, defects = checked_parse(data, Origin())
        parsed = tracemalloc.get_traced_memory()[1]
        tracemalloc.reset_peak()
        held = tracemalloc.get_traced_memory()[0]
        body = transfer_decoded(message.get_payload()[0])
        decoded = tracemalloc.get_traced_memory()[1] - held
    finally:
        tracemalloc.stop()
    assert defects == [] and body is not None and body.startswith(b"<a href='http://first.example/'>")
    # the parse: 8.8 times the message before (its text in a StringIO, four bytes a character), 3.8 now;
    # the base64 body: 4.6 times before (a bytes object a line, joined), 2.0 now
    assert parsed < 5 * len(data)
    assert decoded < 3 * len(data)
    assert [r.uri for r in scan_message(data)] == ["http://first.example/", "http://after.example/"]


def test_a_document_cut_at_its_bound_and_then_out_of_time_says_both(tmp_path: Path) -> None:
    from urisift import Defect, Record, ScanOptions, iter_input
    from urisift.stages.containment import EVERY, Limits

    path = tmp_path / "a.css"
    path.write_bytes(b"".join(b"a%d{background:url(http://c%d.example/i.png)}\n" % (i, i) for i in range(5_000)))
    items = list(iter_input(str(path), ScanOptions(limits=Limits(whole=100_000, seconds=1e-9))))
    assert len([i for i in items if isinstance(i, Record)]) == EVERY
    # the time, when it ran out; the bound, once the reader is done
    assert [i.detail for i in items if isinstance(i, Defect)] == [
        "the document's time budget (1e-09 s, --time-budget) ran out: the rest of its css content (its bytes were "
        "read up to byte 100000) not read",
        "its reader holds it whole, and it is longer than 100000 bytes, the bound of a document held whole: its "
        "bytes from byte 100000 on not read"]
