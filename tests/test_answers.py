"""Issue 37, "tracebacks and non-answers": an input read once is never read
twice (a usage error, before anything is read), ``urisift audit`` gives the
scan's defects and exit status, the library checks its arguments at the
door, and the same input gives the same output on every run."""

from __future__ import annotations

import inspect
import io
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import urisift
from urisift.cli.command import main


def run(argv: list[str], stdin: bytes = b"") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdin=io.BytesIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


# -- an input that can be read once ------------------------------------------------------------

def test_standard_input_named_twice_is_a_usage_error() -> None:
    assert run(["-", "-"], b"http://a.example/\n") == (
        2, "", "urisift: standard input ('-') is named twice, and can be read only once\n")


def test_a_fifo_named_twice_or_read_twice_is_a_usage_error(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    # (nothing opens it: a FIFO without a writer would block the test if it were read)
    assert run([str(fifo), str(fifo)]) == (
        2, "", f"urisift: {fifo} (a FIFO, socket or device) is named twice, and can be read only once\n")
    assert run(["--effective", str(fifo)]) == (
        2, "", f"urisift: {fifo} (a FIFO, socket or device) can be read only once, and --effective reads the "
               "inputs twice (the captures first): name a file\n")


def test_effective_on_standard_input_is_a_usage_error() -> None:
    assert run(["--effective"], b"WARC/1.0\r\n") == (
        2, "", "urisift: standard input ('-') can be read only once, and --effective reads the inputs twice (the "
               "captures first): name a file\n")


# -- the audit answers as the scan does ---------------------------------------------------------

PAGE = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<a href='http://b.example/'>b</a>"


def _warc(payload: bytes, length: int | None = None) -> bytes:
    head = (b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-000000000001>\r\n"
            b"WARC-Target-URI: http://a.example/\r\nWARC-Date: 2024-01-01T00:00:00Z\r\n"
            b"Content-Type: application/http;msgtype=response\r\n")
    return head + b"Content-Length: %d\r\n\r\n" % (len(payload) if length is None else length) + payload + b"\r\n\r\n"


def test_the_audit_gives_the_scans_defects_and_exit_status(tmp_path: Path) -> None:
    good = tmp_path / "good.warc"
    good.write_bytes(_warc(PAGE))
    cut = tmp_path / "cut.warc"
    cut.write_bytes(_warc(PAGE, len(PAGE) + 100)[:-4])
    notes = tmp_path / "notes.txt"
    notes.write_bytes(b"Notes: http://c.example/\n")
    missing = tmp_path / "missing.warc"
    inputs = [str(good), str(cut), str(notes), str(missing)]
    code, out, err = run(["audit", *inputs])
    scan = run(["--kind", "warc", "--jobs", "1", *inputs])
    assert (code, err) == (scan[0], scan[2]) == (1, (
        f"urisift: {cut} at byte 0: broken-warc: the record at byte 0 (<urn:uuid:00000000-0000-4000-8000-"
        "000000000001>, http://a.example/) is cut short: the file ends 100 bytes before the end its "
        "Content-Length (177) gives (a truncated download?)\n"
        f"urisift: {notes}: cannot read: not a WARC or ARC file: it begins 'Notes: http://c.example/?'\n"
        f"urisift: {missing}: cannot read: No such file or directory\n"))
    # (both WARCs hold the same record of the same page: one page audited)
    assert out == ("pages audited: 1\n\n| kind | outlinks | captured | missing | captured % |\n"
                   "|---|---:|---:|---:|---:|\n| link | 1 | 0 | 1 | 0.0 |\n| embed | 0 | 0 | 0 | — |\n"
                   "| redirect | 0 | 0 | 0 | — |\n\n"
                   "most linked of what was not captured:\n       1  http://b.example/\n")
    code, out, err = run(["audit", "--format", "jsonl", str(missing)])
    assert (code, out, err) == (1, (
        f'{{"defect": "unreadable", "detail": "No such file or directory", "file": "{missing}", "position": null, '
        '"unit": "byte", "message": null, "part": null, "message_id": null, "offset": null, "warc_record_id": '
        'null}\n'), f"urisift: {missing}: cannot read: No such file or directory\n")
    assert run(["audit", "-"]) == (2, "", "urisift audit: standard input ('-') can be read only once, and the audit "
                                          "reads the inputs twice (the captures first): name a file\n")


# -- the same input, the same output ------------------------------------------------------------

def _arc_record(url: bytes, payload: bytes) -> bytes:
    return b"%s 93.184.216.119 20140216050221 text/html %d\n%s\n" % (url, len(payload), payload)


def test_arc_records_and_their_defects_are_the_same_on_every_run(tmp_path: Path) -> None:
    # an ARC file without its filedesc:// header (a range of a larger one), then a record cut short:
    # warcio makes up a random WARC-Record-ID for each ARC record; none may show
    arc = tmp_path / "part.arc"
    arc.write_bytes(_arc_record(b"http://example.com/", PAGE) + _arc_record(b"http://example.com/b", PAGE)[:-30])
    runs = [run(["--kind", "warc", "--format", "jsonl", str(arc)]) for _ in range(2)]
    assert runs[0] == runs[1]
    code, out, err = runs[0]
    assert "urn:uuid" not in out + err and code == 0
    assert err == (f"urisift: {arc} at byte 141: broken-warc: the record at byte 141 (http://example.com/b) is cut "
                   "short: the file ends 29 bytes before the end its Content-Length (77) gives (a truncated "
                   "download?)\n")


# -- the library's door -------------------------------------------------------------------------

Door = tuple[Callable[[], Any], type[Exception], str]

DOORS: dict[str, list[Door]] = {
    "ScanOptions": [
        (lambda: urisift.ScanOptions(kind="bogus"), ValueError, "ScanOptions(): kind must be one of 'auto', 'text', "
         "'html', 'mail', 'mbox', 'maildir', 'emlx', 'msg', 'tnef', 'pst', 'warc', 'css', 'xml', 'robots', 'pdf', "
         "'office', 'markdown', 'notebook', 'rst', 'asciidoc', 'org', 'latex', 'bibtex', 'wikitext', 'calendar', "
         "'vcard', 'csv', 'archive', 'epub', 'image'; not 'bogus'"),
        (lambda: urisift.ScanOptions(strict="yes"), TypeError, "ScanOptions(): strict must be True or False, not "
         "'yes'"),
        (lambda: urisift.ScanOptions(base=b"http://a/"), TypeError, "ScanOptions(): base must be a str or None, not "
         "bytes"),
        (lambda: urisift.ScanOptions(context=-1), ValueError, "ScanOptions(): context must be 0 or more, not -1"),
        (lambda: urisift.ScanOptions(timeout=0), ValueError, "ScanOptions(): timeout must be above 0, not 0"),
    ],
    "scan_text": [
        (lambda: urisift.scan_text(None), TypeError, "scan_text(): text must be a str, not NoneType"),  # type: ignore[arg-type]
        (lambda: urisift.scan_text(b"x"), TypeError, "scan_text(): text must be a str, not bytes (decode it, or "  # type: ignore[arg-type]
         "give io.BytesIO(data) to scan_stream, which finds its charset)"),
        (lambda: urisift.scan_text("x", base=3), TypeError, "scan_text(): base must be a str or None, not int"),  # type: ignore[arg-type]
    ],
    "scan_stream": [
        (lambda: urisift.scan_stream(io.StringIO("x")), TypeError, "scan_stream(): stream is a text stream "  # type: ignore[arg-type]
         "(StringIO): give a binary one (open the file with 'rb', or pass sys.stdin.buffer, io.BytesIO)"),
        (lambda: urisift.scan_stream(io.BytesIO(), chunk_size=0), ValueError, "scan_stream(): chunk_size must be 1 "
         "or more, not 0"),
    ],
    "scan_mbox": [
        (lambda: urisift.scan_mbox(io.StringIO("From a")), TypeError, "scan_mbox(): stream is a text stream "  # type: ignore[arg-type]
         "(StringIO): give a binary one (open the file with 'rb', or pass sys.stdin.buffer, io.BytesIO)"),
        (lambda: urisift.scan_mbox(b"From a"), TypeError, "scan_mbox(): stream must be a binary stream (a file "  # type: ignore[arg-type]
         "opened with 'rb', io.BytesIO), not bytes"),
    ],
    "scan_message": [(lambda: urisift.scan_message(None), TypeError, "scan_message(): message must be bytes, a str "  # type: ignore[arg-type]
                      "or an email.message.Message, not NoneType")],
    "scan_html": [
        (lambda: urisift.scan_html(None), TypeError, "scan_html(): document must be bytes, a str or a BeautifulSoup "
         "object, not NoneType"),
        (lambda: urisift.scan_html("<p>", comments=1), TypeError, "scan_html(): comments must be True or False, not "  # type: ignore[arg-type]
         "1"),
    ],
    "scan_path": [(lambda: urisift.scan_path(None), TypeError, "scan_path(): path must be a str or a path "  # type: ignore[arg-type]
                   "(os.PathLike), not NoneType")],
    "iter_input": [
        (lambda: urisift.iter_input(None), TypeError, "iter_input(): source must be a path (str, os.PathLike) or an "  # type: ignore[arg-type]
         "Input, not NoneType"),
        (lambda: urisift.iter_input("x", 3), TypeError, "iter_input(): options must be a ScanOptions, not int"),  # type: ignore[arg-type]
    ],
    "find_references": [(lambda: urisift.find_references(None), TypeError, "find_references(): text must be a str, "  # type: ignore[arg-type]
                         "not NoneType")],
    "record_json": [(lambda: urisift.record_json(None), TypeError, "record_json(): record must be a Record, not "  # type: ignore[arg-type]
                     "NoneType")],
    "record_line": [(lambda: urisift.record_line("x"), TypeError, "record_line(): record must be a Record, not str")],  # type: ignore[arg-type]
    "resolve": [
        (lambda: urisift.resolve(None, "http://a/"), TypeError, "resolve(): reference must be a str or a "  # type: ignore[arg-type]
         "UriReference, not NoneType"),
        (lambda: urisift.resolve("g", "http://a/", profile="x"), ValueError, "resolve(): profile must be one of "  # type: ignore[arg-type]
         "'rfc3986', 'rfc2396'; not 'x'"),
        (lambda: urisift.resolve("g", "http://a/", strict=1), TypeError, "resolve(): strict must be True or False, "  # type: ignore[arg-type]
         "not 1"),
    ],
    "remove_dot_segments": [(lambda: urisift.remove_dot_segments(None), TypeError, "remove_dot_segments(): path "  # type: ignore[arg-type]
                             "must be a str, not NoneType")],
    "normalize": [
        (lambda: urisift.normalize(None), TypeError, "normalize(): uri must be a str or a UriReference, not NoneType"),  # type: ignore[arg-type]
        (lambda: urisift.normalize("http://a/", level="x"), ValueError, "normalize(): level must be one of 'string', "  # type: ignore[arg-type]
         "'syntax', 'scheme', 'scheme-specific'; not 'x'"),
    ],
    "equivalent": [(lambda: urisift.equivalent("a", "b", bogus=True), ValueError, "equivalent(): an option's name "
                    "must be one of 'idna', 'iri_to_uri', 'drop_fragment', 'strip_host_dot'; not 'bogus'")],
    "validate": [(lambda: urisift.validate(3), TypeError, "validate(): text must be a str, not int")],  # type: ignore[arg-type]
    "is_valid": [(lambda: urisift.is_valid("a", "bogus"), ValueError, "is_valid(): production must be one of "
                  "'URI-reference', 'URI', 'absolute-URI', 'relative-ref', 'IRI-reference', 'IRI', 'absolute-IRI', "
                  "'irelative-ref', 'IP-literal', 'IPv6address', 'IPv4address'; not 'bogus'")],
    "risks": [(lambda: urisift.risks(None), TypeError, "risks(): uri must be a str or a UriReference, not NoneType")],  # type: ignore[arg-type]
    "urn_equivalent": [(lambda: urisift.urn_equivalent("urn:a:b", "urn:a:b", rules="x"), ValueError,  # type: ignore[arg-type]
                        "urn_equivalent(): rules must be one of '2141', '2141bis-00', '2141bis-03', '8141'; not 'x'")],
    "UriReference": [(lambda: urisift.UriReference.parse(None), TypeError, "UriReference.parse(): text must be a "  # type: ignore[arg-type]
                      "str, not NoneType")],
    "Urn": [(lambda: urisift.Urn.parse(None), TypeError, "Urn.parse(): text must be a str, not NoneType")],  # type: ignore[arg-type]
}


@pytest.mark.parametrize("call, error, message", [door for doors in DOORS.values() for door in doors])
def test_wrong_arguments_fail_at_the_door_naming_the_argument(call: Callable[[], Any], error: type[Exception],
                                                              message: str) -> None:
    # at the call itself: a scan_* generator raises before its first record is asked for
    with pytest.raises(error) as raised:
        call()
    assert str(raised.value) == message


def test_every_public_function_has_its_door_checked() -> None:
    functions = {name for name in urisift.__all__ if inspect.isfunction(getattr(urisift, name))}
    # (registered_schemes takes no argument)
    assert functions - {"registered_schemes"} <= set(DOORS)
    assert {"ScanOptions", "UriReference", "Urn"} <= set(DOORS)
