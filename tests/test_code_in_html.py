"""A URL in HTML's code (<code>, <pre>, <kbd>, <samp> and the older verbatim
elements) is found with the ``code`` flag, and left out with ``--no-code``,
in a page and in a Markdown file's raw HTML alike; a Markdown link's record
has its text, as an HTML link's has its anchor text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from urisift import ScanOptions, scan_html, scan_path
from urisift.model.needs import ANCHOR

from .conftest import run_cli

PAGE = """<p>See http://prose.example and <code>http://code.example</code>.</p>
<pre>curl https://pre.example/x</pre>
<div class="highlight"><pre><span>git clone https://deep.example/r.git</span></pre></div>
<p><code><a href="http://link.example">http://link.example</a></code> <kbd>ftp://kbd.example/</kbd></p>
<textarea>http://field.example</textarea>
"""

MARKDOWN = """A <code>http://inline.example</code>, <kbd>http://kbd.example</kbd> and http://prose.example.

<pre>
http://block.example
</pre>

[a `b` *c*
d](x.html) ![im](y.png) <http://z.example> [![logo](l.png)](home.html)
"""


def rows(path: Path, *args: str) -> list[tuple[object, ...]]:
    out: list[tuple[object, ...]] = []
    for line in _run(["--format", "jsonl", "--fields", "uri,flags,element,text", *args, str(path)]).splitlines():
        record = json.loads(line)
        out.append((record["uri"], record["flags"], record["element"], record["text"]))
    return out


def _run(argv: list[str]) -> str:
    code, out, _ = run_cli(argv)
    assert code == 0
    return out


def test_a_pages_code_is_flagged(tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    page.write_text(PAGE, "utf-8")
    assert rows(page) == [
        ("http://prose.example", [], "p", None),
        ("http://code.example", ["code"], "code", None),
        ("https://pre.example/x", ["code"], "pre", None),
        ("https://deep.example/r.git", ["code"], "span", None),
        ("http://link.example", [], "a", "http://link.example"),  # a link is a link, in code or not
        ("ftp://kbd.example/", ["code"], "kbd", None),
        ("http://field.example", [], "textarea", None),
    ]
    assert _run(["--no-code", str(page)]) == "http://prose.example\nhttp://link.example\nhttp://field.example\n"


def test_the_library_flags_code_in_a_parsed_soup_too() -> None:
    bs4 = pytest.importorskip("bs4")
    soup = bs4.BeautifulSoup(PAGE, "html.parser")
    flagged = {r.uri: r.flags for r in scan_html(soup) if hasattr(r, "uri")}
    assert [str(f) for f in flagged["https://deep.example/r.git"]] == ["code"]
    assert flagged["http://prose.example"] == ()


def test_markdowns_raw_html_code_and_link_text(tmp_path: Path) -> None:
    doc = tmp_path / "doc.md"
    doc.write_text(MARKDOWN, "utf-8")
    assert rows(doc) == [
        ("http://inline.example", ["code"], None, None),
        ("http://kbd.example", ["code"], None, None),
        ("http://prose.example", ["trimmed"], "a", None),
        ("http://block.example", ["code"], "pre", None),  # the raw HTML block, where it stands (issue 53)
        ("x.html", [], "a", "a b c d"),  # code spans and emphasis in a link's text are its text
        ("y.png", [], "img", None),
        ("http://z.example", [], "a", "http://z.example"),
        ("l.png", [], "img", None),
        ("home.html", [], "a", ""),  # an image's alt text is not its link's text, as in HTML
    ]
    assert _run(["--no-code", str(doc)]).splitlines() == ["http://prose.example", "x.html", "y.png",
                                                          "http://z.example", "l.png", "home.html"]


def test_link_text_is_not_computed_when_not_asked_for(tmp_path: Path) -> None:
    doc = tmp_path / "doc.md"
    doc.write_text("[some text](x.html)\n", "utf-8")
    (asked,) = scan_path(doc)
    assert asked.text == "some text"  # type: ignore[union-attr]
    (unasked,) = scan_path(doc, fields=["uri"])
    assert unasked.uri == "x.html" and unasked.text is False  # type: ignore[union-attr]
    assert ANCHOR in ScanOptions().needs and ANCHOR not in ScanOptions(fields=frozenset({"uri"})).needs


def test_an_inline_code_element_left_open_ends_with_its_paragraph(tmp_path: Path) -> None:
    doc = tmp_path / "doc.md"
    doc.write_text("# a <code>http://h.example\n\npara <code>http://p.example\n\n"
                   "after http://after.example <kbd>a <code>b</kbd> http://k.example\n", "utf-8")
    assert [(uri, flags) for uri, flags, _, _ in rows(doc)] == [
        ("http://h.example", ["code"]), ("http://p.example", ["code"]), ("http://after.example", []),
        ("http://k.example", []),  # (</kbd> closes the <code> opened inside it)
    ]


def test_an_end_tag_looks_back_a_few_open_elements_for_its_own(tmp_path: Path) -> None:
    # twenty <code> then twenty </kbd>: no </kbd> closes a <code> (each looks back eight, then gives up,
    # so that a million of each cost a million steps, not a million squared); the paragraph's end does
    doc = tmp_path / "doc.md"
    doc.write_text("x " + "<code>" * 20 + "</kbd>" * 20 + " http://a.example/\n\nhttp://b.example/\n", "utf-8")
    assert [(uri, flags) for uri, flags, _, _ in rows(doc)] == [("http://a.example/", ["code"]),
                                                               ("http://b.example/", [])]
