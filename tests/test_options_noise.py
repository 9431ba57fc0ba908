"""Issue 37, "options and noise": an option that asks for what the format
cannot give is a usage error, an unregistered scheme a note, a --base that
cannot serve a usage error (one rule), defects can be counted or silenced,
and on a terminal defect lines never cut the progress bar."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from urisift import Defect, DefectKind, scan_text
from urisift.cli.command import main

from .conftest import ROOT


def run(argv: list[str], stdin: bytes = b"") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdin=io.BytesIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("argv, message", [
    (["--fields", "uri,target"], "--fields does not apply to --format text: it chooses the keys of jsonl, csv and "
                                 "parquet records (--format jsonl or csv or parquet)"),
    (["--context", "30"], "--context does not apply to --format text: it adds a key to jsonl, csv and parquet "
                          "records (--format jsonl or csv or parquet)"),
    (["--format", "edges", "--graph", "hosts"], "--graph does not apply to --format edges: it chooses the graph of "
                                                "graphml and gexf (--format graphml or gexf)"),
    (["--format", "jsonl", "-H"], "--with-location does not apply to --format jsonl: it writes text output's "
                                  "file:line:column (--format text)"),
    (["--format", "csv", "-0"], "--null does not apply to --format csv: it ends text output's lines (--format text)"),
    (["--format", "jsonl", "--flags"], "--flags does not apply to --format jsonl: it adds the risks to text output "
                                       "(records have a risks key) (--format text)"),
    (["-H", "-n"], "argument --no-location/-n: not allowed with argument --with-location/-H (see urisift --help)"),
    (["--scheme", "ht tp"], "argument --scheme: 'ht tp' is not a URI scheme (RFC 3986 §3.1: a letter, then letters, "
                            "digits, '+', '-' or '.') (see urisift --help)"),
    (["--base", "http://[bad"], "--base 'http://[bad' cannot serve as a base (RFC 3986 §5.1): 'http://[bad': "
                                "position 7: malformed IP literal (in host)"),
    (["--base", "notaurl"], "--base 'notaurl' cannot serve as a base (RFC 3986 §5.1): 'notaurl' is relative and "
                            "there is no base below it to resolve it against"),
])
def test_what_cannot_apply_is_a_usage_error_before_anything_is_read(argv: list[str], message: str) -> None:
    assert run([*argv, "/nonexistent/input"]) == (2, "", f"urisift: {message}\n")


def test_what_asks_for_nothing_the_format_lacks_is_no_error() -> None:
    assert run(["--format", "jsonl", "-n", "--fields", "uri"], b"http://a.example/\n") == (
        0, '{"uri": "http://a.example/"}\n', "")
    assert run(["--format", "edges", "--graph", "pages"], b"http://a.example/\n") == (0, "-\thttp://a.example/\n", "")


def test_a_scheme_that_is_not_registered_is_a_note() -> None:
    assert run(["--scheme", "htp"], b"see http://a.example/ and htp://b.example/\n") == (
        0, "htp://b.example/\n", "urisift: note: --scheme htp: not a registered URI scheme (did you mean http?); kept "
                                 "as given\n")
    assert run(["--scheme", "http,git+ssh"], b"git+ssh://git@h.example/r http://a.example/\n") == (
        0, "git+ssh://git@h.example/r\nhttp://a.example/\n",
        "urisift: note: --scheme git+ssh: not a registered URI scheme; kept as given\n")


def test_the_library_still_takes_a_base_that_cannot_serve_with_a_defect() -> None:
    # (lenient by default: the command refuses it before reading; the library says so per input)
    items = list(scan_text("<URL:../g>", base="http://[bad"))
    assert [type(i).__name__ for i in items] == ["Defect", "Record"]
    assert isinstance(items[0], Defect) and items[0].kind is DefectKind.BAD_BASE


# -- defects on standard error --------------------------------------------------------------

BROKEN = b"Content-Type: multipart/mixed\n\nno boundary http://a.example/\n"


def _inputs(tmp_path: Path) -> list[str]:
    paths = []
    for name in ("a.eml", "b.eml"):
        (tmp_path / name).write_bytes(b"Date: x\nFrom: y\n" + BROKEN)
        paths.append(str(tmp_path / name))
    return [*paths, str(tmp_path / "missing.txt")]


def test_defects_can_be_counted_or_silenced_but_an_unreadable_input_is_always_said(tmp_path: Path) -> None:
    paths = _inputs(tmp_path)
    code, out, err = run(["--jobs", "1", *paths])
    said = [line for line in err.splitlines() if "broken-mime" in line]
    assert (code, out, len(said)) == (1, "http://a.example/\nhttp://a.example/\n", 2)
    missing = f"urisift: {paths[2]}: cannot read: No such file or directory\n"
    assert run(["--jobs", "1", "--defects", "count", *paths]) == (1, "http://a.example/\nhttp://a.example/\n", (
        missing + "urisift: 2 defects in the inputs: broken-mime 2 (--defects lines shows each)\n"))
    assert run(["--jobs", "1", "--defects", "none", *paths]) == (1, "http://a.example/\nhttp://a.example/\n", missing)
    # JSON lines keep their defect lines: the records are the output
    code, out, err = run(["--jobs", "1", "--defects", "none", "--format", "jsonl", *paths[:1]])
    assert (code, err, out.count('"defect": "broken-mime"')) == (0, "", 1)


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_defect_lines_never_cut_the_progress_bar(tmp_path: Path) -> None:
    # 36 MB (past the bar's 32 MB) in 12 files, each with a NUL byte (a binary-content defect)
    filler = b"see http://a.example/ and more words\n" * 80_000
    names = []
    for index in range(12):
        path = tmp_path / f"f{index:02}.txt"
        path.write_bytes(filler[:10] + b"\0" + filler[:3_000_000])
        names.append(path.name)
    session = f"urisift-bar-{os.getpid()}"
    tmux = ["tmux", "-S", str(tmp_path / "tmux.sock")]
    command = (f"cd {tmp_path} && PYTHONPATH={ROOT / 'src'} {sys.executable} -m urisift --jobs 1 -n {' '.join(names)}"
               " > /dev/null; echo DONE; sleep 60")
    subprocess.run([*tmux, "new-session", "-d", "-s", session, "-x", "200", "-y", "40", command], check=True)
    try:
        deadline = time.monotonic() + 120
        screen = ""
        while time.monotonic() < deadline:
            screen = subprocess.run([*tmux, "capture-pane", "-p", "-t", session], capture_output=True,
                                    text=True).stdout
            if "DONE" in screen:
                break
            time.sleep(0.2)
        lines = [line.rstrip() for line in screen.splitlines() if line.strip()]
        assert lines == [f"urisift: {name} at byte 10: binary-content: NUL bytes: this does not look like utf-8 "
                         "text; scanned anyway" for name in names] + ["DONE"]
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True)
