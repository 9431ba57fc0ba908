"""Org: bracket links with and without a description (an image inline when
it has none), file: links, #+INCLUDE as a reference never read, HTML export
blocks read by the HTML reader, plain links; URLs in source and example
blocks and fixed-width lines told apart by the ``code`` flag; comments not
scanned; exact records and positions."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import json_rows as rows
from .conftest import run_cli as run

DOC = (Path(__file__).parent.parent / "corpora" / "org" / "sample.org").read_text("utf-8")
FIELDS = "uri,style,where,element,attribute,flags,line,column"


EXPECTED = [
    ("http://title.example/", "bare", "org", "a", "href", [], 1, 16),  # a title is prose
    ("chapter.org", "markup", "org", "include", None, [], 2, 13),  # never read
    ("https://www.gnu.org/software/emacs/", "markup", "org", "a", "href", [], 5, 7),
    ("other.org", "markup", "org", "a", "href", [], 5, 58),  # file:, its ::search option left out
    ("./img/a.png", "markup", "org", "img", "src", [], 5, 98),  # no description: shown inline
    # [[*Links][here]] and [[Fuzzy Target]] link inside the document: no URIs
    ("#custom", "markup", "org", "a", "href", [], 6, 8),
    ("https://bare.example/p", "bare", "org", "a", "href", ["trimmed"], 6, 66),
    ("http://code.example/", "bare", "org", None, None, ["code"], 9, 8),  # #+BEGIN_SRC
    ("https://in-code.example/", "bare", "org", None, None, ["unbalanced", "code"], 9, 31),  # (a link in code is text)
    ("http://example-block.example/", "bare", "org", None, None, ["code"], 13, 1),  # #+begin_example
    ("http://fixed.example/", "bare", "org", None, None, ["code"], 16, 3),  # a fixed-width line
    ("raw.html", "attribute", "html", "a", "href", [], 21, 10),  # #+BEGIN_EXPORT html, where it stands
    # (the comment line's URLs are not found)
    ("mailto:me@x.example", "markup", "org", "a", "href", [], 25, 10),  # a quote block is prose
]


def test_each_construct_is_a_record_with_its_html_element_and_position(tmp_path: Path) -> None:
    doc = tmp_path / "doc.org"
    doc.write_text(DOC, "utf-8")
    code, out, err = run(["--format", "jsonl", "--fields", FIELDS, str(doc)])
    assert (code, err) == (0, "")
    assert rows(out) == EXPECTED


def test_urls_in_code_can_be_left_out(tmp_path: Path) -> None:
    doc = tmp_path / "doc.org"
    doc.write_text(DOC, "utf-8")
    out = run(["--no-code", "--format", "jsonl", "--fields", FIELDS, str(doc)])[1]
    assert rows(out) == [e for e in EXPECTED if "code" not in e[5]]


def test_org_is_told_by_its_name_and_media_type(tmp_path: Path) -> None:
    doc = tmp_path / "a.org"
    doc.write_text("See [[y.html][y]].\n: http://c.example/\n")
    assert run(["--no-code", str(doc)])[1] == "y.html\n"
    message = tmp_path / "m.eml"
    message.write_bytes(b"From: a@b.example\r\nDate: Mon, 1 Jan 2024 00:00:00 +0000\r\nContent-Type: text/org\r\n"
                        b"Content-Base: http://docs.example/guide/\r\n\r\nRead [[file:intro.html][the intro]].\r\n")
    assert run([str(message)])[1] == "http://docs.example/guide/intro.html\n"


@pytest.mark.parametrize("doc, expected", [
    # a block never ended is no block: its lines are prose
    ("#+BEGIN_SRC sh\nhttp://p.example/\n#+BEGIN_SRC\n", [("http://p.example/", [])]),
    # escaped brackets in a target; an unclosed link is text
    ("[[https://e.example/a\\[1\\]][e]] [[https://u.example/\n", [("https://e.example/a[1]", []),
                                                                 ("https://u.example/", [])]),
])
def test_edges(tmp_path: Path, doc: str, expected: list[tuple[str, list[str]]]) -> None:
    path = tmp_path / "e.org"
    path.write_text(doc)
    out = run(["--format", "jsonl", "--fields", "uri,flags,where", str(path)])[1]
    assert [tuple(row) for row in rows(out)] == [(uri, flags, "org") for uri, flags in expected]
