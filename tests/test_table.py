"""CSV and TSV tables (issue 55): each cell read as text, records naming the
cell (R1C1) and the header's name, quoted cells over lines, the sniffed
delimiter, and the bounds: a quote that never closes, a 100 MB cell, a
million columns."""

from __future__ import annotations

import email.message
import time
from pathlib import Path

from urisift import Defect, DefectKind, Record, scan_message, scan_path
from urisift.output.records import record_json, record_schema
from urisift.readers.table import sniff_delimiter
from urisift.stages.media import kind_of
from urisift.stages.sniff import sniff

from .test_cli import run


def _records(path: Path) -> list[tuple[str | None, str | None, str | None, tuple[int, int], int, int]]:
    return [(r.target, r.element, r.header, tuple(r.span), r.line, r.column)
            for r in scan_path(path) if isinstance(r, Record)]


def test_a_reference_never_crosses_a_cells_end(tmp_path: Path) -> None:
    table = tmp_path / "t.csv"
    text = ('id,url,name\n1,https://x.example/a.html,Template\n2,"see https://q.example/a,b and\n'
            'https://two.example/ ""quoted""",x\n3,www.abbr.example,"a ""https://in.example/q"" b"\n')
    table.write_text(text, "utf-8")
    records = _records(table)
    assert records == [
        ("https://x.example/a.html", "R2C2", "url", (14, 38), 2, 3),
        ("https://q.example/a,b", "R3C2", "url", (55, 76), 3, 8),
        ("https://two.example/", "R3C2", "url", (81, 101), 4, 1),
        ("http://www.abbr.example", "R4C2", "url", (118, 134), 5, 3),
        ("https://in.example/q", "R4C3", "name", (140, 160), 5, 25)]
    assert [text[a:b] for _, _, _, (a, b), _, _ in records] == [
        "https://x.example/a.html", "https://q.example/a,b", "https://two.example/", "www.abbr.example",
        "https://in.example/q"]
    [first, *_] = [r for r in scan_path(table) if isinstance(r, Record)]
    line = record_json(first)
    assert (line["where"], line["element"], line["header"], line["style"]) == ("csv", "R2C2", "url", "bare")
    import jsonschema

    jsonschema.validate(line, record_schema())


def test_without_a_header_row_no_header_is_named(tmp_path: Path) -> None:
    table = tmp_path / "t.csv"
    table.write_text("1,https://a.example/,x\n2,https://b.example/,y\n", "utf-8")
    assert _records(table) == [("https://a.example/", "R1C2", None, (2, 20), 1, 3),
                               ("https://b.example/", "R2C2", None, (25, 43), 2, 3)]


def test_the_delimiter_is_sniffed(tmp_path: Path) -> None:
    semicolons = tmp_path / "s.csv"
    semicolons.write_text("name;link\nA;https://s.example/x,y\nB;https://t.example/\n", "utf-8")
    assert [r[:3] for r in _records(semicolons)] == [("https://s.example/x,y", "R2C2", "link"),
                                                     ("https://t.example/", "R3C2", "link")]
    tabs = tmp_path / "t.tsv"
    tabs.write_text("name\tlink\r\nA\thttps://tab.example/a,b\r\n", "utf-8")
    assert [r[:3] for r in _records(tabs)] == [("https://tab.example/a,b", "R2C2", "link")]
    assert sniff_delimiter("a|b|c\n1|2|3\n") == "|"
    assert sniff_delimiter("one cell\n") == ","
    assert sniff_delimiter("a,b\tc\n", tab_first=True) == "\t"


def test_the_kind_is_told_by_name_and_media_type() -> None:
    assert sniff(b"a,b\n", "x.csv").kind.value == sniff(b"a\tb\n", "x.tsv").kind.value == "csv"
    assert kind_of("text/csv").value == kind_of("text/tab-separated-values").value == "csv"  # type: ignore[union-attr]


def test_a_csv_attached_to_a_message_is_read_by_cells() -> None:
    message = email.message.EmailMessage()
    message["From"] = "a@example.org"
    message.set_content("see the table")
    message.add_attachment(b"1,https://x.example/a.html,Template\n", maintype="text", subtype="csv",
                           filename="export.csv")
    assert [(r.target, r.element) for r in scan_message(message.as_bytes()) if isinstance(r, Record)] == [
        ("https://x.example/a.html", "R1C2")]


def test_a_quote_that_never_closes_is_a_defect_and_the_rest_is_read(tmp_path: Path) -> None:
    table = tmp_path / "u.csv"
    table.write_text('a,b\n1,"https://one.example/ oops\n2,https://two.example/\n', "utf-8")
    items = list(scan_path(table))
    assert [str(i) if isinstance(i, Defect) else (i.target, i.element) for i in items] == [
        f"{table}: broken-document: row 2, column 2: a quote that never closes: the rest of the table is read "
        "as the text of that cell",
        ("https://one.example/", "R2C2"), ("https://two.example/", "R2C2")]


def test_a_100_mb_cell_is_read_in_pieces(tmp_path: Path) -> None:
    table = tmp_path / "big.csv"
    with table.open("wb") as out:
        out.write(b'a,"https://first.example/ ')
        for _ in range(50):
            out.write(b"x " * (1 << 20))
        out.write(b'https://end.example/ ",b\n2,https://after.example/\n')
    begun = time.perf_counter()
    records = [(r.target, r.element, r.line) for r in scan_path(table) if isinstance(r, Record)]
    assert records == [("https://first.example/", "R1C2", 1), ("https://end.example/", "R1C2", 1),
                       ("https://after.example/", "R2C2", 2)]
    assert time.perf_counter() - begun < 30


def test_a_million_columns_is_a_defect_and_the_rest_is_read(tmp_path: Path) -> None:
    table = tmp_path / "wide.csv"
    table.write_bytes(b"x," + b"," * 1_000_000 + b"https://wide.example/\nhttps://next.example/,x\n")
    items = list(scan_path(table))
    assert [str(i) if isinstance(i, Defect) else (i.target, i.element) for i in items] == [
        f"{table}: bomb: row 1 has more than 16384 columns: the cells past column 16384 are not read, in it and "
        "in the rows after it",
        ("https://next.example/", "R2C1")]
    assert [i.kind for i in items if isinstance(i, Defect)] == [DefectKind.BOMB]


def test_the_command_reads_a_table_from_standard_input() -> None:
    code, out, _ = run(["--kind", "csv", "-"], b"1,https://x.example/a.html,Template\n")
    assert (code, out) == (0, "https://x.example/a.html\n")
    code, out, _ = run(["--kind", "csv", "--refang", "-"], b"1,hxxp://evil[.]example[.]com/a,b\n")
    assert (code, out) == (0, "http://evil.example.com/a\n")


def test_small_broken_tables_are_defects_or_nothing(tmp_path: Path) -> None:
    cases = {
        b"": [],
        b'"': ["broken-document"],
        b'""': [],
        b'a,"b""': ["broken-document"],
        b'"https://a.example/"': [("https://a.example/", "R1C1", 1, 2)],
        b'"a"b"c",https://q.example/': [("https://q.example/", "R1C2", 1, 9)],
        b",,,\n,,\n\"\",\"\"\n": [],
        b"\xef\xbb\xbfu\nhttps://bom.example/\n": [("https://bom.example/", "R2C1", 2, 1)],
        "\ufeffu\nhttps://u16.example/,x\n".encode("utf-16"): [("https://u16.example/", "R2C1", 2, 1)],
    }
    for number, (data, expected) in enumerate(cases.items()):
        table = tmp_path / f"{number}.csv"
        table.write_bytes(data)
        assert [i.kind.value if isinstance(i, Defect) else (i.target, i.element, i.line, i.column)
                for i in scan_path(table)] == expected, data
