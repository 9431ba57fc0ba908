"""The web-platform URL tests (urltestdata.json, read from ../shared, never
copied here) through urisift's HTML route (issue 25): each case written as
a page with ``<base href>`` and ``<a href>``, scanned as any page is.

- The browser target is the expected ``href``, or null where the case
  expects failure, in every case that can be written as such a page.
- The RFC target is the RFC 3986 result (computed here by a literal
  transcription of §5.2, independent of urisift's resolver) or the record
  carries an ``invalid`` flag, in every case.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from urisift import Record, scan_html

from .conftest import shared_path
from .test_resolve import _rfc_5_2_4_literal

_APPENDIX_B = re.compile(r"^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?$", re.DOTALL)


def _split(uri: str) -> tuple[str | None, str | None, str, str | None, str | None]:
    m = _APPENDIX_B.match(uri)
    assert m is not None
    return m.group(2), m.group(4), m.group(5), m.group(7), m.group(9)


def _recompose(scheme: str | None, authority: str | None, path: str, query: str | None,
               fragment: str | None) -> str:
    # §5.3, with issue 25's "/." before a path that would read as an authority
    if authority is None and path.startswith("//"):
        path = "/." + path
    out = "" if scheme is None else scheme + ":"
    out += "" if authority is None else "//" + authority
    out += path
    out += "" if query is None else "?" + query
    return out + ("" if fragment is None else "#" + fragment)


def rfc3986(reference: str, base: str) -> str:
    """RFC 3986 §5.2.2 (strict), transcribed from the RFC's pseudo-code."""
    r_scheme, r_authority, r_path, r_query, r_fragment = _split(reference)
    b_scheme, b_authority, b_path, b_query, _ = _split(base)
    if r_scheme is not None:
        t = (r_scheme, r_authority, _rfc_5_2_4_literal(r_path), r_query)
    elif r_authority is not None:
        t = (b_scheme, r_authority, _rfc_5_2_4_literal(r_path), r_query)
    elif r_path == "":
        t = (b_scheme, b_authority, b_path, r_query if r_query is not None else b_query)
    elif r_path.startswith("/"):
        t = (b_scheme, b_authority, _rfc_5_2_4_literal(r_path), r_query)
    else:
        merged = "/" + r_path if b_authority is not None and b_path == "" else b_path[:b_path.rfind("/") + 1] + r_path
        t = (b_scheme, b_authority, _rfc_5_2_4_literal(merged), r_query)
    return _recompose(*t, r_fragment)


def _opaque(base: str | None) -> bool:
    """Whether ``base`` is an absolute URI with an opaque path (no authority,
    a path not starting with "/"), that may serve as a base: not ``data:`` or
    ``javascript:``, which urisift refuses whatever their path."""
    if base is None:
        return False
    scheme, authority, path, _, _ = _split(base)
    return scheme is not None and scheme.lower() not in ("data", "javascript") and authority is None \
        and not path.startswith("/") and re.fullmatch(r"[A-Za-z][A-Za-z0-9+.-]*", scheme) is not None


def _cases() -> list[dict[str, Any]]:
    data = json.loads(shared_path("corpora", "conformance-vectors", "wpt-url", "urltestdata.json")
                      .read_text("utf-8"))
    return [case for case in data if isinstance(case, dict)]


def _attribute(value: str) -> str | None:
    """``value`` as a double-quoted attribute value the HTML parser gives
    back exactly; None when no markup can (a NUL becomes U+FFFD, a lone
    surrogate has no UTF-8, a character reference to 0x80-0x9F means another
    character, and a raw CR becomes LF)."""
    if "\0" in value or any(0xD800 <= ord(c) <= 0xDFFF for c in value):
        return None
    return value.replace("&", "&amp;").replace('"', "&quot;").replace("\r", "&#13;")


def _page(case: dict[str, Any]) -> bytes | None:
    href = _attribute(case["input"])
    base = None if case["base"] is None else _attribute(case["base"])
    if href is None or (case["base"] is not None and base is None):
        return None
    head = "" if base is None else f'<base href="{base}">'
    return f'<!doctype html><meta charset="utf-8">{head}<a href="{href}">x</a>'.encode()


def _the_link(page: bytes) -> Record:
    records = [r for r in scan_html(page) if isinstance(r, Record) and r.element == "a"]
    assert len(records) == 1
    return records[0]


def test_every_expressible_case_gives_the_browsers_url_and_an_rfc_target_or_a_flag() -> None:
    cases = _cases()
    assert len(cases) >= 891  # the July 2026 copy; newer copies hold more
    browser_wrong, rfc_wrong, written = [], [], 0
    for case in cases:
        page = _page(case)
        if page is None:
            continue
        written += 1
        record = _the_link(page)
        expected = None if case.get("failure") else case["href"]
        if record.browser_target != expected:
            browser_wrong.append((case["input"], case["base"], expected, record.browser_target))
        flagged = any(r.flag == "invalid" for r in record.risks)
        if flagged:
            continue
        base = record.base
        if _opaque(case["base"]) and re.match(r"[A-Za-z][A-Za-z0-9+.-]*:", record.uri) is None:
            # a base with an opaque path (mailto:x@x.com, about:blank, sc:sd) resolves a fragment-only
            # reference (RFC 3986 §5.2.2; the browser does too) and nothing else: no target, then
            expected_target = rfc3986(record.uri, case["base"]) if record.uri.startswith("#") else None
            if record.target != expected_target:
                rfc_wrong.append((case["input"], case["base"], expected_target, record.target))
            continue
        if record.target is None:
            # no RFC result exists: a relative reference with no base (none
            # given, or one that is not an RFC 3987 IRI and so cannot serve)
            if base is None and re.match(r"[A-Za-z][A-Za-z0-9+.-]*:", record.uri) is None:
                continue
            rfc_wrong.append((case["input"], case["base"], None, "no target"))
            continue
        literal = rfc3986(record.uri, base if base is not None else record.uri)
        if record.target != literal:
            rfc_wrong.append((case["input"], case["base"], literal, record.target))
    assert written >= len(cases) - 20  # NUL and lone surrogates: a handful
    # b and c, the web-platform cases without the browser's URL and those without their RFC target or a flag
    assert (len(browser_wrong), len(rfc_wrong)) == (0, 0), (browser_wrong, rfc_wrong)


@pytest.mark.parametrize(("reference", "base", "expected"), [
    ("g", "http://a/b/c/d;p?q", "http://a/b/c/g"),
    ("../../../g", "http://a/b/c/d;p?q", "http://a/g"),
    ("..//g", "f:/a/", "f:/.//g"),
    ("", "http://a/b?q", "http://a/b?q"),
])
def test_the_literal_transcription_used_above(reference: str, base: str, expected: str) -> None:
    assert rfc3986(reference, base) == expected
