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

from urisift.cli import main

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


def test_the_readmes_xargs_example_works_as_written(docs: Path, server: int) -> None:
    readme = (ROOT / "README.md").read_text("utf-8")
    example = re.search(r"`(urisift -0 docs/ \\\| xargs -0 -n1 curl -sI)`", readme)
    if shutil.which("curl") is None or shutil.which("urisift") is None or example is None:
        pytest.skip("curl, or the urisift command, is not installed")
    for path in (docs / "docs" / "a.md", docs / "docs" / "more" / "c.txt"):
        path.write_text(path.read_text().replace("127.0.0.1:1/", f"127.0.0.1:{server}/"))
    done = subprocess.run(example.group(1).replace("\\|", "|"), shell=True, capture_output=True, cwd=docs, env=ENV,
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
