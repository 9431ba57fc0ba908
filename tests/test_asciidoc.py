"""AsciiDoc: URL macros with their text, link:, mailto:, xref: and <<id>>,
inline and block images, include:: as a reference never read, passthrough
blocks read by the HTML reader, bare URLs; URLs in listing and literal
blocks and under [source] told apart by the ``code`` flag; comments not
scanned; exact records and positions."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import json_rows as rows
from .conftest import run_cli as run

DOC = (Path(__file__).parent.parent / "corpora" / "asciidoc" / "sample.adoc").read_text("utf-8")
FIELDS = "uri,style,where,element,attribute,flags,line,column"


EXPECTED = [
    ("https://home.example/", "bare", "asciidoc", "a", "href", [], 2, 12),  # an attribute entry's value
    ("https://www.python.org/", "markup", "asciidoc", "a", "href", [], 4, 5),  # a URL macro
    ("docs/intro.html", "markup", "asciidoc", "a", "href", [], 4, 43),
    ("mailto:me@x.example", "markup", "asciidoc", "a", "href", [], 4, 81),
    ("https://bare.example/p", "bare", "asciidoc", "a", "href", ["trimmed"], 5, 7),
    ("#install", "markup", "asciidoc", "a", "href", [], 5, 41),  # <<install>>: an id in the document
    ("other.adoc#sec", "markup", "asciidoc", "a", "href", [], 5, 56),
    ("#faq", "markup", "asciidoc", "a", "href", [], 5, 87),  # xref:faq[]
    ("img/logo.png", "markup", "asciidoc", "img", "src", [], 7, 8),
    ("icon.png", "markup", "asciidoc", "img", "src", [], 8, 10),
    ("chapter.adoc", "markup", "asciidoc", "include", None, [], 10, 10),  # never read
    ("http://code.example/", "quote", "asciidoc", None, None, ["code"], 14, 8),  # [source] ----
    ("http://literal.example/", "bare", "asciidoc", None, None, ["code"], 18, 1),  # ....
    ("http://para.example/", "quote", "asciidoc", None, None, ["code"], 22, 8),  # a [source] paragraph
    ("raw.html", "attribute", "html", "a", "href", [], 31, 10),  # a passthrough block, where it stands
    # (the line comment's and the comment block's URLs are not found)
    ("http://after.example/", "bare", "asciidoc", "a", "href", ["trimmed"], 34, 7),
]


def test_each_construct_is_a_record_with_its_html_element_and_position(tmp_path: Path) -> None:
    doc = tmp_path / "doc.adoc"
    doc.write_text(DOC, "utf-8")
    code, out, err = run(["--format", "jsonl", "--fields", FIELDS, str(doc)])
    assert (code, err) == (0, "")
    assert rows(out) == EXPECTED


def test_urls_in_code_can_be_left_out(tmp_path: Path) -> None:
    doc = tmp_path / "doc.adoc"
    doc.write_text(DOC, "utf-8")
    out = run(["--no-code", "--format", "jsonl", "--fields", FIELDS, str(doc)])[1]
    assert rows(out) == [e for e in EXPECTED if "code" not in e[5]]


@pytest.mark.parametrize("name", ["a.adoc", "a.asciidoc", "a.asc", "A.ADOC"])
def test_asciidoc_is_told_by_its_name_and_media_type(tmp_path: Path, name: str) -> None:
    doc = tmp_path / name
    doc.write_text("See link:y.html[y].\n\n----\nhttp://c.example/\n----\n")
    assert run(["--no-code", str(doc)])[1] == "y.html\n"
    message = tmp_path / "m.eml"
    message.write_bytes(b"From: a@b.example\r\nDate: Mon, 1 Jan 2024 00:00:00 +0000\r\nContent-Type: text/asciidoc\r\n"
                        b"Content-Base: http://docs.example/guide/\r\n\r\nRead link:intro.html[the intro].\r\n")
    assert run([str(message)])[1] == "http://docs.example/guide/intro.html\n"


@pytest.mark.parametrize("doc, expected", [
    # a block left open runs to the end; a longer delimiter does not close a shorter one
    ("----\nhttp://c.example/\n-----\nhttp://d.example/\n", [("http://c.example/", ["code"]),
                                                             ("http://d.example/", ["code"])]),
    # a macro in a block is the block's text; an escaped macro is not one
    ("....\nhttps://x.example/[x]\n....\n\\link:y.html[y]\n", [("https://x.example/[x]", ["code"])]),
    # a macro whose text is never closed on its line is no macro (its URL is text); nor an unclosed <<
    ("https://u.example/[text\nlink:v.html[v\n<<id\n", [("https://u.example/[text", [])]),
    # a [source] paragraph ends at a blank line
    ("[source]\nhttp://c.example/\n\nhttp://p.example/\n",
     [("http://c.example/", ["code"]), ("http://p.example/", [])]),
])
def test_edges(tmp_path: Path, doc: str, expected: list[tuple[str, list[str]]]) -> None:
    path = tmp_path / "e.adoc"
    path.write_text(doc)
    out = run(["--format", "jsonl", "--fields", "uri,flags,where", str(path)])[1]
    assert [tuple(row) for row in rows(out)] == [(uri, flags, "asciidoc") for uri, flags in expected]
