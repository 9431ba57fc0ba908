"""Where on the page a link stands (issue 39): landmarks, ARIA roles,
nesting, the content scorer on a page with no landmark, comment threads,
--region, and the key computed only when asked for."""

from __future__ import annotations

import io
import json

import pytest

from urisift import Record, Region, ScanOptions, iter_input, scan_html, scan_text
from urisift.cli.command import main
from urisift.output import RECORD_KEYS, record_json
from urisift.output.records import NotComputed
from urisift.readers.html.parse import parse
from urisift.readers.html.region import page_regions

from .adversarial import assert_linear

#: a paragraph of prose: long enough, with commas, as an article's are
PROSE = ("<p>The river rose, as it does each spring, over the lower fields, and the village gathered on the "
         "hill to watch it, counting the boats, the nets, the goats and the children.</p>")


def regions(page: str, **kwargs: object) -> dict[str, str | None]:
    """Each record's reference -> its region (the references of a page here are distinct)."""
    out: dict[str, str | None] = {}
    for record in scan_html(page, fields=("uri", "region"), **kwargs):  # type: ignore[arg-type]
        assert isinstance(record, Record)
        assert record.uri not in out
        out[record.uri] = record.region  # type: ignore[assignment]
    return out


LANDMARKS = f"""<!DOCTYPE html><html><head><link rel="stylesheet" href="/site.css"></head><body>
<header><a href="/home">Home</a></header>
<nav><a href="/news">News</a> <a href="/sport">Sport</a></nav>
<main><h1>Flood</h1>{PROSE}<p>As the <a href="/source">survey</a> says, the water, the mud and the wind
came together, once again, for the third year running, and nobody was surprised.</p>{PROSE}
<aside><a href="/related">Related</a></aside></main>
<aside><a href="/advert">Advert</a></aside>
<footer><a href="/contact">Contact</a></footer>
</body></html>"""


def test_each_landmark_element() -> None:
    assert regions(LANDMARKS) == {
        "/site.css": "other",  # the head is no part of the page's regions
        "/home": "header", "/news": "nav", "/sport": "nav", "/source": "main",
        "/related": "aside",  # an aside inside main is still beside the content
        "/advert": "aside", "/contact": "footer",
    }


def test_each_aria_landmark_role() -> None:
    page = f"""<body><div role="banner"><a href="/b">b</a></div>
    <div role="navigation"><a href="/n">n</a></div><div role="search"><a href="/s">s</a></div>
    <div role="main">{PROSE}<p>See <a href="/m">this</a>, and that, and the other, at length and in detail,
    as the report does.</p>{PROSE}<div role="comment"><a href="/c">c</a></div></div>
    <div role="complementary"><a href="/x">x</a></div>
    <div role="contentinfo"><a href="/i">i</a></div>
    <div role="dialog"><a href="/d">d</a></div></body>"""
    assert regions(page) == {"/b": "header", "/n": "nav", "/s": "nav", "/m": "main", "/c": "comments",
                             "/x": "aside", "/i": "footer", "/d": "other"}


def test_a_role_overrides_the_element() -> None:
    page = f'<body><nav role="main">{PROSE}<p>At <a href="/in">length</a>, and at leisure, as one does.</p>' \
           f'{PROSE}</nav><div role="navigation"><a href="/out">out</a></div></body>'
    assert regions(page) == {"/in": "main", "/out": "nav"}


def test_nesting_the_innermost_landmark_holds() -> None:
    page = f"""<body><header><a href="/logo">logo</a><nav><a href="/menu">menu</a></nav></header>
    <main><nav><a href="/crumbs">crumbs</a></nav>
    <article><header><a href="/byline">by A. Writer</a></header>{PROSE}
    <p>So <a href="/cited">the study</a> says, in its summary, its tables and its notes, at some length.</p>
    {PROSE}<footer><a href="/tagged">tagged: rivers</a></footer></article>
    <section><h2>More</h2>{PROSE}<footer><a href="/section-end">end</a></footer></section></main>
    <footer><a href="/legal">legal</a></footer></body>"""
    assert regions(page) == {
        "/logo": "header", "/menu": "nav",  # a nav inside the banner is the nav
        "/crumbs": "nav",  # a nav inside main is nav
        "/byline": "main",  # a header inside an article is the article's, not the page's banner
        "/cited": "main",
        "/tagged": "main", "/section-end": "main",  # footers of sections are theirs, not contentinfo
        "/legal": "footer",
    }


def test_a_page_with_no_landmark_is_scored() -> None:
    page = f"""<html><body>
    <div><a href="/a">Alpha</a> <a href="/b">Beta</a> <a href="/c">Gamma</a> <a href="/d">Delta</a></div>
    <div><div><h1>The flood</h1>{PROSE}
      <p>Upstream, the <a href="/gauge">gauge</a> read nine metres, a record, and rising, so they said.</p>
      {PROSE}{PROSE}
      <div><p><a href="/l1">one</a></p><p><a href="/l2">two</a></p><p><a href="/l3">three</a></p></div>
      <div hidden><a href="/hidden">hidden</a></div>
    </div>
    <div><p><a href="/s1">Elsewhere</a></p><p><a href="/s2">Further</a></p></div></div>
    <div><span>Published by <a href="/press">the press</a></span></div>
    </body></html>"""
    assert regions(page) == {
        "/a": "other", "/b": "other", "/c": "other", "/d": "other",  # a menu no landmark names
        "/gauge": "main",
        "/l1": "other", "/l2": "other", "/l3": "other",  # a container of links inside the content
        "/hidden": "other",  # not shown
        "/s1": "other", "/s2": "other", "/press": "other",
    }


def test_class_and_id_words_name_furniture() -> None:
    page = f"""<body><div id="masthead"><a href="/top">top</a></div>
    <div class="main-menu"><a href="/m1">m1</a></div>
    <div class="post-body">{PROSE}<p>We <a href="/we">went</a> there, and back, and there again, twice.</p>
    {PROSE}<div class="share-buttons"><a href="/share">share</a></div></div>
    <div id="sidebar"><a href="/side">side</a></div>
    <div id="comments"><div class="comment"><p>Well put, thanks, though I <a href="/reader">disagree</a>, as
    ever, with the middle part, and the end.</p></div></div>
    <div class="site-footer"><a href="/foot">foot</a></div></body>"""
    assert regions(page) == {"/top": "header", "/m1": "nav", "/we": "main", "/share": "other", "/side": "aside",
                             "/reader": "comments", "/foot": "footer"}


def test_a_misnamed_zone_holding_the_content_is_the_content() -> None:
    # a layout's column called a sidebar, holding the article: its class word is not believed
    page = f"""<body><div class="layout-with-sidebar">{PROSE}
    <p>The <a href="/inside">inquiry</a> met, heard the witnesses, and adjourned, as planned, until May.</p>
    {PROSE}{PROSE}</div><div class="menu"><a href="/nav">nav</a></div></body>"""
    assert regions(page) == {"/inside": "main", "/nav": "nav"}


def test_text_urls_stand_where_their_text_does() -> None:
    page = f"<body><nav>see http://nav.example/</nav><main>{PROSE}<p>Read http://main.example/ for more, " \
           f"and more, and more again, at length.</p>{PROSE}</main></body>"
    assert regions(page) == {"http://nav.example/": "nav", "http://main.example/": "main"}


def test_a_beautifulsoup_tree_gets_the_same_regions() -> None:
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(LANDMARKS, "html.parser")
    assert regions(soup) == regions(LANDMARKS)  # type: ignore[arg-type]


def test_an_iframe_srcdoc_stands_where_the_iframe_does() -> None:
    inner = '<nav><a href="/inner">x</a></nav>'.replace('"', "&quot;")
    page = f'<body><main>{PROSE}{PROSE}<iframe srcdoc="{inner}"></iframe></main><aside>' \
           f'<iframe srcdoc="{inner}"></iframe></aside></body>'
    records = [r for r in scan_html(page, fields=("uri", "region")) if isinstance(r, Record)]
    assert [(r.uri, r.region) for r in records] == [("/inner", "main"), ("/inner", "aside")]


# -- computed only when asked for -----------------------------------------------------------

def test_region_is_not_computed_when_not_asked_for() -> None:
    # a key a run adds when asked, as context is: not by default, nor with every key of the contract
    for fields in (None, RECORD_KEYS):
        records = [r for r in scan_html(LANDMARKS, fields=fields) if isinstance(r, Record)]
        assert records and {r.region for r in records} == {False}
        assert "region" not in record_json(records[0])
    with pytest.raises(NotComputed, match="region"):
        record_json(records[0], ["uri", "region"])


def test_region_through_scan_options_and_null_outside_html(tmp_path: object) -> None:
    from pathlib import Path

    assert isinstance(tmp_path, Path)
    (tmp_path / "page.html").write_text(LANDMARKS, encoding="utf-8")
    (tmp_path / "notes.txt").write_text("see http://notes.example/\n", encoding="utf-8")
    from urisift.pipeline.sources import Input

    asked = [r for r in iter_input(Input(str(tmp_path / "page.html")), ScanOptions(fields=frozenset({"region"})))
             if isinstance(r, Record)]
    assert [r.region for r in asked][:3] == ["other", "header", "nav"]
    unasked = [r for r in iter_input(Input(str(tmp_path / "page.html")), ScanOptions(fields=frozenset({"uri"})))
               if isinstance(r, Record)]
    assert {r.region for r in unasked} == {False}
    text = [r for r in scan_text("see http://notes.example/", fields=["uri", "region"]) if isinstance(r, Record)]
    assert [record_json(r, ["uri", "region"])["region"] for r in text] == [None]


def test_region_values_are_the_vocabulary() -> None:
    assert [r.value for r in Region] == ["main", "nav", "header", "footer", "aside", "comments", "other"]
    # a key a run adds when asked, after the contract's (and before context and normalized)
    line = next(r for r in scan_html(LANDMARKS, fields=(*RECORD_KEYS, "region")) if isinstance(r, Record))
    assert list(record_json(line, (*RECORD_KEYS, "region")))[-2:] == ["member", "region"]


# -- the command ------------------------------------------------------------------------------

def run(argv: list[str], page: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["--kind", "html", "--base", "http://site.example/p", *argv], stdin=io.BytesIO(page.encode()),
                stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


REPEATED = f"""<body><nav><a href="/story">Story</a> <a href="/about">About</a></nav>
<main>{PROSE}<p>The <a href="/story">story</a> so far, told again, with its <a href="/data">data</a>, in
full, as promised.</p>{PROSE}</main><footer><a href="/about">About</a></footer></body>"""


def test_region_option_keeps_those_regions() -> None:
    assert run(["--region", "main"], REPEATED) == (
        0, "http://site.example/story\nhttp://site.example/data\n", "")
    assert run(["--region", "nav,footer"], REPEATED) == (
        0, "http://site.example/story\nhttp://site.example/about\nhttp://site.example/about\n", "")


def test_region_option_with_unique_edges_and_jsonl() -> None:
    # --unique counts a target in the article even though the menu named it first
    assert run(["--region", "main", "--unique"], REPEATED)[1] == \
        "http://site.example/story\nhttp://site.example/data\n"
    assert run(["--region", "main", "--format", "edges"], REPEATED)[1] == (
        "http://site.example/p\thttp://site.example/story\nhttp://site.example/p\thttp://site.example/data\n")
    lines = run(["--region", "footer", "--format", "jsonl"], REPEATED)[1].splitlines()
    assert [(json.loads(x)["target"], json.loads(x)["region"]) for x in lines] == [
        ("http://site.example/about", "footer")]


def test_region_option_leaves_out_records_without_a_region() -> None:
    out, err = io.StringIO(), io.StringIO()
    code = main(["--region", "main,other"], stdin=io.BytesIO(b"see http://text.example/\n"), stdout=out, stderr=err)
    assert (code, out.getvalue()) == (0, "")


def test_an_unknown_region_is_a_usage_error() -> None:
    code, out, err = run(["--region", "main,sidebar"], REPEATED)
    assert (code, out) == (2, "")
    assert "no region 'sidebar'; the regions are main, nav, header, footer, aside, comments, other" in err


# -- linear on hostile pages ------------------------------------------------------------------

@pytest.mark.parametrize("shape", ["paragraphs", "nested lists", "classes"])
def test_regions_are_linear(shape: str) -> None:
    unit = {
        "paragraphs": '<div><p class="x">Words, words, and words, <a href="/x">x</a>.</p></div>',
        "nested lists": "<ul><li><a href=/y>y</a><ul>",  # nests as deep as the guard lets it, then siblings
        "classes": '<div class="c{}" id="i{}"><a href="/z">z</a></div>',
    }[shape]

    def work(n: int) -> object:
        count = n // len(unit)
        page = "".join(unit.format(i, i) for i in range(count)) if "{}" in unit else unit * count
        return page_regions(parse(page)[0])

    assert_linear(work, small=100_000, large=400_000)
