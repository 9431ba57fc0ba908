"""Links that hide from text extraction (issue 55): text people read in attributes."""

from __future__ import annotations

from urisift import Record, scan_html

PAGE = ('<img alt="Scan: https://alt.example/x" src="i.png" title="see www.title.example">\n'
        '<button aria-label="Go to https://aria.example/">x</button><input placeholder="e.g. https://ph.example/">\n'
        '<meta name="description" content="More at https://desc.example/">'
        '<meta property="og:description" content="https://og.example/">\n'
        '<meta name="twitter:description" content="https://tw.example/"><meta name="keywords" content="http://k.example/">\n'
        '<p title="no link here" class="https://class.example/">text</p>')


def test_text_people_read_in_attributes_is_read_as_text() -> None:
    records = [r for r in scan_html(PAGE, base="https://page.example/") if isinstance(r, Record)]
    assert [(r.target, r.where.value, r.element, r.attribute, r.line, r.column) for r in records] == [
        ("https://alt.example/x", "text", "img", "alt", 1, 17),
        ("https://page.example/i.png", "html", "img", "src", 1, 45),
        ("http://www.title.example", "text", "img", "title", 1, 63),
        ("https://aria.example/", "text", "button", "aria-label", 2, 27),
        ("https://ph.example/", "text", "input", "placeholder", 2, 85),
        ("https://desc.example/", "text", "meta", "content", 3, 43),
        ("https://og.example/", "text", "meta", "content", 3, 107),
        ("https://tw.example/", "text", "meta", "content", 4, 43)]
