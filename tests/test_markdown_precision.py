"""Issue 53, Markdown precision: what CommonMark and GFM render is what is
reported, no more (a link in an image's description is alt text), no less
(an escape in an e-mail address), and no find across an inline run's end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .conftest import run_cli


def _records(markdown: str) -> list[dict[str, object]]:
    code, out, err = run_cli(["-j", "1", "--kind", "markdown", "--format", "jsonl", "--fields",
                              "uri,line,column,element,flags", "-"], markdown.encode())
    assert (code, err) == (0, "")
    return [json.loads(line) for line in out.splitlines()]


@pytest.mark.parametrize(("markdown", "expected"), [
    # CommonMark 0.31 example 520: <img src="uri3" alt="[foo](uri2)" />
    ("![[[foo](uri1)](uri2)](uri3)\n", [("uri3", 24, "img")]),
    # example 519's shape, an image in an image's description: alt text too
    ("![foo ![bar](/inner)](/outer)\n", [("/outer", 23, "img")]),
    # an image in a link still is one, and the link after the image is read
    ("[![alt](/i.png)](/l) ![a](/j.png) [x](/k)\n",
     [("/i.png", 9, "img"), ("/l", 18, "a"), ("/j.png", 27, "img"), ("/k", 39, "a")]),
])
def test_a_link_in_an_images_description_is_its_alt_text(markdown: str, expected: list[tuple[str, int, str]]) -> None:
    assert [(r["uri"], r["column"], r["element"]) for r in _records(markdown)] == expected


@pytest.mark.parametrize(("markdown", "expected"), [
    # CommonMark 0.31 example 342: <code>&lt;https://foo.bar.</code>baz&gt;`
    ("`<https://foo.bar.`baz>`\n", [("https://foo.bar", 3, None, ["trimmed", "code"])]),
    # a bare URL in prose ends where a code span starts (GFM finds autolinks in text nodes alone)
    ("see http://a.example/x`code` and more\n", [("http://a.example/x", 5, "a", [])]),
    # and where a link starts
    ("see http://a.example/[t](http://b.example/)\n", [("http://a.example/", 5, "a", []),
                                                       ("http://b.example/", 26, "a", [])]),
])
def test_a_find_never_runs_across_an_inline_runs_end(markdown: str, expected: list[tuple[object, ...]]) -> None:
    assert [(r["uri"], r["column"], r["element"], r["flags"]) for r in _records(markdown)] == expected


@pytest.mark.parametrize(("markdown", "expected"), [
    # CommonMark 0.31 example 606: no autolink (no escape in one), so the text "<foo+@bar.example.com>",
    # in which GFM's extended autolinks find the address foo+@bar.example.com
    ("<foo\\+@bar.example.com>\n", [("mailto:foo+@bar.example.com", 2)]),
    ("write to a\\.b\\_c@d.example today\n", [("mailto:a.b_c@d.example", 10)]),
    # an escaped backslash is a backslash, which no local part holds: the address starts after it
    ("x\\\\+@e.example\n", [("mailto:+@e.example", 4)]),
])
def test_an_escape_in_an_email_autolink_does_not_cut_its_local_part(markdown: str,
                                                                    expected: list[tuple[str, int]]) -> None:
    assert [(r["uri"], r["column"]) for r in _records(markdown)] == expected


# -- document order: raw HTML's records where the HTML stands --------------------------------------

def test_markdown_and_rst_records_come_in_document_order() -> None:
    from .conftest import shared_path

    book = shared_path("corpora", "markdown-rust-book", "src")
    paths = [str(book / f"{name}.md") for name in (
        "ch00-00-introduction", "ch04-01-what-is-ownership", "ch04-03-slices", "ch14-02-publishing-to-crates-io",
        "ch15-01-box", "ch15-04-rc", "ch15-06-reference-cycles", "ch17-05-traits-for-async",
        "ch21-00-final-project-a-web-server")]
    root = Path(__file__).resolve().parent.parent / "corpora"
    paths += [str(root / "markdown" / "guide.md"), str(root / "rst" / "sample.rst"),
              str(root / "asciidoc" / "sample.adoc"), str(root / "org" / "sample.org")]
    code, out, err = run_cli(["-j", "1", "--format", "jsonl", "--fields", "file,span,where", *paths])
    assert code == 0
    rows = [json.loads(line) for line in out.splitlines()]
    for path in paths:
        spans = [r["span"][0] for r in rows if r["file"] == path]
        assert spans == sorted(spans) and len(spans) > 1, path
    assert sum(1 for r in rows if r["where"] == "html") > 9  # (each of them holds raw HTML's records)


def test_unique_keeps_the_first_in_the_document() -> None:
    doc = '<p><a href="http://same.example/">in HTML</a></p>\n\nthen [in Markdown](http://same.example/)\n'
    code, out, err = run_cli(["-j", "1", "--kind", "markdown", "--unique", "--format", "jsonl", "--fields",
                              "uri,where,line", "-"], doc.encode())
    assert out == json.dumps({"uri": "http://same.example/", "where": "html", "line": 1}) + "\n"
