"""The delimiting classes of issue 8, each as a rule checked on several inputs,
positive and negative (the examples in the issue are only illustrations)."""

from __future__ import annotations

import codecs
import io
import re
import sys
import unicodedata

import pytest

from urisift import Defect, DefectKind, Flag, Record, find_references, scan_stream, scan_text
from urisift.stages.charset import choose
from urisift.stages.delimit.chars import _BODY, STOP

from . import unicode_table


def refs(text: str) -> list[str]:
    return [f.reference for f in find_references(text)]


# -- 2. brackets are matched with a stack ------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("[a](http://x.example/a)[b](http://y.example/b)", ["http://x.example/a", "http://y.example/b"]),
    ("(http://x.example/a)(b)", ["http://x.example/a"]),
    ("[see](https://x.example/p?q=(1))", ["https://x.example/p?q=(1)"]),
    ("http://en.wikipedia.org/wiki/Mercury_(planet)", ["http://en.wikipedia.org/wiki/Mercury_(planet)"]),
    ("http://x.example/a[1](2)/b", ["http://x.example/a[1](2)/b"]),
    ("http://x.example/a(b]c", ["http://x.example/a(b"]),  # "]" does not close "("
    ("(see http://x.example/a.)", ["http://x.example/a"]),
    ("From: Joe [mailto:joe@x.example]On Behalf Of Bob", ["mailto:joe@x.example"]),
    ("www.x.example/a)(b www.y.example/(c)", ["www.x.example/a", "www.y.example/(c)"]),
])
def test_bracket_stack(text: str, expected: list[str]) -> None:
    assert refs(text) == expected


def test_a_cut_at_a_foreign_bracket_is_flagged() -> None:
    (f,) = find_references("(http://x.example/a)b")
    assert f.flags == (Flag.UNBALANCED,)


# -- 3. invisible format characters end a URI --------------------------------------------------

@pytest.mark.parametrize("mark", ["\u200e", "\u200f", "\u202a", "\u202e", "\u2066", "\u2069", "\u200b",
                                  "\u200c", "\u200d", "\ufeff", "\u2060"])
def test_format_characters_end_a_uri(mark: str) -> None:
    assert refs(f"see http://x.example/a{mark}b and {mark}http://y.example/c{mark}") == [
        "http://x.example/a", "http://y.example/c"]


def test_the_stop_table_is_the_unicode_database() -> None:
    generated = unicode_table.PATH.read_text("utf-8")
    version = re.search(r"# unicode (\S+)", generated)
    assert version is not None
    if version.group(1) != unicodedata.unidata_version:
        pytest.skip(f"table made with Unicode {version.group(1)}, this Python has {unicodedata.unidata_version}")
    assert generated == unicode_table.render()


@pytest.mark.parametrize("plane", range(0, sys.maxunicode + 1, 0x10000))
def test_the_fast_body_is_the_stop_class(plane: int) -> None:
    one = re.compile(f"[^{STOP}]")
    for cp in range(plane, plane + 0x10000):
        c = chr(cp)
        # the same class, but brackets, which body_end pairs one by one
        assert (one.match(c) is None or c in "()[]") == (_BODY.fullmatch(c) is None), hex(cp)


# -- 4. emphasis markers ----------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("**see http://x.example/a**", ["http://x.example/a"]),
    ("_http://x.example/a_", ["http://x.example/a"]),
    ("~~http://x.example/a~~ gone", ["http://x.example/a"]),
    ("*http://x.example/a*.", ["http://x.example/a"]),
    ("see http://x.example/snake_case_", ["http://x.example/snake_case_"]),  # no opening run
    ("my_var http://x.example/a_", ["http://x.example/a_"]),  # "_" inside a word opens nothing
    ("**bold** then http://x.example/a**", ["http://x.example/a"]),
])
def test_emphasis_runs_are_markup(text: str, expected: list[str]) -> None:
    assert refs(text) == expected


# -- 5. fullwidth and CJK punctuation ---------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("見て｜http://x.example/a｜です", ["http://x.example/a"]),
    ("＜http://x.example/a＞", ["http://x.example/a"]),
    ("＂http://x.example/a＂ ＇http://y.example/b＇", ["http://x.example/a", "http://y.example/b"]),
    ("｛http://x.example/a｝［http://y.example/b］", ["http://x.example/a", "http://y.example/b"]),
    ("〔http://x.example/a〕｢http://y.example/b｣", ["http://x.example/a", "http://y.example/b"]),
    ("see http://x.example/a… and http://y.example/b—then", ["http://x.example/a", "http://y.example/b—then"]),
    ("see http://x.example/a—", ["http://x.example/a"]),
    ("https://ja.wikipedia.org/wiki/日本語", ["https://ja.wikipedia.org/wiki/日本語"]),
    ("https://zh.wikipedia.org/wiki/中文（消歧義）", ["https://zh.wikipedia.org/wiki/中文"]),
])
def test_fullwidth_and_cjk_punctuation(text: str, expected: list[str]) -> None:
    assert refs(text) == expected


# -- 6. paired apostrophes ------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("http://x.example/blah_'quoted'", ["http://x.example/blah_'quoted'"]),
    ("http://x.example/blah_'quoted'.", ["http://x.example/blah_'quoted'"]),
    ("'http://x.example/a'", ["http://x.example/a"]),
    ("it's at 'http://x.example/it's'", ["http://x.example/it's"]),
    ("http://x.example/a'b''", ["http://x.example/a'b"]),  # elisions open nothing
    ("(http://x.example/('a'))", ["http://x.example/('a')"]),
])
def test_apostrophes_pair(text: str, expected: list[str]) -> None:
    assert refs(text) == expected


# -- 8. over-long abbreviated hosts ------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("www." + "a" * 63 + ".example", ["www." + "a" * 63 + ".example"]),
    ("www." + "a" * 64 + ".example", []),
    ("www.example." + "b" * 64 + ".org", []),
    ("x " + "www." + ".".join(["abcdefghi"] * 24) + ".com y", ["www." + ".".join(["abcdefghi"] * 24) + ".com"]),
    ("x " + "www." + ".".join(["abcdefghi"] * 25) + ".com y", []),  # 257 characters
])
def test_abbreviated_hosts_keep_the_dns_limits(text: str, expected: list[str]) -> None:
    assert refs(text) == expected


# -- 9. "|" inside a bare URI ----------------------------------------------------------------------

def test_a_pipe_between_uri_characters_is_kept_and_encoded_in_the_target() -> None:
    (r,) = scan_text("https://fonts.example.com/css?family=Roboto|Open+Sans")
    assert isinstance(r, Record)
    assert (r.uri, r.target, r.flags) == ("https://fonts.example.com/css?family=Roboto|Open+Sans",
                                          "https://fonts.example.com/css?family=Roboto%7COpen+Sans",
                                          (Flag.ENCODED,))


@pytest.mark.parametrize("text, expected", [
    ("| http://x.example/a | http://y.example/b |", ["http://x.example/a", "http://y.example/b"]),
    ("|http://x.example/a|", ["http://x.example/a"]),
    ("http://x.example/a|b|c.", ["http://x.example/a|b|c"]),
])
def test_pipes_at_the_edges_are_table_rules(text: str, expected: list[str]) -> None:
    assert refs(text) == expected


def test_other_characters_rfc_3986_forbids_are_encoded_in_angle_brackets() -> None:
    (r,) = scan_text("<http://x.example/a^b{c}>")
    assert isinstance(r, Record)
    assert (r.target, r.flags) == ("http://x.example/a%5Eb%7Bc%7D", (Flag.ENCODED,))


# -- 10. a scheme starts only at a word start ------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("fe80::feed:c498", []),
    (".x_icon:hover { color: red }", []),
    ("/wiki/File:Foo.jpg", []),
    ("h=from:content-type:date:subject:message-id", []),
    ("C:\\http://x", []),
    ("Homepage:http://x.example/ and URL:https://y.example/", ["http://x.example/", "https://y.example/"]),
    ("(http://x.example/) [http://y.example/]", ["http://x.example/", "http://y.example/"]),
    ("見てhttp://example.jp/x", ["http://example.jp/x"]),
    ("href=http://x.example/", ["http://x.example/"]),
])
def test_schemes_start_at_a_word_start(text: str, expected: list[str]) -> None:
    assert refs(text) == expected


# -- 11. registered words that are not URIs ----------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("Fax:(248) 555-0100", []),
    ("message:string  | OPTIONAL", []),
    ("report the DAV:allprop and DAV:href elements", []),
    ('<xs:element name="bssid" type="wifi:ssidType"/>', []),
    ("a=mid:v1 a=acap:1 snmp:identifier Service:Call-waiting data:asBase64", []),
    ("tel:+1-201-555-0123 and fax:+49-30-1234", ["tel:+1-201-555-0123", "fax:+49-30-1234"]),
    ("mailto:joe@example.com mailto:?to=a@b.example&subject=x", ["mailto:joe@example.com",
                                                                 "mailto:?to=a@b.example&subject=x"]),
    ("INVITE sip:bob@biloxi.example.com SIP/2.0", ["sip:bob@biloxi.example.com"]),
    ("data:text/plain;base64,SGVsbG8= geo:37.786971,-122.399677", ["data:text/plain;base64,SGVsbG8=",
                                                                  "geo:37.786971,-122.399677"]),
    ("news:comp.infosystems.www.servers.unix xmpp:romeo@montague.example",
     ["news:comp.infosystems.www.servers.unix", "xmpp:romeo@montague.example"]),
    ("tag:example.com,2004:x cid:part1.abc@example.com", ["tag:example.com,2004:x", "cid:part1.abc@example.com"]),
    ('<img src="cid:logo.jpg"> and a=mid:v1 a=mid:S3', ["cid:logo.jpg"]),
    ('xmlns="jabber:client"', ["jabber:client"]),
    ("rua=mailto:dmarc-\n   feedback@example.com", ["mailto:dmarc-feedback@example.com"]),
    ("x-unknown:thing but x-unknown://host/p", ["x-unknown://host/p"]),
])
def test_a_registered_name_needs_its_schemes_syntax(text: str, expected: list[str]) -> None:
    assert refs(text) == expected


# -- 12. escapes in front of a scheme, ISO-2022 --------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ('"url": "\\x22https://a.example/x\\x22"', ["https://a.example/x"]),
    ("var u = '\\u003Chttps://b.example/y\\u003E';", ["https://b.example/y"]),
    ("s = \\U0000003Chttp://c.example/", ["http://c.example/"]),
    ("q=%3Dhttp://d.example/ and %22https://e.example/%22", ["http://d.example/", "https://e.example/%22"]),
    ("x22https://f.example/", ["x22https://f.example/"]),  # no backslash: an (unknown) scheme of its own
])
def test_escapes_are_not_part_of_a_scheme(text: str, expected: list[str]) -> None:
    assert refs(text) == expected


def test_iso_2022_jp_input_is_decoded_as_such() -> None:
    data = "お知らせhttp://example.jp/news です。".encode("iso-2022-jp")
    assert b"\x1b(Bhttp" in data  # read as ASCII, "B" would be glued to the scheme
    items = list(scan_stream(io.BytesIO(data)))
    assert [(r.uri, r.charset) for r in items if isinstance(r, Record)] == [
        ("http://example.jp/news", "iso-2022-jp")]


# -- 13. charsets of long and mixed inputs ------------------------------------------------------------

def test_latin_1_runs_in_utf8_text_are_read_as_windows_1252() -> None:
    data = ("caf\u00e9 " * 20_000).encode() + b"\nsee https://lists.example.org/msg18375.html\xbb and \xe9t\xe9 http://x.example/a\n"
    items = list(scan_stream(io.BytesIO(data)))
    records = [i for i in items if isinstance(i, Record)]
    defects = [i for i in items if isinstance(i, Defect)]
    assert [r.uri for r in records] == ["https://lists.example.org/msg18375.html", "http://x.example/a"]
    assert all("\ufffd" not in r.uri for r in records)
    assert [(d.position, d.detail) for d in defects] == [
        (data.index(b"\xbb"), "bb is not utf-8 (invalid start byte); read as windows-1252"),
        (data.index(b"\xe9t"), "e9 is not utf-8 (invalid continuation byte); read as windows-1252"),
        (data.rindex(b"\xe9"), "e9 is not utf-8 (invalid continuation byte); read as windows-1252")]


def test_windows_1252_undefined_bytes_are_c1_controls_that_end_a_uri() -> None:
    data = ("r\u00e9sum\u00e9 " * 30).encode("cp1252") + b"http://x.example/a\x81b http://y.example/\x9d\n"
    items = list(scan_stream(io.BytesIO(data)))
    assert [(i.uri, i.charset) for i in items if isinstance(i, Record)] == [
        ("http://x.example/a", "windows-1252"), ("http://y.example/", "windows-1252")]
    assert [i for i in items if isinstance(i, Defect)] == []


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"])
def test_utf16_and_32_without_a_bom_are_decoded_not_binary(codec: str) -> None:
    data = "Notes: see http://x.example/a and <http://y.example/b>.\n".encode(codec) * 3
    assert not data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE))
    items = list(scan_stream(io.BytesIO(data)))
    assert [i.kind for i in items if isinstance(i, Defect)] == []
    assert [r.uri for r in items if isinstance(r, Record)] == ["http://x.example/a", "http://y.example/b"] * 3
    assert choose(data).name == codec.replace("-le", "le").replace("-be", "be")


def test_nul_bytes_that_are_not_utf16_are_still_binary() -> None:
    items = list(scan_stream(io.BytesIO(b"\x00\x01\x02\x03 binary http://x.example/ " * 20)))
    assert [i.kind for i in items if isinstance(i, Defect)] == [DefectKind.BINARY_CONTENT]
