"""The parser reads only the stretches of a Markdown document that may hold
a link (markup/markdown_blocks.py): its records are exactly those of the
whole document parsed, on the shapes that once told them apart and on
thousands of documents made of every construct that cuts, runs on or links."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from urisift import scan_path
from urisift.readers.markup import markdown, markdown_blocks
from urisift.readers.markup.markdown_blocks import Mode

PIECES = [
    "[a](http://x.example/a)", "![i](img.png)", "[ref]", "[ref]: /def", "[Ref]: /other", "<http://auto.example>",
    "<a@b.example>", "<a+b+c:d>", "http://bare.example/p", "www.w.example", "`http://code.example`", "```", "~~~",
    "````", "    indented http://ind.example", "- item http://li.example", "1. item", "> quote http://q.example",
    "> ```", "<!-- comment http://c.example", "-->", "<pre>", "</pre>", '<a href="h.html">', "</a>", "---", "+++",
    "...", "$x$ http://m.example", "$$", "| a | http://t.example |", "|---|---|", "[^1]",
    "[^1]: note http://fn.example", "text", "para with [link][ref] and [collapsed][]", "<?php http://pi.example ?>",
    "<div>", "</div>", "  ```", "   ~~~", "- ```", "\t```", "<script>", "</script>", "[x]: <http://angle.example>",
    "mail a@b.example", "\\[not](link)", '<span class="x">', '<img src="i.png">', "***", "# heading http://h.example",
    "Setext", "===", "[foo\nbar]: /multi", "[foo bar]", "<![CDATA[ http://cd.example", "]]>", "<!DOCTYPE x>",
    "  - nested", "     ```", "  ```rust", "> > deep http://dq.example", "<code>", "</code>", "<kbd>x</kbd>",
]

#: shapes where a planned reading once differed from the whole parse
SHAPES = [
    "x\n\n<a+b+c:d>\n",  # an autolink of a scheme the text scanner does not know
    "<script> </pre>\n\n<http://auto.example>\n</script>\n",  # kind 1 runs on to its own end tag
    "| a |\n# heading\n    indented http://ind.example\n",  # indented code after a heading, no blank line
    "```\nhttp://in.example\n\n[a](b)\n```\n\nhttp://out.example\n",
    "- ```\n  http://a.example\n\n```\nhttp://b.example\n```\n",  # a fence in a list item: read whole
    "<!--\n\n[a](http://hidden.example)\n\n-->\nhttp://after.example\n",
    "---\ntitle: http://meta.example\n\nmore: x\n---\n\n[a](b)\n",
    "[foo]: /first\n\n[foo]: /second\n\n[foo]\n",  # the first definition wins, in every block
    "[foo]\n\nx http://p.example\n\n[foo]: /later\n",
    # an inline <code> left open ends with its paragraph, not at a </pre> further on
    "a <code> x\n\n<http://auto.example>\n\ntext </pre>\n",
]


def planned_and_whole(path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[list[object], list[object]]:
    with monkeypatch.context() as patched:
        patched.setattr(markdown, "GAP", 0)  # (planned however short: a document under GAP is parsed whole)
        planned = [tuple(r) for r in scan_path(path)]
    with monkeypatch.context() as patched:
        patched.setattr(markdown, "plan", lambda *args: None)
        whole = [tuple(r) for r in scan_path(path)]
    return planned, whole


@pytest.mark.parametrize("text", SHAPES)
def test_each_shape_reads_as_the_whole_document(text: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    doc = tmp_path / "doc.md"
    doc.write_text(text, "utf-8")
    planned, whole = planned_and_whole(doc, monkeypatch)
    assert planned == whole


def test_generated_documents_read_as_whole_ones(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(43)
    for n in range(400):
        lines = ["" if rng.random() < 0.25 else " ".join(rng.choice(PIECES) for _ in range(rng.randint(1, 3)))
                 for _ in range(rng.randint(1, 30))]
        doc = tmp_path / f"d{n}.md"
        doc.write_text("\n".join(lines) + rng.choice(["", "\n"]), "utf-8")
        planned, whole = planned_and_whole(doc, monkeypatch)
        assert planned == whole, doc.read_text("utf-8")


def test_the_plan_skips_what_holds_no_link() -> None:
    filler = "Prose without a link, " * 50 + "\n\n"  # (more than GAP: the stretches around it stay apart)
    blocks = ["http://bare.example\n\n", "```\nhttp://code.example\n```\n\n",
              "A [link](x.html) and `http://span.example`.\n\n", "http://one.example\n\n", "[two](y.html)\n\n"]
    text = filler + filler.join(blocks[:3]) + filler + "".join(blocks[3:]) + filler
    finds = [text.index(url) for url in ("http://bare", "http://code", "http://span", "http://one")]
    stretches = markdown_blocks.plan(text, finds, markdown._label, set())
    assert stretches is not None
    assert [(text[a:b], mode) for a, b, mode in stretches] == [
        (blocks[0], Mode.PROSE), (blocks[1], Mode.CODE), (blocks[2], Mode.PARSE),
        (blocks[3] + blocks[4], Mode.PARSE),  # (next to each other: one parser call)
    ]
    assert len(filler) > markdown_blocks.GAP


@pytest.mark.parametrize("text", ["- ```\n  a\n  ```\n", "    ```\n", "```\nnever closed\n",
                                  "[a]: /x\n\n[A]: /y\n", "  ```\n  a\nmargin\n  ```\n"])
def test_unclear_fences_and_twice_defined_labels_are_read_whole(text: str) -> None:
    assert markdown_blocks.plan(text, [], markdown._label, set()) is None


# -- the plan's shortcuts against its general path ------------------------------------------------------

def _whole_labels(text: str) -> set[str]:
    """The labels the parser finds in the whole document: what the plan was once given."""
    return {markdown._label(label) for label in markdown._definitions(text)} if "]:" in text else set()


def _block_labels(text: str) -> tuple[list[tuple[int, int, Mode]] | None, set[str]]:
    """The plan, and the labels it gathers from the blocks that hold a "]:"."""
    gathered: set[str] = set()

    def define(blocks: str) -> list[str]:
        return [markdown._label(label) for label in markdown._definitions(blocks)]

    return markdown_blocks.plan(text, [], markdown._label, gathered, define), gathered


_LINE = st.lists(st.sampled_from(PIECES), min_size=1, max_size=3).map(" ".join)
_DOCUMENT_LINES = st.lists(st.one_of(st.just(""), _LINE), min_size=1, max_size=30).map("\n".join)


@settings(max_examples=500)
@given(_DOCUMENT_LINES)
def test_labels_read_from_their_blocks_are_the_whole_documents(text: str) -> None:
    planned, gathered = _block_labels(text)
    whole = _whole_labels(text)
    if planned is not None:  # (a document read whole is given no labels: its parse finds its own)
        assert gathered == whole
        assert planned == markdown_blocks.plan(text, [], markdown._label, whole)


def test_labels_are_read_from_the_blocks_that_define_them_alone() -> None:
    filler = "Prose without a link, " * 50 + "\n\n"
    text = filler + "[one]: /1\n[two]: /2\n\n" + filler + "```\nv[0]: x\n```\n\n" + filler + "[Three\nWords]: /3\n"
    planned, gathered = _block_labels(text)
    assert gathered == {"one", "two", "three words"}
    assert planned is not None
    assert [(text[a:b], mode) for a, b, mode in planned] == [
        ("[one]: /1\n[two]: /2\n\n", Mode.PARSE), ("[Three\nWords]: /3\n", Mode.PARSE)]  # (the fence: skipped)


def test_a_tag_written_again_is_told_again_in_each_block() -> None:
    """The plan tells a tag's text once: each block it stands in is still parsed, and one without a URL
    attribute still is not."""
    filler = "Prose without a link, " * 50 + "\n\n"
    tag, plain = '<img src="a.png">', '<span class="x">'
    text = filler + f"{plain} one\n\n" + filler + f"{tag} two\n\n" + filler + f"{tag} three {plain}\n\n" + filler
    finds: list[int] = []
    stretches = markdown_blocks.plan(text, finds, markdown._label, set())
    assert stretches is not None
    assert [(text[a:b], mode) for a, b, mode in stretches] == [
        (f"{tag} two\n\n", Mode.PARSE), (f"{tag} three {plain}\n\n", Mode.PARSE)]


def _defined_once_searched_from_every_bracket(text: str) -> bool:
    """The test for a label defined twice without its first look for a label's end."""
    seen: set[str] = set()
    for m in markdown_blocks._DEFINED.finditer(text):
        name = markdown._label(m.group(1))
        if name in seen:
            return False
        seen.add(name)
    return True


@settings(max_examples=500)
@given(st.text(alphabet="[]:^\\ \tab\n", max_size=40))
def test_a_label_defined_twice_is_told_as_without_the_first_look(text: str) -> None:
    assert markdown_blocks._defined_once(text, markdown._label) == _defined_once_searched_from_every_bracket(text)


@pytest.mark.parametrize(("text", "once"), [
    ("[a]: /x\n[A]: /y\n", False), ("[a] : /x\n[a]\t: /y\n", False), ("[a]: /x\n[b]: /y\n", True),
    ("[a] [a] text: no definition", True), ("", True),
])
def test_a_label_defined_twice_exactly(text: str, once: bool) -> None:
    assert markdown_blocks._defined_once(text, markdown._label) is once


@pytest.mark.parametrize("units", [998, 999, 1000])
@pytest.mark.parametrize("filler", ["", "[[[", "z" * 3000, "[a] " * 700])
def test_the_longest_labels_are_told_from_their_ends(units: int, filler: str) -> None:
    """A label of 999 units (each an escape, two characters) is the longest a definition's form holds:
    its "[" stands the farthest before the "]:" the look starts from."""
    definition = "[" + "\\a" * units + "]: x\n\n"
    text = filler + definition + filler + definition
    assert markdown_blocks._defined_once(text, markdown._label) is (units == 1000)
    assert markdown_blocks._defined_once(text, markdown._label) == _defined_once_searched_from_every_bracket(text)


@settings(max_examples=300)
@given(st.lists(st.sampled_from(["[", "]", ":", " ", "\\", "^", "a", "\n", "[a]: x\n", "] :", "\\]", "x" * 1990,
                                 "\\x" * 500, "[b]:"]), max_size=12).map("".join))
def test_long_documents_tell_a_label_defined_twice_as_without_the_first_look(text: str) -> None:
    assert markdown_blocks._defined_once(text, markdown._label) == _defined_once_searched_from_every_bracket(text)


def _plan_looking_at_everything(text: str, finds: list[int], labels: set[str]) -> list[tuple[int, int, Mode]] | None:
    """The plan as first written, its general path: every tag's names and every bracketed text looked at,
    wherever they stand, and the labels of the whole document given."""
    import bisect

    from urisift.readers.html.table import NAMES

    b = markdown_blocks
    lined = "\n" + text
    fences = b._fences(lined)
    if fences is None or not _defined_once_searched_from_every_bracket(text):
        return None
    cuts = [0, *(m.end() for m in b.CUT.finditer(text)), len(text)]
    for start, end in reversed(b._unbroken(lined, fences)):
        del cuts[bisect.bisect_right(cuts, start):bisect.bisect_left(cuts, end)]
    parse: set[int] = set()
    for syntax in (b._LINK_SYNTAX, b._AUTOLINK):
        for m in syntax.finditer(text):
            parse.add(bisect.bisect_right(cuts, m.start()) - 1)
    for m in b._TAG.finditer(text):
        if any(name.lower() in NAMES for name in b.ATTRIBUTE_NAME.findall(m.group())):
            parse.add(bisect.bisect_right(cuts, m.start()) - 1)
    if labels:
        for m in b._BRACKETED.finditer(text):
            if markdown._label(m.group(1)) in labels:
                parse.add(bisect.bisect_right(cuts, m.start()) - 1)
    found = {bisect.bisect_right(cuts, at) - 1 for at in finds}
    fenced = dict(fences)
    stretches: list[tuple[int, int, Mode]] = []
    for i in sorted(parse | found):
        start, end = cuts[i], cuts[i + 1]
        close = fenced.get(start)
        if close is not None and not text[close:end].strip():
            mode = Mode.CODE if i in found else Mode.SKIP
        elif i in parse or b._NOT_PROSE.search(text, start, end) is not None or start == 0 and text[:1] in " \t":
            mode = Mode.PARSE
        else:
            mode = Mode.PROSE
        if mode is Mode.SKIP:
            continue
        if stretches and start - stretches[-1][1] < b.GAP:
            last = stretches[-1][2]
            stretches[-1] = (stretches[-1][0], end, mode if last is mode else Mode.PARSE)
        else:
            stretches.append((start, end, mode))
    return stretches


_TAGGED_PIECES = [*PIECES, '<img src="a.png">', '<span class="x" title="t">', '<a href="h.html">', "[foo]", "[Foo]",
                  "[foo]: /f", "[b  ar]", "[B AR]: /b", "x" * 1100, "\n\n", "`[foo]`"]
_TAGGED_LINES = st.lists(st.one_of(st.just(""), st.lists(st.sampled_from(_TAGGED_PIECES), min_size=1, max_size=3)
                                   .map(" ".join)), min_size=1, max_size=30).map("\n".join)


@settings(max_examples=500)
@given(_TAGGED_LINES, st.data())
def test_the_plan_is_its_general_paths(text: str, data: st.DataObject) -> None:
    """The plan's shortcuts (a tag told once, a parsed block's tags and bracketed texts passed over, the
    labels read from their blocks, a label defined twice looked for from the label ends) against its
    general path, with the scanner's finds anywhere."""
    finds = sorted(data.draw(st.lists(st.integers(0, len(text) - 1), max_size=5, unique=True))) if text else []
    whole = _whole_labels(text)
    expected = _plan_looking_at_everything(text, finds, whole)
    assert markdown_blocks.plan(text, finds, markdown._label, whole) == expected
    gathered: set[str] = set()
    assert markdown_blocks.plan(text, finds, markdown._label, gathered, lambda blocks: [
        markdown._label(label) for label in markdown._definitions(blocks)]) == expected
    if expected is not None:
        assert gathered == whole
