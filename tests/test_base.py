"""The layers of seed 001 §5.1 / seed 002 §5.1 (base.py)."""

from __future__ import annotations

import pytest

from urisift import Base, BaseSource, DefectKind, Origin, scan_text
from urisift.stages.base import NO_BASE, absolute, as_base, retrieval_layers
from urisift.uri.errors import UriError


def test_innermost_layer_wins_and_the_chain_below_is_left_as_it_was() -> None:
    bottom = NO_BASE
    assert bottom.current is None
    retrieval, d1 = bottom.push("http://retrieved.example/dir/page", BaseSource.RETRIEVAL, "--base")
    mime, d2 = retrieval.push("http://mime.example/a/", BaseSource.CONTENT_BASE)
    html, d3 = mime.push("http://html.example/x/", BaseSource.HTML_BASE)
    assert (d1, d2, d3) == (None, None, None)
    assert html.current == Base("http://html.example/x/", BaseSource.HTML_BASE)
    # pushing made new chains: each one below still says what it said
    assert mime.current == Base("http://mime.example/a/", BaseSource.CONTENT_BASE)
    assert retrieval.current == Base("http://retrieved.example/dir/page", BaseSource.RETRIEVAL, "--base")
    assert bottom.current is None
    assert html.below == mime.current and html.under is mime


def test_a_layer_is_a_frozen_value() -> None:
    layer, _ = NO_BASE.push("http://a.example/", BaseSource.RETRIEVAL)
    with pytest.raises(AttributeError):
        layer.current = None  # type: ignore[misc]


def test_a_relative_value_resolves_against_the_layer_below() -> None:
    layer, _ = NO_BASE.push("http://a.example/p/index.html", BaseSource.RETRIEVAL)
    layer, _ = layer.push("sub/", BaseSource.HTML_BASE)
    assert layer.current is not None and layer.current.uri == "http://a.example/p/sub/"
    layer, _ = layer.push("../other/page.html", BaseSource.CONTENT_LOCATION)
    assert layer.current is not None and layer.current.uri == "http://a.example/p/other/page.html"


def test_a_base_never_keeps_its_fragment() -> None:
    layer, _ = NO_BASE.push("http://a.example/p/./q#frag", BaseSource.RETRIEVAL)
    assert layer.current is not None and layer.current.uri == "http://a.example/p/q"


def test_none_keeps_the_layer_below_in_force() -> None:
    below, _ = NO_BASE.push("http://a.example/", BaseSource.RETRIEVAL)
    layer, defect = below.push(None, BaseSource.CONTENT_BASE)
    assert defect is None and layer.current is below.current and layer.current is not None
    assert layer.current.source is BaseSource.RETRIEVAL


@pytest.mark.parametrize("value, below, detail", [
    ("http://[bad/", "http://doc.example/",
     "html-base 'http://[bad/' (<base href> at line 3) cannot serve as a base: 'http://[bad/': position 7: "
     "malformed IP literal (in host); retrieval base 'http://doc.example/' stays in force"),
    ("relative/only", None,
     "html-base 'relative/only' (<base href> at line 3) cannot serve as a base: 'relative/only' is relative "
     "and there is no base below it to resolve it against; no base stays in force"),
    ("http://a b.example/", None,
     "html-base 'http://a b.example/' (<base href> at line 3) cannot serve as a base: 'http://a b.example/': "
     "position 8: character ' ' not allowed (in host); no base stays in force"),
])
def test_a_value_that_cannot_serve_is_a_defect_and_the_layer_below_stays(
        value: str, below: str | None, detail: str) -> None:
    layer = NO_BASE
    if below is not None:
        layer, _ = layer.push(below, BaseSource.RETRIEVAL, "--base")
    layer, defect = layer.push(value, BaseSource.HTML_BASE, "<base href> at line 3", origin=Origin(file="page.html"))
    assert defect is not None
    assert (defect.kind, defect.file, defect.detail) == (DefectKind.BAD_BASE, "page.html", detail)
    expected = None if below is None else Base(below, BaseSource.RETRIEVAL, "--base")
    assert layer.current == expected


def test_refused_schemes() -> None:
    # one rule for every layer: no data:, no javascript:, nothing without a hierarchy
    with pytest.raises(UriError, match="a javascript: URI cannot be a base"):
        as_base("javascript:void(0)", None)
    with pytest.raises(UriError, match="a data: URI cannot be a base"):
        as_base("data:,x", None)
    with pytest.raises(UriError, match="a mailto: URI with no hierarchy"):
        as_base("mailto:a@b.example", None)
    assert as_base("thismessage:/", None) == "thismessage:/"
    assert absolute("mid:part1@b.example", None) == "mid:part1@b.example"  # a resource's name, not a base


def test_a_base_is_kept_by_its_text_and_the_base_below_it() -> None:
    # as_base keeps its answers (the parts of an archive share a few bases):
    # the same relative value over two bases is two answers, a refused
    # scheme is refused each time, and one without refusals serves
    below_a = Base("http://a.example/x/", BaseSource.RETRIEVAL, "--base")
    below_b = Base("http://b.example/y/z", BaseSource.RETRIEVAL, "--base")
    for _ in range(2):
        assert as_base("sub/#f", below_a) == "http://a.example/x/sub/"
        assert as_base("sub/#f", below_b) == "http://b.example/y/sub/"
        with pytest.raises(UriError, match="relative and there is no base below"):
            as_base("sub/", None)
        with pytest.raises(UriError, match="a data: URI cannot be a base"):
            as_base("data:,x", below_a)
        assert absolute("data:,x", below_a) == "data:,x"


def test_retrieval_layers_with_a_default_below() -> None:
    layer, defects = retrieval_layers("page.html", default="http://default.example/d/")
    assert defects == [] and layer.current == Base("http://default.example/d/page.html", BaseSource.RETRIEVAL,
                                                   "--base")
    layer, defects = retrieval_layers("http://[bad")
    assert layer.current is None and [d.kind for d in defects] == [DefectKind.BAD_BASE]


def test_records_say_which_layer_they_used() -> None:
    (r,) = scan_text("<URL:x/y>", base="http://h.example/a/b#top")
    assert (r.target, r.base, r.base_source) == ("http://h.example/a/x/y", "http://h.example/a/b",
                                                 BaseSource.RETRIEVAL)


def test_scan_text_with_a_broken_base_reports_it_and_leaves_relatives_unresolved() -> None:
    items = list(scan_text("<URL:../g> and http://abs.example/", base="http://[bad"))
    defect, relative, absolute = items
    assert getattr(defect, "kind", None) is DefectKind.BAD_BASE
    assert (relative.target, relative.base) == (None, None)
    assert absolute.target == "http://abs.example/"


_BELOW = ["http://f.example/", "http://f.example", "http://f.example/a/b?q=1", "urn:x:y", "file:///d/e/f",
          "http://u@h.example:8/%41/b;p", "x:/", "mailto:a@b.example", "http://h.example/a/b/"]


@pytest.mark.parametrize("below", _BELOW)
@pytest.mark.parametrize("value", ["e7/", "e7", "/p/q/", "a/b;c=d/", "%41b/", "a.b/", "x..y/", "@a/", "a/../b/",
                                   "./a/", "../a", "a/.", ".", "//other.example/p/", "a:b/", "a?q", "a#f", "%4g/",
                                   "é/", "a b/", ""])
def test_a_relative_base_is_the_resolution_of_it_against_the_one_below(below: str, value: str) -> None:
    # (a relative path of path characters is joined to the base below as a string: the
    # xml:base of each of a million entries cost 40 µs; every other form is parsed and resolved)
    from urisift import resolve

    try:
        resolved = resolve(value, below)._replace(fragment=None)
        # (what has no hierarchy cannot serve: a path merged onto an opaque one)
        expected = str(resolved) if resolved.authority is not None or resolved.path.startswith("/") else None
        if not below.partition(":")[2].startswith("/"):
            # an opaque base resolves a fragment-only reference alone (RFC 3986 §5.2.2, WHATWG URL; issue 53)
            expected = None
    except UriError:
        expected = None
    try:
        got: str | None = as_base(value, Base(below, BaseSource.RETRIEVAL))
    except UriError:
        got = None
    if value in ("%4g/", "a b/"):  # not a URI reference: no base (é/ is an IRI's, and serves)
        assert got is None
    else:
        assert got == expected
    if got is not None and value and ":" not in value:  # a refused scheme below is refused on top of it too
        with pytest.raises(UriError, match="cannot be a base"):
            as_base(value, Base("javascript:" + below.partition(":")[2], BaseSource.RETRIEVAL))
