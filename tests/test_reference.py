"""UriReference: Appendix B split, §5.3 recomposition, ABNF validation (RFC 3986)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from urisift import Authority, UriReference, UriSyntaxError, is_valid, validate


@pytest.mark.parametrize(
    "text, parts",
    [
        # Appendix B's own example
        ("http://www.ics.uci.edu/pub/ietf/uri/#Related",
         ("http", "www.ics.uci.edu", "/pub/ietf/uri/", None, "Related")),
        ("file:///x", ("file", "", "/x", None, None)),
        ("http://a?", ("http", "a", "", "", None)),
        ("http://a#", ("http", "a", "", None, "")),
        ("", (None, None, "", None, None)),
        ("//", (None, "", "", None, None)),
        ("?#", (None, None, "", "", "")),
        ("urn:isbn:0451450523", ("urn", None, "isbn:0451450523", None, None)),
        ("a\nb:c", ("a\nb", None, "c", None, None)),
    ],
)
def test_appendix_b_split_keeps_undefined_apart_from_empty(text: str, parts: tuple) -> None:
    ref = UriReference.parse(text)
    assert tuple(ref) == parts
    assert str(ref) == text


@pytest.mark.parametrize(
    "authority, expected",
    [
        ("user:pw@host:80", Authority("user:pw", "host", "80")),
        ("host:", Authority(None, "host", "")),
        ("[::1]:8080", Authority(None, "[::1]", "8080")),
        ("[v7.x]", Authority(None, "[v7.x]", None)),
        ("a@b@c", Authority("a@b", "c", None)),
        ("", Authority(None, "", None)),
        ("@", Authority("", "", None)),
    ],
)
def test_authority_split(authority: str, expected: Authority) -> None:
    assert Authority.parse(authority) == expected
    assert str(Authority.parse(authority)) == authority


@pytest.mark.parametrize("authority, kind", [
    ("[::1]:80", "ipv6"), ("[v7.x]", "ipvfuture"), ("192.0.2.1", "ipv4"), ("256.0.0.1", "reg-name"),
    ("example.com", "reg-name"), ("", "reg-name"), ("u@127.0.0.1:1", "ipv4"),
])
def test_host_kind(authority: str, kind: str) -> None:
    assert Authority.parse(authority).host_kind == kind


def test_component_views() -> None:
    ref = UriReference.parse("ftp://anon@[2001:db8::7]:21/pub?x#y")
    assert (ref.userinfo, ref.host, ref.port) == ("anon", "[2001:db8::7]", "21")
    assert ref.is_absolute and not ref.is_relative
    assert str(ref.without_fragment()) == "ftp://anon@[2001:db8::7]:21/pub?x"
    rel = UriReference.parse("../g")
    assert (rel.userinfo, rel.host, rel.port) == (None, None, None)


@pytest.mark.parametrize(
    "text, production, position, reason_part, component",
    [
        ("http://exa mple.com/", "URI", 10, "' '", "host"),
        ("http://a/b%2", "URI", 10, "'%' not followed by two hex digits", "path"),
        ("http://a/b%zz", "URI", 10, "'%' not followed", "path"),
        ("1http://a", "URI", 0, "'1'", "scheme"),
        ("ht~tp://a", "URI", 2, "'~'", "scheme"),
        ("http://a:8o/", "URI", 10, "'o'", "port"),
        ("http://[::1/", "URI", 7, "malformed IP literal", "host"),
        ("http://[12345::]/", "URI", 7, "malformed IP literal", "host"),
        ("http://a/{x}", "URI", 9, "'{'", "path"),
        ("http://a/?q=<", "URI", 12, "'<'", "query"),
        ("http://a/#f#g", "URI", 11, "'#'", "fragment"),
        ("//a", "URI", 0, "no scheme", "scheme"),
        ("http://a/#f", "absolute-URI", 9, "no fragment", "fragment"),
        ("g:h", "relative-ref", 1, "first segment", "path"),
        ("::", "URI-reference", 0, "first segment", "path"),
        ("http://u@v@w/", "URI", 8, "'@'", "userinfo"),
        ("http://a/é", "URI", 9, "'é'", "path"),
        ("256.1.1.1", "IPv4address", 0, "dotted-decimal", "IPv4address"),
        ("1:2:3:4:5:6:7:8:9", "IPv6address", 0, "IPv6", "IPv6address"),
    ],
)
def test_validation_errors_name_input_position_and_character(
    text: str, production: str, position: int, reason_part: str, component: str
) -> None:
    with pytest.raises(UriSyntaxError) as info:
        validate(text, production)
    err = info.value
    assert (err.text, err.position, err.component) == (text, position, component)
    assert reason_part in err.reason
    assert repr(text) in str(err) and f"position {position}" in str(err)


@pytest.mark.parametrize(
    "text, production",
    [
        ("http://[2001:db8::7]/c=GB?objectClass?one", "URI"),
        ("http://[::ffff:192.0.2.1]:8080/", "URI"),
        ("http://[fe80::a%25en1]/", "URI"),  # RFC 6874 zone identifier
        ("http://[v7.fe80::a+en1]/", "URI"),
        ("ldap://[2001:db8::7]/c=GB?objectClass?one", "URI"),
        ("mailto:John.Doe@example.com", "URI"),
        ("news:comp.infosystems.www.servers.unix", "URI"),
        ("tel:+1-816-555-1212", "URI"),
        ("telnet://192.0.2.16:80/", "URI"),
        ("urn:oasis:names:specification:docbook:dtd:xml:4.1.2", "URI"),
        ("http://a/b/c/d;p?q", "absolute-URI"),
        ("../g;x?y#s", "relative-ref"),
        ("./this:that", "relative-ref"),
        ("a/:b", "relative-ref"),
        ("", "URI-reference"),
        ("http://例え.テスト/パス?ク#フ", "IRI"),
        ("http://a/?\ue000", "IRI"),
        ("255.255.255.255", "IPv4address"),
        ("::", "IPv6address"),
        ("1:2:3:4:5:6:1.2.3.4", "IPv6address"),
    ],
)
def test_valid(text: str, production: str) -> None:
    validate(text, production)
    assert is_valid(text, production)


def test_iprivate_only_in_query() -> None:
    assert not is_valid("http://a/\ue000", "IRI")


def test_unknown_production() -> None:
    with pytest.raises(ValueError, match="production must be one of"):
        validate("x", "URL")


@given(st.text())
def test_parse_recompose_round_trips_any_string(text: str) -> None:
    assert str(UriReference.parse(text)) == text


@given(st.text())
def test_validate_never_fails_with_anything_but_syntax_error(text: str) -> None:
    for production in ("URI-reference", "URI", "IRI-reference", "relative-ref"):
        try:
            validate(text, production)
        except UriSyntaxError as err:
            assert 0 <= err.position <= len(text)


@pytest.mark.parametrize("uri, parts", [
    # seed 002 §1.3 Example URIs
    ("ftp://ftp.is.co.za/rfc/rfc1808.txt", ("ftp", "ftp.is.co.za", "/rfc/rfc1808.txt", None, None)),
    ("gopher://gopher.tc.umn.edu:70/11/Mailing%20Lists/",
     ("gopher", "gopher.tc.umn.edu:70", "/11/Mailing%20Lists/", None, None)),
    ("http://www.ietf.org/rfc/rfc2396.txt", ("http", "www.ietf.org", "/rfc/rfc2396.txt", None, None)),
    ("mailto:John.Doe@example.com", ("mailto", None, "John.Doe@example.com", None, None)),
    ("news:comp.infosystems.www.servers.unix", ("news", None, "comp.infosystems.www.servers.unix", None, None)),
    ("telnet://melvyl.ucop.edu/", ("telnet", "melvyl.ucop.edu", "/", None, None)),
])
def test_seed_002_example_uris(uri: str, parts: tuple) -> None:
    assert tuple(UriReference.parse(uri)) == parts
    validate(uri, "URI")


@pytest.mark.parametrize("uri, userinfo, password_part", [
    # seed 001 §3.1: "<ftp://@host.com/> has an empty user name and no password,
    # <ftp://host.com/> has no user name, while <ftp://foo:@host.com/> has a user name
    # of "foo" and an empty password."
    ("ftp://@host.com/", "", None),
    ("ftp://host.com/", None, None),
    ("ftp://foo:@host.com/", "foo:", ""),
])
def test_seed_001_empty_and_undefined_userinfo(uri: str, userinfo: str | None, password_part: str | None) -> None:
    ref = UriReference.parse(uri)
    assert ref.userinfo == userinfo
    if userinfo is not None:
        user, colon, password = userinfo.partition(":")
        assert (password if colon else None) == password_part
    assert ref.host == "host.com"


def test_seed_001_example_urls() -> None:
    for uri in ["ftp://ftp.is.co.za/rfc/rfc1808.txt",
                "gopher://spinaltap.micro.umn.edu/00/Weather/California/Los%20Angeles",
                "http://www.math.uio.no/faq/compression-faq/part1.html", "mailto:mduerst@ifi.unizh.ch",
                "news:comp.infosystems.www.servers.unix", "telnet://melvyl.ucop.edu/"]:
        validate(uri, "URI")
        assert str(UriReference.parse(uri)) == uri
