"""Delimiting URIs in running text: DESIGN §3, seed 001/002 Appendix E, seed 002
Appendix F, seed 003 §2.5.3.  Each case states the exact references expected."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from urisift import Flag, Style, find_references, record_json, scan_text

from .adversarial import ADVERSARIAL, assert_linear
from .conftest import shared_path


def refs(text: str) -> list[str]:
    return [f.reference for f in find_references(text)]


def one(text: str):  # noqa: ANN201
    found = find_references(text)
    assert len(found) == 1, found
    return found[0]


# -- seed examples ------------------------------------------------------------------

def test_seed_001_appendix_e_example_yields_its_three_uris() -> None:
    text = shared_path("seeds", "001_a5df19b9d0d91704.txt").read_text("utf-8")
    start = text.index("Examples: Yes, Jim")
    example = text[start : text.index("F. Summary", start)]
    assert refs(example) == [
        "http://www.w3.org/pub/WWW/",
        "ftp://ds.internic.net/rfc/",
        "http://ds.internic.net/instructions/overview.html#WARNING",
    ]
    assert [f.style for f in find_references(example)] == [Style.QUOTE, Style.ANGLE, Style.ANGLE]


def test_seed_001_appendix_e_example_as_originally_laid_out() -> None:
    example = (
        'Yes, Jim, I found it under "http://www.w3.org/pub/WWW/", but you can\n'
        "probably pick it up from <ftp://ds.internic.\n"
        "net/rfc/>.  Note the warning in <http://ds.internic.net/\n"
        "instructions/overview.html#WARNING>.\n"
    )
    found = find_references(example)
    assert [f.reference for f in found] == [
        "http://www.w3.org/pub/WWW/",
        "ftp://ds.internic.net/rfc/",
        "http://ds.internic.net/instructions/overview.html#WARNING",
    ]
    assert [f.flags for f in found] == [(), (Flag.WRAPPED,), (Flag.WRAPPED,)]
    # the span covers the whole delimited text, line break included
    assert example[found[1].start : found[1].end] == "ftp://ds.internic.\nnet/rfc/"


def test_seed_004_reference_list_yields_every_url_complete() -> None:
    text = shared_path("seeds", "004_7ddd58859f8846ad.txt").read_text("utf-8")
    assert refs(text[text.index("     References") :]) == [
        "ftp://boombox.micro.umn.edu/pub/gopher/gopher_protocol",
        "gopher://gopher.micro.umn.edu/00/Information%20About%20Gopher/About%20Gopher",
        "ftp://info.cern.ch./pub/www/doc/http-spec.txt",
        "ftp://quake.think.com/pub/wais/doc/protspec.txt",
        "ftp://quake.think.com/pub/wais/doc/doc-ids.txt",
        "ftp://nnsc.nsf.net/rfc/rfc977.txt",
        "wais://quake.think.com/wais-discussion-archives?lynch",
        "ftp://nnsc.nsf.net/rfc/rfc1034.txt",
        "ftp://prospero.isi.edu/pub/prospero/oir.ps",
        "ftp://nnsc.nsf.net/rfc/rfc959.txt",
        "ftp://uu.psi.com/wp/nir.txt",
        "wais://nnsc.nsf.net/internet-drafts?yeong",
    ]


def test_seed_002_appendix_f_abbreviated_example() -> None:
    found = one("such as www.w3.org/Addressing/ or simply")
    assert (found.reference, found.style, found.expanded) == (
        "www.w3.org/Addressing/", Style.ABBREVIATED, "http://www.w3.org/Addressing/")


def test_seed_003_equivalence_examples_in_running_text() -> None:
    text = (
        "      1- URN:foo:a123,456\n      5- urn:foo:a123%2C456\n"
        "      7- urn:foo:a123,456?x=y\n      8- urn:foo:a123,456#xyz\n"
    )
    assert refs(text) == ["URN:foo:a123,456", "urn:foo:a123%2C456", "urn:foo:a123,456?x=y", "urn:foo:a123,456#xyz"]


# -- delimiters -----------------------------------------------------------------------

@pytest.mark.parametrize(
    "text, reference, style",
    [
        ("see <http://a.example/x> now", "http://a.example/x", Style.ANGLE),
        ("see <URL:http://a.example/x> now", "http://a.example/x", Style.ANGLE_URL),
        ("see <url: http://a.example/x> now", "http://a.example/x", Style.ANGLE_URL),
        ("see <URL:../x/y> now", "../x/y", Style.ANGLE_URL),
        ('see "http://a.example/x" now', "http://a.example/x", Style.QUOTE),
        ('see "http://a.example/x." now', "http://a.example/x.", Style.QUOTE),
        ("see \u201chttp://a.example/x\u201d now", "http://a.example/x", Style.QUOTE),
        ("see http://a.example/x now", "http://a.example/x", Style.BARE),
        ("URL=<ftp://a.example/f.txt>", "ftp://a.example/f.txt", Style.ANGLE),
    ],
)
def test_delimiters_are_not_part_of_the_uri(text: str, reference: str, style: Style) -> None:
    found = one(text)
    assert (found.reference, found.style) == (reference, style)


def test_angle_brackets_remove_all_whitespace_even_inside_an_escape() -> None:
    found = one("URL=<gopher://g.example/00/About%2\n            0Gopher>")
    assert found.reference == "gopher://g.example/00/About%20Gopher"
    assert found.flags == (Flag.WRAPPED,)


def test_tabs_and_crlf_inside_angle_brackets() -> None:
    assert refs("<http://a.example/\r\n\tlong/\r\n\tpath>") == ["http://a.example/long/path"]


def test_closing_bracket_alone_on_the_next_line() -> None:
    found = one("URL=<ftp://a.example/pub/gopher_protocol\n            >. See also")
    assert (found.reference, found.flags) == ("ftp://a.example/pub/gopher_protocol", ())


def test_mail_quote_markers_on_continuation_lines_are_part_of_the_break() -> None:
    text = "> > see <http://a.example/very/long/\n> > path/index.html> for it\n"
    found = one(text)
    assert found.reference == "http://a.example/very/long/path/index.html"
    assert found.flags == (Flag.WRAPPED, Flag.QUOTE_MARKERS)


def test_hyphen_at_a_line_break_inside_brackets_is_reported_both_ways() -> None:
    found = one("<http://a.example/long-\n   name/x>")
    assert found.reference == "http://a.example/long-name/x"
    assert found.alternatives == ("http://a.example/longname/x",)
    assert Flag.HYPHEN_BREAK in found.flags


def test_hyphen_at_a_line_break_after_a_bare_uri() -> None:
    found = one("at https://www.iana.org/assignments/bgp-\n      extended-communities.\n")
    assert found.reference == "https://www.iana.org/assignments/bgp-extended-communities"
    assert found.alternatives == ("https://www.iana.org/assignments/bgpextended-communities",)
    assert found.flags == (Flag.WRAPPED, Flag.HYPHEN_BREAK, Flag.TRIMMED)


def test_a_line_break_right_after_the_scheme_is_joined() -> None:
    found = one('ECMA, "QSIG", http://\n              www.ecma-international.org/publications/x.htm.\n')
    assert (found.reference, found.flags) == (
        "http://www.ecma-international.org/publications/x.htm", (Flag.WRAPPED, Flag.TRIMMED))
    assert refs("see http://\n\nnothing") == []
    assert refs("see http://\nhttp://b.example/") == ["http://b.example/"]


def test_no_join_when_the_next_line_starts_its_own_uri() -> None:
    assert refs("http://a.example/a-\nhttp://b.example/\n") == ["http://a.example/a-", "http://b.example/"]


@pytest.mark.parametrize(
    "text",
    [
        "<joe@example.com>",
        "Joe <joe@example.com> wrote",
        "a < b and c > d",
        "<note: this is it>",
        "<http://>",
        "<mailto:>",
        "< >",
        "<>",
    ],
)
def test_angle_brackets_that_hold_no_uri(text: str) -> None:
    assert refs(text) == []


def test_xml_tags_with_a_scheme_like_prefix_are_markup() -> None:
    text = ('<xcon:target uri="sip:bob@example.com" method="dial-out"/>\n'
            '<xcon:mixing-start-offset required-participant="moderator">2006-10-01T13:00:00Z\n'
            '</xcon:mixing-start-offset>')
    assert refs(text) == ["sip:bob@example.com"]
    assert refs("<news:comp.infosystems.www.servers.unix>") == ["news:comp.infosystems.www.servers.unix"]
    assert refs("<xcon:conference-password>secret</xcon:conference-password>") == []
    assert refs("<xcon:floor-id/>") == []
    # issue 8 class 11 changed this one on purpose: a registered name without "//" and
    # without its scheme's syntax is no URI, brackets or not (it was ["xcon:floor"])
    assert refs("<xcon:floor>not closed here") == []
    assert refs("<xcon:floor@example.com>not closed here") == ["xcon:floor@example.com"]


def test_rejected_brackets_are_still_searched_for_bare_uris() -> None:
    assert refs("<see http://a.example/x for details>") == ["http://a.example/x"]


def test_angle_brackets_need_an_absolute_uri_but_url_prefix_allows_relative() -> None:
    assert refs("<../relative> and <URL:../relative>") == ["../relative"]
    assert [f.style for f in find_references("<URL:../relative>")] == [Style.ANGLE_URL]


def test_unknown_scheme_in_angle_brackets_needs_slashes() -> None:
    assert refs("<x-unknown:thing> <x-unknown://host/p>") == ["x-unknown://host/p"]


# -- bare URIs ------------------------------------------------------------------------

@pytest.mark.parametrize(
    "text, expected",
    [
        ("Go to http://a.example/x.", ["http://a.example/x"]),
        ("Go to http://a.example/x, then", ["http://a.example/x"]),
        ("is it http://a.example/x?", ["http://a.example/x"]),
        ("wow http://a.example/x!", ["http://a.example/x"]),
        ("(see http://a.example/x)", ["http://a.example/x"]),
        ("(see http://a.example/x).", ["http://a.example/x"]),
        ("http://en.wikipedia.org/wiki/Mercury_(planet)", ["http://en.wikipedia.org/wiki/Mercury_(planet)"]),
        ("[http://a.example/x]", ["http://a.example/x"]),
        ("{http://a.example/x}", ["http://a.example/x"]),
        ("'http://a.example/x'", ["http://a.example/x"]),
        ("\u2018http://a.example/x\u2019", ["http://a.example/x"]),
        ("\u00abhttp://a.example/x\u00bb", ["http://a.example/x"]),
        ("http://a.example/x;", ["http://a.example/x"]),
        ("http://a.example/x:", ["http://a.example/x"]),
        ("http://a.example/it's", ["http://a.example/it's"]),
        ("http://a.example/a.b.c", ["http://a.example/a.b.c"]),
    ],
)
def test_trailing_punctuation_is_left_out(text: str, expected: list[str]) -> None:
    assert refs(text) == expected


@pytest.mark.parametrize(
    "text, expected",
    [
        ("http://[::1]:8080/x", ["http://[::1]:8080/x"]),
        ("http://[2001:db8::7]/c=GB?objectClass?one", ["http://[2001:db8::7]/c=GB?objectClass?one"]),
        ("ftp://user:pw@host.example:2121/d/f.txt", ["ftp://user:pw@host.example:2121/d/f.txt"]),
        ("http://a.example/x#frag-1", ["http://a.example/x#frag-1"]),
        ("http://a.example/a%20b", ["http://a.example/a%20b"]),
        ("http://例え.テスト/パス", ["http://例え.テスト/パス"]),
        ("見て http://例え.テスト/パス。次", ["http://例え.テスト/パス"]),
        ("mailto:joe@example.com", ["mailto:joe@example.com"]),
        ("tel:+1-816-555-1212", ["tel:+1-816-555-1212"]),
        ("news:comp.infosystems.www.servers.unix", ["news:comp.infosystems.www.servers.unix"]),
        ("x-custom://host/path", ["x-custom://host/path"]),
    ],
)
def test_components_are_kept(text: str, expected: list[str]) -> None:
    assert refs(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Note: this", "Note:this", "ratio 3:2", "at 10:30", "C:\\Windows\\path", "x-custom:thing",
        "http:// nothing", "mailto: nobody", "http://", "mailto:", "README.md", "example.com",
        "joe@example.com", "joe@www.example.com", "1http://a.example/", "std::vector<int>", "a::b",
        "www.example", "see www. here", "ftp.py", "use File::Spec and DNS::Resolver", "all good things:)-",
        "tel:-", "mailto:@",
    ],
)
def test_nothing_found(text: str) -> None:
    assert refs(text) == []


def test_a_missing_space_after_a_full_stop() -> None:
    assert refs("in store this season.http://www.tesco.example/Register/") == ["http://www.tesco.example/Register/"]
    assert refs("see x.y://host/p") == ["x.y://host/p"]  # no registered tail: the whole unknown scheme
    assert refs("news:* is every group") == ["news:*"]
    # an ellipsis or a list number right before (SpamAssassin: "...http://www.colocation-network.com/")
    assert refs("ad leads ...http://www.colo.example/ and 1.https://b.example/x") == [
        "http://www.colo.example/", "https://b.example/x"]
    assert refs("pi is 3.14://x and ..foo://y and ...mailto:a@b.example") == []


def test_unknown_scheme_needs_two_slashes_registered_does_not() -> None:
    assert refs("geo:13.4125,103.8667 and foo:bar and foo://bar") == ["geo:13.4125,103.8667", "foo://bar"]


def test_scheme_case_is_kept() -> None:
    assert refs("HTTP://A.EXAMPLE/X") == ["HTTP://A.EXAMPLE/X"]


def test_urn_nss_ends_at_an_excluded_character() -> None:
    assert refs("urn:isbn:0451450523/extra") == ["urn:isbn:0451450523"]
    assert refs('urn:ietf:rfc:2648"') == ["urn:ietf:rfc:2648"]
    assert refs("(urn:ietf:rfc:2648).") == ["urn:ietf:rfc:2648"]
    assert refs("urn:example:a123,z456?+CCResolve:cc=uk") == ["urn:example:a123,z456?+CCResolve:cc=uk"]
    assert refs("urn:a:b^c") == ["urn:a:b"]


def test_not_a_urn() -> None:
    assert refs("urn: x urn:x urn:-x:y urn:x: ok") == []


# -- abbreviated ---------------------------------------------------------------------

@pytest.mark.parametrize(
    "text, reference, expanded",
    [
        ("visit www.example.com today", "www.example.com", "http://www.example.com"),
        ("visit WWW.Example.COM/a?b#c.", "WWW.Example.COM/a?b#c", "http://WWW.Example.COM/a?b#c"),
        ("get ftp.example.org/pub/x.tgz", "ftp.example.org/pub/x.tgz", "ftp://ftp.example.org/pub/x.tgz"),
        ("(www.example.com:8080/x)", "www.example.com:8080/x", "http://www.example.com:8080/x"),
    ],
)
def test_abbreviated(text: str, reference: str, expanded: str) -> None:
    found = one(text)
    assert (found.reference, found.expanded, found.style) == (reference, expanded, Style.ABBREVIATED)


def test_abbreviated_can_be_switched_off() -> None:
    assert find_references("www.example.com", abbreviated=False) == []


# -- spans, lines, records ---------------------------------------------------------------

def test_spans_lines_and_columns() -> None:
    text = "first line\n  see http://a.example/x.\n\u00e9\u00e9 <http://b.example/\n  y>\n"
    records = list(scan_text(text))
    assert [(r.uri, r.span, r.line, r.column) for r in records] == [
        ("http://a.example/x", (17, 35), 2, 7),
        ("http://b.example/y", (41, 62), 3, 5),
    ]
    assert text[17:35] == "http://a.example/x"


def test_relative_references_resolve_against_the_retrieval_base() -> None:
    records = list(scan_text("<URL:../g> and <URL:#frag>", base="http://a/b/c/d;p?q"))
    assert [(r.uri, r.target, r.base, r.base_source.value) for r in records] == [
        ("../g", "http://a/b/g", "http://a/b/c/d;p?q", "retrieval"),
        ("#frag", "http://a/b/c/d;p?q#frag", "http://a/b/c/d;p?q", "retrieval"),
    ]


def test_relative_reference_without_base_has_no_target() -> None:
    (record,) = scan_text("<URL:../g>")
    assert (record.target, record.base, record.base_source) == (None, None, None)


def test_absolute_reference_target_has_dot_segments_removed_and_no_base() -> None:
    (record,) = scan_text("http://a/b/../c/./d", base="http://x/")
    assert (record.uri, record.target, record.base) == ("http://a/b/../c/./d", "http://a/c/d", None)


def test_record_json_has_every_contract_key() -> None:
    (record,) = scan_text("see www.example.com.", file="f.txt")
    assert record_json(record) == {
        "uri": "www.example.com", "target": "http://www.example.com", "alternatives": [], "base": None,
        "base_source": None, "style": "abbreviated", "where": "text", "element": None, "attribute": None,
        "header": None, "file": "f.txt", "message": None, "message_id": None, "part": None,
        # keys the pipeline issue added (DESIGN §2): null for plain text
        "offset": None, "warc_record_id": None, "warc_target_uri": None, "warc_date": None, "rel": None, "text": None,
        "span": [4, 19], "line": 1, "column": 5, "flags": ["trimmed"], "charset": None, "charset_source": None,
        "risks": [],
        "points_to": None,  # the mail issue's: which part of a message a reference names
        "unwrapped": None, "wrapper": [],  # issue 23's: what a wrapped link wraps, where a target ends
        "effective_target": None, "effective_hops": None, "effective_status": None, "effective_loop": None,
        "page": None, "member": None,  # issue 21's: a PDF's page, an office package's member
    }


# -- linear time -----------------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(ADVERSARIAL))
def test_adversarial_input_scans_in_linear_time(name: str) -> None:
    make = ADVERSARIAL[name]
    inputs = {n: make(n) for n in (250_000, 1_000_000)}  # built outside the timing
    assert_linear(lambda n: find_references(inputs[n]))


def test_one_megabyte_without_whitespace() -> None:
    text = "http://a.example/" + "x" * 1_000_000
    t0 = time.perf_counter()
    assert refs(text) == [text]
    assert time.perf_counter() - t0 < 2.0


# -- properties -------------------------------------------------------------------------------

_pieces = st.sampled_from([
    "http://", "https://a.example/", "<", ">", "<URL:", "\"", "www.", "ftp.", "urn:", "urn:ab:", "mailto:",
    "(", ")", "[", "]", ".", ",", "-", "\n", "\n> ", " ", "\t", "x", "é", "%2", "0", ":", "/", "?", "#", "@",
    "\u201c", "\u201d", "'", "::1", "a.b.c", "-\n  ", "//\n ",
])


@settings(max_examples=2000, deadline=None)
@given(st.lists(_pieces, max_size=40).map("".join))
def test_scanner_invariants(text: str) -> None:
    found = find_references(text)
    previous_end = 0
    for f in found:
        assert previous_end <= f.start < f.end <= len(text)
        previous_end = f.end
        assert f.reference and not any(c.isspace() for c in f.reference)
        raw = text[f.start : f.end]
        if Flag.QUOTE_MARKERS in f.flags:
            marks = str.maketrans("", "", ">|")
            assert "".join(raw.split()).translate(marks) == f.reference.translate(marks)
        elif Flag.WRAPPED in f.flags:
            assert "".join(raw.split()) == f.reference
        else:
            assert raw == f.reference


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=200))
def test_scanner_never_fails_on_any_text(text: str) -> None:
    for record in scan_text(text, base="http://base.example/d/f"):
        assert record.line >= 1 and record.column >= 1


SEED_002_EXAMPLE_URIS = [
    "ftp://ftp.is.co.za/rfc/rfc1808.txt", "gopher://gopher.tc.umn.edu:70/11/Mailing%20Lists/",
    "http://www.ietf.org/rfc/rfc2396.txt", "mailto:John.Doe@example.com",
    "news:comp.infosystems.www.servers.unix", "telnet://melvyl.ucop.edu/",
]


def test_seed_002_section_1_3_examples_are_found_in_the_seed_text() -> None:
    text = shared_path("seeds", "002_7726d06446aa98af.txt").read_text("utf-8")
    start = text.index("1.3 Example URIs The following")
    section = text[start : text.index("1.4 Hierarchical URIs", start)]
    assert refs(section) == SEED_002_EXAMPLE_URIS


def test_seed_001_appendix_e_delimiting_styles() -> None:
    text = ('usually within double-quotes "http://test.com/", angle brackets <http://test.com/>, '
            "or just using whitespace http://test.com/ These wrappers do not form part of the URL.")
    found = find_references(text)
    assert [(f.reference, f.style) for f in found] == [
        ("http://test.com/", Style.QUOTE), ("http://test.com/", Style.ANGLE), ("http://test.com/", Style.BARE)]


# -- issue 8, class 7: file:/// is a complete URI ---------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("see file:/// now", ["file:///"]),
    ("(file:///)", ["file:///"]),
    ("file:///etc/ and file:///etc/passwd.", ["file:///etc/", "file:///etc/passwd"]),
    ("file://localhost/ and file:////server/share", ["file://localhost/", "file:////server/share"]),
    # a scheme with nothing after it is still not a URI
    ("http:// alone, mailto: x, http:/ y, file:// z", []),
])
def test_file_root_is_a_uri(text: str, expected: list[str]) -> None:
    assert [f.reference for f in find_references(text)] == expected


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="ab:/<>. \nhtpfwHTPFW@-_~%é", max_size=40))
def test_a_text_with_no_absolute_trigger_gives_the_scanner_without_abbreviations_nothing(text: str) -> None:
    # the screen mail headings are read with (issue 24): never a reference missed
    from urisift.stages.delimit import Scanner, may_hold_absolute

    if not may_hold_absolute(text):
        assert list(Scanner(text, abbreviated=False)) == []


def test_the_absolute_screen_passes_each_rule_and_stops_a_subject_prefix() -> None:
    from urisift.stages.delimit import may_hold_absolute

    assert [t for t in ("Re: [PATCH] mips: fix", "Fwd: www.example.com", "") if may_hold_absolute(t)] == []
    assert [t for t in ("see http://x.example/", "<mailto:a@b>", "urn:isbn:0451450523", "x-y:z")
            if not may_hold_absolute(t)] == []


@settings(max_examples=3000, deadline=None)
@given(st.sampled_from(["", " ", "(", '"', "\u201c", "x", "*", "'", "a:"]),
       st.sampled_from(["http", "HTTPS", "ftp", "x"]),
       st.from_regex(r"[a-z0-9_][a-z0-9./?=&%_~*'!,;:()\[\]-]{0,10}", fullmatch=True),
       st.sampled_from(sorted("'.,;:!?\"\u2019\u201d\u00bb\u203a\u2026\u2014|)]-*_")),
       st.sampled_from(["", " ", ")", "]", "x", "\n", "\nnext", "'", '"', "\u201d", ".", ","]))
def test_one_mark_after_a_uri_is_left_out_as_trimming_leaves_it(before: str, scheme: str, body: str, mark: str,
                                                                after: str) -> None:
    # SchemeRule.body leaves out one mark of punctuation after "scheme://host..." at once: what its general
    # path (_finish_bare: quotes, trim, emphasis, a hyphen join) makes of the same run
    from urisift.stages.delimit.bare import SchemeRule
    from urisift.stages.delimit.chars import body_end
    from urisift.uri.schemes import registered_schemes

    text = f"{before}{scheme}://{body}{mark}{after}"
    start = len(before)
    colon = start + len(scheme)
    end = body_end(text, colon + 1, start=start)
    if end - colon <= 3 or text[end - 1] != mark:
        return  # (the run does not end in the mark: body's other paths)
    rule = SchemeRule(text, registered_schemes())
    assert rule.body(start, colon + 1, end) == rule._finish_bare(start, end, colon + 1)
