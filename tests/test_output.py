"""The record contract of DESIGN §2 (output.py)."""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from urisift import (
    Base,
    BaseSource,
    Charset,
    CharsetSource,
    Defect,
    DefectKind,
    Flag,
    Found,
    Origin,
    Place,
    Record,
    Span,
    Style,
    Where,
    record_json,
    record_line,
    scan_path,
    scan_text,
)
from urisift.model import Effective
from urisift.output import DEFECT_KEYS, RECORD_KEYS, RecordLines, defect_line
from urisift.output.writers import FIELDS, CsvWriter, JsonlWriter, Layout, TextWriter
from urisift.uri.risk import Risk

from .conftest import ROOT


def test_key_order_is_the_contract() -> None:
    assert RECORD_KEYS == (
        "uri", "target", "alternatives", "base", "base_source", "style", "where", "element", "attribute",
        "header", "file", "message", "message_id", "part", "offset", "warc_record_id", "warc_target_uri",
        "warc_date", "rel", "text", "span", "line", "column", "flags", "charset", "charset_source", "risks",
        "points_to", "browser_target", "unwrapped", "wrapper", "effective_target", "effective_hops", "effective_status",
        "effective_loop", "page", "member")
    assert DEFECT_KEYS == ("defect", "detail", "file", "position", "unit", "message", "part", "message_id",
                           "offset", "warc_record_id")


def _records() -> list[Record]:
    text = ((ROOT / "corpora" / "text" / "prose.txt").read_text("utf-8")
            + "\n<URL:../rel> http://u:p@0x7f.1:25/ \"quote\\\" \u00e9\" http://x.example/a-\n b\n")
    records = [r for r in scan_text(text, base="http://h.example/d/f#frag", file="d\u00e9j\u00e0 \"vu\".txt")
               if isinstance(r, Record)]
    link = Place(Where.HTML, "a", "href", None, ("nofollow", "noopener"), "the anchor \"text\"")
    records.append(Record(Found("p.html", None, None, Style.ATTRIBUTE, place=link), "http://h.example/p.html",
                          Base("http://h.example/", BaseSource.HTML_BASE, "<base>"),
                          Origin("m.mbox", 3, "<id@x>", "1.2", 4096, "<urn:uuid:1>", "http://t/", "2024-01-01"),
                          Charset("iso-8859-1", CharsetSource.DECLARED),
                          risks=(Risk("userinfo", "7.5", "a \"quoted\" detail"),)))
    return records


def test_record_line_is_json_dumps_of_record_json() -> None:
    lines = RecordLines()  # one writer over many records: the shared parts are remembered
    for record in _records():
        expected = json.dumps(record_json(record), ensure_ascii=False)
        assert lines(record) == expected
        assert record_line(record) == expected
        # plain text without --resolve: browser_target not computed, so not written
        assert list(json.loads(expected)) == [k for k in RECORD_KEYS if k != "browser_target"]


def _corpus_records() -> list[Record]:
    """Every record of the bundled samples (HTML, mail, WARC, feeds, CSS ...),
    and a few with the keys no sample fills (effective, context, a browser
    failure), in input order: runs of records that share parts, and changes."""
    records = [r for path in sorted((ROOT / "corpora").rglob("*")) if path.is_file() and path.suffix != ".py"
               for r in scan_path(path, base="https://corpus.example/x", fields=(*RECORD_KEYS, "region"))
               if isinstance(r, Record)]
    first = records[0]
    records += [first._replace(effective=Effective("https://e.example/\u00e9", 2, None, True), context="c\n"),
                first._replace(effective=Effective("https://e.example/", 0, 301, False), browser_target=None),
                first._replace(unwrapped="https://u.example/", wrapper=("safelinks", "google"))]
    return records


def test_record_lines_on_every_corpus_record() -> None:
    lines = RecordLines()
    for record in _corpus_records():
        assert lines(record) == json.dumps(record_json(record), ensure_ascii=False)


@pytest.mark.parametrize("fields", [("uri", "target"), ("target",), ("file", "line", "column", "uri"),
                                    FIELDS, tuple(reversed(FIELDS))])
def test_field_lines_are_json_dumps_of_the_row(fields: tuple[str, ...]) -> None:
    layout = Layout(format="jsonl", fields=fields)
    out = io.StringIO()
    writer = JsonlWriter(out, layout)
    expected = []
    for i, record in enumerate(_corpus_records()):
        normalized = None if i % 2 else f"n{i}"
        writer.record(record, normalized)
        expected.append(json.dumps(layout.row(record, normalized), ensure_ascii=False))
    assert out.getvalue().splitlines() == expected


@given(st.text(), st.one_of(st.none(), st.text()), st.lists(st.sampled_from(list(Flag)), unique=True),
       st.lists(st.text(), max_size=2), st.one_of(st.none(), st.integers(0, 10**9)))
def test_record_line_agrees_with_json_dumps_on_any_values(uri: str, target: str | None, flags: list[Flag],
                                                         alternatives: list[str], start: int | None) -> None:
    found = Found(uri, start, None if start is None else start + 1, Style.BARE, tuple(flags), tuple(alternatives))
    span = None if start is None else Span(start, start + 1)
    record = Record(found, target, None, Origin(file=uri), None, span, start, start)
    assert record_line(record) == json.dumps(record_json(record), ensure_ascii=False)


def test_defect_line() -> None:
    d = Defect(DefectKind.UNDECODABLE_BYTES, "ff is not utf-8", Origin("f", 2, "<m@x>", "1", 100), 7)
    assert json.loads(defect_line(d)) == {
        "defect": "undecodable-bytes", "detail": "ff is not utf-8", "file": "f", "position": 7, "unit": "byte",
        "message": 2, "part": "1", "message_id": "<m@x>", "offset": 100, "warc_record_id": None}


@pytest.mark.parametrize("writer, expected", [
    (TextWriter, "http://a.example/x\n../g\n"),
    (JsonlWriter, None),
    (CsvWriter, None),
])
def test_writers(writer: type, expected: str | None) -> None:
    out = io.StringIO()
    w = writer(out)
    for r in scan_text("http://a.example/x and <URL:../g>"):
        assert isinstance(r, Record)
        w.record(r)
    w.defect(Defect(DefectKind.BINARY_CONTENT, "NUL"))
    if expected is not None:
        assert out.getvalue() == expected
    elif writer is JsonlWriter:
        rows = [json.loads(line) for line in out.getvalue().splitlines()]
        assert [r.get("uri") or r.get("defect") for r in rows] == ["http://a.example/x", "../g", "binary-content"]
    else:
        header, first, second = out.getvalue().splitlines()
        assert header == ",".join(RECORD_KEYS)
        # issue 20: alternatives, a list, is its JSON text ([]); target and base, null, are empty
        assert first.startswith("http://a.example/x,http://a.example/x,[],,,bare,text,")
        assert second.startswith("../g,,[],,,angle-url,text,")


def test_jsonl_normalized_key_comes_last() -> None:
    out = io.StringIO()
    w = JsonlWriter(out, Layout("jsonl", normalized=True))
    (r,) = scan_text("HTTP://A.example/%7e")
    assert isinstance(r, Record)
    w.record(r, "http://a.example/~")
    row = json.loads(out.getvalue())
    assert list(row)[-1] == "normalized" and row["normalized"] == "http://a.example/~"


def test_csv_cells_read_back_as_the_values_they_were() -> None:
    """Issue 20: null, "" and [] were all an empty cell; now null is empty,
    "" a quoted empty field and a list its JSON text."""
    import csv as csv_module

    from urisift import scan_message

    message = (b'From: a@x.example\nMessage-ID: <m1@x.example>\nContent-Type: text/html\n\n'
               b'<a href="mid:m1@x.example"></a>\n')
    (record,) = [r for r in scan_message(message) if isinstance(r, Record)]
    out = io.StringIO()
    CsvWriter(out, Layout("csv", fields=("uri", "points_to", "text", "rel", "alternatives", "base", "span"))).record(
        record)
    row = out.getvalue()
    assert row == 'uri,points_to,text,rel,alternatives,base,span\r\nmid:m1@x.example,"","",,[],,"[9, 25]"\r\n'
    header, values = csv_module.reader(io.StringIO(row))
    assert [json.loads(values[4]), json.loads(values[6])] == [[], [9, 25]]
