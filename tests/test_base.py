"""The layers of seed 001 §5.1 / seed 002 §5.1 (base.py)."""

from __future__ import annotations

import pytest

from urisift import Base, BaseSource, BaseStack, DefectKind, Origin, scan_text
from urisift.base import as_base, retrieval_stack
from urisift.errors import UriError


def test_innermost_layer_wins_and_pop_restores_the_one_below() -> None:
    stack = BaseStack()
    assert stack.current is None
    assert stack.push("http://retrieved.example/dir/page", BaseSource.RETRIEVAL, "--base") is None
    assert stack.push("http://mime.example/a/", BaseSource.CONTENT_BASE) is None
    assert stack.push("http://html.example/x/", BaseSource.HTML_BASE) is None
    assert stack.current == Base("http://html.example/x/", BaseSource.HTML_BASE)
    stack.pop()
    assert stack.current == Base("http://mime.example/a/", BaseSource.CONTENT_BASE)
    stack.pop()
    assert stack.current == Base("http://retrieved.example/dir/page", BaseSource.RETRIEVAL, "--base")


def test_a_relative_value_resolves_against_the_layer_below() -> None:
    stack = BaseStack()
    stack.push("http://a.example/p/index.html", BaseSource.RETRIEVAL)
    stack.push("sub/", BaseSource.HTML_BASE)
    assert stack.current is not None and stack.current.uri == "http://a.example/p/sub/"
    stack.push("../other/page.html", BaseSource.CONTENT_LOCATION)
    assert stack.current is not None and stack.current.uri == "http://a.example/p/other/page.html"


def test_a_base_never_keeps_its_fragment() -> None:
    stack = BaseStack()
    stack.push("http://a.example/p/./q#frag", BaseSource.RETRIEVAL)
    assert stack.current is not None and stack.current.uri == "http://a.example/p/q"


def test_none_keeps_the_layer_below_in_force() -> None:
    stack = BaseStack()
    stack.push("http://a.example/", BaseSource.RETRIEVAL)
    with stack.layer(None, BaseSource.CONTENT_BASE) as defect:
        assert defect is None and stack.current is not None and stack.current.source is BaseSource.RETRIEVAL
    assert stack.current is not None


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
    stack = BaseStack(Origin(file="page.html"))
    if below is not None:
        stack.push(below, BaseSource.RETRIEVAL, "--base")
    defect = stack.push(value, BaseSource.HTML_BASE, "<base href> at line 3")
    assert defect is not None
    assert (defect.kind, defect.file, defect.detail) == (DefectKind.BAD_BASE, "page.html", detail)
    expected = None if below is None else Base(below, BaseSource.RETRIEVAL, "--base")
    assert stack.current == expected
    stack.pop()  # the failed layer was entered all the same
    assert stack.current == expected


def test_refused_schemes() -> None:
    with pytest.raises(UriError, match="javascript"):
        as_base("javascript:void(0)", None, refuse=frozenset({"data", "javascript"}))
    assert as_base("data:,x", None) == "data:,x"


def test_retrieval_stack_with_a_default_below() -> None:
    stack, defects = retrieval_stack("page.html", default="http://default.example/d/")
    assert defects == [] and stack.current == Base("http://default.example/d/page.html", BaseSource.RETRIEVAL,
                                                   "--base")
    stack, defects = retrieval_stack("http://[bad")
    assert stack.current is None and [d.kind for d in defects] == [DefectKind.BAD_BASE]


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
