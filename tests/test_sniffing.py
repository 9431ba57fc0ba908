"""Issue 37, "silent loss from sniffing": content and name decide an
input's kind together, and no weak sign of another kind makes a text lose
what it holds (an envelope line has RFC 4155's shape, a text name means
text, standard input is sniffed for every kind a file is)."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from urisift.cli.command import main
from urisift.model import Kind
from urisift.stages.sniff import sniff, sniff_kind

from .conftest import ROOT

FROM_LINE = b"From now on, the docs live at https://docs.example.org/new/\nand the old ones at https://old.example/\n"


def run(argv: list[str], stdin: bytes = b"") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdin=io.BytesIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


# -- an mbox envelope line has a shape ------------------------------------------------------

def test_a_text_whose_first_line_begins_from_keeps_that_lines_urls(tmp_path: Path) -> None:
    note = tmp_path / "note.txt"
    note.write_bytes(FROM_LINE)
    plain = tmp_path / "note"
    plain.write_bytes(FROM_LINE)
    expected = "https://docs.example.org/new/\nhttps://old.example/\n"
    assert run(["-n", str(note)]) == (0, expected, "")
    assert run(["-n", str(plain)]) == (0, expected, "")
    assert run([], FROM_LINE) == (0, expected, "")


@pytest.mark.parametrize("line, kind", [
    # RFC 4155 §2: the sender, then an asctime date (a zone before the year at times)
    (b"From joe@example.com Mon Jan  1 00:00:00 2001", Kind.MBOX),
    (b"From MAILER-DAEMON Fri Jul  8 12:08:34 2011", Kind.MBOX),
    (b"From owner@example.org Mon Feb  9 14:02:11 PST 2004", Kind.MBOX),
    (b"From - Mon, 3 Mar 2003 10:00:00 +0000", Kind.MBOX),  # Thunderbird's sender, RFC 5322's date
    (b"From joe@example.com Mon Jan  1 00:00:00 2001 remote from host", Kind.MBOX),
    # no date with a time of day: a line of text
    (b"From now on, the docs live at https://docs.example.org/new/", Kind.TEXT),
    (b"From John Mon is coming, see http://a.example/", Kind.TEXT),
    (b"From here: http://a.example/", Kind.TEXT),
    (b"From joe@example.com Mon Jan", Kind.TEXT),
])
def test_an_envelope_line_has_rfc_4155s_shape(line: bytes, kind: Kind) -> None:
    assert sniff_kind(line + b"\nSubject: x\n\nbody\n") is kind
    assert sniff_kind(line + b"\r\n") is kind


# -- a text name means text ------------------------------------------------------------------

MARKDOWN = b"<!-- generated: do not edit -->\n# Docs\n\nSee <https://md.example/guide> and <https://md.example/faq>.\n"


def test_a_markdown_file_that_starts_with_an_html_comment_is_markdown(tmp_path: Path) -> None:
    page = tmp_path / "README.md"
    page.write_bytes(MARKDOWN)
    assert run(["-n", str(page)]) == (0, "https://md.example/guide\nhttps://md.example/faq\n", "")


@pytest.mark.parametrize("name", ["notes.txt", "README.md", "index.rst", "a.markdown", "b.text", "c.adoc"])
@pytest.mark.parametrize("head", [b"<!-- x -->\n", b"<p align=\"center\">", b"<a href=\"x\">", b"<div>",
                                  b"<svg width=\"1\">", b"body { color: red }", b"User-agent: *\n"])
def test_weak_signs_of_another_kind_never_override_a_text_name(name: str, head: bytes) -> None:
    named = Kind.MARKDOWN if name.endswith((".md", ".markdown")) else Kind.RST if name.endswith(".rst") \
        else Kind.ASCIIDOC if name.endswith(".adoc") else Kind.TEXT
    assert sniff(head + b"\nhttp://a.example/\n", name) == (named, None)


@pytest.mark.parametrize("head, kind", [
    (b"<!DOCTYPE html>\n<html><a href=x>", Kind.HTML),
    (b"\n<HTML>\n<head>", Kind.HTML),
    (b'<?xml version="1.0"?>\n<rss version="2.0">', Kind.XML),
    (b"WARC/1.0\r\nWARC-Type: warcinfo\r\n", Kind.WARC),
    (b"%PDF-1.7\n", Kind.PDF),
    (b"From joe@example.com Mon Jan  1 00:00:00 2001\nSubject: x\n", Kind.MBOX),
    (b"Date: Mon, 1 Jan 2001 00:00:00 +0000\nFrom: a@b.example\n\nbody", Kind.MAIL),
])
def test_unmistakable_content_overrides_a_text_name(head: bytes, kind: Kind) -> None:
    assert sniff_kind(head, "notes.txt") is kind
    assert sniff_kind(head, "README.md") is kind


def test_weak_content_does_not_override_other_names_either() -> None:
    # a style sheet may begin with "<!--" (CSS Syntax 3's CDO token); an XML file with any root
    assert sniff_kind(b"<!-- legacy -->\nbody { background: url(x.png) }", "site.css") is Kind.CSS
    assert sniff_kind(b"<a href='x'/>", "links.xml") is Kind.XML


# -- standard input is sniffed as files are ---------------------------------------------------

CSS = b"body { background: url(img/bg.png) }\n@import \"print.css\" print;\n.logo { background: url('/logo.svg') }\n"


def test_a_style_sheet_on_standard_input_is_read_as_one() -> None:
    assert run(["--base", "https://s.example/css/site.css"], CSS) == (
        0, "https://s.example/css/img/bg.png\nhttps://s.example/css/print.css\nhttps://s.example/logo.svg\n", "")


def test_cat_site_css_into_the_command(tmp_path: Path) -> None:
    sheet = tmp_path / "site.css"
    sheet.write_bytes(CSS)
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run(f"cat {sheet} | {sys.executable} -m urisift --base https://s.example/css/site.css",
                          shell=True, capture_output=True, env=env, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (
        0, b"https://s.example/css/img/bg.png\nhttps://s.example/css/print.css\nhttps://s.example/logo.svg\n", b"")


@pytest.mark.parametrize("data, expected", [
    (b'<rss version="2.0"><channel><link>/news/</link><item><link>a.html</link></item></channel></rss>',
     "https://f.example/news/\nhttps://f.example/a.html\n"),
    (b'<feed xmlns="http://www.w3.org/2005/Atom"><link href="/blog/"/></feed>', "https://f.example/blog/\n"),
    (b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>/p</loc></url></urlset>',
     "https://f.example/p\n"),
    (b"# crawl rules\nUser-agent: *\nDisallow: /private\nSitemap: /sitemap.xml\n", "https://f.example/sitemap.xml\n"),
    (b"@charset \"utf-8\";\n.a { background: url(b.png) }\n", "https://f.example/b.png\n"),
])
def test_standard_input_is_sniffed_for_the_kinds_a_name_tells_of_a_file(data: bytes, expected: str) -> None:
    assert run(["--base", "https://f.example/"], data) == (0, expected, "")


@pytest.mark.parametrize("text", [
    b"foo: {a: b}\nhttp://a.example/\n",  # YAML, not CSS
    b"switch (x) { default: y; }\nhttp://a.example/\n",  # code
    b"<https://a.example/> said it\nhttp://a.example/\n",  # an autolink is not markup
])
def test_what_only_resembles_another_kind_stays_text(text: bytes) -> None:
    assert sniff(text) == (Kind.TEXT, None)


def test_standard_input_says_what_it_could_not_tell() -> None:
    code, out, err = run([], b'<catalog><book href="http://a.example/b"/></catalog>\n')
    assert (code, out, err) == (0, "http://a.example/b\n", (
        "urisift: -: uncertain-kind: it begins with markup of no kind told by its first bytes (HTML, a feed, a "
        "sitemap, OPML, SVG, a MediaWiki dump); read as plain text: --kind html or --kind xml reads it as markup\n"))
    assert run(["--kind", "text"], b"<catalog/>\n") == (0, "", "")


@pytest.mark.parametrize("text", [b"<URL:c> <URL:#x>\n", b"<mailto:joe@example.org>\n", b"<joe@example.org> wrote\n",
                                  b"<urn:isbn:0451450523>\n"])
def test_delimited_uris_at_the_start_are_not_markup(text: bytes) -> None:
    assert sniff(text) == (Kind.TEXT, None)


def _is_message_split_whole(head: bytes) -> bool:
    """The message test as it was written first: the head split into lines whole."""
    import re

    names: set[bytes] = set()
    for line in head.split(b"\n"):
        line = line.rstrip(b"\r")
        if not line:
            break
        if line[:1] in (b" ", b"\t"):
            if not names:
                return False
            continue
        if re.match(rb"[!-9;-~]{1,76}:", line) is None:
            return False
        names.add(line[:line.index(b":")].lower())
    return {b"date", b"from"} <= names


_HEAD_LINES = st.lists(st.sampled_from([b"From: a@b.example", b"Date: Mon, 1 Jan 2024", b"DATE: x", b"Subject: s",
                                        b" folded", b"\tfolded", b"", b"# Title", b"X-Y:", b"no colon", b"\r"]),
                       max_size=8)


@settings(max_examples=400)
@given(_HEAD_LINES, st.sampled_from([b"\n", b"\r\n"]), st.booleans())
def test_a_message_is_told_line_by_line_as_from_the_whole_split(lines: list[bytes], eol: bytes, ended: bool) -> None:
    from urisift.stages.sniff import _is_message

    head = eol.join(lines) + (eol if ended else b"")
    assert _is_message(head) == _is_message_split_whole(head)


@pytest.mark.parametrize(("head", "expected"), [
    (b"From: a@b.example\nDate: Mon, 1 Jan 2024\n\nbody", True),
    (b"From: a@b.example\r\nDate: x", True),  # (the last line, with no line break after it)
    (b"From: a@b.example\n folded\nDate: x\n", True),
    (b" folded\nFrom: a\nDate: x\n", False),
    (b"# Title\nFrom: a\nDate: x\n", False),
    (b"From: a\n\nDate: x\n", False),
    (b"", False),
])
def test_a_message_head_exactly(head: bytes, expected: bool) -> None:
    from urisift.stages.sniff import _is_message

    assert _is_message(head) is expected
