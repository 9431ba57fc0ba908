"""Markdown (CommonMark with GitHub's extensions): each construct's record,
its element and attribute as a renderer makes them, its position, URLs in
code told apart, raw HTML read by the HTML reader, the kind found by name,
media type and ``--kind``; binary files passed over in a directory walk."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from urisift import Record, scan_path

from .conftest import json_rows as rows
from .conftest import run_cli as run
from .conftest import shared_path

DOC = """\
---
title: Doc
canonical: https://front.example/page
---
# Guide [guide](docs/guide.md "Title http://title.example/") ![logo](img/logo.png)

See [ref] and [text][ref] and [coll][]. Visit www.example.org/x or https://bare.example/p.
Mail <me@x.example>, me@y.example and <https://auto.example/>. Café [é](ü/ö.md)

`code http://c.example/`

[ref]: ../other.html
[coll]: <with space.html>
[unused]: https://unused.example/

<a href="raw.html">x</a> and <img src="inline.png">

<div>
<a href="block.html">b</a>
</div>

```
http://fence.example/
```

    indented http://indent.example/

Math $http://math.example/$ and footnote[^1]. | a | b |

| table | https://cell.example/ |
|---|---|
| - [ ] https://task.example/ | x |

[^1]: see http://fn.example/
"""

FIELDS = "uri,style,where,element,attribute,flags,line,column"


EXPECTED = [
    ("https://front.example/page", "bare", "markdown", "a", "href", [], 3, 12),
    ("docs/guide.md", "markup", "markdown", "a", "href", [], 5, 17),
    ("img/logo.png", "markup", "markdown", "img", "src", [], 5, 70),
    ("../other.html", "markup", "markdown", "a", "href", [], 7, 5),
    ("../other.html", "markup", "markdown", "a", "href", [], 7, 15),
    ("with space.html", "markup", "markdown", "a", "href", [], 7, 31),
    ("www.example.org/x", "abbreviated", "markdown", "a", "href", [], 7, 47),
    ("https://bare.example/p", "bare", "markdown", "a", "href", ["trimmed"], 7, 68),
    ("mailto:me@x.example", "angle", "markdown", "a", "href", [], 8, 7),
    ("mailto:me@y.example", "markup", "markdown", "a", "href", [], 8, 22),
    ("https://auto.example/", "angle", "markdown", "a", "href", [], 8, 40),
    ("ü/ö.md", "markup", "markdown", "a", "href", [], 8, 73),
    ("http://c.example/", "bare", "markdown", None, None, ["code"], 10, 7),
    ("../other.html", "markup", "markdown", None, None, [], 12, 8),
    ("with space.html", "markup", "markdown", None, None, [], 13, 10),
    ("https://unused.example/", "markup", "markdown", None, None, [], 14, 11),
    # raw HTML, read by the HTML reader, its records where it stands among the others (issue 53)
    ("raw.html", "attribute", "html", "a", "href", [], 16, 10),
    ("inline.png", "attribute", "html", "img", "src", [], 16, 40),
    ("block.html", "attribute", "html", "a", "href", [], 19, 10),
    ("http://fence.example/", "bare", "markdown", None, None, ["code"], 23, 1),
    ("http://indent.example/", "bare", "markdown", None, None, ["code"], 26, 14),
    ("https://cell.example/", "bare", "markdown", "a", "href", [], 30, 11),
    ("https://task.example/", "bare", "markdown", "a", "href", [], 32, 9),
    ("http://fn.example/", "bare", "markdown", "a", "href", [], 34, 11),
]


def test_each_construct_is_a_record_with_its_html_element_and_position(tmp_path: Path) -> None:
    doc = tmp_path / "doc.md"
    doc.write_text(DOC, "utf-8")
    code, out, err = run(["--format", "jsonl", "--fields", FIELDS, str(doc)])
    assert (code, err) == (0, "")
    assert rows(out) == [tuple(e) for e in EXPECTED]


def test_an_e_mail_address_in_code_is_no_link(tmp_path: Path) -> None:
    doc = tmp_path / "a.md"
    doc.write_text("Mail me@x.example; `git clone git@host.example:r.git`\n\n    me@code.example\n")
    assert run([str(doc)])[1] == "mailto:me@x.example\n"


def test_urls_in_code_can_be_left_out(tmp_path: Path) -> None:
    doc = tmp_path / "doc.md"
    doc.write_text(DOC, "utf-8")
    out = run(["--no-code", "--format", "jsonl", "--fields", FIELDS, str(doc)])[1]
    assert rows(out) == [tuple(e) for e in EXPECTED if "code" not in e[5]]
    text = tmp_path / "notes.txt"
    text.write_text("http://a.example/\n")
    assert run(["--no-code", str(text)])[2] == (
        "urisift: note: --no-code applies to HTML, Markdown, notebooks, "
        "reStructuredText, AsciiDoc, Org, LaTeX and wikitext, and none was read\n")


@pytest.mark.parametrize("name", ["a.md", "a.markdown", "a.mdown", "a.mkd", "a.mdx", "a.qmd", "a.Rmd", "A.MD"])
def test_markdown_is_told_by_its_name(tmp_path: Path, name: str) -> None:
    doc = tmp_path / name
    doc.write_text("<!-- a comment first -->\n[x](y.html)\n")
    assert run([str(doc)])[1] == "y.html\n"


def test_markdown_on_standard_input_compressed_and_as_a_mime_part(tmp_path: Path) -> None:
    assert run(["--kind", "markdown"], b"[x](y.html) `http://c.example/`\n")[1] == "y.html\nhttp://c.example/\n"
    packed = tmp_path / "a.md.gz"
    packed.write_bytes(gzip.compress(b"[x](z.html)\n"))
    assert run([str(packed)])[1] == "z.html\n"
    message = tmp_path / "m.eml"
    message.write_bytes(b"From: a@b.example\r\nDate: Mon, 1 Jan 2024 00:00:00 +0000\r\nContent-Type: text/markdown\r\n"
                        b"Content-Base: http://docs.example/guide/\r\n\r\nRead [the intro](intro.md).\r\n")
    assert run([str(message)])[1] == "http://docs.example/guide/intro.md\n"


def test_a_directory_walk_passes_over_binary_files(tmp_path: Path) -> None:
    (tmp_path / "img").mkdir()
    (tmp_path / "img" / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"http://png.example/ " * 10)
    (tmp_path / "blob.dat").write_bytes(b"http://nul.example/ \x00\x01")
    (tmp_path / "utf16.txt").write_bytes("http://utf16.example/\n".encode("utf-16"))
    (tmp_path / "a.md").write_text("![logo](img/logo.png)\n")
    (tmp_path / "b.txt.gz").write_bytes(gzip.compress(b"http://gz.example/\n"))
    # a message named so, with a binary part: mail, not binary
    (tmp_path / "c.eml").write_bytes(b"Content-Type: text/plain\n\nx\x00y\nhttp://eml.example/\n")
    code, out, err = run(["--stats", str(tmp_path)])
    assert (code, out) == (0, "img/logo.png\nhttp://gz.example/\nhttp://eml.example/\nhttp://utf16.example/\n")
    assert err.splitlines()[1].startswith("urisift: 4 inputs (2 binary files passed over), ")  # (after c.eml's
    # binary-content defect: a NUL byte in its text part)
    # a binary file named on the command line is read, as ripgrep reads it
    named = run([str(tmp_path / "blob.dat")])
    assert named[1] == "http://nul.example/\n"


def test_the_rust_books_links_are_lychees() -> None:
    """``lychee --dump src/*.md`` (0.24.2) lists 459 links, 354 of them relative;
    the same links are the records outside code and definitions."""
    src = shared_path("corpora", "markdown-rust-book", "src")
    links = [item for item in _scan_tree(src) if "code" not in item.found.flags and item.found.place.element]
    assert (len(links), sum(1 for r in links if r.target is None)) == (459, 354)


def _scan_tree(src: Path) -> list[Record]:
    return [item for path in sorted(src.glob("*.md")) for item in scan_path(path) if isinstance(item, Record)]


def _pieces_document() -> str:
    """A long document of every construct, each label defined once, a reference used in one piece and
    defined in another (before it and after it), a code fence and an HTML block with blank lines inside."""
    blocks = []
    for n in range(400):
        blocks.append(f"## Part {n}\n\nSee [part {n}](p/{n}.md), [ahead][def{n + 7}], [back][def{max(0, n - 7)}] and "
                      f"www.w{n}.example/x.\n\n[def{n}]: https://d.example/{n}\n\n"
                      f"```\nhttp://code{n}.example/\n\nhttp://code{n}b.example/\n```\n\n"
                      f"<div>\n<a href=\"h{n}.html\">h</a>\n\n</div>\n\n- item <https://i{n}.example/>\n\n"
                      f"  continued ![i](img/{n}.png)\n\n> quote [q](q/{n}.md)\n")
    return "\n".join(blocks)


def test_a_long_document_read_in_pieces_gives_the_records_of_one_read_whole(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    import urisift.readers.markup.markdown as markdown
    import urisift.readers.markup.markdown_blocks as markdown_blocks

    doc = tmp_path / "long.md"
    doc.write_text(_pieces_document(), "utf-8")

    def records() -> list[tuple[object, ...]]:
        return [(r.uri, r.target, r.line, r.column, r.span, r.found.style, r.found.place, r.found.flags)
                for r in scan_path(doc, base="http://site.example/") if isinstance(r, Record)]

    whole = records()
    monkeypatch.setattr(markdown, "WHOLE", 4096)
    monkeypatch.setattr(markdown_blocks, "PIECE", 2048)
    assert len(markdown_blocks.pieces(doc.read_text(), 2048)) > 40
    # the same records (a piece's raw HTML comes after that piece's other records, not the document's)
    assert sorted(records(), key=repr) == sorted(whole, key=repr)
    assert len(whole) == 400 * 11 - 7  # (each block eleven; the last seven look ahead to no definition)


def test_a_line_longer_than_a_piece_is_cut_after_a_space() -> None:
    from urisift.readers.markup.markdown_blocks import pieces

    text = "[a](b) " * 10 + "x" * 50
    assert pieces(text, 20) == [0, 21, 42, 63, 83, 103, len(text)]


def test_markdown_as_a_warc_payload_resolves_against_its_target_uri(tmp_path: Path) -> None:
    # a crawl of a docs site that serves its sources: the payload's media type routes it, its links resolve
    # against the record's target URI, and a URL in its code is told apart there too
    body = b"See [the guide](guide.md) and `curl https://api.example/v1`.\n"
    payload = b"HTTP/1.1 200 OK\r\nContent-Type: text/markdown; charset=utf-8\r\n\r\n" + body
    head = (b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-000000000001>\r\n"
            b"WARC-Target-URI: https://docs.example/a/readme.md\r\nWARC-Date: 2024-01-01T00:00:00Z\r\n"
            b"Content-Type: application/http;msgtype=response\r\n")
    warc = tmp_path / "docs.warc"
    warc.write_bytes(head + b"Content-Length: %d\r\n\r\n" % len(payload) + payload + b"\r\n\r\n")
    code, out, err = run(["--format", "jsonl", "--fields", "uri,target,where,element,flags", str(warc)])
    assert (code, err) == (0, "")
    assert rows(out) == [("guide.md", "https://docs.example/a/guide.md", "markdown", "a", []),
                         ("https://api.example/v1", "https://api.example/v1", "markdown", None, ["code"])]
