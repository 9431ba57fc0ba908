"""The URI core is linear too: resolution, validation, normalization, URNs and
risk flags on inputs built to make them backtrack or loop."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from urisift import Urn, is_valid, normalize, remove_dot_segments, resolve, risks

from .adversarial import assert_linear

CASES: dict[str, Callable[[int], object]] = {
    "rfc2396 profile, many ..": lambda n: resolve("a/../" * (n // 5), "http://h/b/c", profile="rfc2396"),
    "rfc3986, many ..": lambda n: resolve("a/../" * (n // 5), "http://h/b/c"),
    "remove_dot_segments /..": lambda n: remove_dot_segments("/.." * (n // 3)),
    "long userinfo": lambda n: risks("http://" + "a" * n + "@h/"),
    "dotted userinfo": lambda n: risks("ftp://" + "a." * (n // 2) + "1@h/"),
    "long IPv6 literal": lambda n: is_valid("http://[" + "1:" * (n // 2) + "]/"),
    "lone percents": lambda n: is_valid("http://h/" + "%" * n),
    "escapes to decode": lambda n: normalize("http://h/" + "%41" * (n // 3)),
    "repeated URN directives": lambda n: Urn.parse("urn:isbn:1?" + "s=1&" * (n // 4) + "s=1", rules="2141bis-03"),
    "long URN NSS": lambda n: Urn.parse("urn:ab:" + "a" * n),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_core_is_linear(name: str) -> None:
    assert_linear(CASES[name])
