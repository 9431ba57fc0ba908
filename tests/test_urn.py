"""URNs under RFC 2141, draft-saintandre-2141bis-00 (seed 000),
draft-ietf-urnbis-rfc2141bis-urn-03 (seed 003) and RFC 8141; urn.json vectors."""

from __future__ import annotations

import itertools

import pytest

from urisift import Urn, UrnError, urn_equivalent

from .conftest import load_vectors

ALL_RULES = ("2141", "2141bis-00", "2141bis-03", "8141")


# -- seed examples ------------------------------------------------------------------------

# seed 000 §6 prints the NID as "F00" (zeros): a typo for RFC 2141's "FOO".
SEED_000_INTENDED = ["URN:foo:a123,456", "urn:foo:a123,456", "urn:FOO:a123,456", "urn:foo:A123,456",
                     "urn:foo:a123%2C456", "URN:FOO:a123%2c456"]
SEED_000_AS_PRINTED = ["URN:foo:a123,456", "urn:foo:a123,456", "urn:F00:a123,456", "urn:foo:A123,456",
                       "urn:foo:a123%2C456", "URN:F00:a123%2c456"]


def _classes(urns: list[str], rules: str, **kw: str) -> list[set[int]]:
    """The equivalence class (1-based numbers) of each URN in the list."""
    return [{j + 1 for j, b in enumerate(urns) if urn_equivalent(a, b, rules=rules, **kw)}  # type: ignore[arg-type]
            for a in urns]


def test_seed_000_section_6_examples_as_intended() -> None:
    # "URNs 1, 2, and 3 are lexically equivalent. URN 4 is not lexically equivalent
    #  to any of the other URNs in the above set. URNs 5 and 6 are lexically
    #  equivalent only to each other."
    assert _classes(SEED_000_INTENDED, "2141bis-00") == [{1, 2, 3}, {1, 2, 3}, {1, 2, 3}, {4}, {5, 6}, {5, 6}]


def test_seed_000_zero_spelling_is_another_nid() -> None:
    assert _classes(SEED_000_AS_PRINTED, "2141bis-00") == [{1, 2}, {1, 2}, {3}, {4}, {5}, {6}]
    assert Urn.parse("urn:F00:a123,456", rules="2141bis-00").nid == "F00"


SEED_003 = ["URN:foo:a123,456", "urn:foo:a123,456", "urn:FOO:a123,456", "urn:foo:A123,456",
            "urn:foo:a123%2C456", "URN:FOO:a123%2c456", "urn:foo:a123,456?x=y", "urn:foo:a123,456#xyz"]


def test_seed_003_section_5_1_examples_step_5a() -> None:
    # 1, 2, 3 and 8 equivalent; 7 too with step 5a; 4 alone; 5 and 6 only each other
    assert _classes(SEED_003, "2141bis-03", objective="resource") == [
        {1, 2, 3, 7, 8}, {1, 2, 3, 7, 8}, {1, 2, 3, 7, 8}, {4}, {5, 6}, {5, 6}, {1, 2, 3, 7, 8}, {1, 2, 3, 7, 8}]


def test_seed_003_section_5_1_examples_step_5b() -> None:
    assert _classes(SEED_003, "2141bis-03", objective="cache") == [
        {1, 2, 3, 8}, {1, 2, 3, 8}, {1, 2, 3, 8}, {4}, {5, 6}, {5, 6}, {7}, {1, 2, 3, 8}]


def test_seed_003_query_directives() -> None:
    urn = Urn.parse("urn:isbn:0451450523?s=I2L&c=ToC#p1", rules="2141bis-03")
    assert (urn.nid, urn.nss, urn.query, urn.fragment) == ("isbn", "0451450523", "s=I2L&c=ToC", "p1")
    assert urn.directives == (("s", "I2L"), ("c", "ToC"))
    assert (urn.service, urn.component, urn.directive("x")) == ("I2L", "ToC", None)
    assert urn.flags == ()
    # 5b: directives in a preferred (sorted) order, so their order does not matter
    assert urn_equivalent("urn:isbn:1?s=I2L&c=ToC", "urn:isbn:1?c=ToC&s=I2L", rules="2141bis-03", objective="cache")
    assert not urn_equivalent("urn:isbn:1?s=I2L", "urn:isbn:1?s=I2C", rules="2141bis-03", objective="cache")


def test_seed_003_repeated_keyword_is_flagged() -> None:
    assert Urn.parse("urn:isbn:1?s=I2L&s=I2C", rules="2141bis-03").flags == ("repeated-keyword:s",)


@pytest.mark.parametrize("text, position, fragment", [
    ("urn:isbn:1?junk", 11, "is not a keywd=value directive"),
    ("urn:isbn:1?1s=x", 11, "is not a keywd=value directive"),
    ("urn:isbn:1?s=a&b", 15, "is not a keywd=value directive"),
    ("urn:isbn:1?s=a%zz", 14, "'%' not followed by two hex digits"),
    ("urn:urn:x", 4, 'the NID "urn" is reserved'),
])
def test_seed_003_errors(text: str, position: int, fragment: str) -> None:
    with pytest.raises(UrnError) as info:
        Urn.parse(text, rules="2141bis-03")
    assert info.value.position == position and fragment in info.value.reason
    assert "draft-ietf-urnbis-rfc2141bis-urn-03" in info.value.rule


# -- the generations differ ----------------------------------------------------------------

@pytest.mark.parametrize("text, verdicts", [
    # 2141, 2141bis-00, 2141bis-03, 8141
    ("urn:A:x", (True, False, False, False)),  # a one-letter NID
    ("urn:abcd-:x", (True, False, False, False)),  # a trailing hyphen
    ("urn:urn:x", (False, True, False, True)),  # "urn" reserved in 2141 and seed 003
    ("urn:ab:x~y&z", (False, True, True, True)),  # "~" and "&" allowed since the drafts
    ("urn:ab:x/y", (False, False, False, True)),  # "/" in the NSS only in 8141
    ("urn:ab:x?s=1", (False, False, True, False)),  # a seed 003 query; in 8141 "?" starts ?+ or ?=
    ("urn:ab:x?+r?=q#f", (False, False, False, True)),
    ("urn:ab:x#f", (False, False, True, True)),
    ("urn:urn-7:x", (True, True, True, True)),
    ("urn:urn-x:x", (True, True, True, False)),  # RFC 8141 §5.2: "urn-" and a number
    ("urn:ab:%00", (False, True, True, True)),  # RFC 2141 refuses octet 0
])
def test_validity_by_generation(text: str, verdicts: tuple[bool, ...]) -> None:
    got = []
    for rules in ALL_RULES:
        try:
            Urn.parse(text, rules=rules)  # type: ignore[arg-type]
            got.append(True)
        except UrnError:
            got.append(False)
    assert tuple(got) == verdicts


@pytest.mark.parametrize("text, position, reason, rule", [
    ("urx:a:b", 2, 'a URN starts with "urn:"', "RFC 8141"),
    ("urn:-ab:x", 4, "a NID starts with a letter or digit", "RFC 8141 NID"),
    ("urn:ab-:x", 6, "a NID does not end with a hyphen", "RFC 8141 NID"),
    ("urn:a:x", 5, "a NID has at least 2 characters", "RFC 8141 NID"),
    ("urn:ab", 6, 'no ":" after the NID', "RFC 8141"),
    ("urn:ab:", 7, "the NSS is empty", "RFC 8141 §2 NSS"),
    ("urn:ab:x?y", 8, '"?" must start "?+"', "RFC 8141 §2 rq-components"),
    ("urn:ab:x?+", 10, "the r-component is empty", "RFC 8141 §2 r-component"),
    ("urn:urn-0:x", 8, 'an informal NID is "urn-" and a number', "RFC 8141 §5.2 informal NID"),
])
def test_errors_name_the_rule_broken(text: str, position: int, reason: str, rule: str) -> None:
    with pytest.raises(UrnError) as info:
        Urn.parse(text)
    err = info.value
    assert (err.position, err.rule) == (position, rule)
    assert err.reason.startswith(reason)
    assert repr(text) in str(err)


def test_components_8141() -> None:
    urn = Urn.parse("URN:Example:a/b?+R?=Q?x#F")
    assert (urn.scheme, urn.nid, urn.nss, urn.r_component, urn.q_component, urn.f_component) == (
        "URN", "Example", "a/b", "R", "Q?x", "F")
    assert urn.comparison_key() == "urn:example:a/b"


def test_display_decodes_for_people_but_never_compares() -> None:
    urn = Urn.parse("urn:example:%D0%B0123,z456%2C%E2%82%AC")
    assert urn.display() == "urn:example:\u0430123,z456%2C\u20ac"
    # the decoded form is for display only: it is not even a URN
    with pytest.raises(UrnError):
        Urn.parse(urn.display())
    assert not urn_equivalent("urn:example:%D0%B0123,z456", "urn:example:a123,z456")


def test_unknown_rules() -> None:
    with pytest.raises(ValueError, match="rules must be one of"):
        Urn.parse("urn:ab:c", rules="1737")  # type: ignore[arg-type]


# -- vectors ------------------------------------------------------------------------------

# go-urn's verdicts that contradict RFC 8141's ABNF (r-/q-component = pchar *(pchar / "/" / "?"),
# so "?+" and "?=" may stand inside them) and jena's vectors of the same shape
# ("urn:nid:nss?+R1?+R2", "urn:nid:nss?=Q?=Q": valid).
GO_URN_DEVIATIONS = {
    "urn:ex:ex?+a?+", "urn:ex:ex?=a?=", "urn:ex:ex?+rcomponent?+rcomponent?=qcomponent",
    "urn:ex:ex?+rcomponent?=qcomponent?=q",
}


def _validity(rule: str) -> list[dict]:
    return [v for v in load_vectors("urn.json")["validity"] if v["rule"] == rule]


def _valid(text: str, rules: str) -> bool:
    try:
        Urn.parse(text, rules=rules)  # type: ignore[arg-type]
        return True
    except UrnError:
        return False


@pytest.mark.parametrize("rule, count", [("8141", 158), ("2141", 107)])
def test_validity_vectors(rule: str, count: int) -> None:
    vectors = _validity(rule)
    assert len(vectors) == count
    wrong = [v["urn"] for v in vectors if _valid(v["urn"], rule) != v["valid"] and v["urn"] not in GO_URN_DEVIATIONS]
    assert wrong == []


@pytest.mark.parametrize("text", sorted(GO_URN_DEVIATIONS))
@pytest.mark.xfail(strict=True, reason="go-urn refuses a second ?+ / ?= inside a component; RFC 8141's ABNF allows it")
def test_go_urn_deviation(text: str) -> None:
    assert _valid(text, "8141") is False


def test_component_vectors() -> None:
    wrong = []
    for v in _validity("8141") + _validity("2141"):
        if not v["valid"]:
            continue
        urn = Urn.parse(v["urn"], rules=v["rule"])
        for key in ("nid", "nss", "r_component", "q_component", "f_component"):
            if v.get(key) is not None and getattr(urn, key) != v[key]:
                wrong.append((v["urn"], key, v[key], getattr(urn, key)))
    assert wrong == []


def test_equivalence_vectors() -> None:
    pairs = load_vectors("urn.json")["equivalence"]
    assert len(pairs) == 124
    wrong = []
    for v in pairs:
        rule_sets = ("8141",) if v["rule"] == "8141" else ("2141", "2141bis-00", "2141bis-03")
        for rules in rule_sets:
            if urn_equivalent(v["a"], v["b"], rules=rules) != v["equivalent"]:  # type: ignore[arg-type]
                wrong.append((rules, v["a"], v["b"]))
    assert wrong == []


def test_lexical_equivalence_is_an_equivalence_relation() -> None:
    urns = ["urn:ab:x%2c", "URN:AB:x%2C", "urn:Ab:x%2C", "urn:ab:X%2c", "urn:ab:x,"]
    for a, b, c in itertools.product(urns, repeat=3):
        if urn_equivalent(a, b) and urn_equivalent(b, c):
            assert urn_equivalent(a, c)
        assert urn_equivalent(a, b) == urn_equivalent(b, a)
