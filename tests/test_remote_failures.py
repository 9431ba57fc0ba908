"""Issue 37: a remote input that cannot be read is one line naming it and
why (no credentials, no such host, refused, the HTTP status, a timeout),
exit 1, and the other inputs are still scanned; every wait on a server is
bounded (``--timeout``), and one that accepts and never answers, or sends a
byte at a time, is cut off.  Real servers on 127.0.0.1, in threads."""

from __future__ import annotations

import io
import re
import socket
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

import urisift.pipeline.remote as remote
from urisift.cli.command import main
from urisift.pipeline.web import WebFile

PAGE = b"see http://a.example/x and <URL:rel.html>\n" + b"filler line\n" * 200


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["--jobs", "1", *argv], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


class _Handler(BaseHTTPRequestHandler):
    """/page.txt (ranges honoured), /moved (a 302 to it), /missing (404), /broken (500)."""

    calls: dict[str, int] = {}

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        self.calls[self.path] = self.calls.get(self.path, 0) + 1
        if self.path == "/moved":
            self.send_response(302)
            self.send_header("Location", "/page.txt")
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif self.path == "/page.txt":
            start = 0
            ranged = self.headers.get("Range", "")
            if ranged.startswith("bytes=") and ranged.endswith("-"):
                start = int(ranged[6:-1])
                self.send_response(206)
                self.send_header("Content-Range", f"bytes {start}-{len(PAGE) - 1}/{len(PAGE)}")
            else:
                self.send_response(200)
            self.send_header("Content-Length", str(len(PAGE) - start))
            self.end_headers()
            self.wfile.write(PAGE[start:])
        else:
            self.send_error(404 if self.path == "/missing" else 500)


@pytest.fixture(scope="module")
def web() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def _hostile(answer: Callable[[socket.socket], None]) -> Iterator[str]:
    """A server on 127.0.0.1 that reads each request, then ``answer``s it (slowly, or never)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                connection, _ = listener.accept()
            except OSError:
                return
            def one(c: socket.socket = connection) -> None:
                try:
                    c.recv(65536)
                    answer(c)
                except OSError:
                    pass
                finally:
                    c.close()
            threading.Thread(target=one, daemon=True).start()

    threading.Thread(target=serve, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}/file.txt"
    finally:
        stop.set()
        listener.close()


def _silent(c: socket.socket) -> None:
    time.sleep(30)


def _byte_a_tick(head: bytes) -> Callable[[socket.socket], None]:
    def answer(c: socket.socket) -> None:
        c.sendall(head)
        for _ in range(300):
            c.sendall(b"y")
            time.sleep(0.1)
    return answer


@pytest.fixture()
def local(tmp_path: Path) -> str:
    path = tmp_path / "local.txt"
    path.write_bytes(b"local http://local.example/\n")
    return str(path)


@pytest.fixture()
def fast_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(remote, "BACKOFF", 0.01)


# -- the web ---------------------------------------------------------------------------------

def test_a_page_on_the_web_reads_as_the_file_does(web: str, tmp_path: Path) -> None:
    copy = tmp_path / "page.txt"
    copy.write_bytes(PAGE)
    for url in (f"{web}/page.txt", f"{web}/moved"):
        assert run(["-n", "--base", "http://b.example/d/", url]) == (
            0, "http://a.example/x\nhttp://b.example/d/rel.html\n", "")


def test_a_web_file_seeks_with_ranges(web: str) -> None:
    with WebFile(f"{web}/page.txt", 5) as f:
        assert (f.size, f.read(4)) == (len(PAGE), b"see ")
        f.seek(len(PAGE) - 12)
        assert f.read() == b"filler line\n"
        f.seek(4)
        assert f.read(8) == b"http://a"


@pytest.mark.usefixtures("fast_retries")
def test_web_inputs_that_cannot_be_read_say_why(web: str, local: str) -> None:
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()
    _Handler.calls.clear()
    code, out, err = run(["-n", f"{web}/missing", f"http://127.0.0.1:{port}/x", "http://no-such-host.invalid/x",
                          f"{web}/broken", local])
    assert (code, out) == (1, "http://local.example/\n")
    assert err.splitlines()[:2] == [
        f"urisift: {web}/missing: cannot read: HTTP 404 Not Found",
        f"urisift: http://127.0.0.1:{port}/x: cannot read: connection refused by 127.0.0.1:{port}"]
    assert err.splitlines()[2].startswith(
        "urisift: http://no-such-host.invalid/x: cannot read: no such host: no-such-host.invalid (DNS: ")
    # a 5xx may pass: asked again (4 attempts in all); a 404 will not
    assert err.splitlines()[3:] == [
        f"urisift: {web}/broken: cannot read: HTTP 500 Internal Server Error (after 4 attempts)"]
    assert (_Handler.calls["/missing"], _Handler.calls["/broken"]) == (1 + 1, 1 + 4)  # (+1: the size asked first)


@pytest.mark.usefixtures("fast_retries")
def test_a_server_that_never_answers_or_trickles_does_not_hang_the_run(local: str) -> None:
    silent = _hostile(_silent)
    slow_head = _hostile(_byte_a_tick(b""))  # the status line itself a byte at a time
    slow_body = _hostile(_byte_a_tick(b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\nsee http://t.example/ "))
    urls = [next(silent), next(slow_head), next(slow_body)]
    started = time.monotonic()
    code, out, err = run(["-n", "--timeout", "1", *urls, local])
    took = time.monotonic() - started
    lines = err.splitlines()
    assert (code, out, lines[:2]) == (1, "http://local.example/\n", [
        f"urisift: {urls[0]}: cannot read: no answer within 1 s of the request (--timeout)",
        f"urisift: {urls[1]}: cannot read: no answer within 1 s of the request (--timeout)"])
    # the slow body: where it stopped depends on the clock (its first 22 bytes, and a byte a tick)
    slow = re.fullmatch(re.escape(f"urisift: {urls[2]}: cannot read: too slow: less than 1024 bytes in 1 s "
                                  "(--timeout), at byte ") + r"(\d+) \(after 4 attempts\)", lines[2])
    assert slow is not None and 22 <= int(slow.group(1)) < 100 and len(lines) == 3
    # the size asked (1 s each), two answers never had (1 s each), four slow bodies (1 s each)
    assert took < 15
    for server in (silent, slow_head, slow_body):
        server.close()


def test_the_timeout_is_a_number_of_seconds() -> None:
    assert run(["--timeout", "0", "x"]) == (2, "", "urisift: argument --timeout: expected a number of seconds "
                                                   "above 0: '0' (see urisift --help)\n")


# -- object stores ---------------------------------------------------------------------------

@pytest.fixture()
def store(monkeypatch: pytest.MonkeyPatch) -> Callable[[str, bool], None]:
    """An S3 endpoint (``FSSPEC_S3_ENDPOINT_URL``'s configuration), with or without credentials."""
    fsspec = pytest.importorskip("fsspec")
    s3fs = pytest.importorskip("s3fs")
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/credentials")
    monkeypatch.setenv("AWS_CONFIG_FILE", "/nonexistent/config")
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    conf = fsspec.config.conf.setdefault("s3", {})
    saved = conf.get("endpoint_url")

    def use(endpoint: str, credentials: bool) -> None:
        conf["endpoint_url"] = endpoint
        if credentials:
            monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
            monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
        s3fs.S3FileSystem.clear_instance_cache()

    yield use
    if saved is None:
        conf.pop("endpoint_url", None)
    else:
        conf["endpoint_url"] = saved
    s3fs.S3FileSystem.clear_instance_cache()


def _closed_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return int(port)


def test_an_object_store_without_credentials_is_one_line(store: Callable[[str, bool], None], local: str) -> None:
    store(f"http://127.0.0.1:{_closed_port()}", False)
    started = time.monotonic()
    code, out, err = run(["-n", "s3://bucket/a.warc.gz", "s3://bucket/crawl/*.warc.gz", local])
    assert (code, out, err) == (1, "http://local.example/\n", (
        "urisift: s3://bucket/a.warc.gz: cannot read: no credentials: the store's backend found none (its "
        "environment variables, profile or instance role; Unable to locate credentials)\n"
        "urisift: s3://bucket/crawl/*.warc.gz: cannot read: cannot list it: no credentials: the store's backend "
        "found none (its environment variables, profile or instance role; Unable to locate credentials)\n"))
    assert time.monotonic() - started < 10


def test_an_unreachable_endpoint_is_one_line(store: Callable[[str, bool], None], local: str) -> None:
    port = _closed_port()
    store(f"http://127.0.0.1:{port}", True)
    started = time.monotonic()
    code, out, err = run(["-n", "s3://bucket/a.warc.gz", local])
    assert (code, out, err) == (1, "http://local.example/\n", (
        f"urisift: s3://bucket/a.warc.gz: cannot read: cannot connect to the store's endpoint "
        f"http://127.0.0.1:{port} (connection refused)\n"))
    assert time.monotonic() - started < 10


def test_a_wrong_backend_option_is_one_line(store: Callable[[str, bool], None], local: str) -> None:
    store("not-a-url", True)
    assert run(["-n", "s3://bucket/a.txt", local]) == (
        1, "http://local.example/\n", "urisift: s3://bucket/a.txt: cannot read: ValueError: Invalid endpoint: "
                                      "not-a-url\n")
