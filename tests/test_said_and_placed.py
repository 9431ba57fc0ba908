"""Issue 53: where a reference stands in the file (file_line, file_column), a docs tree as
published (--published-as), and what the command says."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from urisift import Defect, DefectKind, Origin, Record, ScanOptions, iter_input, scan_path
from urisift.cli.command import main
from urisift.output.writing import line_of
from urisift.stages.publishing import published_uri

from .conftest import ROOT


def _run(argv: list[str], cwd: Path = ROOT) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    here = os.getcwd()
    os.chdir(cwd)
    try:
        status = main(argv, stdout=out, stderr=err)
    finally:
        os.chdir(here)
    return status, out.getvalue(), err.getvalue()


def test_a_mail_parts_link_has_the_files_line_as_a_key() -> None:
    status, out, _ = _run(["--format", "csv", "--fields", "uri,line,file_line,file_column,part",
                           "corpora/mail/forwarded.eml"])
    assert status == 0
    assert out.splitlines() == [
        "uri,line,file_line,file_column,part",
        "http://subject.example/notes,,4,26,",
        "mailto:leave@lists.example.org,,10,20,",
        "http://lists.example.org/leave,,10,54,",
        "archive/2006/,,11,16,",
        "old-notes.html,1,16,46,1",  # line 16 of the file; line 1 of its part
        "current.html,1,29,24,2.1",
        "http://photos.example.com/2006/caf%C3%A9/index.html,1,29,56,2.1"]


def test_file_line_is_where_dash_h_says_and_null_where_the_text_is_not_in_the_file() -> None:
    inputs = ["corpora/mail/", "corpora/text/prose.txt", "corpora/warc/plain.warc"]
    _, located, _ = _run(["-H", *inputs])
    _, out, _ = _run(["--format", "jsonl", "--fields", "file,file_line,file_column", *inputs])
    rows = [json.loads(line) for line in out.splitlines() if '"defect"' not in line]
    assert len(rows) == len(located.splitlines()) >= 40
    for row, line in zip(rows, located.splitlines(), strict=True):
        where = line[len(row["file"]) + 1:].split(":", 2)
        if row["file_line"] is None:
            assert "/" in where[0]  # a part whose text is not in the file as written: -H names the part
        else:
            assert where[:2] == [str(row["file_line"]), "-" if row["file_column"] is None else str(row["file_column"])]
    # an mbox's base64 part has none; a file's own text has its line and column
    mbox = [r for r in rows if r["file"].endswith("archive.mbox")]
    assert [(r["file_line"], r["file_column"]) for r in mbox] == [(7, 9), (8, 25), (None, None), (30, 34)]


def test_the_library_gives_the_files_line_when_asked() -> None:
    options = ScanOptions(fields=frozenset({"uri", "file_line", "file_column"}))
    assert options.locations is True
    records = [r for r in iter_input(str(ROOT / "corpora" / "mail" / "forwarded.eml"), options)
               if isinstance(r, Record)]
    from urisift.output.records import file_place

    assert [file_place(r) for r in records][4] == (16, 46)


@pytest.mark.parametrize("mode, page, link, index", [
    ("html", "https://d.example/guide/x.html", "https://d.example/guide/y.html#part",
     "https://d.example/guide/index.html"),
    ("dir", "https://d.example/guide/x/", "https://d.example/guide/y/#part", "https://d.example/guide/"),
    ("bare", "https://d.example/guide/x", "https://d.example/guide/y#part", "https://d.example/guide/"),
])
def test_a_docs_tree_is_resolved_as_published(tmp_path: Path, mode: str, page: str, link: str, index: str) -> None:
    (tmp_path / "guide").mkdir()
    (tmp_path / "guide" / "x.md").write_text("[y](y.md#part) [i](index.md) ![p](img/p.png) "
                                             "[abs](https://o.example/a.md)\n")
    status, out, _ = _run(["--base", "https://d.example/", "--published-as", mode, "--format", "jsonl", "--fields",
                           "uri,target", "."], cwd=tmp_path)
    assert status == 0
    assert [json.loads(line)["target"] for line in out.splitlines()] == [
        link, index, "https://d.example/guide/img/p.png", "https://o.example/a.md"]
    _, edges, _ = _run(["--base", "https://d.example/", "--published-as", mode, "--format", "edges", "."],
                       cwd=tmp_path)
    assert {line.split("\t")[0] for line in edges.splitlines()} == {page}
    # the library: the same targets
    library = [r.target for r in scan_path(tmp_path / "guide", base="https://d.example/guide/", published_as=mode)
               if isinstance(r, Record)]
    assert library == [link, index, "https://d.example/guide/img/p.png", "https://o.example/a.md"]


def test_published_uri_keeps_what_is_no_source() -> None:
    assert published_uri("https://d.example/a.png", "html") == "https://d.example/a.png"
    assert published_uri("https://d.example/README.md?x=1", "html") == "https://d.example/index.html?x=1"
    assert published_uri("https://d.example/a/notes.rst", "dir") == "https://d.example/a/notes/"
    with pytest.raises(ValueError, match="published_as must be one of"):
        ScanOptions(published_as="site")


def test_the_help_names_every_kind_of_markup() -> None:
    _, out, _ = _run(["--help"])
    text = " ".join(out.split())
    for kind in ("Markdown", "reStructuredText", "AsciiDoc", "Org", "LaTeX", "BibTeX", "wikitext"):
        assert kind in text


def test_a_misspelt_field_gets_a_did_you_mean() -> None:
    status, _, err = _run(["--fields", "targt", "x"])
    assert status == 2
    assert err == "urisift: argument --fields: unknown field 'targt' (did you mean target?) (see urisift --help)\n"


def test_a_defect_line_escapes_a_control_character_as_dash_h_does() -> None:
    defect = Defect(DefectKind.UNREADABLE, "No such file or directory", Origin(file="a\nb\x1b.txt"))
    assert line_of(defect) == "urisift: a\\x0ab\\x1b.txt: cannot read: No such file or directory\n"
    other = Defect(DefectKind.BROKEN_MIME, "bad part", Origin(file="m\n.eml"))
    assert line_of(other) == "urisift: m\\x0a.eml: broken-mime: bad part\n"


def test_urisift_spark_says_its_version_and_its_formats() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "COLUMNS": "300"}  # (help wrapped at no hyphen)
    version = subprocess.run([sys.executable, "-m", "urisift.spark.driver", "-V"], capture_output=True, text=True,
                             env=env, timeout=60, check=False)
    assert version.returncode == 0 and version.stdout.startswith("urisift-spark 0.") and version.stderr == ""
    helped = subprocess.run([sys.executable, "-m", "urisift.spark.driver", "--help"], capture_output=True,
                            text=True, env=env, timeout=60, check=False)
    assert "edge-counts: edge-counts/ of JSON lines" in " ".join(helped.stdout.split())
