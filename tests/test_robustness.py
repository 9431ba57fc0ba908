"""No input makes the URI core raise anything but its own documented errors."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from urisift import Urn, UrnError, equivalent, normalize, resolve, risks, urn_equivalent

_text = st.one_of(
    st.text(max_size=40),
    st.lists(st.sampled_from(["http:", "//", "[", "]", "::", "@", ":", "%", "%4", "%41", "/", ".", "..", "?",
                              "#", "urn:", "ab", "é", "\x00", "0x", "127", "mailto:", "?to=", ",", "=", "&"]),
             max_size=15).map("".join),
)


@settings(max_examples=1000)
@given(_text, _text)
def test_resolve_never_raises_against_an_absolute_base(ref: str, tail: str) -> None:
    target = resolve(ref, "http://a/b/c/d;p?q" + tail.replace("#", ""))
    assert target.scheme is not None
    assert resolve(ref, "foo:" + tail.replace("#", ""), profile="rfc2396").scheme is not None


@settings(max_examples=1000)
@given(_text, st.sampled_from(["string", "syntax", "scheme", "scheme-specific"]), st.booleans(), st.booleans())
def test_normalize_and_equivalent_never_raise(uri: str, level: str, idna: bool, iri: bool) -> None:
    once = normalize(uri, level=level, idna=idna, iri_to_uri=iri)  # type: ignore[arg-type]
    assert equivalent(uri, once, level=level, idna=idna, iri_to_uri=iri)  # type: ignore[arg-type]


@settings(max_examples=1000)
@given(_text)
def test_risks_never_raise(uri: str) -> None:
    for risk in risks(uri):
        assert risk.flag in {"userinfo", "password", "rare-ip", "reserved-port", "encoded-crlf"}


@settings(max_examples=1000)
@given(_text, st.sampled_from(["2141", "2141bis-00", "2141bis-03", "8141"]))
def test_urn_parse_raises_only_urn_errors(text: str, rules: str) -> None:
    try:
        urn = Urn.parse(text, rules=rules)  # type: ignore[arg-type]
    except UrnError as err:
        assert 0 <= err.position <= len(text)
        return
    assert urn_equivalent(urn, urn)
    assert urn.display()
