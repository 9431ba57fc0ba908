"""A page over 4 MiB is parsed in pieces (html/segments.py): no short prefix
stops the cutting, no cut falls where the tokenizer is not in its data state,
and the page's first ``<base href>`` is the base of the records before it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from urisift import Record, scan_html
from urisift.readers.html import segments as cutter
from urisift.readers.html.segments import SEGMENT, segments

from .conftest import OLD_ENGINE_FACTOR

SIZE, WHOLE = 1000, 4000
#: 40 KB of paragraphs, each a link: forty pieces of SIZE
ROWS = "".join(f'<p><a href="/p{i}">x</a></p>\n' for i in range(1500))


def _cuts(page: str, size: int = SIZE, whole: int = WHOLE) -> list[int]:
    """Where the page is cut; its pieces are the page (those of a plaintext's text each
    opened by a <plaintext> of its own)."""
    pieces = cutter.Pieces(page, size, whole)
    plain = len(pieces.cuts) if pieces.plaintext is None else pieces.plaintext
    assert "".join(piece if i <= plain else piece.removeprefix("<plaintext>")
                   for i, piece in enumerate(pieces)) == page
    return pieces.cuts


@pytest.mark.parametrize("prefix", [
    "<svg><title>x</svg>",  # a title in SVG is no RCDATA: its text is markup, and </svg> closes both
    "<svg><style>x</svg>",  # nor is a style in SVG RAWTEXT
    "<svg><textarea>x</svg>",
    "<math><style>x</math>",
    "<svg><g><title>x</svg>",
    "<svg><desc><b>x</b></svg>",  # HTML in an integration point, closed by the foreign end tag's walk
    "<a " + " ".join(f"data-a{i}=\"{i}\"" for i in range(1100)) + ">x</a>",  # a tag with 1,100 attributes
    "<noframe\u017f>x",  # U+017F LONG S is no "s" to the tokenizer (ASCII case only): no raw-text element
], ids=["svg title", "svg style", "svg textarea", "math style", "nested svg title", "svg desc", "1100 attributes",
        "long s"])
def test_a_short_prefix_does_not_stop_the_cutting(prefix: str) -> None:
    page = prefix + ROWS
    cuts = _cuts(page)
    # a piece about every SIZE characters, each at a tag of the rows past the prefix
    assert len(cuts) >= len(ROWS) // SIZE - 1
    assert all(cut > prefix.index(">") and page.startswith(("<p>", "</p>", "<a ", "</a>"), cut) for cut in cuts)
    assert all(b - a < SIZE + 40 for a, b in zip(cuts, cuts[1:], strict=False))


def test_an_html_style_after_foreign_content_is_raw_text_again() -> None:
    # after </svg>, a <style> is HTML's: no cut falls in its text, which holds tags
    style = "<style>" + ROWS + "</style>"
    page = "<svg><style>x</style></svg>" + style + ROWS
    start = page.index(style)
    cuts = _cuts(page)
    assert not [cut for cut in cuts if start < cut < start + len(style)]
    assert cuts[0] == start + len(style)  # the first tag after it


@pytest.mark.parametrize("construct, after", [
    # script data double escaped (§13.2.5.27-31): its </script> hides until -->
    ("<script><!--<script>" + ROWS + "</script>" + ROWS + "--></script>", ""),
    ("<script>" + ROWS + "</script>", ""),  # (nor at its end tag: the tokenizer is still in its text)
    ("<textarea>" + ROWS + "</textarea>", ""),
    ("<title>" + ROWS + "</title>", ""),
    ("<!--" + ROWS + "-->", ""),
    ("<svg><![CDATA[" + ROWS + "]]></svg>", "</svg>"),  # a CDATA section in foreign content
    ('<a title="' + ROWS.replace('"', "'") + '">x</a>', "</a>"),
], ids=["double-escaped script", "script", "textarea", "title", "comment", "svg CDATA", "attribute"])
def test_no_cut_falls_outside_the_data_state(construct: str, after: str) -> None:
    page = ROWS + construct + ROWS
    start = len(ROWS)
    cuts = _cuts(page)
    assert not [cut for cut in cuts if start < cut < start + len(construct) - len(after)]
    assert len(cuts) >= 2 * len(ROWS) // SIZE - 2  # the rows on either side are cut as ever


def test_plaintext_is_cut_as_text_and_each_piece_stays_plaintext() -> None:
    # nothing after <plaintext> is markup (§13.2.5.7): a cut there, at a tag, made its text tags
    page = ROWS + "<plaintext>" + ROWS
    at = page.index("<plaintext>")
    pieces = list(segments(page, SIZE, WHOLE))
    cuts = _cuts(page)
    assert [cut for cut in cuts if cut > at] and all(page[cut - 1] == "\n" for cut in cuts if cut > at)
    after = min(cut for cut in cuts if cut > at)
    opened = pieces[cuts.index(after) + 1:]
    assert all(piece.startswith("<plaintext><p>") for piece in opened)
    assert "".join(piece.removeprefix("<plaintext>") for piece in opened) == page[after:]


def test_cdata_outside_foreign_content_is_a_bogus_comment() -> None:
    # in HTML, <![CDATA[ is a bogus comment ending at the first ">": the rows after it are cut
    page = "<![CDATA[x]]>" + ROWS
    assert len(_cuts(page)) >= len(ROWS) // SIZE - 1


def test_the_first_base_is_noted_wherever_it_stands() -> None:
    page = ROWS + '<template><base href="http://t.example/"></template><svg><base href="http://s.example/"></svg>' \
        + '<base target="_top"><base href="http://b.example/">' + ROWS
    pieces = cutter.Pieces(page, SIZE, WHOLE)
    assert pieces.later_base() == '<base href="http://b.example/">'
    assert cutter.Pieces(page.encode(), SIZE, WHOLE).later_base() == b'<base href="http://b.example/">'
    # in the first piece, the first piece's own walk finds it
    assert cutter.Pieces('<base href="http://b.example/">' + ROWS, SIZE, WHOLE).later_base() is None


# -- the same bytes over and under 4 MiB give the same records ---------------------------------------

#: 4.3 MB of text in paragraphs, no link: parsed fast, and past SEGMENT
TEXT = "<p>" + ("words " * 100 + "\n") * 7000 + "</p>\n"
assert len(TEXT) > SEGMENT


def _records(page: str | bytes) -> list[tuple[str | None, str | None, str | None]]:
    return [(r.element, r.uri, r.target) for r in scan_html(page, base="http://doc.example/d/p.html")
            if isinstance(r, Record)]


@pytest.mark.parametrize("kind", [str, bytes])
def test_a_base_past_the_first_piece_is_the_base_of_every_link(kind: type) -> None:
    page = '<a href="first.html">a</a>' + TEXT + '<base href="http://b.example/dir/"><a href="last.html">b</a>'
    markup = page if kind is str else page.encode()
    assert _records(markup) == [
        ("a", "first.html", "http://b.example/dir/first.html"),
        ("base", "http://b.example/dir/", "http://b.example/dir/"),
        ("a", "last.html", "http://b.example/dir/last.html")]


def test_plaintext_before_a_cut_makes_no_links() -> None:
    page = "<plaintext>" + TEXT + '<a href="phantom.html">x</a>\n' + TEXT + "see http://text.example/"
    assert _records(page) == [("plaintext", "http://text.example/", "http://text.example/")]


def test_a_double_escaped_script_is_not_cut() -> None:
    page = ("<script><!--<script>" + TEXT + "</script>" + TEXT + '<a href="in-script.html">x</a>' + TEXT
            + '--></script><a href="after.html">y</a>')
    assert _records(page) == [("a", "after.html", "http://doc.example/d/after.html")]


def test_a_prefix_in_svg_leaves_a_large_page_in_pieces() -> None:
    # <svg><title> once hid every tag after it from the cutter: the page was parsed whole
    page = "<svg><title>x</svg><p>" + TEXT + '<a href="last.html">b</a>'
    pieces = list(segments(page))
    assert len(pieces) > 3
    assert max(map(len, pieces)) <= (1 << 20) + 200
    assert _records(page) == [("a", "last.html", "http://doc.example/d/last.html")]


def test_positions_in_pieces_are_the_pages_own() -> None:
    page = TEXT + '<svg><style>x</svg><a href="p.html">p</a>'
    (record,) = [r for r in scan_html(page, base="http://doc.example/") if isinstance(r, Record)]
    assert record.span is not None and page[record.span[0]:record.span[1]] == "p.html"
    assert re.fullmatch(r"http://doc\.example/p\.html", record.target or "")


def test_the_first_pass_over_a_long_raw_text_keeps_no_mark_a_tag() -> None:
    # the depth guard's first pass took a raw-text element's text by a greedy repeat of
    # alternatives, which kept a mark an iteration: a 26 MB script of a million "<" took 1.1 GB
    from .test_hostile_payloads import _peak

    out, peak = _peak("from urisift.readers.html.tokens import STR, shallow_twin\n"
                      "page = '<script>' + '<b>x' * 1_000_000 + '</script><p>x'\n"
                      "print(shallow_twin(page, STR), shallow_twin('<svg><style>' + page, STR))")
    assert out == "True False"
    assert peak < OLD_ENGINE_FACTOR * 150


@pytest.mark.parametrize("size", range(1000, 1064))
def test_no_cut_falls_in_a_script_whatever_the_size(size: int) -> None:
    # where a piece was due to end inside "<script", a pass cut short there took its "<"
    # for a lone one: the script start tag went unseen, and a cut fell in its text
    script = "<script>" + '<a href="in-script.html">' * 3 + "</script>"
    page = "".join(f"<p>{i}</p>\n" + script for i in range(4000))
    cuts = _cuts(page, size, 4 * size)
    assert len(cuts) > 20
    inside = [m.span() for m in re.finditer(re.escape(script), page)]
    assert not [cut for cut in cuts for start, end in inside if start < cut < end]


def test_a_long_plaintext_start_tag_is_not_cut() -> None:
    page = "<p>x</p>" * 10 + "<plaintext " + "a=b " * 600 + ">" + "words " * 2000
    assert _cuts(page)[0] == page.index(">", 80) + 1


def test_the_time_budget_is_asked_between_the_pieces_of_a_page_a_prefix_once_kept_whole(tmp_path: Path) -> None:
    from urisift import Defect, ScanOptions, iter_input
    from urisift.stages.containment import Limits

    path = tmp_path / "page.html"
    path.write_text("<svg><title>x</svg><p>" + TEXT + '<a href="http://last.example/">b</a>')
    items = list(iter_input(str(path), ScanOptions(limits=Limits(seconds=1e-4))))
    # (the budget runs out between the pieces, or before, in the stream that feeds the reader its bytes)
    assert len(items) == 1 and isinstance(items[0], Defect)
    assert str(items[0]).startswith(f"{path}: bomb: the document's time budget (0.0001 s, --time-budget) ran out: ")
    assert str(items[0]).endswith((" the rest of the page not read", " on not read"))
