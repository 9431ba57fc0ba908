"""Long comments withheld from the parser when their text is not read (tokens.withheld): Word's HTML, an
Outlook message's body, is mostly comments (30 KB of 38 in the shared PSTs' messages), which lexbor reads
character by character for nothing.  The tree, the records and their positions are those of the whole page;
only what the parser is given changes, and only where the first pass vouches for the page."""

from __future__ import annotations

import pytest

from urisift import scan_html
from urisift.readers.html import tokens
from urisift.readers.html.guard import guard
from urisift.readers.html.tokens import BYTES, STR, WITHHELD, WORTH, shallow_twin, withheld

#: what Word writes in a message's head: settings and latent styles in conditional comments, a style sheet
#: whose rules stand in a comment inside <style> (raw text: no comment there)
_LATENT = "<w:LsdException Locked=\"false\" Priority=\"9\" Name=\"heading 1\"/>\n" * 120
_HEAD = ('<html xmlns:o="urn:schemas-microsoft-com:office:office"><head>\n'
         '<meta http-equiv=Content-Type content="text/html; charset=utf-8">\n'
         "<!--[if gte mso 9]><xml>\n" + _LATENT + "</xml><![endif]-->"
         "<style><!--\n@font-face {font-family: x; src: url(http://fonts.example/x.woff)}\n--></style>"
         "</head>\n")
_BODY = '<body><p>See <a href="http://example.org/a">the page</a>.</p>\n<!-- http://example.org/in-comment -->\n'
WORD = _HEAD + _BODY + "</body></html>\n"


def _urls(page: str, **options: bool) -> list[tuple[str, int | None, int | None]]:
    return [(r.found.reference, r.line, r.column) for r in scan_html(page, **options)  # type: ignore[union-attr]
            if hasattr(r, "found")]


def test_the_latent_styles_are_withheld_and_the_style_sheet_is_not() -> None:
    expected = WORD.replace("<!--[if gte mso 9]><xml>\n" + _LATENT + "</xml><![endif]-->", "<!---->")
    assert guard(WORD, comments=False).markup == expected
    assert guard(WORD.encode(), comments=False).markup == expected.encode()
    assert guard(WORD).markup is WORD  # (comments read: the page as it is)


def test_the_records_and_their_places_are_the_whole_page_s() -> None:
    # (three lines before the latent styles' 120, the style sheet's rule on the next but one, the body after it)
    assert _urls(WORD) == [("http://fonts.example/x.woff", 125, 38), ("http://example.org/a", 127, 23)]
    assert _urls(WORD, comments=True) == [("http://fonts.example/x.woff", 125, 38), ("http://example.org/a", 127, 23),
                                          ("http://example.org/in-comment", 128, 6)]


def test_what_only_looks_like_a_comment_is_kept() -> None:
    long = "<!--" + "x" * 5000 + "-->"
    page = (f"<head><title>{long}</title><script>var s = '{long}';</script></head>"
            f"<body><textarea>{long}</textarea><a title='{long}' href=/a>a</a>{long}<p>end</p></body>")
    assert guard(page, comments=False).markup == page.replace(f"</a>{long}<p>", "</a><!----><p>")


def test_a_comment_cut_by_the_end_and_one_closed_by_a_bang() -> None:
    page = "<!--" + "a" * 5000 + "--!><p>x</p><!--" + "b" * 300
    assert guard(page, comments=False).markup == "<!----!><p>x</p><!--"


def test_short_comments_stay_and_so_do_too_few_long_ones() -> None:
    short = "<p>a</p>" + ("<!--" + "s" * (WITHHELD - 1) + "-->") * 40
    assert guard(short, comments=False).markup is short
    few = "<p>a</p><!--" + "f" * (WORTH - 1) + "-->"
    spans: list[tuple[int, int]] = []
    assert shallow_twin(few, STR, None, spans) is True
    assert spans == [(12, 12 + WORTH - 1)]
    assert withheld(few, spans, STR) is few
    assert withheld(few + few, [*spans, (12 + len(few), 12 + len(few) + WORTH - 1)], STR) == "<p>a</p><!---->" * 2


def test_the_pure_pass_notes_them_only_where_word_puts_them() -> None:
    # (a find to the end of every page would cost a tenth of the pass: the guess reads the head)
    late = "<p>x</p>" * 2000 + "<!--" + "l" * 20000 + "-->"
    spans: list[tuple[int, int]] = []
    assert shallow_twin(late, STR, None, spans) is True
    assert spans == []
    early = "<!--" + "e" * 20000 + "-->" + "<p>x</p>" * 2000
    assert shallow_twin(early, STR, None, spans) is True
    assert spans == [(4, 20004)]
    assert shallow_twin(early.encode(), BYTES, None, spans) is True
    assert spans == [(4, 20004), (4, 20004)]


def test_a_page_the_first_pass_cannot_vouch_for_keeps_its_comments() -> None:
    page = "<!--" + "c" * 5000 + "-->" + "<div>" * 600
    guarded = guard(page, comments=False)
    assert ("<!--" + "c" * 5000 + "-->") in guarded.markup  # type: ignore[operator]
    assert guarded.notes and "nested 600 deep" in guarded.notes[0]


@pytest.mark.skipif(tokens._kernel is None, reason="a pure build: no C first pass")
def test_the_kernel_notes_every_long_comment() -> None:
    late = b"<p>x</p>" * 2000 + b"<!--" + b"l" * 300 + b"--!>" + b"<!--" + b"m" * 255 + b"-->"
    spans: list[tuple[int, int]] = []
    assert tokens.shallow(late, BYTES, None, spans) is True
    assert spans == [(16004, 16304)]
