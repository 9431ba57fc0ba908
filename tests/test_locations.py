"""Issue 37, "output that is not what it says": text output's location is
for a person at a terminal (into a pipe, a file or with -0, the URLs alone,
so that the documented pipelines work as written), ``-o -`` is standard
output, and a location in an mbox or WARC is the file's line."""

from __future__ import annotations

import io
import os
import pty
import re
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from urisift.cli.command import main

from .conftest import ROOT

ENV = {**os.environ, "PYTHONPATH": str(ROOT / "src")}


def run(argv: list[str], stdin: bytes = b"") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdin=io.BytesIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def on_a_terminal(argv: list[str], cwd: Path) -> str:
    """What the command writes when its standard output is a terminal (a pty)."""
    leader, follower = pty.openpty()
    done = subprocess.run([sys.executable, "-m", "urisift", *argv], stdout=follower, stderr=subprocess.DEVNULL,
                          cwd=cwd, env=ENV, timeout=60)
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal's other end is closed: all read
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    assert done.returncode == 0
    return b"".join(chunks).decode().replace("\r\n", "\n")


@pytest.fixture()
def docs(tmp_path: Path) -> Path:
    (tmp_path / "docs" / "more").mkdir(parents=True)
    (tmp_path / "docs" / "a.md").write_text("see http://127.0.0.1:1/a and\nhttp://127.0.0.1:1/b\n")
    (tmp_path / "docs" / "more" / "c.txt").write_text("and http://127.0.0.1:1/c\n")
    return tmp_path


def test_the_location_is_for_a_terminal(docs: Path) -> None:
    a, c = os.path.join("docs", "a.md"), os.path.join("docs", "more", "c.txt")
    urls = ["http://127.0.0.1:1/a", "http://127.0.0.1:1/b", "http://127.0.0.1:1/c"]
    located = f"{a}:1:5:{urls[0]}\n{a}:2:1:{urls[1]}\n{c}:1:5:{urls[2]}\n"
    # a terminal, several inputs or a directory: grep's default
    assert on_a_terminal(["docs/"], docs) == located
    # with -0 the URLs alone (NUL-terminated), unless -H asks
    assert on_a_terminal(["-0", "docs/"], docs) == "".join(u + "\0" for u in urls)
    assert on_a_terminal(["-0", "-H", "docs/"], docs) == located.replace("\n", "\0")
    # into a pipe or a file: what the next program takes
    piped = subprocess.run([sys.executable, "-m", "urisift", "docs/"], capture_output=True, cwd=docs, env=ENV,
                           timeout=60)
    assert piped.stdout.decode() == "".join(u + "\n" for u in urls)
    assert subprocess.run([sys.executable, "-m", "urisift", "-H", "docs/"], capture_output=True, cwd=docs,
                          env=ENV, timeout=60).stdout.decode() == located


class _Head(BaseHTTPRequestHandler):
    """A HEAD answered with fixed headers, so that curl -sI's output is known."""

    def version_string(self) -> str:
        return "test"

    def date_time_string(self, timestamp: float | None = None) -> str:
        return "Thu, 01 Jan 2026 00:00:00 GMT"

    def log_message(self, *args: object) -> None:
        pass

    def do_HEAD(self) -> None:  # noqa: N802 - http.server's name
        self.send_response(200 if self.path != "/c" else 404)
        self.send_header("X-Path", self.path)
        self.end_headers()


@pytest.fixture()
def server() -> Iterator[int]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Head)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield int(httpd.server_address[1])
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_the_docs_xargs_example_works_as_written(docs: Path, server: int) -> None:
    # the example stands in docs/getting-started.md (the tests of docs/ leave it to this test)
    page = (ROOT / "docs" / "getting-started.md").read_text("utf-8")
    example = re.search(r"^(urisift -0 docs/ \| xargs -0 -n1 curl -sI) ", page, re.M)
    if shutil.which("curl") is None or shutil.which("urisift") is None or example is None:
        pytest.skip("curl, or the urisift command, is not installed")
    for path in (docs / "docs" / "a.md", docs / "docs" / "more" / "c.txt"):
        path.write_text(path.read_text().replace("127.0.0.1:1/", f"127.0.0.1:{server}/"))
    done = subprocess.run(example.group(1), shell=True, capture_output=True, cwd=docs, env=ENV,
                          timeout=60)
    head = "HTTP/1.0 {status}\r\nServer: test\r\nDate: Thu, 01 Jan 2026 00:00:00 GMT\r\nX-Path: /{path}\r\n\r\n"
    assert (done.returncode, done.stdout.decode(), done.stderr) == (0, "".join(
        head.format(status=status, path=path) for status, path in (("200 OK", "a"), ("200 OK", "b"),
                                                                  ("404 Not Found", "c"))), b"")


def test_dash_o_dash_is_standard_output(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert run(["-o", "-"], b"see http://a.example/\n") == (0, "http://a.example/\n", "")
    assert run(["--format", "jsonl", "--fields", "uri", "--output", "-"], b"http://a.example/\n") == (
        0, '{"uri": "http://a.example/"}\n', "")
    assert not (tmp_path / "-").exists()
    assert run(["--format", "parquet", "-o", "-"], b"") == (
        2, "", "urisift: --format parquet writes a file, not standard output: give it with --output FILE\n")


# -- the file's line, in mail and WARC ----------------------------------------------------------

BOX = (
    b"From alice@example.org Mon Jan  2 10:00:00 2006\n"
    b"From: alice@example.org\nDate: Mon, 2 Jan 2006 10:00:00 +0000\nSubject: first\n"
    b"List-Archive: <http://lists.example.org/archive/>\nMIME-Version: 1.0\n"
    b'Content-Type: multipart/mixed; boundary="b"\n\n'
    b"--b\nContent-Type: text/plain\n\nplain text\nsee http://plain.example/one and\n"
    b">From the escaped line http://escaped.example/\n"
    b"--b\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n"
    b"caf=C3=A9 then a long link http://qp.example/very/long/=\npath/end and http://qp.example/after/\n"
    b"--b\nContent-Type: text/plain; format=flowed\n\nflowed http://flow.example/a/ \nb/c and more "
    b"http://flow.example/second\n"
    b"--b\nContent-Type: text/plain\nContent-Transfer-Encoding: base64\n\nc2VlIGh0dHA6Ly9iNjQuZXhhbXBsZS8K\n"
    b"--b--\n\n"
    b"From bob@example.org Mon Jan  2 11:00:00 2006\n"
    b"From: bob@example.org\nDate: Mon, 2 Jan 2006 11:00:00 +0000\nSubject: second http://subject.example/\n\n"
    b"body http://second.example/\n")


def test_a_location_in_an_mbox_is_the_files_line(tmp_path: Path) -> None:
    box = tmp_path / "box.mbox"
    box.write_bytes(BOX)
    code, out, err = run(["-H", str(box)])
    assert (code, err) == (0, "")
    assert out == "".join(f"{box}:{line}\n" for line in (
        "5:16:http://lists.example.org/archive/",  # a heading's reference: its line too
        "13:5:http://plain.example/one",  # (the mips.mbox:19:32: for line 187 of the file)
        "14:24:http://escaped.example/",  # ">From" as stored, though the message reads "From"
        "19:28:http://qp.example/very/long/path/end",  # quoted-printable: the file's column, past "=C3=A9"
        "20:14:http://qp.example/after/",  # the line after a soft line break
        "24:8:http://flow.example/a/",
        "25:14:http://flow.example/second",  # format=flowed: the line it stands on before rejoining
        "0/4/1:5:http://b64.example/",  # base64: message 0, part 4, its line 1
        "36:17:http://subject.example/",
        "38:6:http://second.example/"))
    lines = out.splitlines()
    for number, line in enumerate(BOX.decode().split("\n"), start=1):
        for record in lines:
            where, _, url = record.partition(f"{box}:")[2].partition(":")[2].partition(":")
            if record.startswith(f"{box}:{number}:"):
                column = int(where)
                assert line[column - 1:].startswith(url.split("//")[0]), (number, line, record)


def test_a_message_file_and_a_plain_warc_give_the_files_line(tmp_path: Path) -> None:
    message = tmp_path / "m.eml"
    message.write_bytes(BOX.split(b"\n", 1)[1].split(b"\n\nFrom bob")[0] + b"\n")
    assert run(["-H", str(message)])[1].splitlines()[:3] == [
        f"{message}:4:16:http://lists.example.org/archive/", f"{message}:12:5:http://plain.example/one",
        f"{message}:13:24:http://escaped.example/"]  # (">From" is what a message file holds, as written)
    payload = b"HTTP/1.1 302 Found\r\nLocation: /moved\r\nContent-Type: text/html\r\n\r\n<a href='/x'>x</a>\n"
    record = (b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-000000000003>\r\n"
              b"WARC-Target-URI: http://w.example/\r\nWARC-Date: 2024-01-01T00:00:00Z\r\n"
              b"Content-Type: application/http;msgtype=response\r\nContent-Length: %d\r\n\r\n" % len(payload)
              + payload + b"\r\n\r\n")
    plain = tmp_path / "a.warc"
    plain.write_bytes(record + record)
    packed = tmp_path / "b.warc.gz"
    import gzip

    packed.write_bytes(gzip.compress(record))
    assert run(["-H", str(plain), str(packed)])[1] == (
        f"{plain}:10:11:http://w.example/moved\n{plain}:13:10:http://w.example/x\n"
        f"{plain}:25:11:http://w.example/moved\n{plain}:28:10:http://w.example/x\n"
        # a gzip member's lines are not the file's: the record's offset, the line in its payload
        f"{packed}:@0/-:-:http://w.example/moved\n{packed}:@0/1:10:http://w.example/x\n")


def test_every_location_has_three_fields_and_jobs_give_the_same(tmp_path: Path) -> None:
    big = tmp_path / "big.mbox"  # past two ranges of 8 MB: cut at envelope lines, renumbered after
    with big.open("wb") as f:
        for n in range(19_000):
            f.write(BOX.replace(b"http://plain.example/one", b"http://plain.example/%d" % n))
    one = run(["-H", "--jobs", "1", str(big)])
    two = run(["-H", "--jobs", "2", str(big)])
    assert one == two and one[0] == 0
    lines = one[1].splitlines()
    assert len(lines) == 19_000 * 10
    assert all(re.fullmatch(rf"{re.escape(str(big))}:(\d+|\d+/\d+/\d+):(\d+):\S+", line) for line in lines)
    assert lines[-9] == f"{big}:{19_000 * 38 - 25}:5:http://plain.example/18999"
