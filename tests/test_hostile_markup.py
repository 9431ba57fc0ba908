"""The markup readers under hostile input (issue 52): each class of the
hostile sweep, on the shape that found it, read in linear time, with its
clock looked at while it works, and the link after the fault still found."""

from __future__ import annotations

import gzip
import io
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from urisift import Kind, ScanOptions, iter_input
from urisift.model import Content, Defect, Origin, Record, Tally
from urisift.readers.markup import read_asciidoc, read_bibtex, read_latex, read_org, read_rst
from urisift.stages.base import retrieval_layers

from .adversarial import assert_linear
from .conftest import run_cli


def _read(kind: str, data: bytes) -> list[Record | Defect]:
    return list(iter_input("-", ScanOptions(kind=Kind(kind)), stdin=io.BytesIO(data)))


def _links(kind: str, data: bytes) -> list[tuple[str, str | None, tuple[str, ...], int | None]]:
    """Each record's URI, element, flags and line; defects left out."""
    return [(item.uri, item.element, tuple(flag.value for flag in item.flags), item.line)
            for item in _read(kind, data) if isinstance(item, Record)]


AFTER = b"\nhttp://after.example/\n"

#: the shapes on which a scanner searched again from the same place: kind, the shape of n characters
QUADRATIC: dict[str, tuple[str, Callable[[int], bytes]]] = {
    "AsciiDoc: a word of http://": ("asciidoc", lambda n: b"http://" * (n // 7)),
    "AsciiDoc: a word of link:": ("asciidoc", lambda n: b"link:" * (n // 5)),
    "AsciiDoc: a word of xref:": ("asciidoc", lambda n: b"xref:" * (n // 5)),
    "AsciiDoc: unclosed <<a,": ("asciidoc", lambda n: b"<<a," * (n // 4)),
    "Org: quote blocks before one end": ("org", lambda n: b"#+begin_quote\n" * (n // 14) + b"#+end_quote\n"),
    "Org: blocks of as many names never ended": (
        "org", lambda n: b"".join(b"#+begin_n%d\n" % i for i in range(n // 14))),
    "LaTeX: \\verb on one line": ("latex", lambda n: b"\\verb!x! " * (n // 9)),
    "LaTeX: unclosed \\verb on one line": ("latex", lambda n: b"\\verb!x " * (n // 8)),
    "BibTeX: quoted url fields on one line": ("bibtex", lambda n: b'url = "http://u.example/" ' * (n // 27)),
}
#: the sizes each is timed at (characters): the old scanners took 16 s on 140 KB of the first
_SIZES = {"latex": (500_000, 2_000_000), "bibtex": (1_000_000, 4_000_000)}


@pytest.mark.parametrize("name", sorted(QUADRATIC))
def test_each_scanner_is_linear_on_its_shape_and_finds_the_link_after_it(name: str) -> None:
    kind, shape = QUADRATIC[name]
    small, large = _SIZES.get(kind, (40_000, 160_000))
    assert_linear(lambda n: _read(kind, shape(n) + AFTER), small, large)
    assert _links(kind, shape(4000) + AFTER)[-1] == ("http://after.example/", "a", (), shape(4000).count(b"\n") + 2)


class _Expiring:
    """A budget whose time is up at its first look at the clock."""

    def __init__(self) -> None:
        self.looks = 0

    def expired(self) -> bool:
        self.looks += 1
        return True

    def over_time(self, what: str, origin: Origin) -> Defect:
        from urisift.stages.containment import Budget, Limits

        return Budget.over_time(Budget(Limits(seconds=1.0)), what, origin)


#: a document of a link construct repeated over 1.5 million characters, each kind's
STREAMED = {
    "rst": (read_rst, b".. _t: http://t.example/\n\n" + b"t_ " * 500_000),
    "latex": (read_latex, b"\\url{http://l.example/} " * 62_500),
    "bibtex": (read_bibtex, b"url = {http://b.example/} " * 57_700),
    "org": (read_org, b"[[http://o.example/]] " * 68_200),
    "asciidoc": (read_asciidoc, b"link:http://a.example/[a] " * 57_700),
}


@pytest.mark.parametrize("kind", sorted(STREAMED))
def test_each_scanner_hands_on_its_marks_and_looks_at_the_clock_while_it_works(kind: str) -> None:
    reader, data = STREAMED[kind]
    layer, _ = retrieval_layers(None, Origin(file="x"))
    budget = _Expiring()
    content = Content(data.decode(), Kind(kind), Origin(file="x"), layer, budget=budget)  # type: ignore[arg-type]
    items = list(reader(content, ScanOptions(kind=Kind(kind)), Tally()))
    defects = [item for item in items if isinstance(item, Defect)]
    records = [item for item in items if isinstance(item, Record)]
    # the first batch's records (its first million characters), then the defect: the rest was not scanned
    assert len(defects) == 1 and defects[-1] is items[-1]
    assert defects[0].kind.value == "bomb" and "time budget" in defects[0].detail
    at = int(defects[0].detail.rsplit("from character ", 1)[1].split(")")[0])
    assert 1 << 20 <= at < (1 << 20) + 100
    assert len(records) > 0 and all(record.span.start < at for record in records)  # type: ignore[union-attr]
    assert records[-1].span.start > at - 100  # type: ignore[union-attr]


def test_markdown_over_4_mib_reads_an_unclosed_fence_to_its_end() -> None:
    # (no blank line in it: a piece was cut at a line's start, and the next read as prose)
    data = b"intro http://a.example/\n\n```\n" + b"see http://x.example/ now\n" * 200_000 + AFTER
    links = _links("markdown", data)
    assert len(data) > 4 << 20
    assert links[0] == ("http://a.example/", "a", (), 1)
    assert len(links) == 200_002 and all(link[2] == ("code",) for link in links[1:])
    assert links[-1] == ("http://after.example/", None, ("code",), 4 + 200_000 + 1)


@pytest.mark.parametrize("opener", [b"<!--", b"<script>"])
def test_markdown_over_4_mib_reads_an_unclosed_html_block_to_its_end(opener: bytes) -> None:
    data = b"intro http://a.example/\n\n" + opener + b"\n" + b'<a href="http://x.example/">x</a>\n' * 150_000
    assert len(data) > 4 << 20
    assert _links("markdown", data + AFTER) == [("http://a.example/", "a", (), 1)]


def test_markdown_over_4_mib_reads_a_closed_fence_and_what_follows_it() -> None:
    data = b"```\n" + b"see http://x.example/ now\n\nmore\n" * 150_000 + b"```\n\n[a](http://after.example/)\n"
    links = _links("markdown", data)
    assert len(links) == 150_001 and all(link[2] == ("code",) for link in links[:-1])
    assert links[-1] == ("http://after.example/", "a", (), 2 + 3 * 150_000 + 2)


def test_a_footnote_definition_is_no_link_reference_definition() -> None:
    data = b"See[^m] and [b][m].\n\n[^m]: [a](https://y.example/)\n\n[m]: https://m.example/\n"
    assert _links("markdown", data) == [("https://m.example/", "a", (), 1), ("https://y.example/", "a", (), 3),
                                        ("https://m.example/", None, (), 5)]


def _cell(uri: str) -> dict[str, object]:
    return {"cell_type": "markdown", "source": f"see {uri}"}


def _notebook(data: str) -> list[tuple[str, str]]:
    return [(item.kind.value, item.detail) if isinstance(item, Defect) else ("record", item.uri)
            for item in _read("notebook", data.encode())]


def test_a_notebook_field_of_the_wrong_type_is_a_defect_and_the_cells_after_it_are_read() -> None:
    data = {"cells": [{"cell_type": "code", "source": "x", "outputs": True}, _cell("http://after.example/")]}
    assert _notebook(json.dumps(data)) == [
        ("broken-document", "cell 0's 'outputs' is bool, not a list: not read"), ("record", "http://after.example/")]
    assert _notebook(json.dumps({"worksheets": 7})) == [
        ("broken-document", "the notebook's 'worksheets' is int, not a list: not read")]
    data = {"worksheets": [{"cells": 5}, {"cells": [_cell("http://after.example/")]}]}
    assert _notebook(json.dumps(data)) == [
        ("broken-document", "worksheet 0's 'cells' is int, not a list: not read"), ("record", "http://after.example/")]
    data = {"cells": [{"cell_type": "code", "source": "", "outputs": [{"traceback": 3}, {"text": "http://t.example/"}]}]}
    assert _notebook(json.dumps(data)) == [("record", "http://t.example/")]


def test_a_notebook_value_nested_1000_deep_is_read_as_null_and_the_cells_after_it_are_read() -> None:
    deep = "[" * 1000 + '"http://lost.example/"' + "]" * 1000
    data = ('{"cells": [{"cell_type": "raw", "metadata": {"m": ' + deep + '}, "source": "http://a.example/"}, '
            + json.dumps(_cell("http://after.example/")) + "]}")
    at = data.index("[" * 1000) + 196  # (the notebook's object, its cells, a cell, its metadata: four deep)
    assert _notebook(data) == [
        ("broken-document", f"a value nested more than 200 deep (at character {at}): read as null"),
        ("record", "http://a.example/"), ("record", "http://after.example/")]


def test_each_page_of_a_mediawiki_dump_has_its_own_inflate_budget(tmp_path: Path) -> None:
    page = ("<page><title>P{n}</title><revision><id>{n}</id><text>" + "word " * 20_000
            + "https://p{n}.example/</text></revision></page>\n")
    dump = ('<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.11/">\n'
            + "".join(page.format(n=n) for n in range(40)) + "</mediawiki>\n")
    path = tmp_path / "pages.xml.gz"
    path.write_bytes(gzip.compress(dump.encode()))
    code, out, err = run_cli(["--format", "jsonl", "--fields", "uri,part", "--inflate-budget", "400000", str(path)])
    assert len(dump) > 10 * 400_000
    assert (code, err) == (0, "")
    assert [json.loads(line) for line in out.splitlines()] == [
        {"uri": f"https://p{n}.example/", "part": f"P{n}#{n}"} for n in range(40)]


@pytest.mark.parametrize("shape", ["pre", "fence"])
def test_markdown_looks_at_the_clock_inside_a_piece_the_parser_reads_whole(shape: str) -> None:
    # a <pre> left open runs to the end (CommonMark §4.6: no cut inside it), and a fence in a list item
    # never closed makes the whole document one piece: the clock was looked at only before it
    from urisift.readers.markup.markdown import read_markdown

    if shape == "pre":
        text = "# t\n\n<pre>\n" + "line https://x.example/ and more\n" * 300_000
    else:
        text = "- item\n\n  ```\n" + "  code https://c.example/ here\n" * 300_000
    from urisift.stages.containment import Budget, Limits

    layer, _ = retrieval_layers(None, Origin(file="x"))
    content = Content(text, Kind.MARKDOWN, Origin(file="x"), layer, budget=Budget(Limits(seconds=0.0)))
    items = list(read_markdown(content, ScanOptions(kind=Kind.MARKDOWN), Tally()))
    defects = [item for item in items if isinstance(item, Defect)]
    # (the raw HTML the parser's events reached comes after, as nested content: the scan reads it against
    # the same budget, which is up)
    assert len(defects) == 1 and "time budget" in defects[0].detail
    assert defects[0] is [item for item in items if not isinstance(item, Content)][-1]
    # stopped at the first look, a few thousand events or finds in, not after 300,000 lines
    assert len([item for item in items if isinstance(item, Record)]) < 20_000
