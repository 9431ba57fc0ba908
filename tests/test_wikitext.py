"""MediaWiki wikitext: external links, templates' URL parameters, internal
links as MediaWiki writes their titles, files as images, the prose's URLs,
nothing in comments or nowiki, code told apart; linear time on hostile
input; the kind found by name and media type."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from urisift import Record, scan_path
from urisift.readers.markup import wikitext
from urisift.readers.markup.wikitext import article_reference

from .conftest import run_cli as run

DOC = ("'''Topic''' is a [[subject area|subject]] of [[Great  interest#Early history]]."
       "<ref>{{cite web|url=https://example.org/a?b=1|title=Src|"
       "archive-url=https://web.archive.org/web/2020/https://example.org/a}}</ref>\n"
       """\
See [https://example.com/p the portal], [//proto.example/x] and http://bare.example.net/x.
[[File:topic map.png|thumb|A [[map]]]] {{URL|https://site.example/}} [[image:B.jpg]]
<!-- http://hidden.example/ [[Hidden]] --> <nowiki>[http://no.example/] [[No]]</nowiki>
<code>http://code.example/c</code> <pre>[[NotLink]] http://pre.example/</pre>
{| class="wikitable"
| http://cell.example/ || [[:Category:Foo bar]] [[Café & co]] [[#Sec tion]] [[/Sub]]
|}
[mailto:someone@example.org mail] [not a link] [[unclosed
""")

FIELDS = "uri,target,style,where,element,attribute,flags,line,column"
BASE = "https://en.wikipedia.org/wiki/Main_Page"

EXPECTED = [
    ("./Subject_area", BASE[:-9] + "Subject_area", "markup", "a", "href", [], 1, 20),
    ("./Great_interest#Early_history", BASE[:-9] + "Great_interest#Early_history", "markup", "a", "href", [], 1, 48),
    ("https://example.org/a?b=1", "https://example.org/a?b=1", "markup", "a", "href", [], 1, 100),
    ("https://web.archive.org/web/2020/https://example.org/a", "https://web.archive.org/web/2020/https://example.org/a",
     "markup", "a", "href", [], 1, 148),
    ("https://example.com/p", "https://example.com/p", "markup", "a", "href", [], 2, 6),
    ("//proto.example/x", "https://proto.example/x", "markup", "a", "href", [], 2, 42),
    ("http://bare.example.net/x", "http://bare.example.net/x", "bare", "a", "href", ["trimmed"], 2, 65),
    ("./File:Topic_map.png", BASE[:-9] + "File:Topic_map.png", "markup", "img", "src", [], 3, 3),
    ("./Map", BASE[:-9] + "Map", "markup", "a", "href", [], 3, 32),
    ("https://site.example/", "https://site.example/", "markup", "a", "href", [], 3, 46),
    ("./File:B.jpg", BASE[:-9] + "File:B.jpg", "markup", "img", "src", [], 3, 72),
    ("http://code.example/c", "http://code.example/c", "bare", None, None, ["code"], 5, 7),
    ("http://pre.example/", "http://pre.example/", "bare", None, None, ["code"], 5, 53),
    ("http://cell.example/", "http://cell.example/", "bare", "a", "href", [], 7, 3),
    ("./Category:Foo_bar", BASE[:-9] + "Category:Foo_bar", "markup", "a", "href", [], 7, 29),
    ("./Caf%C3%A9_%26_co", BASE[:-9] + "Caf%C3%A9_%26_co", "markup", "a", "href", [], 7, 51),
    ("#Sec_tion", BASE + "#Sec_tion", "markup", "a", "href", [], 7, 65),
    ("mailto:someone@example.org", "mailto:someone@example.org", "markup", "a", "href", [], 9, 2),
]


def rows(out: str) -> list[tuple[object, ...]]:
    return [tuple(v for k, v in json.loads(line).items() if k != "where") for line in out.splitlines()]


def test_each_construct_is_a_record_with_its_html_element_and_position(tmp_path: Path) -> None:
    doc = tmp_path / "doc.wiki"
    doc.write_text(DOC, "utf-8")
    code, out, err = run(["--base", BASE, "--format", "jsonl", "--fields", FIELDS, str(doc)])
    assert (code, err) == (0, "")
    assert {json.loads(line)["where"] for line in out.splitlines()} == {"wikitext"}
    assert rows(out) == [tuple(e) for e in EXPECTED]


def test_urls_in_code_can_be_left_out_and_no_base_leaves_titles_relative(tmp_path: Path) -> None:
    doc = tmp_path / "doc.wiki"
    doc.write_text(DOC, "utf-8")
    out = run(["--no-code", "--format", "jsonl", "--fields", "uri,target,flags", str(doc)])[1]
    got = [tuple(json.loads(line).values()) for line in out.splitlines()]
    assert got == [(e[0], e[1] if e[1] == e[0] else None, e[5]) for e in EXPECTED if "code" not in e[5]]


@pytest.mark.parametrize(("target", "made"), [
    ("foo bar", ("./Foo_bar", False)),
    ("  foo__bar  baz ", ("./Foo_bar_baz", False)),
    ("user talk:jimbo wales", ("./User_talk:Jimbo_wales", False)),
    ("Image:x y.png", ("./File:X_y.png", True)),
    ("file: a.svg", ("./File:A.svg", True)),
    ("Help%3AContents", ("./Help:Contents", False)),
    ("Foo/Bar?x=1+2", ("./Foo/Bar%3Fx%3D1%2B2", False)),
    ("Ender's Game", ("./Ender%27s_Game", False)),
    ("über", ("./%C3%9Cber", False)),
    ("en:Foo", ("./En:Foo", False)),
    ("Foo#a b é", ("./Foo#a_b_%C3%A9", False)),
    ("#", None), ("/Subpage", None), ("../Up", None), ("  ", None),
])
def test_titles_are_written_as_mediawiki_writes_them(target: str, made: tuple[str, bool] | None) -> None:
    assert article_reference(target) == made


def wiki(tmp_path: Path, text: str) -> list[Record]:
    doc = tmp_path / "a.wiki"
    doc.write_text(text, "utf-8")
    return [r for r in scan_path(doc) if isinstance(r, Record)]


def test_a_document_read_in_pieces_gives_the_records_of_one_read_whole(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    doc = DOC * 300
    whole = [(r.uri, r.line, r.column, r.span, r.found.flags) for r in wiki(tmp_path, doc)]
    monkeypatch.setattr(wikitext, "PIECE", 1500)
    pieces = [(r.uri, r.line, r.column, r.span, r.found.flags) for r in wiki(tmp_path, doc)]
    assert len(whole) == 18 * 300
    assert pieces == whole


@pytest.mark.parametrize("hostile", [
    "<pre>" * 200_000, "<nowiki>x" * 100_000, "[[a" * 200_000, "[http://x.example/ a" * 50_000,
    "{{" * 200_000 + "|url=http://deep.example/", "|" + "a" * 100_000, "<!--" + "[[x]]" * 100_000,
])
def test_hostile_shapes_take_linear_time(tmp_path: Path, hostile: str) -> None:
    started = time.process_time()
    wiki(tmp_path, hostile)
    assert time.process_time() - started < 5


def test_deep_templates_still_give_their_urls(tmp_path: Path) -> None:
    assert [r.uri for r in wiki(tmp_path, "{{" * 1000 + "|url=http://deep.example/" + "}}" * 1000)] == [
        "http://deep.example/"]


@pytest.mark.parametrize("name", ["a.wiki", "a.mediawiki", "a.wikitext", "A.WIKI"])
def test_wikitext_is_told_by_its_name(tmp_path: Path, name: str) -> None:
    doc = tmp_path / name
    doc.write_text("[[x y]]\n")
    assert run([str(doc)])[1] == "./X_y\n"


def test_wikitext_on_standard_input_and_by_media_type(tmp_path: Path) -> None:
    assert run(["--kind", "wikitext"], b"[[a]] <code>http://c.example/</code>\n")[1] == "./A\nhttp://c.example/\n"
    message = tmp_path / "m.eml"
    message.write_bytes(b"From: a@b.example\r\nDate: Mon, 1 Jan 2024 00:00:00 +0000\r\nContent-Type: text/x-wiki\r\n"
                        b"Content-Base: https://wiki.example/wiki/Start\r\n\r\nRead [[the intro]].\r\n")
    assert run([str(message)])[1] == "https://wiki.example/wiki/The_intro\n"


def test_an_external_link_is_closed_on_its_line_and_its_label_is_text(tmp_path: Path) -> None:
    got = [(r.uri, r.found.style.value, r.line, r.column)
           for r in wiki(tmp_path, "[http://a.example/ see http://label.example/] [http://b.example/ open\n"
                                   "x] [http://c.example/]\n")]
    assert got == [("http://a.example/", "markup", 1, 2), ("http://b.example/", "bare", 1, 48),
                   ("http://c.example/", "markup", 2, 5)]


def test_a_comment_never_closed_hides_the_rest_and_is_a_defect(tmp_path: Path) -> None:
    doc = tmp_path / "c.wiki"
    doc.write_text("http://a.example/\n[[B]]\nx <!-- open [[C]]\nhttp://d.example/\n")
    code, out, err = run([str(doc)])
    assert (code, out) == (0, "http://a.example/\n./B\n")
    assert err == (f"urisift: {doc} at character 26: broken-document: a comment opened at line 3 is never closed: "
                   "the rest of the page is inside it, and not read\n")


def test_each_line_of_a_gallery_is_an_image(tmp_path: Path) -> None:
    got = [(r.uri, r.found.place.element, r.line, r.column)
           for r in wiki(tmp_path, 'x <gallery mode="packed">\nFile:a b.jpg|A http://cap.example/\n'
                                   "  c.png\nImage:d.svg\n\n</gallery> [[E]]\n")]
    assert got == [("./File:A_b.jpg", "img", 2, 1), ("./File:C.png", "img", 3, 3), ("./File:D.svg", "img", 4, 1),
                   ("./E", "a", 6, 14)]


def test_long_prose_without_constructs_is_read_in_pieces_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    doc = ("[[A]] <!-- " + "x " * 3000 + "-->" + " ".join(f"http://p.example/{n}" for n in range(2000))
           + "\n" + "y" * 5000 + " http://q.example/ [[B]]\n")
    whole = [(r.uri, r.line, r.column, r.span) for r in wiki(tmp_path, doc)]
    monkeypatch.setattr(wikitext, "PIECE", 1000)
    pieces = [(r.uri, r.line, r.column, r.span) for r in wiki(tmp_path, doc)]
    assert len(whole) == 2003 and whole[1] == ("http://p.example/0", 1, 6015, (6014, 6032))
    assert pieces == whole


def test_memory_does_not_grow_with_prose_that_holds_no_construct(tmp_path: Path) -> None:
    from .test_mediawiki_dump import _peak_rss

    small, large = tmp_path / "small.wiki", tmp_path / "large.wiki"
    small.write_text(" ".join(f"http://p.example/{n}" for n in range(20_000)))
    large.write_text(" ".join(f"http://p.example/{n}" for n in range(400_000)))  # (10 MB, one line)
    (records_small, rss_small), (records_large, rss_large) = _peak_rss(small), _peak_rss(large)
    assert (records_small, records_large) == (20_000, 400_000)
    assert rss_large - rss_small < 48 * 1024  # (the text itself, held decoded and as bytes: some 30 MB)
