"""Walks, lists and kinds (issue 53), and an output inside a walked tree (issue 52):
what a directory, a list on standard input and a nameless input give."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

import urisift
from urisift import Defect, DefectKind, Record, ScanOptions, iter_input, scan_path
from urisift.cli.command import main
from urisift.pipeline.walking import wanted
from urisift.stages.sniff import sniff

from .conftest import ROOT


def _run(argv: list[str], stdin: bytes = b"", cwd: Path | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    here = os.getcwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        status = main(argv, stdin=io.BytesIO(stdin), stdout=out, stderr=err)
    finally:
        os.chdir(here)
    return status, out.getvalue(), err.getvalue()


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    for name, text in {"d/a.txt": "http://a.example/\n", "d/b.md": "http://b.example/\n",
                       "d/sub/c.txt": "http://c.example/\n", "d/node_modules/n.txt": "http://n.example/\n",
                       "d/sub/keep.log": "http://k.example/\n"}.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return tmp_path


def test_the_samples_folders_hold_only_samples() -> None:
    # the README's walks of corpora/ read the samples, not the golden files or the scripts that make them
    stray = [p.relative_to(ROOT).as_posix() for p in (ROOT / "corpora").rglob("*")
             if p.is_file() and (p.name.endswith(".expected.jsonl") or p.suffix == ".py")]
    assert stray == []
    status, out, _ = _run(["--format", "csv", "--fields", "file", "corpora/"], cwd=ROOT)
    assert status == 0 and not [line for line in out.splitlines()[1:] if line.endswith((".jsonl", ".py"))]


def test_include_exclude_and_exclude_dir_are_gnu_greps(tree: Path) -> None:
    assert _run(["--include=*.txt", "--exclude-dir=node_modules", "d"], cwd=tree)[1] == (
        "http://a.example/\nhttp://c.example/\n")
    assert _run(["--exclude=*.txt", "--exclude=*.log", "d"], cwd=tree)[1] == "http://b.example/\n"
    # the last filter that matches decides; none matching: read, unless the first is an --include
    assert _run(["--include=*.txt", "--exclude=c.txt", "d/sub"], cwd=tree)[1] == ""
    assert _run(["--exclude=*.txt", "--include=c.txt", "d/sub"], cwd=tree)[1] == (
        "http://c.example/\nhttp://k.example/\n")
    # a file named on the command line too, by a name suffix of its path
    assert _run(["--exclude=sub/c.txt", "d/sub/c.txt", "d/a.txt"], cwd=tree)[1] == "http://a.example/\n"
    assert _run(["--exclude-dir=sub", "d"], cwd=tree)[1] == (
        "http://a.example/\nhttp://b.example/\nhttp://n.example/\n")


@pytest.mark.parametrize("path, filters, expected", [
    ("a.txt", [], True),
    ("a.txt", [("include", "*.md")], False),
    ("a.txt", [("exclude", "*.md")], True),
    ("d/sub/c.txt", [("exclude", "sub/*.txt")], False),
    # GNU grep's globs are fnmatch's without FNM_PATHNAME: * matches a slash too
    ("d/sub/c.txt", [("exclude", "d/*.txt")], False),
    ("c.txt", [("include", "*.txt"), ("exclude", "c.*")], False),
    ("c.txt", [("exclude", "c.*"), ("include", "*.txt")], True),
])
def test_wanted_follows_the_last_filter_that_matches(path: str, filters: list[tuple[str, str]],
                                                     expected: bool) -> None:
    assert wanted(path, filters) is expected


def test_an_output_file_inside_a_walked_directory_is_refused_before_it_is_emptied(tree: Path) -> None:
    links = tree / "d" / "links.txt"
    links.write_text("the last run's links\n")
    status, out, err = _run(["-o", "d/links.txt", "d"], cwd=tree)
    assert status == 2 and out == ""
    assert err == ("urisift: 'd/links.txt' is also an input: the walk meets it as 'd/links.txt' (write the output "
                   "elsewhere, or leave it out with --exclude)\n")
    assert links.read_text() == "the last run's links\n"
    status, _, err = _run(["-o", "d/links.txt", "--exclude=links.txt", "d"], cwd=tree)
    assert status == 0 and err == ""
    assert links.read_text().splitlines() == ["http://a.example/", "http://b.example/", "http://n.example/",
                                              "http://c.example/", "http://k.example/"]


def test_from_list_dash_reads_the_list_from_standard_input(tree: Path) -> None:
    assert _run(["--from-list", "-"], stdin=b"d/a.txt\n# a comment\n\nd/b.md\n", cwd=tree) == (
        0, "http://a.example/\nhttp://b.example/\n", "")
    assert _run(["--from-list", "-"], stdin=b"", cwd=tree) == (0, "", "")  # an empty list: nothing to read
    status, _, err = _run(["--from-list", "-", "-"], stdin=b"d/a.txt\n", cwd=tree)
    assert status == 2 and "cannot be an input too" in err


def _keys(items: list[Record | Defect]) -> list[tuple[object, ...]]:
    return [("defect", i.kind, i.file) if isinstance(i, Defect) else (i.file, i.uri, i.target, i.base, i.line)
            for i in items]


def test_the_library_walks_a_directory_as_the_command_does(tmp_path: Path) -> None:
    (tmp_path / "site" / "a").mkdir(parents=True)
    (tmp_path / "site" / "a" / "p.html").write_text('<a href="../b.html">x</a>')
    (tmp_path / "site" / "index.md").write_text("[a](a/p.html)\n")
    records = list(scan_path(tmp_path / "site", base="https://s.example/"))
    assert [(r.file.rsplit("site/", 1)[1], r.target) for r in records if isinstance(r, Record)] == [
        ("index.md", "https://s.example/a/p.html"), ("a/p.html", "https://s.example/b.html")]
    # a directory under a root: its files' paths under the root
    under = list(scan_path(tmp_path / "site" / "a", root=tmp_path / "site", base="https://s.example/"))
    assert [r.base for r in under if isinstance(r, Record)] == ["https://s.example/a/p.html"]
    # a Maildir, through iter_input, gives what the command gives for it
    maildir = ROOT / "corpora" / "mail"
    status, out, _ = _run(["--format", "jsonl", str(maildir)])
    lines = [line for line in out.splitlines() if '"defect"' not in line]
    library = [i for i in iter_input(str(maildir), ScanOptions()) if isinstance(i, Record)]
    # (17 of them the Outlook samples: report.msg and winmail.dat)
    assert status == 0 and len(library) == len(lines) == 40
    assert [urisift.record_line(r) for r in library] == lines


def test_markdown_on_standard_input_that_opens_with_a_comment_keeps_its_autolinks() -> None:
    document = b"<!-- licence: MIT -->\n# Title\n\nSee <https://a.example/x> and [b](https://b.example/).\n"
    status, out, err = _run(["-"], stdin=document)
    assert status == 0 and out == "https://a.example/x\nhttps://b.example/\n"
    assert err == ("urisift: -: uncertain-kind: it begins with an HTML comment, and then looks like Markdown (an "
                   "ATX heading, a fenced block, an inline link or a link reference definition); read as plain "
                   "text: --kind markdown reads it as Markdown, --kind html as HTML\n")
    # a page that opens with a comment is still a page
    assert sniff(b"<!-- c --><p>hi <a href=x>", "-").kind is urisift.Kind.HTML


@pytest.mark.parametrize("document, said", [
    (b"\\documentclass{article}\n\\url{https://x.example/}\n", "LaTeX (a \\documentclass or \\begin{document}); "
                                                               "read as plain text: --kind latex"),
    (b"@article{k,\n url = {https://x.example/}}\n", "BibTeX (an @entry{); read as plain text: --kind bibtex"),
    (b"#+TITLE: notes\n[[https://x.example/][x]]\n", "Org (a #+ keyword line); read as plain text: --kind org"),
    (b"= Guide\n:toc:\n\nSee https://x.example/ now.\n", "AsciiDoc (a document title and attribute lines); read as "
                                                   "plain text: --kind asciidoc"),
    (b".. _x: https://x.example/\n", "reStructuredText (a directive or a hyperlink target); read as plain text: "
                                     "--kind rst"),
    (b"## Notes\n\nhttps://x.example/\n", "Markdown (an ATX heading, a fenced block, an inline link or a link "
                                          "reference definition); read as plain text: --kind markdown"),
])
def test_markup_on_standard_input_without_kind_is_said(document: bytes, said: str) -> None:
    items = list(iter_input("-", ScanOptions(), stdin=io.BytesIO(document)))
    assert isinstance(items[0], Defect) and items[0].kind is DefectKind.UNCERTAIN_KIND
    assert items[0].detail.startswith("it looks like " + said)
    assert [i.target for i in items[1:] if isinstance(i, Record)] == ["https://x.example/"]
    # the same bytes in a file whose name says nothing of a kind: no note (a name was there to say it)
    assert sniff(document, "notes").doubt is None
