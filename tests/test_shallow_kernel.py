"""The depth guard's first pass in C (src/urisift/readers/html/shallow_kernel.c) and
its pure-Python twin (tokens.shallow_twin) give the same answer: on markup
hypothesis writes from the pieces the pass tells apart, on every corpus
page, and at every prefix the guard reads first.  The compiled build's run
of the suite (.ci/run) has the kernel; the pure build's run skips these."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from urisift.readers.html.tokens import BYTES, MAX_DEPTH, PREFIX, WITHHELD, _noting, shallow, shallow_twin

kernel = pytest.importorskip("urisift.readers.html.shallow_kernel", reason="a pure build: no C first pass to compare")

SHARED = Path(__file__).resolve().parents[2] / "shared" / "corpora"

# the names the pass has a rule for, and some it has none for
_NAMES = ["div", "p", "li", "dd", "dt", "option", "td", "th", "tr", "tbody", "thead", "tfoot", "table", "svg",
          "math", "foreignObject", "desc", "title", "mi", "annotation-xml", "font", "b", "br", "img", "image",
          "script", "style", "xmp", "iframe", "noembed", "noframes", "textarea", "plaintext", "template", "span",
          "section", "h1", "a", "x-y", "é"]
_SPACE = st.sampled_from([b" ", b"\t", b"\n", b"\f", b"\r", b"  \n"])


@st.composite
def _name(draw: st.DrawFn) -> bytes:
    name = draw(st.sampled_from(_NAMES))
    cased = "".join(c.upper() if draw(st.booleans()) else c for c in name) if draw(st.booleans()) else name
    return cased.encode("utf-8")


_VALUE = st.sampled_from([b'"v"', b"'v'", b"v", b"", b'"a>b"', b"'x", b'"', b"a/b", b"=", b"'q'\"", b">"])
_ATTRIBUTE = st.one_of(
    st.sampled_from([b"href", b"id", b"=x", b"'", b"a\"b", b"encoding", b"color"]).flatmap(
        lambda name: st.tuples(st.just(name), st.sampled_from([b"", b"=", b" = ", b"\t="]), _VALUE).map(
            lambda t: t[0] + (t[1] + t[2] if t[1] else b""))),
    st.just(b"/"), _SPACE)


@st.composite
def _tag(draw: st.DrawFn) -> bytes:
    kind = draw(st.sampled_from(["start", "end", "self"]))
    attributes = b"".join(draw(st.lists(_ATTRIBUTE, max_size=5)))
    separator = draw(_SPACE) if attributes and draw(st.booleans()) else b""
    name = draw(_name())
    close = draw(st.sampled_from([b">", b">", b"/>", b"", b" >"]))
    return (b"</" if kind == "end" else b"<") + name + separator + attributes + close


_PIECES = st.one_of(
    _tag(), _tag(), _tag(),
    st.sampled_from([b"<!---->", b"<!-->", b"<!--->", b"<!-- a -- b --!>", b"<!-- -- >", b"<!--", b"-->",
                     b"<![CDATA[x]]>", b"<![cdata[x]]>", b"<!DOCTYPE html>", b"<?xml x?>", b"</>", b"</ x>", b"<",
                     b"</", b"< a", b"<3", b"text", b"a:b", b">", b"'", b'"', b"=", b"/", b"-", b"!", b"\xc3\xa9",
                     b"\x00", b"<script>", b"</script>", b"<!--<script>", b"</script >", b"</SCRIPT/", b"</style>",
                     b"</title\t", b"</xmp>", b"<svg>", b"<math>", b"<font>", b"<font color=x>", b"</svg>",
                     b"<svg><desc><x-y/>", b"<math><mi><x-y/>"]),
    # comments about the length the pass notes the place of (tokens.WITHHELD), closed each way or not at all
    st.sampled_from([b"<!--" + b"c" * WITHHELD + b"-->", b"<!--" + b"c" * (WITHHELD - 1) + b"-->",
                     b"<!--" + b"-" * WITHHELD + b"--!>", b"<!--" + b"c-" * WITHHELD + b"--->",
                     b"<!--" + b"d" * WITHHELD, b"<!---" + b"e" * WITHHELD + b"-->"]),
    _SPACE)


#: runs that open levels, each repeated about the cap
_RUNS = [b"<div>", b"<table><tr><td>", b"<svg><g>", b"<b>", b"<p><li>", b" a", b"<td>x<td>", b"<tr><td><table>",
         b"<table><tbody>x</table>", b"<tr>", b"<th>", b"<option>", b"<dd><dt>", b"<p><div>", b"<table><td>",
         b"<svg><svg>", b"<math><mi>", b"<tr><td></tr>", b"<svg><desc><div>"]
#: the counts about the cap for a run opening 1 to 4 levels: a model that pops one element
#: too few or too many crosses it where the twin does not
_ABOUT_THE_CAP = sorted({MAX_DEPTH // k + d for k in (1, 2, 3, 4) for d in (-1, 0, 1, 2)})


@st.composite
def _markup(draw: st.DrawFn) -> bytes:
    pieces = draw(st.lists(_PIECES, max_size=40))
    if draw(st.integers(0, 2)) == 0:  # a run deep enough for the cap, or wide enough for the item limit
        run = draw(st.one_of(st.sampled_from(_RUNS), st.lists(_PIECES, min_size=1, max_size=4).map(b"".join)))
        at = draw(st.integers(0, len(pieces)))
        count = draw(st.one_of(st.integers(MAX_DEPTH // 4, MAX_DEPTH + 20), st.sampled_from(_ABOUT_THE_CAP)))
        pieces.insert(at, run * count)
    return b"".join(pieces)


@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_markup(), st.one_of(st.none(), st.integers(0, 3000)))
def test_the_kernel_answers_as_its_twin(markup: bytes, end: int | None) -> None:
    assert kernel.shallow(markup, end) is shallow_twin(markup, BYTES, end)


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_markup())
def test_the_kernel_notes_the_long_comments_as_its_twin(markup: bytes) -> None:
    noted: list[tuple[int, int]] = []
    answer = kernel.shallow(markup, None, noted)
    assert answer is shallow_twin(markup, BYTES)
    if answer:  # (the guard withholds them only then; a pass that stops early has noted some)
        twin: list[tuple[int, int]] = []
        list(_noting(markup, BYTES, twin))
        assert noted == twin


@pytest.mark.parametrize("markup", [
    b"<div>" * (MAX_DEPTH + 1), b"<div>" * MAX_DEPTH, b"<table>" + b"<tr><td>" * 200, b"<p a" + b" b" * 1100 + b">",
    b"<p a" + b" b" * 500 + b">", b"<svg><style><a></style>", b"<svg><![CDATA[", b"<script><!--<script></script>",
    b"<StYlE>a</sTyLe>" + b"<div>" * 600, b"<title>" + b"<div>" * 600, b"<p x='", b"<plaintext>",
])
def test_the_kernel_answers_as_its_twin_on_the_shapes_that_decide(markup: bytes) -> None:
    for end in (None, 0, 5, PREFIX, len(markup) // 2):
        assert kernel.shallow(markup, end) is shallow_twin(markup, BYTES, end), end


@pytest.mark.parametrize("run", _RUNS)
def test_the_kernel_answers_as_its_twin_about_the_cap(run: bytes) -> None:
    for count in _ABOUT_THE_CAP:
        for around in (b"", b"<html><body>", b"<svg>"):
            markup = around + run * count + b"<a href=x>"
            assert kernel.shallow(markup) is shallow_twin(markup, BYTES), (run, count, around)


def test_the_kernel_answers_as_its_twin_on_every_corpus_page() -> None:
    if not SHARED.is_dir():
        pytest.skip("../shared is absent")
    pages = sorted(SHARED.glob("html-readability-pages/*/source.html"))
    assert pages
    for path in pages:
        markup = path.read_bytes()
        for end in (None, PREFIX):
            assert kernel.shallow(markup, end) is shallow_twin(markup, BYTES, end), (path, end)


def test_the_guard_uses_the_kernel_for_bytes_only() -> None:
    deep = b"<div>" * (MAX_DEPTH + 1)
    assert (shallow(deep, BYTES), shallow(b"<div>x</div>", BYTES)) == (False, True)
    from urisift.readers.html import tokens

    assert tokens._kernel is kernel.shallow
