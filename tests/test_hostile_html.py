"""Hostile and broken HTML (issue 20): the shapes on which an HTML5 tree
builder is quadratic are capped before lexbor sees them, with a defect
saying what was capped, and every link outside what was capped is found."""

from __future__ import annotations

from typing import Any

import pytest
from selectolax.lexbor import LexborHTMLParser

from urisift import Defect, DefectKind, Record, scan_html
from urisift.readers.html.guard import MAX_ATTRIBUTES, MAX_DEPTH, guard

from .adversarial import assert_linear

DOC = "http://doc.example/p/index.html"


def scanned(html: str | bytes) -> tuple[list[tuple[Any, ...]], list[tuple[DefectKind, str]]]:
    """The records (element, attribute, uri, target, anchor text, rel) and the defects of a page;
    every record with a span must stand on its uri in the source."""
    text = html if isinstance(html, str) else html.decode()
    out, defects = [], []
    for item in scan_html(html, base=DOC):
        if isinstance(item, Defect):
            defects.append((item.kind, item.detail))
            continue
        assert isinstance(item, Record)
        if item.span is not None:
            assert text[item.span[0]:item.span[1]] == item.uri
        out.append((item.element, item.attribute, item.uri, item.target, item.text, item.rel))
    return out, defects


def tree_depth(markup: str | bytes) -> int:
    """The depth of the tree lexbor builds (html is 1)."""
    deepest = 0
    root = LexborHTMLParser(markup).root
    assert root is not None
    stack = [(root, 1)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in node.iter(include_text=False))
    return deepest


def _depth_note(deepest: int, flattened: int) -> str:
    return (f"elements nested {deepest} deep, deeper than {MAX_DEPTH} (from line 1): {flattened} elements past "
            f"that depth were closed at once, their contents made their siblings, as Blink caps its tree "
            f"(the HTML5 tree builder is quadratic in the depth)")


# -- depth -----------------------------------------------------------------------------------------

def test_closed_nesting_is_capped_at_512_and_reported() -> None:
    # closed or not, 20,000 nested <div> cost the tree builder the same: its scope checks walk the stack
    n = 20_000
    html = ('<div><a href="top.html">top</a>' + "<div>" * n + '<a href="deep.html">deep</a>' + "</div>" * n
            + '<a href="after.html">after</a></div>')
    records, defects = scanned(html)
    # the <a> past the cap is closed at once: its text is its sibling, as in Blink
    assert records == [
        ("a", "href", "top.html", "http://doc.example/p/top.html", "top", None),
        ("a", "href", "deep.html", "http://doc.example/p/deep.html", "", None),
        ("a", "href", "after.html", "http://doc.example/p/after.html", "after", None)]
    assert defects == [(DefectKind.DEEP_NESTING, _depth_note(n + 2, n + 2 - MAX_DEPTH))]
    # html, body, 512 levels, and those closed at once as children of the 512th
    assert tree_depth(guard(html).markup) == MAX_DEPTH + 3


def test_a_page_under_the_cap_is_left_as_it_is() -> None:
    html = "<div>" * (MAX_DEPTH - 1) + '<a href="x">x</a>' + "</div>" * (MAX_DEPTH - 1)
    assert guard(html).markup is html and guard(html).notes == ()
    assert scanned(html) == ([("a", "href", "x", "http://doc.example/p/x", "x", None)], [])


def test_nested_templates_are_walked_without_recursion() -> None:
    # 1,000 nested templates raised RecursionError in the walk; now they are capped like any element,
    # and a template's contents are walked from a stack
    html = ('<template><a href="in.html">in</a>' + "<template>" * 999 + '<a href="deep.html">d</a>'
            + "</template>" * 1000 + '<a href="out.html">out</a>')
    records, defects = scanned(html)
    assert records == [
        ("a", "href", "in.html", "http://doc.example/p/in.html", "in", None),
        ("a", "href", "deep.html", "http://doc.example/p/deep.html", "", None),
        ("a", "href", "out.html", "http://doc.example/p/out.html", "out", None)]
    assert defects == [(DefectKind.DEEP_NESTING, _depth_note(1001, 1001 - MAX_DEPTH))]


def test_templates_under_the_cap_nest_and_keep_their_base_rule() -> None:
    # a <base> inside template contents is not the document's base (WHATWG §2.4.1), however deep
    html = ("<template>" * 400 + '<base href="http://wrong.example/"><a href="t.html">t</a>' + "</template>" * 400
            + '<a href="x.html">x</a>')
    records, defects = scanned(html)
    assert defects == []
    assert [(r[0], r[3]) for r in records] == [
        ("base", "http://wrong.example/"), ("a", "http://doc.example/p/t.html"), ("a", "http://doc.example/p/x.html")]


@pytest.mark.parametrize("name, unit", [
    # end tags the tree builder ignores: a special element (div) is the current node
    ("span around div", "<span><div></span>"),
    # tags the tokenizer does not see: in a comment, an attribute value, a script, a double-escaped script
    ("end tag in a comment", "<div><!-- </div> -->"),
    ("end tag in an attribute", '<div title="</div>">'),
    ("end tag in a script", '<div><script>"</div>"</script>'),
    ("double-escaped script", "<div><script><!--<script></script></div>--></script>"),
    ("end tag in a quoted > value", '<div><img alt="></div>">'),
    # an SVG title is markup, not RCDATA; SVG elements nest where HTML ones would close
    ("svg title", "<svg><title><div>"),
    ("svg option", "<svg><option>"),
    # implied parents: one <td> opens table body, row and cell
    ("table cells", "<table><td>"),

])
def test_shapes_that_hide_their_depth_are_capped(name: str, unit: str) -> None:
    html = unit * 5_000
    guarded = guard(html)
    assert len(guarded.notes) == 1 and guarded.notes[0].startswith("elements nested"), name
    assert tree_depth(guarded.markup) <= MAX_DEPTH + 8, name


@pytest.mark.parametrize("unit", ["<p><b id={}>x</p>", "<table><b id={}></table>"])
def test_formatting_elements_left_open_are_capped(unit: str) -> None:
    # a </p> or </table> closes the <b>, but it stays in the list of active formatting elements and the
    # next text opens it again, with every other one left open (§13.2.4.3): 5,000 different ones nest
    # 5,000 deep, rebuilt at every paragraph.  The model keeps them open, so the cap holds
    html = "".join(unit.format(i) for i in range(5_000))
    guarded = guard(html)
    assert [note.split(" (")[0] for note in guarded.notes] == ["elements nested 10000 deep, deeper than 512"]
    assert tree_depth(guarded.markup) <= MAX_DEPTH + 8


@pytest.mark.parametrize("unit", ["<p>x", "<li>x", "<dt>x<dd>y", "<option>x", "<tr><td>x", "<p><div>x</div>",
                                  "<ul><li>x</ul>", "<svg><path/></svg>", "<br>", "<img src=i.png>",
                                  "<script>if (a</div>) {}</script>", "<!-- <div> -->"])
def test_sloppy_but_shallow_markup_is_not_capped(unit: str) -> None:
    # unclosed p, li, dd, option, cells: the tree builder closes them, and so does the guard's model
    html = "<body><table>" * ("td" in unit) + unit * 5_000
    assert guard(html).notes == ()
    assert guard(html).markup is html


# -- attributes ------------------------------------------------------------------------------------

def test_one_element_with_many_attributes_keeps_its_links() -> None:
    n = 50_000
    html = ('<a ' + " ".join(f"data-x{i}=1" for i in range(n)) + ' rel="next" href="wide.html">w</a>'
            '<img src="i.png">')
    records, defects = scanned(html)
    assert records == [
        ("a", "href", "wide.html", "http://doc.example/p/wide.html", "w", ("next",)),
        ("img", "src", "i.png", "http://doc.example/p/i.png", None, None)]
    assert defects == [(DefectKind.DEEP_NESTING,
                        f"1 element with more than {MAX_ATTRIBUTES} attributes (up to {n + 2}, from line 1): kept "
                        f"the first {MAX_ATTRIBUTES} and those holding links, dropped the rest (the tokenizer is "
                        f"quadratic in them)")]


def test_duplicate_attributes_past_the_cap_keep_the_first() -> None:
    # the tokenizer keeps the first of two attributes of one name (§13.2.5.33): so does the cap
    html = "<img " + "x=1 " * 300 + 'src="first.png" ' + 'src="second.png" ' * 300 + ">"
    records, defects = scanned(html)
    assert records == [("img", "src", "first.png", "http://doc.example/p/first.png", None, None)]
    assert [kind for kind, _ in defects] == [DefectKind.DEEP_NESTING]


def test_attributes_with_quoted_greater_than_signs_are_counted() -> None:
    html = "<a " + " ".join(f'x{i}=">"' for i in range(1_000)) + ' href="q.html">q</a>'
    records, defects = scanned(html)
    assert records == [("a", "href", "q.html", "http://doc.example/p/q.html", "q", None)]
    assert [detail.split(" (")[0] for _, detail in defects] == [f"1 element with more than {MAX_ATTRIBUTES} attributes"]


# -- void elements, RCDATA, RAWTEXT ------------------------------------------------------------------

def test_many_void_elements_are_no_depth_and_rcdata_stays_text() -> None:
    # 12,000 <br>/<img> used to count as open levels and send the page to a fallback parser that read
    # markup inside <title> and <textarea>; void elements open nothing, and RCDATA is text
    html = ("<title>T <a href='http://no-title.example/'></title>" + "<br><img src=i.png>" * 6_000
            + "<textarea><a href='t.html'>http://ta.example/</textarea><style>a{}</style>"
            + "<xmp><a href='x.html'></xmp><a href=last.html>l</a>")
    records, defects = scanned(html)
    assert defects == []
    assert records[0] == ("title", None, "http://no-title.example/", "http://no-title.example/", None, None)
    assert records[1:3] == [("img", "src", "i.png", "http://doc.example/p/i.png", None, None)] * 2
    assert len(records) == 1 + 6_000 + 2
    assert records[-2:] == [("textarea", None, "http://ta.example/", "http://ta.example/", None, None),
                            ("a", "href", "last.html", "http://doc.example/p/last.html", "l", None)]


def test_less_than_signs_and_a_long_value_are_text_and_one_link() -> None:
    lts = "<" * 1_000_000
    assert scanned(lts) == ([], [])
    value = "v" * 1_000_000
    assert scanned(f'<a href="{value}">x</a>') == ([("a", "href", value, f"http://doc.example/p/{value}", "x", None)],
                                                   [])


def test_a_tag_the_input_ends_in_drops_the_rest() -> None:
    html = '<a href="ok.html">ok</a><div title="never closed <a href=x.html>'
    assert scanned(html) == ([("a", "href", "ok.html", "http://doc.example/p/ok.html", "ok", None)], [])


# -- names the tokenizer does not lower -----------------------------------------------------------

# the tokenizer lowers and compares tag names in ASCII alone (§13.2.5.8): str.lower() makes U+212A KELVIN SIGN
# a "k", and a str pattern's ignoring of case takes U+017F LONG S for an "s"; read so, <lin\u212a> was the void
# link and <noframe\u017f> a raw-text element to the guard, while lexbor nests what stands under them (a page
# of 20,000 such tags and 20,000 end tags took 1.2 s, four times as long for each doubling)
UNICODE_CASE = {"kelvin sign": "<lin\u212a>" * 2_000 + "</zzz>" * 2_000,
                "long s": "<noframe\u017f>" + "<div>" * 2_000 + "</zzz>" * 2_000}


@pytest.mark.parametrize("encoded", [False, True], ids=["str", "utf-8"])
@pytest.mark.parametrize("name", sorted(UNICODE_CASE))
def test_a_tag_name_that_only_unicode_lowers_to_an_html_one_is_nested_as_the_parser_nests_it(
        name: str, encoded: bool) -> None:
    html = UNICODE_CASE[name] + '<a href="deep.html">deep</a>'
    deepest = 2_001 if name == "kelvin sign" else 2_002
    assert scanned(html.encode() if encoded else html) == (
        [("a", "href", "deep.html", "http://doc.example/p/deep.html", "", None)],
        [(DefectKind.DEEP_NESTING, _depth_note(deepest, deepest - MAX_DEPTH))])


# -- positions -------------------------------------------------------------------------------------

def test_a_value_written_earlier_elsewhere_gets_its_own_span() -> None:
    # the same URL in a script, a comment, an element the walk passes over and another element's
    # attribute: the record of the <a> stands in the <a>'s own start tag
    url = "http://x.example/a"
    html = (f'<script>var u = "{url}";</script><!-- href="{url}" --><div data-u="{url}"></div>'
            f'<img class="{url}">\n<p>text</p><A class=c HREF="{url}">a</A>')  # (an alt is read now: class)
    at = html.index(f'HREF="{url}"') + 6
    items = [r for r in scan_html(html, base=DOC) if isinstance(r, Record)]
    assert [(r.element, r.uri, r.span, r.line, r.column) for r in items] == [
        ("a", url, (at, at + len(url)), 2, at - html.index("\n"))]


def test_an_image_start_tag_is_located_as_the_img_it_becomes() -> None:
    html = '<p>x</p><image src="pic.png">'
    assert [(r.element, r.span) for r in scan_html(html, base=DOC) if isinstance(r, Record)] == [
        ("img", (html.index("pic.png"), html.index("pic.png") + 7))]


# -- linear --------------------------------------------------------------------------------------------

HOSTILE = {
    "closed nesting": lambda n: guard("<div>" * (n // 11) + "</div>" * (n // 11)),
    "many attributes": lambda n: guard("<a " + "x=1 " * (n // 4) + ">"),
    "span around div": lambda n: guard("<span><div></span>" * (n // 18)),
    "less-than signs": lambda n: guard("<" * n),
    "unclosed comments": lambda n: guard("<!--" * (n // 4)),
    "unclosed scripts": lambda n: guard("<script>" * (n // 8)),
    "quotes": lambda n: guard('<a b="' * (n // 6)),
    "nested templates": lambda n: guard("<template>" * (n // 10)),
    "kelvin sign in names": lambda n: list(scan_html("<lin\u212a>" * (n // 13) + "</zzz>" * (n // 13))),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_the_guard_is_linear(name: str) -> None:
    assert_linear(HOSTILE[name], small=100_000, large=400_000)


def test_closed_nesting_scans_in_linear_time() -> None:
    assert_linear(lambda n: list(scan_html("<div>" * (n // 11) + "</div>" * (n // 11))), small=100_000,
                  large=400_000)
