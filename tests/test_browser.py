"""Issue 25: the browser's target beside the RFC one, the ``differs`` and
``invalid`` flags, no raw control characters in a target, and a path that
never turns into a host."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from urisift import Record, normalize, resolve, scan_html, scan_message, scan_text
from urisift.cli.command import main
from urisift.model import Risk
from urisift.stages.base import as_base
from urisift.uri.browser import browser_target, difference
from urisift.uri.reference import is_valid
from urisift.uri.risk import risks
from urisift.uri.validity import _BIDI, PLAINLY_SAFE, invalidity, plainly_valid


def _records(items: object) -> list[Record]:
    return [r for r in items if isinstance(r, Record)]  # type: ignore[attr-defined]


def _link(html: str, base: str | None = None) -> Record:
    (record,) = [r for r in _records(scan_html(html, base=base)) if r.element == "a"]
    return record


def run(argv: list[str], stdin: bytes = b"") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdin=io.BytesIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


# -- invalid: one test a class ------------------------------------------------------------------

@pytest.mark.parametrize(("reference", "section", "detail"), [
    # characters a host cannot hold
    ("http://exa mple.org/", "3.2.2", "host: character ' ' not allowed at position 10"),
    ("http://a<b.org/", "3.2.2", "host: character '<' not allowed at position 8"),
    ("http://a>b.org/", "3.2.2", "host: character '>' not allowed at position 8"),
    ("http://a]b.org/", "3.2.2", "host: character ']' not allowed at position 8"),
    ("http://a[b.org/", "3.2.2", "host: character '[' not allowed at position 8"),
    # a bad percent escape
    ("http://a.org/%zz", "3.3", "path: '%' not followed by two hex digits at position 13"),
    ("http://a.org/?q=100%", "3.4", "query: '%' not followed by two hex digits at position 19"),
    # non-characters (RFC 3987 §2.2 leaves them out of ucschar)
    ("http://a.org/\ufdd0", "3.3", "path: character '\\ufdd0' not allowed at position 13"),
    ("http://a.org/#\U0001fffe", "3.5", "fragment: character '\\U0001fffe' not allowed at position 14"),
    # malformed IPv6 and IPvFuture literals
    ("http://[::1/", "3.2.2", "host: malformed IP literal at position 7"),
    ("http://[1:2:3:4:5:6:7:8:9]/", "3.2.2", "host: malformed IP literal at position 7"),
    ("http://[vz.x]/", "3.2.2", "host: malformed IP literal at position 7"),
    # a port that is not digits
    ("http://a.org:8o/", "3.2.3", "port: character 'o' not allowed at position 14"),
    # "@" in the userinfo
    ("http://u@v@a.org/", "3.2.1", "userinfo: character '@' not allowed at position 8"),
    # a control character, and a bidi formatting one (RFC 3987 §4.1)
    ("http://a.org/\x07", "3.3", "path: character '\\x07' not allowed at position 13"),
    ("http://a.org/\u202egpj.exe", "RFC 3987 4.1", "bidirectional formatting character U+202E at position 13"),
    # a colon in a relative path's first segment; a scheme that is not one
    ("1http://a.org/", "3.1", "scheme: character '1' not allowed at position 0"),
])
def test_each_class_of_invalid_reference_is_named(reference: str, section: str, detail: str) -> None:
    assert invalidity(reference) == Risk("invalid", section, detail)


@pytest.mark.parametrize("reference", [
    "http://a.org/", "http://[::1]:8080/p", "http://[v7.x:y]/", "http://u:p@a.org:8/", "mailto:a@b.org",
    "urn:isbn:0451450523", "../a/b?c#d", "http://a.org/%7E", "https://bücher.example/straße", "//h/p", "",
])
def test_valid_references_have_no_invalid_flag(reference: str) -> None:
    assert invalidity(reference) is None


def test_an_invalid_reference_keeps_its_target_and_is_flagged() -> None:
    record = _link('<a href="http://exa mple.org/a">x</a>')
    assert record.target == "http://exa%20mple.org/a"
    assert [r.flag for r in record.risks] == ["invalid", "differs"]
    assert record.browser_target is None  # a browser refuses the host


# -- no raw control characters in a target ------------------------------------------------------

@pytest.mark.parametrize(("written", "encoded"), [
    ("\x01", "%01"), ("\x1f", "%1F"), ("\x7f", "%7F"), ("\x85", "%C2%85"), ("\x9f", "%C2%9F"),
    ("\u200e", "%E2%80%8E"), ("\u202e", "%E2%80%AE"), ("\u2066", "%E2%81%A6"), ("\u2069", "%E2%81%A9"),
])
def test_controls_and_bidi_characters_are_percent_encoded_in_the_target(written: str, encoded: str) -> None:
    record = _link(f'<a href="/a{written}b">x</a>', base="http://h.example/")
    assert record.uri == f"/a{written}b"
    assert record.target == f"http://h.example/a{encoded}b"
    assert "encoded" in record.flags
    assert record.risks[0].flag == "invalid"


def test_a_control_character_in_plain_text_never_reaches_the_target() -> None:
    # a bare URI ends at one; between delimiters it is kept as written and encoded in the target
    records = _records(scan_text("<URL:http://h.example/a\x01b> http://h.example/c\u202ed"))
    assert [(r.uri, r.target, r.flags) for r in records] == [
        ("http://h.example/a\x01b", "http://h.example/a%01b", ("encoded",)),
        ("http://h.example/c", "http://h.example/c", ())]


def test_meta_refresh_loses_tabs_and_line_breaks_as_attributes_do() -> None:
    page = '<meta http-equiv="refresh" content="0; url=/next\n\tpage?a=1\r\n&amp;b=2">'
    (record,) = _records(scan_html(page, base="http://h.example/d/"))
    assert (record.uri, record.target, record.flags) == ("/nextpage?a=1&b=2", "http://h.example/nextpage?a=1&b=2",
                                                         ("wrapped",))
    assert record.browser_target == "http://h.example/nextpage?a=1&b=2"


# -- a path never turns into a host (§5.2.4, §5.3) --------------------------------------------------

@pytest.mark.parametrize(("reference", "base"), [
    ("/.//p", "f:/a/b"),
    ("..//p", "f:/a/"),
    ("a/..//p", "f:/b"),
    ("f:/.//p", "f:/x"),  # absolute: its own dot segments removed
    ("f:/..//p", "f:/x"),
])
def test_every_route_to_a_double_slash_path_gets_the_dot_prefix(reference: str, base: str) -> None:
    assert str(resolve(reference, base)) == "f:/.//p"
    page = f'<base href="{base}"><a href="{reference}">x</a>'
    record = _link(page)
    assert record.target == "f:/.//p"
    assert record.browser_target == "f:/.//p"  # the WHATWG serializer writes the same
    assert [r.flag for r in record.risks] == []
    (text,) = _records(scan_text(f"<URL:{reference}>", base=base))
    assert text.target == "f:/.//p"


def test_a_base_whose_own_path_is_slash_dot_dot_slash_slash() -> None:
    assert as_base("f:/..//p/q", None) == "f:/.//p/q"
    record = _link('<base href="f:/..//p/q"><a href="r">x</a>')
    assert (record.base, record.target, record.browser_target) == ("f:/.//p/q", "f:/.//p/r", "f:/.//p/r")
    assert normalize("f:/..//p/r") == "f:/.//p/r"


# -- the browser target and the differs flag ------------------------------------------------------

@pytest.mark.parametrize(("href", "target", "browser", "differs"), [
    ("http://a.example", "http://a.example", "http://a.example/", False),  # §6.2.3: the same resource
    ("HTTP://A.example:80/%7e", "HTTP://A.example:80/%7e", "http://a.example/%7e", False),
    ("\\\\evil.example/x", "http://h.example/d/%5C%5Cevil.example/x", "http://evil.example/x", True),
    ("///other.example/p", "http:///other.example/p", "http://other.example/p", True),  # an empty authority
    ("http://0x7f.1/", "http://0x7f.1/", "http://127.0.0.1/", True),
    ("http://bücher.example/ä", "http://bücher.example/ä", "http://xn--bcher-kva.example/%C3%A4", False),
    ("a b", "http://h.example/d/a%20b", "http://h.example/d/a%20b", False),
])
def test_the_two_resolutions_and_when_they_differ(href: str, target: str, browser: str, differs: bool) -> None:
    record = _link(f'<a href="{href}">x</a>', base="http://h.example/d/f")
    assert (record.target, record.browser_target) == (target, browser)
    assert ("differs" in [r.flag for r in record.risks]) is differs


@pytest.mark.parametrize(("href", "expected"), [
    # the URL Standard (2026) no longer refuses an xn-- label that is not valid
    # Punycode: a browser fetches these as written
    ("http://a.b.c.xn--pokxncvks", "http://a.b.c.xn--pokxncvks/"),
    ("https://xn--/", "https://xn--/"),
    ("http://xn--ls8h.example/", "http://xn--ls8h.example/"),
])
def test_xn_labels_are_the_browsers_as_written(href: str, expected: str) -> None:
    assert browser_target(href, None) == expected
    assert _link(f'<a href="{href}">x</a>').browser_target == expected


def test_differs_names_what_the_browser_fetches() -> None:
    assert difference("http://h/%5Cx", "http://h//x") == Risk("differs", "6.2", "a browser fetches 'http://h//x'")
    assert difference("http://h/", None) == Risk(
        "differs", "6.2", "the WHATWG URL parser fails on it; RFC 3986 resolution gives a target")
    assert difference(None, None) is None
    assert browser_target("g", None) is None  # relative, no base: that parser fails as RFC 3986 resolution does


def test_html_base_is_read_by_each_parser_its_own_way() -> None:
    # a browser takes a javascript: base (and can resolve nothing against it);
    # RFC 3986 resolution here refuses it and keeps the retrieval URI
    record = _link('<base href="javascript:void(0)"><a href="p">x</a>', base="http://h.example/")
    assert (record.target, record.browser_target) == ("http://h.example/p", None)


def test_browser_targets_are_computed_for_html_and_warc_and_asked_for_elsewhere() -> None:
    (plain,) = _records(scan_text("see http://a.example"))
    assert plain.browser_target is False  # not computed: no key in JSON lines
    (asked,) = _records(scan_text("see http://a.example", browser=True))
    assert asked.browser_target == "http://a.example/"
    message = b"Content-Type: text/plain\n\nsee http://a.example\n"
    assert [r.browser_target for r in _records(scan_message(message))] == [False]
    assert [r.browser_target for r in _records(scan_message(message, browser=True))] == ["http://a.example/"]


def test_json_lines_leave_out_a_browser_target_not_computed_and_write_null_for_a_failure() -> None:
    _, out, _ = run(["--format", "jsonl"], b"http://a.example\n")
    assert "browser_target" not in json.loads(out)
    _, out, _ = run(["--format", "jsonl", "--resolve", "both"], b"http://a.example http://[::1\n")
    rows = [json.loads(line) for line in out.splitlines()]
    assert [(r["target"], r["browser_target"]) for r in rows] == [
        ("http://a.example", "http://a.example/"), ("http://[::1", None)]
    assert [[k["flag"] for k in r["risks"]] for r in rows] == [[], ["invalid", "differs"]]
    # asked for by name, or in CSV: computed, never a null that means "not asked"
    _, out, _ = run(["--format", "jsonl", "--fields", "uri,browser_target"], b"http://a.example\n")
    assert json.loads(out) == {"uri": "http://a.example", "browser_target": "http://a.example/"}
    _, out, _ = run(["--format", "csv", "--fields", "uri,browser_target"], b"http://a.example\n")
    assert out == "uri,browser_target\r\nhttp://a.example,http://a.example/\r\n"


PAGE = (b'<base href="http://h.example/d/"><a href="\\\\evil.example/x">1</a><a href="p">2</a>'
        b'<a href="HTTP://H.example:80/d/p">3</a>')


def test_resolve_picks_what_text_output_prints() -> None:
    assert run(["--kind", "html"], PAGE)[1] == (
        "http://h.example/d/\nhttp://h.example/d/%5C%5Cevil.example/x\nhttp://h.example/d/p\nHTTP://H.example:80/d/p\n")
    assert run(["--kind", "html", "--resolve", "browser"], PAGE)[1] == (
        "http://h.example/d/\nhttp://evil.example/x\nhttp://h.example/d/p\nhttp://h.example/d/p\n")
    assert run(["--kind", "html", "--resolve", "both"], PAGE)[1] == (
        "http://h.example/d/\thttp://h.example/d/\n"
        "http://h.example/d/%5C%5Cevil.example/x\thttp://evil.example/x\n"
        "http://h.example/d/p\thttp://h.example/d/p\n"
        "HTTP://H.example:80/d/p\thttp://h.example/d/p\n")


def test_resolve_picks_what_unique_scheme_and_edges_use(tmp_path: Path) -> None:
    assert run(["--kind", "html", "--resolve", "browser", "--unique"], PAGE)[1] == (
        "http://h.example/d/\nhttp://evil.example/x\nhttp://h.example/d/p\n")
    # (the <base href> is no edge: issue 53)
    assert run(["--kind", "html", "--resolve", "browser", "--format", "edges", "--base", "http://src.example/"],
               PAGE)[1].splitlines()[0] == "http://src.example/\thttp://evil.example/x"
    code, out, err = run(["--kind", "html", "--resolve", "both", "--format", "edges"], PAGE)
    assert (code, out, err) == (2, "", "urisift: --format edges draws one graph: give --resolve rfc or "
                                       "--resolve browser\n")
    code, _, err = run(["--resolve", "firefox"], b"")
    assert code == 2 and "invalid choice: 'firefox'" in err


@settings(max_examples=3000)
@given(st.text(alphabet="aZ09-._~!$&'()*+,;=:@/?#%[] <>\\^\x01é", max_size=14))
def test_the_plain_check_never_calls_an_invalid_reference_valid(reference: str) -> None:
    # plainly_valid is a shortcut: when it says valid, the full ABNF check agrees
    if plainly_valid(reference):
        assert is_valid(reference, "IRI-reference")
    assert (invalidity(reference) is None) is is_valid(reference, "IRI-reference") or _BIDI.search(reference)


@settings(max_examples=3000)
@given(st.sampled_from(["http://", "HTTPS://", "ftp://", "a+b.c-d://", "http:", "1http://", "http:///"]),
       st.text(alphabet="aZgx09.-_~!$&'()*+,;=:@%/?#[] é\r", max_size=16))
def test_the_safe_pattern_says_valid_and_unflagged_only_when_it_is(head: str, rest: str) -> None:
    # PLAINLY_SAFE is the text hot path's shortcut for "valid, and no §7 flag"
    reference = head + rest
    if PLAINLY_SAFE.fullmatch(reference) is not None:
        assert is_valid(reference, "URI-reference")
        assert risks(reference) == ()
    for sure in ("http://www.example.com/a/b?c=d&e#f", "https://x-y.example/"):
        assert PLAINLY_SAFE.fullmatch(sure) is not None
    for unsure in ("http://1.2.3.4/", "http://u@h.example/", "http://h.example:80/", "http://h.example/%0A",
                   "http://0x7f.1/", "http://h.example/ x"):
        assert PLAINLY_SAFE.fullmatch(unsure) is None


@pytest.mark.parametrize(("target", "browser"), [
    ("ftp://ftp.example.org", "ftp://ftp.example.org/"),  # §6.2.3: an empty path with an authority is "/"
    ("file:/var/log/x.log", "file:///var/log/x.log"),  # RFC 8089 §2: the same local file
    ("file://localhost/x", "file:///x"),
    ("http://a.example/x%7cy", "http://a.example/x|y"),  # what a URI cannot hold, encoded on both sides
])
def test_spellings_of_one_resource_do_not_differ(target: str, browser: str) -> None:
    assert difference(target, browser) is None
