"""The urisift command (DESIGN §2) and byte-level input handling."""

from __future__ import annotations

import codecs
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from urisift import CharsetSource, Defect, scan_stream, scan_text
from urisift.cli.command import main
from urisift.stages.charset import Choice, normalize_label


def run(argv: list[str], stdin: bytes = b"") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdin=io.BytesIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_text_format_prints_targets_from_stdin() -> None:
    code, out, err = run([], b"see <URL:../g> and http://a.example/x.\n")
    assert (code, out, err) == (0, "../g\nhttp://a.example/x\n", "")


def test_dash_is_stdin_and_base_resolves() -> None:
    code, out, _ = run(["--base", "http://a/b/c/d;p?q", "-"], b"<URL:../g>\n")
    assert (code, out) == (0, "http://a/b/g\n")


def test_jsonl_records(tmp_path: Path) -> None:
    f = tmp_path / "a.txt"
    f.write_text("x http://a.example/\n", "utf-8")
    code, out, _ = run(["--format", "jsonl", str(f)])
    (record,) = [json.loads(line) for line in out.splitlines()]
    assert code == 0
    assert (record["uri"], record["file"], record["span"], record["line"], record["column"]) == (
        "http://a.example/", str(f), [2, 19], 1, 3)
    assert (record["charset"], record["charset_source"]) == ("utf-8", "detected")


def test_csv_has_a_header_and_one_row_a_record() -> None:
    code, out, _ = run(["--format", "csv"], b"http://a.example/x-\n  y and www.b.example\n")
    lines = out.splitlines()
    assert code == 0
    assert lines[0].startswith("uri,target,alternatives,base,base_source,style,where,")
    # issue 20: a list is its JSON text, null an empty field (so that a cell reads back as it was)
    assert lines[1].startswith('http://a.example/x-y,http://a.example/x-y,"[""http://a.example/xy""]",,,bare,text,')
    assert lines[2].startswith("www.b.example,http://www.b.example,[],,,abbreviated,text,")
    assert len(lines) == 3


def test_directories_are_walked_in_order(tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "2.txt").write_text("http://two.example/\n")
    (tmp_path / "a.txt").write_text("http://one.example/\n")
    code, out, _ = run(["-H", str(tmp_path)])
    assert (code, out) == (0, f"{tmp_path / 'a.txt'}:1:1:http://one.example/\n"
                              f"{tmp_path / 'b' / '2.txt'}:1:1:http://two.example/\n")
    # (into a pipe or a file the URLs alone by default, issue 37: tests/test_locations.py)
    assert run([str(tmp_path)])[1] == "http://one.example/\nhttp://two.example/\n"


def test_unreadable_input_exits_1_and_the_rest_is_still_scanned(tmp_path: Path) -> None:
    good = tmp_path / "good.txt"
    good.write_text("http://ok.example/\n")
    missing = tmp_path / "missing.txt"
    code, out, err = run(["-n", str(missing), str(good)])
    assert code == 1
    assert out == "http://ok.example/\n"
    assert err == f"urisift: {missing}: cannot read: No such file or directory\n"


@pytest.mark.parametrize("argv", [["--format", "xml"], ["--kind", "docx"], ["--base", "not a uri"], ["--base", "/rel"]])
def test_usage_errors_exit_2(argv: list[str]) -> None:
    code, out, err = run(argv)
    assert code == 2 and out == ""
    assert err


def test_nothing_found_is_not_an_error() -> None:
    assert run([], b"nothing here\n") == (0, "", "")


def test_undecodable_bytes_are_a_defect_and_the_scan_goes_on(tmp_path: Path) -> None:
    data = b"a" * 70_000 + b"\nhttp://before.example/ \xff\xfe junk http://after.example/\n"
    f = tmp_path / "mixed.txt"
    f.write_bytes(data)
    code, out, err = run(["--format", "jsonl", str(f)])
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0
    assert [r.get("uri") or r.get("defect") for r in rows] == [
        "undecodable-bytes", "http://before.example/", "http://after.example/"]
    defect = rows[0]
    assert (defect["file"], defect["position"], defect["unit"]) == (str(f), data.index(b"\xff"), "byte")
    # issue 8 class 13: a run that is not UTF-8 in UTF-8 text is read as windows-1252, not left as U+FFFD
    assert defect["detail"] == "ff fe is not utf-8 (invalid start byte); read as windows-1252"
    position = data.index(b"\xff")
    assert err.splitlines()[0] == f"urisift: {f} at byte {position}: undecodable-bytes: {defect['detail']}"


def test_legacy_charset_is_detected() -> None:
    text = ("\u041f\u0440\u0438\u0432\u0435\u0442, \u043a\u0430\u043a \u0434\u0435\u043b\u0430? "
            "\u042d\u0442\u043e \u0442\u0435\u0441\u0442\u043e\u0432\u043e\u0435 "
            "\u0441\u043e\u043e\u0431\u0449\u0435\u043d\u0438\u0435. \u0421\u043c\u043e\u0442\u0440\u0438\u0442\u0435 "
            "http://\u043f\u0440\u0438\u043c\u0435\u0440.\u0440\u0444/\u043f\u0443\u0442\u044c "
            "\u0434\u043b\u044f \u0434\u0435\u0442\u0430\u043b\u0435\u0439. "
            "\u041c\u043e\u0441\u043a\u0432\u0430 \u2014 \u0441\u0442\u043e\u043b\u0438\u0446\u0430. ") * 3
    records = list(scan_stream(io.BytesIO(text.encode("cp1251"))))
    uri = "http://\u043f\u0440\u0438\u043c\u0435\u0440.\u0440\u0444/\u043f\u0443\u0442\u044c"
    assert [r.uri for r in records] == [uri] * 3
    assert {(r.charset, r.charset_source.value) for r in records} == {("windows-1251", "detected")}


@pytest.mark.parametrize("label, name", [
    ("EUC-JP", "euc-jp"), ("Shift_JIS", "shift_jis"), ("cp932", "windows-31j"), ("IBM866", "ibm866"),
    ("MacCyrillic", "x-mac-cyrillic"), ("ISO-2022-JP", "iso-2022-jp"), ("latin1", "iso-8859-1"),
    ("cp1252", "windows-1252"), ("UTF-16LE", "utf-16le"), ("x-no-such-charset", None),
])
def test_charset_names_are_the_registered_spellings(label: str, name: str | None) -> None:
    assert normalize_label(label) == name
    if name is not None:
        assert Choice(name, CharsetSource.DECLARED).codec == codecs.lookup(label).name


def test_latin_text_chardet_cannot_place_falls_back_to_windows_1252() -> None:
    text = "Les r\u00e9sum\u00e9s sont \u00e0 http://exemple.fr/caf\u00e9 et ailleurs. " * 20
    records = list(scan_stream(io.BytesIO(text.encode("latin-1"))))
    assert {r.uri for r in records} == {"http://exemple.fr/caf\u00e9"}
    assert {(r.charset, r.charset_source.value) for r in records} == {("windows-1252", "default")}


@pytest.mark.parametrize("codec, bom, name", [
    ("utf-16-le", codecs.BOM_UTF16_LE, "utf-16le"), ("utf-16-be", codecs.BOM_UTF16_BE, "utf-16be"),
    ("utf-8", codecs.BOM_UTF8, "utf-8"), ("utf-32-le", codecs.BOM_UTF32_LE, "utf-32le"),
])
def test_byte_order_mark_wins(codec: str, bom: bytes, name: str) -> None:
    data = bom + "see http://bom.example/x\n".encode(codec)
    (record,) = scan_stream(io.BytesIO(data))
    assert (record.uri, record.span, record.charset, record.charset_source.value) == (
        "http://bom.example/x", (4, 24), name, "bom")


def test_binary_junk_never_stops_the_scan() -> None:
    import random

    rng = random.Random(7)
    junk = bytes(rng.randrange(256) for _ in range(50_000))
    items = list(scan_stream(io.BytesIO(junk + b"\n\nhttp://end.example/\n"), file="junk.bin"))
    assert [i.uri for i in items if not isinstance(i, Defect)][-1] == "http://end.example/"
    binary = [i for i in items if isinstance(i, Defect) and i.kind == "binary-content"]
    assert len(binary) == 1 and binary[0].position == junk.index(b"\x00") and binary[0].file == "junk.bin"


def test_utf16_text_is_not_binary() -> None:
    items = list(scan_stream(io.BytesIO(codecs.BOM_UTF16_LE + "x http://a.example/ y".encode("utf-16-le"))))
    assert [type(i).__name__ for i in items] == ["Record"]


def test_streaming_in_small_chunks_gives_the_same_records_as_one_string() -> None:
    paragraph = ("Intro <http://wrapped.example/a/\n   b/c> and http://bare.example/x-\n  y plus "
                 "www.abbr.example. Line two \u00e9 urn:isbn:123.\n\n")
    text = paragraph * 200
    whole = [r for r in scan_text(text)]
    chunked = [r for r in scan_stream(io.BytesIO(text.encode("utf-8")), chunk_size=997)]
    assert [(r.uri, r.span, r.line, r.column, r.alternatives) for r in chunked] == [
        (r.uri, r.span, r.line, r.column, r.alternatives) for r in whole]
    assert len(whole) == 800


def test_console_script_entry_point(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "urisift", "--format", "text", "-"],
                          input=b"<http://cli.example/\n path>\n", capture_output=True, check=False)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, b"http://cli.example/path\n", b"")


# -- issue 4 options --------------------------------------------------------------------------

SAMPLE = (b"a http://EXAMPLE.com:80/a/./b and http://example.com/a/b and HTTP://example.com/%7ea\n"
          b"then mailto:x@y.example and http://u:p@0x7f.1:25/ and <URL:../rel>\n")


def test_normalize_adds_a_key() -> None:
    code, out, _ = run(["--format", "jsonl", "--normalize", "scheme"], SAMPLE)
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0
    assert [(r["uri"], r["normalized"]) for r in rows] == [
        ("http://EXAMPLE.com:80/a/./b", "http://example.com/a/b"),
        ("http://example.com/a/b", "http://example.com/a/b"),
        ("HTTP://example.com/%7ea", "http://example.com/~a"),
        ("mailto:x@y.example", "mailto:x@y.example"),
        ("http://u:p@0x7f.1:25/", "http://u:p@0x7f.1:25/"),
        ("../rel", None),
    ]
    code, out, _ = run(["--format", "jsonl"], SAMPLE)
    assert "normalized" not in json.loads(out.splitlines()[0])


def test_unique_keeps_the_first_record_per_normalized_target() -> None:
    # at the syntax level (the default) ":80" still makes a difference; "%7e" does not
    code, out, _ = run(["--unique"], SAMPLE + b"and HTTP://EXAMPLE.COM/~a\n")
    assert out.splitlines() == ["http://EXAMPLE.com:80/a/b", "http://example.com/a/b", "HTTP://example.com/%7ea",
                                "mailto:x@y.example", "http://u:p@0x7f.1:25/", "../rel"]
    code, out, _ = run(["--unique", "--normalize", "scheme"], SAMPLE)
    assert out.splitlines() == [
        "http://example.com/a/b", "http://example.com/~a", "mailto:x@y.example", "http://u:p@0x7f.1:25/", "../rel"]


def test_scheme_filter() -> None:
    code, out, _ = run(["--scheme", "mailto"], SAMPLE)
    assert (code, out) == (0, "mailto:x@y.example\n")
    code, out, _ = run(["--scheme", "HTTP,https"], SAMPLE)
    assert len(out.splitlines()) == 4


def test_flags_in_text_mode() -> None:
    code, out, _ = run(["--flags", "--scheme", "http"], b"http://u:p@0x7f.1:25/ http://ok.example/\n")
    assert out.splitlines() == [
        "http://u:p@0x7f.1:25/\tuserinfo (§7.5): 'u:p' stands before '@'; the host is '0x7f.1'; "
        "password (§7.4): user 'u' has a password in the URI; rare-ip (§7.3): host '0x7f.1' is the IPv4 "
        "address 127.0.0.1; reserved-port (§7.2): port 25 is in the reserved range; the http default is 80",
        "http://ok.example/",
    ]


def test_csv_risks_and_normalized_columns() -> None:
    code, out, _ = run(["--format", "csv", "--normalize", "syntax"], b"http://u:p@H/%7e\n")
    header, row = out.splitlines()
    assert header.endswith(",charset_source,risks,points_to,browser_target,unwrapped,wrapper,effective_target,"
                           "effective_hops,effective_status,effective_loop,page,member,normalized")
    assert row.endswith(',"[{""flag"": ""userinfo"", ""section"": ""7.5"", ""detail"": ""\'u:p\' stands before \'@\'; '
                        'the host is \'H\'""}, {""flag"": ""password"", ""section"": ""7.4"", ""detail"": ""user \'u\' '
                        'has a password in the URI""}]",,,,[],,,,,,,http://u:p@h/~')
    # text computes no browser_target unless asked (--resolve, or --fields naming it): the cell is empty, as
    # JSON lines leave the key out, and the risks are the same in both formats (issue 37)
    _, jsonl, _ = run(["--format", "jsonl"], b"http://u:p@H/%7e\n")
    assert "browser_target" not in json.loads(jsonl)
    assert [r["flag"] for r in json.loads(jsonl)["risks"]] == ["userinfo", "password"]


@pytest.mark.parametrize("argv", [["--normalize", "deep"], ["--scheme", ","]])
def test_option_usage_errors(argv: list[str]) -> None:
    assert run(argv)[0] == 2


def test_streaming_without_blank_lines_keeps_wrapped_uris_whole() -> None:
    line = "text <http://w.example/a/\n  b/c> and http://h.example/x-\n  y and http://\n  s.example/z\n"
    text = line * 300
    whole = [(r.uri, r.span) for r in scan_text(text)]
    for size in (101, 997, 4096):
        for data in (text.encode(), text.replace("\n", "\r\n").encode()):
            chunked = [(r.uri, r.span) for r in scan_stream(io.BytesIO(data), chunk_size=size)]
            if b"\r" in data:  # CRLF shifts the spans; the references are the same
                assert [u for u, _ in chunked] == [u for u, _ in whole]
            else:
                assert chunked == whole
    assert len(whole) == 900 and whole[0][0] == "http://w.example/a/b/c"


def test_a_closed_pipe_is_not_an_input_error(tmp_path: Path) -> None:
    f = tmp_path / "many.txt"
    f.write_text("http://a.example/x\n" * 50_000)
    proc = subprocess.run(f"{sys.executable} -m urisift {f} | head -1", shell=True, capture_output=True, check=False)
    assert (proc.stdout, proc.stderr) == (b"http://a.example/x\n", b"")


def test_unlistable_directory_exits_1(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "hidden.txt").write_text("http://hidden.example/\n")
    (tmp_path / "ok.txt").write_text("http://ok.example/\n")
    real_scandir = os.scandir

    def scandir(path):  # type: ignore[no-untyped-def]
        # what a directory without read permission does (root may read any, so simulate it)
        if os.fspath(path) == str(locked):
            raise PermissionError(13, "Permission denied", str(locked))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    code, out, err = run(["--no-location", str(tmp_path)])
    assert (code, out) == (1, "http://ok.example/\n")
    assert err == f"urisift: {locked}: cannot read: Permission denied\n"


def test_a_run_of_bad_bytes_across_a_chunk_boundary(tmp_path: Path) -> None:
    data = b"a" * 70_000 + b"\nx " + b"\xff" * 10 + b" http://after.example/\n"
    cut = data.index(b"\xff") + 4  # the chunk ends inside the run
    items = list(scan_stream(io.BytesIO(data), chunk_size=cut))
    defects = [i for i in items if isinstance(i, Defect)]
    assert [(d.position, d.detail.split(" is ")[0]) for d in defects] == [
        (data.index(b"\xff"), "ff ff ff ff"), (cut, "ff ff ff ff ff ff")]
    assert [i.uri for i in items if not isinstance(i, Defect)] == ["http://after.example/"]


def test_many_bad_bytes_are_listed_twenty_times_then_summed_up() -> None:
    data = b"x" * 70_000 + b"\n" + b"\xff a " * 100 + b"http://end.example/\n"
    items = list(scan_stream(io.BytesIO(data)))
    defects = [i for i in items if isinstance(i, Defect)]
    assert len(defects) == 21
    last = data.rindex(b"\xff")
    assert defects[-1].position == last
    assert defects[-1].detail == ("80 more runs of bytes that are not utf-8, read as windows-1252 "
                                  f"(the first 20 are listed; the last is at byte {last})")
    assert [i.uri for i in items if not isinstance(i, Defect)] == ["http://end.example/"]


def test_a_long_run_of_bytes_that_start_no_character_is_cut_into_runs_of_64() -> None:
    # a megabyte of them once took seconds, the decoder's error handler called for each byte
    first = 70_001
    data = b"x" * 70_000 + b"\n" + (b"\x94" * 130 + b" ") * 30 + b"http://end.example/\n"
    items = list(scan_stream(io.BytesIO(data)))
    defects = [i for i in items if isinstance(i, Defect)]
    starts = [first + 131 * group + cut for group in range(30) for cut in (0, 64, 128)]
    assert [(d.position, d.detail) for d in defects[:20]] == [
        (at, f"{' '.join(['94'] * (2 if (at - first) % 131 == 128 else 64))} is not utf-8 (invalid start byte); "
             "read as windows-1252") for at in starts[:20]]
    assert (defects[20].position, defects[20].detail) == (starts[-1], (
        f"70 more runs of bytes that are not utf-8, read as windows-1252 (the first 20 are listed; "
        f"the last is at byte {starts[-1]})"))
    assert len(defects) == 21
    records = [i for i in items if not isinstance(i, Defect)]
    assert [r.uri for r in records] == ["http://end.example/"]
    assert records[0].line == 2


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=3000), st.integers(min_value=1, max_value=700), st.sampled_from([b"", b"\xef\xbb\xbf"]))
def test_any_bytes_in_any_chunks_never_stop_the_scan(data: bytes, chunk: int, bom: bytes) -> None:
    pieces = (b"<http://a.example/\n x-\n y>", b"\xff\xfe", b"http://b.example/-\n", b"\n\n", b"\x00")
    # past the 64 KiB sample, so that the chunk boundaries fall inside the interesting part
    body = bom + b"a" * 65_530 + data + b"".join(pieces) + data[::-1]
    items = list(scan_stream(io.BytesIO(body), chunk_size=chunk, file="f"))
    for item in items:
        if isinstance(item, Defect):
            assert item.file == "f" and item.position is not None and 0 <= item.position <= len(body)


def test_defects_are_recorded_per_thread() -> None:
    from concurrent.futures import ThreadPoolExecutor

    def scan(i: int) -> list[int | None]:
        data = b"x" * 70_000 + b"\n" + (b"a" * i + b"\xff ") * 30 + b"http://e.example/\n"
        return [d.position for d in scan_stream(io.BytesIO(data)) if isinstance(d, Defect)]

    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(scan, range(1, 9)))
    for i, positions in enumerate(results, start=1):
        expected = [70_001 + k * (i + 2) + i for k in range(20)]
        assert positions[:20] == expected


# -- issue 7: the pipeline ----------------------------------------------------------------------

def test_a_base_that_cannot_be_parsed_is_a_usage_error() -> None:
    # issue 37: one rule for --base, a usage error before any input is read (the library still takes
    # such a base, with a bad-base defect: tests/test_options_noise.py)
    assert run(["--format", "jsonl", "--base", "http://[bad"], b"<URL:../g> http://ok.example/\n") == (
        2, "", "urisift: --base 'http://[bad' cannot serve as a base (RFC 3986 §5.1): 'http://[bad': position 7: "
               "malformed IP literal (in host)\n")


def test_a_base_with_a_fragment_never_shows_it() -> None:
    code, out, _ = run(["--format", "jsonl", "--base", "http://h.example/a/b?q#frag"], b"<URL:c> <URL:#x>\n")
    rows = [json.loads(line) for line in out.splitlines()]
    assert [(r["target"], r["base"], r["base_source"]) for r in rows] == [
        ("http://h.example/a/c", "http://h.example/a/b?q", "retrieval"),
        ("http://h.example/a/b?q#x", "http://h.example/a/b?q", "retrieval")]


def test_kind_is_honoured(tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    page.write_bytes(b"<!doctype html><p>see http://x.example/ <a href=a.html>a</a></p>\n")
    assert run(["--base", "http://h.example/", str(page)]) == (0, "http://x.example/\nhttp://h.example/a.html\n", "")
    assert run(["--kind", "text", str(page)]) == (0, "http://x.example/\n", "")
    warc = tmp_path / "a.warc"
    warc.write_bytes(b"WARC/1.0\r\nWARC-Type: warcinfo\r\nContent-Length: 22\r\n\r\nsee http://x.example/\n")
    # sniffed as WARC by its first line, and --kind warc alike: a warcinfo record is skipped
    assert run(["--format", "jsonl", str(warc)]) == (0, "", "")
    assert run(["--kind", "warc", "--format", "jsonl", str(warc)]) == (0, "", "")
    assert run(["--kind", "text", str(warc)]) == (0, "http://x.example/\n", "")
    mail = tmp_path / "m.eml"
    mail.write_bytes(b"From: a@example.org\nDate: Mon, 1 Jan 2024 00:00:00 +0000\nSubject: see http://s.example/\n\n"
                     b"and http://x.example/\n")
    assert run([str(mail)]) == (0, "http://s.example/\nhttp://x.example/\n", "")


@pytest.mark.parametrize("suffix, compress", [(".gz", "gzip"), (".bz2", "bz2"), (".xz", "lzma")])
def test_compressed_inputs_through_the_cli(tmp_path: Path, suffix: str, compress: str) -> None:
    import importlib

    source = Path(__file__).resolve().parents[1] / "corpora" / "text" / "wrapped-hyphenated.txt"
    packed = tmp_path / ("w.txt" + suffix)
    packed.write_bytes(importlib.import_module(compress).compress(source.read_bytes()))
    plain = tmp_path / "w.txt"
    plain.write_bytes(source.read_bytes())
    code, out_packed, _ = run(["--format", "jsonl", str(packed)])
    code2, out_plain, _ = run(["--format", "jsonl", str(plain)])
    assert code == code2 == 0
    assert out_packed.replace(str(packed), "F") == out_plain.replace(str(plain), "F") != ""


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_in_a_directory_is_skipped_not_waited_on(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "notes.txt").write_text("http://after.example/\n")
    proc = subprocess.run([sys.executable, "-m", "urisift", "-n", str(tmp_path)], capture_output=True, timeout=60,
                          check=False)
    assert proc.returncode == 0 and proc.stdout == b"http://after.example/\n"
    assert proc.stderr.decode() == (f"urisift: {tmp_path / 'pipe'}: not-a-file: a FIFO; skipped "
                                    "(name it explicitly to read it)\n")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
def test_a_write_error_ends_the_run_with_one_message_not_blamed_on_an_input(tmp_path: Path) -> None:
    f = tmp_path / "many.txt"
    f.write_text("http://a.example/x\n" * 20_000)
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-m", "urisift", str(f)], stdout=full, stderr=subprocess.PIPE,
                              timeout=60, check=False)
    assert proc.returncode == 1
    assert proc.stderr.decode() == "urisift: cannot write the output: No space left on device\n"


def test_strict_option_exits_1_at_the_first_defect() -> None:
    code, out, err = run(["--strict", "--charset", "utf-8"], b"\xff http://a.example/\n")
    assert (code, out) == (1, "")
    assert err == ("urisift: - at byte 0: undecodable-bytes: ff is not utf-8 (invalid start byte); read as "
                   "windows-1252 (--strict)\n")


def test_positions_are_made_where_written_and_defects_keep_theirs() -> None:
    # text output and --fields without span/line/column skip the search for
    # each value's position (issue 24); the <base> defect still names where it is
    page = b'<html><head>\n<base href="http://[bad/"></head>\n<a href="http://a.example/x">x</a>'
    stderr = ("urisift: - at character 25: bad-base: html-base 'http://[bad/' (<base href> at line 2) "
              "cannot serve as a base: 'http://[bad/': position 7: malformed IP literal (in host); "
              "no base stays in force\n")
    assert run(["--kind", "html"], page) == (0, "http://[bad/\nhttp://a.example/x\n", stderr)
    code, out, err = run(["--kind", "html", "--format", "jsonl", "--fields", "uri,span,line"], page)
    assert (code, err) == (0, stderr) and json.loads(out.splitlines()[-1]) == {
        "uri": "http://a.example/x", "span": [56, 74], "line": 3}
    code, out, err = run(["--kind", "html", "--format", "jsonl", "--fields", "uri"], page)
    assert (code, err, out.splitlines()[-1]) == (0, stderr, '{"uri": "http://a.example/x"}')
    assert json.loads(out.splitlines()[0])["position"] == 25


@pytest.mark.parametrize("output", ["text", "jsonl"])
def test_what_was_found_before_a_strict_stop_is_written(tmp_path: Path, output: str) -> None:
    # the output is written in batches (issue 24): a run that ends early
    # still writes every record it found before the end
    good = tmp_path / "good.txt"
    good.write_text("".join(f"http://a.example/{i}\n" for i in range(700)), "utf-8")
    code, out, err = run(["--strict", "--jobs", "1", "--format", output, str(good), str(tmp_path / "missing.txt")])
    assert code == 1 and "missing.txt: unreadable" in err
    assert len(out.splitlines()) == 700 and "http://a.example/699" in out.splitlines()[-1]


def test_a_text_run_loads_no_reader_it_does_not_use(tmp_path: Path) -> None:
    # start-up is paid by every command (issue 24): a plain text file, one
    # process, loads neither the email package, the pool's multiprocessing,
    # ada-url, nor the HTML parser; and each comes in when the input needs it
    notes = tmp_path / "notes.txt"
    notes.write_text("see http://example.com/a\n")
    page = tmp_path / "page.html"
    page.write_text('<a href="/b">b</a>')
    probe = ("import sys, runpy; sys.argv = ['urisift', '-q', '--jobs', '1'] + sys.argv[1:]\n"
             "try:\n    runpy.run_module('urisift', run_name='__main__')\nexcept SystemExit:\n    pass\n"
             "print(sorted(m for m in ('email.message', 'multiprocessing', 'ada_url', 'selectolax') "
             "if m in sys.modules), file=sys.stderr)")

    def loaded(*argv: str) -> str:
        done = subprocess.run([sys.executable, "-c", probe, *argv], capture_output=True, text=True, check=True)
        return done.stderr.strip().splitlines()[-1]

    assert loaded(str(notes)) == "[]"
    assert loaded(str(page)) == "['ada_url', 'selectolax']"
    assert loaded("--resolve", "both", str(notes)) == "['ada_url']"


def test_a_gzip_listing_cut_short_is_a_usage_error_not_a_trace(tmp_path: Path) -> None:
    """Issue 38: --from-list reads a gzip listing (Common Crawl's warc.paths.gz); one cut short
    ended in an EOFError trace, one whose deflate data is bad in a zlib.error trace."""
    import gzip

    (tmp_path / "page.txt").write_text("see http://page.example/\n")
    whole = gzip.compress(f"# one input\n\n{tmp_path / 'page.txt'}\n".encode())
    (tmp_path / "whole.gz").write_bytes(whole)
    (tmp_path / "cut.gz").write_bytes(whole[:-12])
    (tmp_path / "bad.gz").write_bytes(whole[:10] + b"\xff" * 8 + whole[18:])
    assert run(["--from-list", str(tmp_path / "whole.gz")]) == (0, "http://page.example/\n", "")
    assert run(["--from-list", str(tmp_path / "cut.gz")]) == (
        2, "", f"urisift: --from-list {tmp_path / 'cut.gz'}: not a gzip stream that can be read: Compressed file "
               "ended before the end-of-stream marker was reached\n")
    assert run(["--from-list", str(tmp_path / "bad.gz")]) == (
        2, "", f"urisift: --from-list {tmp_path / 'bad.gz'}: not a gzip stream that can be read: Error -3 while "
               "decompressing data: invalid block type\n")
