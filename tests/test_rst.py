"""reStructuredText: embedded URIs, hyperlink targets and the references to
them, images and figures with their targets, substitution definitions,
``include`` as a reference never read, raw HTML read by the HTML reader,
standalone URLs; URLs in literal blocks, code directives and inline
literals told apart by the ``code`` flag; exact records and positions."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import json_rows as rows
from .conftest import run_cli as run

DOC = (Path(__file__).parent.parent / "corpora" / "rst" / "sample.rst").read_text("utf-8")
FIELDS = "uri,style,where,element,attribute,flags,line,column"


EXPECTED = [
    ("https://www.python.org/", "markup", "rst", "a", "href", [], 4, 14),  # an embedded URI
    ("https://docs.example/", "markup", "rst", "a", "href", [], 4, 45),  # docs_, defined below
    ("https://guide.example/long", "markup", "rst", "a", "href", [], 4, 55),  # `the guide`_ (its URI on two lines)
    ("https://anon.example/", "markup", "rst", "a", "href", [], 4, 71),  # `anon`__, the first anonymous target
    ("https://bare.example/p", "bare", "rst", "a", "href", ["trimmed"], 5, 7),
    ("http://literal.example/", "bare", "rst", None, None, ["code"], 5, 40),  # an inline literal
    ("https://docs.example/", "markup", "rst", None, None, [], 7, 11),  # the targets themselves
    ("https://guide.example/long", "markup", "rst", None, None, [], 9, 4),
    ("https://anon.example/", "markup", "rst", None, None, [], 12, 4),
    ("img/logo.png", "markup", "rst", "img", "src", [], 14, 12),  # (its :alt: is not scanned)
    ("https://target.example/", "markup", "rst", "a", "href", [], 16, 13),
    ("sub.png", "markup", "rst", "img", "src", [], 18, 18),  # a substitution definition
    ("other.rst", "markup", "rst", "include", None, [], 20, 14),  # never read
    ("http://code.example/", "quote", "rst", None, None, ["code"], 24, 11),  # code-block
    ("http://literal-block.example/", "bare", "rst", None, None, ["code"], 28, 5),  # after "::"
    ("raw.html", "attribute", "html", "a", "href", [], 34, 13),  # raw HTML, placed where it stands
    # (the comment's URL is not found)
    ("http://note.example/", "bare", "rst", "a", "href", [], 36, 15),
]


def test_each_construct_is_a_record_with_its_html_element_and_position(tmp_path: Path) -> None:
    doc = tmp_path / "doc.rst"
    doc.write_text(DOC, "utf-8")
    code, out, err = run(["--format", "jsonl", "--fields", FIELDS, str(doc)])
    assert (code, err) == (0, "")
    assert rows(out) == EXPECTED


def test_urls_in_code_can_be_left_out(tmp_path: Path) -> None:
    doc = tmp_path / "doc.rst"
    doc.write_text(DOC, "utf-8")
    out = run(["--no-code", "--format", "jsonl", "--fields", FIELDS, str(doc)])[1]
    assert rows(out) == [e for e in EXPECTED if "code" not in e[5]]


@pytest.mark.parametrize("name", ["a.rst", "a.rest", "A.RST"])
def test_rst_is_told_by_its_name_and_media_type(tmp_path: Path, name: str) -> None:
    doc = tmp_path / name
    doc.write_text("See `x <y.html>`_.\n\n::\n\n    http://c.example/\n")
    assert run(["--no-code", str(doc)])[1] == "y.html\n"
    message = tmp_path / "m.eml"
    message.write_bytes(b"From: a@b.example\r\nDate: Mon, 1 Jan 2024 00:00:00 +0000\r\nContent-Type: text/x-rst\r\n"
                        b"Content-Base: http://docs.example/guide/\r\n\r\nRead `the intro <intro.html>`_.\r\n")
    assert run([str(message)])[1] == "http://docs.example/guide/intro.html\n"


@pytest.mark.parametrize("doc, expected", [
    # a "::" whose paragraph goes on is no literal block; one at the end of the text neither
    ("a::\nb http://p.example/\n", [("http://p.example/", [])]),
    ("http://p.example/ x::", [("http://p.example/", [])]),
    # a literal block ends at the first line back at the paragraph's margin
    ("x::\n\n  http://c.example/\n\nhttp://p.example/", [("http://c.example/", ["code"]), ("http://p.example/", [])]),
    # an indirect target and an internal one are no URIs; an escaped "_" ends a URI
    (".. _a: b_\n.. _c:\n\nd_ http://p.example/\n", [("http://p.example/", [])]),
    (".. _a: http://e.example/x\\_\n", [("http://e.example/x_", [])]),
    # an anonymous reference with no target left, and a reference to no target, are nothing
    ("`x`__ `y`_ z_ http://p.example/\n", [("http://p.example/", [])]),
    # markup nested in a note and in a figure's caption is found; options belong to their directive only
    (".. note:: see\n\n   .. image:: n.png\n      :target: http://t.example/\n\n   :target: http://p.example/\n",
     [("n.png", []), ("http://t.example/", []), ("http://p.example/", [])]),
    (".. figure:: f.png\n\n   Caption `c <c.html>`_\n\n   ::\n\n     http://c.example/\n",
     [("f.png", []), ("c.html", []), ("http://c.example/", ["code"])]),
    # an unclosed phrase, an unclosed literal
    ("`x <http://u.example/>\n``http://v.example/\n", [("http://u.example/", []), ("http://v.example/", [])]),
])
def test_edges(tmp_path: Path, doc: str, expected: list[tuple[str, list[str]]]) -> None:
    path = tmp_path / "e.rst"
    path.write_text(doc)
    out = run(["--format", "jsonl", "--fields", "uri,flags,where", str(path)])[1]
    assert [tuple(row) for row in rows(out)] == [(uri, flags, "rst") for uri, flags in expected]


def test_word_references_where_a_search_of_every_position_finds_them(tmp_path: Path) -> None:
    # each found from its "_", and matched where one pattern searched at every position would match it:
    # after a separator that is no word character ("-b_" after a phrase), a name with inner "-", never
    # inside a longer word ("a__b_")
    path = tmp_path / "w.rst"
    path.write_text(".. _b: http://b.example/\n.. _a-b: http://ab.example/\n\n`x`-b_ a-b_ a__b_ b_ -b_, (b_)\n")
    out = run(["--format", "jsonl", "--fields", "uri,line,column,element", str(path)])[1]
    assert [tuple(row) for row in rows(out)] == [
        ("http://b.example/", 1, 8, None), ("http://ab.example/", 2, 10, None),
        ("http://b.example/", 4, 5, "a"), ("http://ab.example/", 4, 8, "a"), ("http://b.example/", 4, 19, "a"),
        ("http://b.example/", 4, 23, "a"), ("http://b.example/", 4, 28, "a"),
    ]
