"""Issue 37, "finding things": --help names audit, urisift-spark and every
kind read; -V; a LICENSE and the licence in the package's metadata; a man
page and shell completions made from the parser itself; help(urisift)
opens with a map of the public names."""

from __future__ import annotations

import io
import pydoc
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

import urisift
from urisift.cli.command import main
from urisift.cli.parser import parser

from .conftest import ROOT


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_help_names_the_other_commands_and_every_kind_read() -> None:
    code, out, _ = run(["--help"])
    assert code == 0
    for line in (
        "  urisift audit WARC...                      what a crawl missed: each page's outlinks captured or not",
        "  urisift-spark ...                          the same scan as a Spark job (pip install 'urisift[spark]';",
        "what it reads (--kind auto tells each input's kind): plain text, HTML and XHTML, mail (a message,",
        "mbox, Maildir, MHTML), web archives (WARC, ARC), style sheets (CSS), the XML family (Atom, RSS,",
        "sitemaps, OPML, SVG), robots.txt, PDF (pip install 'urisift[pdf]'), office files (OOXML .docx .xlsx",
        "  urisift --help-man, --completion SHELL     the manual page (man -l -), bash or zsh completion",
    ):
        assert line in out.splitlines()


def test_v_is_version() -> None:
    from urisift.cli.parser import build

    # and which build it is (setup.py: its hot modules compiled by mypyc, or pure Python)
    assert build() in ("compiled with mypyc and C", "compiled with mypyc", "compiled with C", "pure Python")
    assert run(["-V"]) == run(["--version"]) == (0, f"urisift {urisift.__version__} ({build()})\n", "")


def test_the_licence_is_in_the_tree_and_the_metadata() -> None:
    licence = (ROOT / "LICENSE").read_text("utf-8")
    assert licence.startswith("MIT License\n\nCopyright (c) 2026 urisift contributors\n")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    assert (project["license"], project["license-files"]) == ("MIT", ["LICENSE"])


def test_the_man_page_is_the_parsers_and_roff_reads_it_cleanly() -> None:
    code, page, _ = run(["--help-man"])
    assert code == 0 and page.startswith(f'.TH URISIFT 1 "" "urisift {urisift.__version__}" "User Commands"\n.SH NAME\n'
                                         "urisift \\- find the URI references of text, mail, HTML, web archives and "
                                         "documents, and resolve them\n")
    for action in parser()._actions:
        for flag in action.option_strings:  # every option, with its help
            assert f"\\fB{flag.replace('-', chr(92) + '-')}\\fR" in page
    if shutil.which("groff") is None:
        pytest.skip("groff is not installed")
    rendered = subprocess.run(["groff", "-man", "-Tutf8", "-ww"], input=page.encode(), capture_output=True,
                              timeout=60)
    assert rendered.stderr == b""
    text = re.sub(r".\x08", "", rendered.stdout.decode())  # (overstrike: bold and underline)
    assert "urisift audit [OPTIONS] WARC ..." in text and "--timeout SECONDS" in text


def test_bash_completion_completes_options_their_values_and_files(tmp_path: Path) -> None:
    if shutil.which("bash") is None:
        pytest.skip("bash is not installed")
    code, script, _ = run(["--completion", "bash"])
    (tmp_path / "completion.bash").write_text(script)
    (tmp_path / "notes.txt").write_text("x")

    def complete(*words: str) -> list[str]:
        line = " ".join(f"'{w}'" for w in words)
        done = subprocess.run(
            ["bash", "-c", f"source completion.bash; COMP_WORDS=({line}); COMP_CWORD={len(words) - 1}; _urisift; "
                           'printf "%s\\n" "${COMPREPLY[@]}"'], capture_output=True, text=True, cwd=tmp_path,
            timeout=60)
        assert done.stderr == ""
        return done.stdout.split()

    assert code == 0
    assert complete("urisift", "--for") == ["--format"]
    assert complete("urisift", "--format", "j") == ["jsonl"]
    assert complete("urisift", "--kind", "") == [k.value for k in urisift.Kind]
    assert complete("urisift", "--defects", "c") == ["count"]
    assert complete("urisift", "-o", "no") == ["notes.txt"]
    assert complete("urisift", "--base", "") == []
    assert complete("urisift", "au") == ["audit"]
    assert complete("urisift", "x", "no") == ["notes.txt"]


def test_zsh_completion_names_every_option() -> None:
    code, script, _ = run(["--completion", "zsh"])
    assert code == 0 and script.startswith("#compdef urisift\n")
    for action in parser()._actions:
        for flag in action.option_strings:
            assert re.search(rf"['{{,]{re.escape(flag)}[\[',}}]", script), flag
    assert ("'--kind[what the inputs hold]:kind:(auto text html mail mbox maildir emlx msg tnef pst warc css xml "
            "robots pdf office markdown notebook rst asciidoc org latex bibtex wikitext calendar vcard csv archive "
            "epub image)'" in script)
    if shutil.which("zsh") is not None:
        assert subprocess.run(["zsh", "-n"], input=script.encode(), timeout=60).returncode == 0


def test_help_of_the_package_opens_with_the_map_of_its_public_names() -> None:
    text = pydoc.render_doc(urisift, renderer=pydoc.plaintext)
    description = text.split("DESCRIPTION\n", 1)[1].split("\nPACKAGE CONTENTS", 1)[0]
    named = set(re.findall(r"[A-Za-z_]+", description))
    assert set(urisift.__all__) <= named
    # the enums and the errors list what they define, not every method of str or Exception
    assert "capitalize" not in text and "with_traceback" not in text
    assert dir(urisift.Kind)[:3] == ["ARCHIVE", "ASCIIDOC", "AUTO"]
    assert len(text.splitlines()) < 2600  # (5,459 before issue 37; the fields and Region of issues 36 and 39 since)
