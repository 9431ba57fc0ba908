"""The command as users run it (issue 12): subprocesses on the project's
corpora, pipes, full disks, closed standard input, Ctrl-C, parallel runs."""

from __future__ import annotations

import io
import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from urisift.cli.command import main

from .conftest import ROOT, trip_the_scan_of

CORPORA = ROOT / "corpora"
URISIFT = [sys.executable, "-m", "urisift"]


def _run(*argv: str, stdin: bytes | None = None, timeout: float = 120) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([*URISIFT, *argv], input=stdin, capture_output=True, timeout=timeout, check=False,
                          cwd=ROOT)


def test_a_directory_mixing_every_kind_gives_the_same_output_with_one_or_two_jobs() -> None:
    one = _run("--format", "jsonl", "--jobs", "1", "corpora")
    two = _run("--format", "jsonl", "--jobs", "2", "corpora")
    assert (one.returncode, two.returncode) == (0, 0)
    assert one.stdout == two.stdout and one.stderr == two.stderr
    lines = [json.loads(line) for line in one.stdout.splitlines()]
    files = {line["file"].split("/")[1] for line in lines if line.get("file")}
    assert files >= {"text", "html", "mail", "warc", "css", "xml", "pdf", "office", "markdown"}
    assert {line["where"] for line in lines if "where" in line} == {"text", "html", "header", "css", "xml", "pdf",
                                                                   "markdown", "rst", "asciidoc", "org", "latex",
                                                                   "bibtex", "wikitext"}
    assert _run("--jobs", "1", "corpora").stdout == _run("--jobs", "2", "corpora").stdout


def test_text_output_has_the_location_when_asked() -> None:
    # (by default only on a terminal, issue 37: into this pipe the URLs alone; tests/test_locations.py
    # has the terminal's default)
    one = _run("corpora/text/prose.txt").stdout.decode().splitlines()
    several = _run("-H", "corpora/text/prose.txt", "corpora/text/emails.txt").stdout.decode().splitlines()
    assert not one[0].startswith("corpora/")
    assert several[0] == "corpora/text/prose.txt:" + _location_of(one[0]) + one[0]
    assert _run("corpora/text/prose.txt", "corpora/text/emails.txt").stdout.decode().splitlines()[0] == one[0]
    assert _run("-H", "corpora/text/prose.txt").stdout.decode().splitlines()[0] == several[0]


def _location_of(target: str) -> str:
    for line in _run("--format", "jsonl", "corpora/text/prose.txt").stdout.splitlines():
        record = json.loads(line)
        if record.get("target") == target:
            return f"{record['line']}:{record['column']}:"
    raise AssertionError(target)


def test_null_terminated_text() -> None:
    proc = _run("-0", "corpora/text/prose.txt")
    assert proc.stdout.endswith(b"\0") and b"\n" not in proc.stdout
    assert proc.stdout.split(b"\0")[:-1] == _run("corpora/text/prose.txt").stdout.splitlines()


def test_fields_choose_the_columns_of_jsonl_and_csv() -> None:
    jsonl = _run("--format", "jsonl", "--fields", "target,file,line", "corpora/text/prose.txt").stdout.splitlines()
    assert list(json.loads(jsonl[0])) == ["target", "file", "line"]
    csv = _run("--format", "csv", "--fields", "uri,line", "corpora/text/prose.txt").stdout
    assert csv.startswith(b"uri,line\r\n") and b"\r\n" in csv[10:] and b"\n" not in csv.replace(b"\r\n", b"")
    bad = _run("--fields", "uri,nope", "x")
    assert bad.returncode == 2 and bad.stderr.count(b"\n") == 1 and b"unknown field 'nope'" in bad.stderr


def test_context_adds_the_text_around_each_reference() -> None:
    line = json.loads(_run("--format", "jsonl", "--context", "5", "-", stdin=b"see: http://c.example/x , ok\n")
                      .stdout.splitlines()[0])
    assert line["context"] == "see: http://c.example/x , ok"  # 5 either side


def test_csv_is_rfc_4180() -> None:
    proc = _run("--format", "csv", "-", stdin=b'say "http://q.example/a,b" and http://r.example/\n')
    rows = proc.stdout.split(b"\r\n")
    assert rows[-1] == b"" and len(rows) == 4 and rows[1].startswith(b'"http://q.example/a,b","http://q.example/a,b"')


def test_a_closed_pipe_ends_quietly_and_fast(tmp_path: Path) -> None:
    big = tmp_path / "big.txt"
    big.write_bytes(b"see http://h.example/%d and more\n" * 1 + b"".join(
        b"line %d http://h.example/%d\n" % (i, i) for i in range(400_000)))
    for jobs in ("1", "2"):
        proc = subprocess.Popen([*URISIFT, "--jobs", jobs, str(big), str(big)], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.readline()
        start = time.perf_counter()
        proc.stdout.close()
        assert proc.wait(timeout=60) == 0
        assert time.perf_counter() - start < 10
        assert proc.stderr.read() == b""


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
@pytest.mark.parametrize("fmt", ["text", "jsonl", "csv", "edges"])
@pytest.mark.parametrize("source", ["file", "stdin"])
def test_a_full_disk_is_one_message_and_exit_1(fmt: str, source: str) -> None:
    argv = [*URISIFT, "--format", fmt, "corpora/text/prose.txt" if source == "file" else "-"]
    with open("/dev/full", "wb") as full:
        proc = subprocess.run(argv, stdout=full, stderr=subprocess.PIPE, input=b"http://x.example/\n" * 5000,
                              cwd=ROOT, timeout=60, check=False)
    assert proc.returncode == 1
    assert proc.stderr == b"urisift: cannot write the output: No space left on device\n"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
def test_a_full_disk_under_workers_writing_their_own_output_is_one_message_and_exit_1(tmp_path: Path) -> None:
    for name in ("a.txt", "b.txt"):
        (tmp_path / name).write_bytes(b"http://x.example/\n" * 20_000)
    with open("/dev/full", "wb") as full:
        proc = subprocess.run([*URISIFT, "--jobs", "2", "--format", "jsonl", str(tmp_path)], stdout=full,
                              stderr=subprocess.PIPE, cwd=ROOT, timeout=60, check=False)
    assert proc.returncode == 1
    assert proc.stderr == b"urisift: cannot write the output: No space left on device\n"


def test_closed_standard_input_is_reported() -> None:
    proc = subprocess.run(["sh", "-c", f"'{sys.executable}' -m urisift <&-"], capture_output=True, timeout=60,
                          check=False)
    assert proc.returncode == 1
    assert proc.stderr == b"urisift: -: cannot read: standard input is closed\n"


def test_a_missing_path_is_reported_in_the_records_and_the_run_goes_on() -> None:
    proc = _run("--format", "jsonl", "no/such/file.txt", "corpora/text/prose.txt")
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    assert proc.returncode == 1
    assert lines[0] == {"defect": "unreadable", "detail": "No such file or directory", "file": "no/such/file.txt",
                        "position": None, "unit": "byte", "message": None, "part": None, "message_id": None,
                        "offset": None, "warc_record_id": None}
    assert len(lines) > 1 and proc.stderr == b"urisift: no/such/file.txt: cannot read: No such file or directory\n"


def test_usage_errors_are_one_line_and_exit_2() -> None:
    for argv in (["--jobs", "0"], ["--format", "xml"], ["--no-such-option"], ["--context", "x"]):
        proc = _run(*argv)
        assert proc.returncode == 2 and proc.stdout == b"" and proc.stderr.count(b"\n") == 1, argv
        assert proc.stderr.startswith(b"urisift: ") and proc.stderr.endswith(b"(see urisift --help)\n")


def test_file_names_that_are_not_utf8_are_escaped_the_same_in_every_format(tmp_path: Path) -> None:
    name = os.fsencode(tmp_path) + b"/caf\xe9.txt"
    with open(name, "wb") as f:
        f.write(b"see http://n.example/\n")
    shown = str(tmp_path) + "/caf\\xe9.txt"
    text = subprocess.run([*URISIFT, "-H", name], capture_output=True, check=False).stdout.decode()
    jsonl = subprocess.run([*URISIFT, "--format", "jsonl", name], capture_output=True, check=False).stdout
    csv = subprocess.run([*URISIFT, "--format", "csv", "--fields", "file", name], capture_output=True,
                         check=False).stdout.decode()
    assert text == f"{shown}:1:5:http://n.example/\n"
    assert json.loads(jsonl)["file"] == shown
    assert csv == f"file\r\n{shown}\r\n"


def test_piped_standard_input_is_written_line_by_line_as_it_arrives() -> None:
    proc = subprocess.Popen(URISIFT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(b"first http://one.example/a\n")
    proc.stdin.flush()
    ready, _, _ = select.select([proc.stdout], [], [], 60)  # a regression must fail, not hang
    if not ready:
        proc.kill()
        pytest.fail("no output for a complete line while standard input stayed open")
    assert proc.stdout.readline() == b"http://one.example/a\n"  # before the second line exists
    proc.stdin.write(b"then <http://two.example/\n  wrapped>\n")
    proc.stdin.close()
    assert proc.stdout.read() == b"http://two.example/wrapped\n"
    assert proc.wait(timeout=60) == 0


def test_ctrl_c_exits_130_without_a_traceback(tmp_path: Path) -> None:
    big = tmp_path / "big.txt"
    big.write_bytes(b"".join(b"line %d http://h.example/%d\n" % (i, i) for i in range(300_000)))
    for jobs in ("1", "2"):
        proc = subprocess.Popen([*URISIFT, "--jobs", jobs, "--format", "jsonl", str(big), str(big), str(big)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        time.sleep(1.5)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 130 and b"Traceback" not in err, err[-500:]


def test_stats_count_what_was_read_and_found() -> None:
    proc = _run("--format", "jsonl", "--stats", "--jobs", "1", "corpora/mail/archive.mbox", "corpora/warc")
    stats = json.loads(proc.stderr.splitlines()[-1])["stats"]
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    records = [line for line in lines if "defect" not in line]
    assert stats["inputs"] == 1 + 2  # the mbox; in corpora/warc: the two samples (their goldens are in tests/)
    assert stats["records"] == len(records)
    assert stats["defects"] == {"broken-mime": 1, "broken-warc": 1}
    # every WARC record read, the skipped ones counted too (the corrupt member is the defect)
    assert stats["warc_record_types"] == {"warcinfo": 1, "request": 1, "response": 8, "revisit": 1,
                                          "resource": 1, "metadata": 1}
    assert stats["messages"] == len({line["message"] for line in lines if line.get("message") is not None
                                     and line["file"].endswith(".mbox")})
    assert sum(stats["styles"].values()) == len(records)
    text = _run("--stats", "--jobs", "1", "corpora/mail/archive.mbox").stderr.decode()
    assert any(line.startswith("urisift: 1 input, 0.0 MB, 3 messages") for line in text.splitlines())
    assert "urisift:   styles: bare 4" in text and "urisift:   defects: broken-mime 1" in text


def test_the_progress_bar_shows_on_a_terminal_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import urisift.cli.command

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(urisift.cli.command, "PROGRESS_MIN", 1)
    page = tmp_path / "a.txt"
    page.write_text("http://p.example/\n" * 100)
    for quiet, shown in ((False, True), (True, False)):
        err = Terminal()
        assert main(["--jobs", "1", *(["--quiet"] if quiet else []), str(page)], stdout=io.StringIO(),
                    stderr=err) == 0
        assert ("urisift:" in err.getvalue() and "B/s" in err.getvalue()) is shown
    err2 = io.StringIO()
    assert main(["--jobs", "1", str(page)], stdout=io.StringIO(), stderr=err2) == 0 and err2.getvalue() == ""


def test_help_shows_every_option_and_examples() -> None:
    help_text = _run("--help").stdout.decode()
    for option in ("--format", "--output", "--fields", "--with-location", "--no-location", "--null", "--context",
                   "--normalize", "--unique", "--scheme", "--flags", "--base", "--kind", "--charset",
                   "--no-abbreviated", "--comments", "--content-location-base", "--hidden", "--strict", "--jobs",
                   "--stats", "--quiet", "--version"):
        assert option in help_text, option
    assert "examples:" in help_text and "urisift --format edges crawl.warc.gz" in help_text


def test_a_warc_file_is_cut_at_records_with_the_same_output(tmp_path: Path) -> None:
    from urisift.model import Tally
    from urisift.pipeline import plan, scan
    from urisift.pipeline.scan import ScanOptions
    from urisift.pipeline.units import WorkUnit
    from urisift.pipeline.walking import walk
    from urisift.pool import parallel

    build = ROOT / "tests" / "sample_makers" / "warc.py"
    namespace: dict[str, object] = {"__name__": "build", "__file__": str(build)}
    exec(compile(build.read_text("utf-8"), str(build), "exec"), namespace)  # noqa: S102 - the project's own builder
    crawl = namespace["crawl"]
    assert callable(crawl)
    big = tmp_path / "big.warc.gz"
    big.write_bytes(crawl() * 40)  # a corrupt member in each copy: the resync must agree too
    old = plan.WARC_RANGE_SIZE
    try:
        plan.WARC_RANGE_SIZE = 16 << 10
        cuts = list(plan.plan(walk([str(big)])))
        assert len(cuts) > 4 and all(isinstance(u, WorkUnit) and u.kind is not None and u.kind.value == "warc"
                                     for u in cuts)
        serial = list(scan.scan_serial(plan.plan(walk([str(big)]), cut=False), ScanOptions()))
        pooled = list(parallel.scan_parallel(plan.plan(walk([str(big)])), ScanOptions(), 2))
    finally:
        plan.WARC_RANGE_SIZE = old
    keep = (lambda items: [i for i in items if not isinstance(i, Tally)])  # noqa: E731
    assert keep(pooled) == keep(serial) and len(keep(serial)) == 40 * 20  # 19 records and a defect a copy


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_an_input_that_trips_the_scanner_is_a_defect_and_the_run_goes_on(tmp_path: Path, jobs: str,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "a.txt").write_text("http://a.example/\n")
    (tmp_path / "boom.txt").write_text("http://boom.example/\n")
    (tmp_path / "c.txt").write_text("http://c.example/\n")
    trip_the_scan_of(monkeypatch, "boom.txt")
    out, err = io.StringIO(), io.StringIO()
    assert main(["--jobs", jobs, "-n", str(tmp_path)], stdout=out, stderr=err) == 1
    assert out.getvalue() == "http://a.example/\nhttp://c.example/\n"
    assert err.getvalue() == (f"urisift: {tmp_path / 'boom.txt'}: scan-failed: the scan of this input failed "
                              "(RuntimeError: a bug); the records before it were written; please report it\n")


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="no pseudo-terminals here")
def test_on_a_terminal_it_says_it_reads_standard_input_and_answers_each_line() -> None:
    import pty

    master, slave = pty.openpty()
    proc = subprocess.Popen(URISIFT, stdin=slave, stdout=slave, stderr=slave, close_fds=True)
    os.close(slave)
    seen = b""

    def read_until(marker: bytes) -> None:
        nonlocal seen
        deadline = time.monotonic() + 60
        while marker not in seen and time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 1)
            if ready:
                seen += os.read(master, 4096)
        assert marker in seen, seen

    try:
        read_until(b"urisift: reading standard input (end with Ctrl-D")
        os.write(master, b"see http://tty.example/a\n")
        read_until(b"\nhttp://tty.example/a")  # answered before the input ends
        os.write(master, b"\x04")
        assert proc.wait(timeout=60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
