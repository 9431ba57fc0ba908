"""The plain-text scanner on the regressions of issue 20, taken from other
projects' suites: joiners inside words of scripts that need them, mailto
addresses whose domain has no dot, and a ")" inside a path (GFM's extended
autolinks, spec examples 626-630), each with the exact references found;
and their rules on adversarial input, in linear time."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from urisift import Record, scan_text
from urisift.model import Flag, Style
from urisift.stages.delimit import find_references

from .adversarial import assert_linear

ZWNJ, ZWJ = "\u200c", "\u200d"
PERSIAN = "\u0645\u06cc" + ZWNJ + "\u062e\u0648\u0627\u0647\u0645"  # "I want": mi + ZWNJ + khaham
MALAYALAM = "\u0d06\u0d28\u0d4d" + ZWJ + "\u0d21\u0d4d"  # "and", legacy chillu: NA, VIRAMA, ZWJ, DDA, VIRAMA


def _found(text: str) -> list[tuple[str, int | None, int | None, Style, tuple[Flag, ...]]]:
    return [(f.reference, f.start, f.end, f.style, f.flags) for f in find_references(text)]


# -- joiners ------------------------------------------------------------------------------

def test_a_zero_width_non_joiner_inside_a_persian_word_is_kept() -> None:
    url = f"https://fa.wikipedia.org/wiki/{PERSIAN}"
    assert _found(f"see {url} now") == [(url, 4, 4 + len(url), Style.BARE, ())]


def test_a_zero_width_joiner_after_a_malayalam_virama_is_kept() -> None:
    url = f"http://ml.wikipedia.org/wiki/{MALAYALAM}"
    assert _found(f"{url}, x") == [(url, 0, len(url), Style.BARE, (Flag.TRIMMED,))]
    # in a path segment followed by more of the path, and under the abbreviated rule
    assert _found(f"www.example.ml/{MALAYALAM}/a") == [
        (f"www.example.ml/{MALAYALAM}/a", 0, 17 + len(MALAYALAM), Style.ABBREVIATED, ())]


@pytest.mark.parametrize("joiner", [ZWNJ, ZWJ])
def test_a_joiner_between_ascii_letters_or_at_the_end_still_ends_the_uri(joiner: str) -> None:
    # a joiner hidden in an ASCII name is a disguise, not a word of a script that needs it
    assert _found(f"http://a.example/pay{joiner}pal") == [("http://a.example/pay", 0, 20, Style.BARE, ())]
    # after a Persian word but before a space, it belongs to the prose
    assert _found(f"http://a.example/\u0645{joiner} x") == [("http://a.example/\u0645", 0, 18, Style.BARE, ())]
    # two in a row: the first is not followed by a URI character
    assert _found(f"http://a.example/\u0645{joiner}{joiner}\u0645") == [
        ("http://a.example/\u0645", 0, 18, Style.BARE, ())]


@pytest.mark.parametrize("control", ["\u200e", "\u200f", "\u202a", "\u202e", "\u2066", "\u2069", "\u200b", "\ufeff"])
def test_bidi_controls_and_invisible_spaces_end_the_uri(control: str) -> None:
    # RFC 3987 §4.1: bidi formatting characters must not be in an IRI
    assert _found(f"http://a.example/\u0645{control}\u0645") == [("http://a.example/\u0645", 0, 18, Style.BARE, ())]


# -- mailto --------------------------------------------------------------------------------

@pytest.mark.parametrize("text, found", [
    ("write to mailto:root@localhost.", [("mailto:root@localhost", 9, 30, Style.BARE, (Flag.TRIMMED,))]),
    ("mailto:user@intranet?subject=hi", [("mailto:user@intranet?subject=hi", 0, 31, Style.BARE, ())]),
    ("mailto:postmaster@[192.0.2.1]", [("mailto:postmaster@[192.0.2.1]", 0, 29, Style.BARE, ())]),
    ("<mailto:root@localhost>", [("mailto:root@localhost", 1, 22, Style.ANGLE, ())]),
    # still not a URI: no address, or nothing after the "@"
    ("mailto:joe and mailto:@x", []),
])
def test_mailto_takes_any_domain(text: str, found: list[object]) -> None:
    # RFC 6068 §2: the address is an addr-spec; its domain need not have a dot
    assert _found(text) == found


# -- a ")" inside the path ---------------------------------------------------------------------

@pytest.mark.parametrize("text, found", [
    # GFM spec, extended www autolinks: only trailing unmatched ")" are left out
    ("www.google.com/search?q=Markup+(business)",
     [("www.google.com/search?q=Markup+(business)", 0, 41, Style.ABBREVIATED, ())]),
    ("www.google.com/search?q=Markup+(business)))",
     [("www.google.com/search?q=Markup+(business)", 0, 41, Style.ABBREVIATED, (Flag.UNBALANCED,))]),
    ("(www.google.com/search?q=Markup+(business))",
     [("www.google.com/search?q=Markup+(business)", 1, 42, Style.ABBREVIATED, (Flag.UNBALANCED,))]),
    ("(www.google.com/search?q=Markup+(business)",
     [("www.google.com/search?q=Markup+(business)", 1, 42, Style.ABBREVIATED, ())]),
    ("www.google.com/search?q=(business))+ok",
     [("www.google.com/search?q=(business))+ok", 0, 38, Style.ABBREVIATED, ())]),
    ("see http://x.example/foo)bar.", [("http://x.example/foo)bar", 4, 28, Style.BARE, (Flag.TRIMMED,))]),
    ("http://x.example/a).b", [("http://x.example/a).b", 0, 21, Style.BARE, ())]),
    # the URI still ends at the ")": punctuation only after it, a bracket, another URI ...
    ("(see http://x.example/a), and", [("http://x.example/a", 5, 23, Style.BARE, (Flag.UNBALANCED,))]),
    ("http://x.example/a)...", [("http://x.example/a", 0, 18, Style.BARE, (Flag.UNBALANCED,))]),
    ("http://a.example/b)http://c.example/d",
     [("http://a.example/b", 0, 18, Style.BARE, (Flag.UNBALANCED,)),
      ("http://c.example/d", 19, 37, Style.BARE, ())]),
    ("http://a.example/b)www.c.example", [("http://a.example/b", 0, 18, Style.BARE, (Flag.UNBALANCED,)),
                                          ("www.c.example", 19, 32, Style.ABBREVIATED, ())]),
    # ... or a "(" right before the URI that this ")" closes (Markdown links among them)
    ("(http://x.example/a)b", [("http://x.example/a", 1, 19, Style.BARE, (Flag.UNBALANCED,))]),
    ("[a](http://x.example/a)more", [("http://x.example/a", 4, 22, Style.BARE, (Flag.UNBALANCED,))]),
    ("[a](http://x/a)[b](http://y/b)", [("http://x/a", 4, 14, Style.BARE, (Flag.UNBALANCED,)),
                                       ("http://y/b", 19, 29, Style.BARE, (Flag.UNBALANCED,))]),
])
def test_a_closing_parenthesis_inside_the_path_is_kept(text: str, found: list[object]) -> None:
    assert _found(text) == found


def test_the_records_of_the_three_regressions() -> None:
    text = f"a https://fa.wikipedia.org/wiki/{PERSIAN}\nb mailto:root@localhost\nc www.example.com/a)b\n"
    records = [r for r in scan_text(text) if isinstance(r, Record)]
    assert [(r.uri, r.target, r.line, r.column, r.style) for r in records] == [
        (f"https://fa.wikipedia.org/wiki/{PERSIAN}", f"https://fa.wikipedia.org/wiki/{PERSIAN}", 1, 3, Style.BARE),
        ("mailto:root@localhost", "mailto:root@localhost", 2, 3, Style.BARE),
        ("www.example.com/a)b", "http://www.example.com/a)b", 3, 3, Style.ABBREVIATED)]


ADVERSARIAL: dict[str, Callable[[int], object]] = {
    "closers inside a path": lambda n: find_references("http://a/" + "b)" * (n // 2)),
    "closers and punctuation": lambda n: find_references("http://a/b" + ").x" * (n // 3)),
    "closers before schemes": lambda n: find_references("http://a/b)" * (n // 11)),
    "joiners in a Persian path": lambda n: find_references("http://a/" + ("\u0645" + ZWNJ) * (n // 2) + "\u0645"),
    "joiners between ASCII": lambda n: find_references(("http://a/b" + ZWJ) * (n // 11)),
    "joiner runs": lambda n: find_references("http://a/\u0645" + ZWJ * n),
    "dotless mailto": lambda n: find_references("mailto:a@b " * (n // 11)),
}


@pytest.mark.parametrize("name", sorted(ADVERSARIAL))
def test_the_new_rules_are_linear(name: str) -> None:
    assert_linear(ADVERSARIAL[name])


@pytest.mark.parametrize("text, expected", [
    # SpamAssassin easy_ham (a Python snippet in a mail): the "(" before the quote opened that ")"
    ("urllib.urlopen('http://weblog.burningbird.net/').read()", ["http://weblog.burningbird.net/"]),
    ('f("http://q.example/p")x', ["http://q.example/p"]),
    ("(\u201chttp://q.example/p\u201d)more", ["http://q.example/p"]),
])
def test_a_paren_opened_before_the_quotes_of_a_uri_still_closes_there(text: str, expected: list[str]) -> None:
    assert [r.uri for r in scan_text(text) if isinstance(r, Record)] == expected
