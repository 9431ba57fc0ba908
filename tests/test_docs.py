"""The documentation site (docs/, mkdocs.yml) says what the code does: its Python examples run as
doctests, its command lines run on the repository's samples, its generated pages cover the
parser's options, the record contract and the defect kinds, and its link check finds a broken
link.  The last test builds the site itself, with mkdocs, and skips without the docs extra."""

from __future__ import annotations

import doctest
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from .conftest import ROOT, load_script

DOCS = ROOT / "docs"
PAGES = sorted(DOCS.rglob("*.md"))
NOT_RUN = "<!-- not run -->"


def _module(name: str) -> ModuleType:
    return load_script(DOCS / f"{name}.py", f"urisift_docs_{name}")


hooks = _module("hooks")


def _blocks(text: str, language: str) -> list[tuple[str, bool]]:
    """Each fenced block of ``language``: (its text, whether a not-run comment stands before it)."""
    found = []
    for match in re.finditer(rf"^```{language}\n(.*?)^```", text, re.S | re.M):
        before = text[:match.start()].rstrip("\n").rsplit("\n", 1)[-1]
        found.append((match.group(1), before.strip() == NOT_RUN))
    return found


def _python_examples() -> list[tuple[str, int, str]]:
    return [(str(page.relative_to(ROOT)), i, block) for page in PAGES
            for i, (block, _) in enumerate(_blocks(page.read_text("utf-8"), "python")) if ">>>" in block]


def _commands() -> list[tuple[str, str]]:
    """Every line of a ```sh block of the README or docs/ that starts with 'urisift ', but in not-run blocks."""
    found = []
    for page in [ROOT / "README.md", *PAGES]:
        for block, not_run in _blocks(page.read_text("utf-8"), "sh"):
            if not_run:
                continue
            found += [(str(page.relative_to(ROOT)), line.strip()) for line in block.splitlines()
                      if line.startswith("urisift ")]
    return found


def test_the_docs_have_examples_of_both_kinds() -> None:
    assert len(_python_examples()) >= 10
    assert len(_commands()) >= 20


@pytest.mark.parametrize(("page", "index", "block"), _python_examples(),
                         ids=[f"{p}:{i}" for p, i, _ in _python_examples()])
def test_a_python_example_of_the_docs_runs(page: str, index: int, block: str,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    # exact outputs (no option flags), run from the repository's root, where corpora/ is
    monkeypatch.chdir(ROOT)
    test = doctest.DocTestParser().get_doctest(block, {}, f"{page} block {index}", page, 0)
    runner = doctest.DocTestRunner(optionflags=0)
    runner.run(test)
    assert runner.failures == 0 and runner.tries > 0


@pytest.mark.parametrize(("page", "command"), _commands(), ids=[c for _, c in _commands()])
def test_a_command_line_of_the_docs_runs_on_the_samples(page: str, command: str, tmp_path: Path) -> None:
    # run where its outputs (-o FILE) land in a temporary directory and corpora/ is the repository's
    (tmp_path / "corpora").symlink_to(ROOT / "corpora")
    program = f"{shlex.quote(sys.executable)} -m urisift"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "src"),
                                                                      os.environ.get("PYTHONPATH")]))}
    done = subprocess.run(["bash", "-o", "pipefail", "-c", program + command.removeprefix("urisift")],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, f"{page}: {command}\n{done.stderr[-2000:]}"


def test_the_command_page_covers_every_option_of_the_parser() -> None:
    from urisift.cli.parser import parser

    assert "<!-- generated: cli-options -->" in (DOCS / "cli.md").read_text("utf-8")
    page = hooks.expand((DOCS / "cli.md").read_text("utf-8"))
    actions = hooks.options(parser())
    assert {a.dest for a in actions} >= {"paths", "format", "fields", "base", "kind", "jobs", "completion"}
    for action in actions:
        for flag in action.option_strings:
            assert f"`{flag}" in page, flag
        assert " ".join((action.help or "").split()).replace("<", "&lt;") in page, action.dest
    assert (parser().epilog or "").strip() in page


def test_the_records_page_lists_the_record_keys_in_the_order_the_output_has_them() -> None:
    from urisift.output.records import RECORD_KEYS

    text = (DOCS / "reference" / "records.md").read_text("utf-8")
    assert "<!-- generated: record-keys -->" in text
    page = hooks.expand(text)
    rows = re.findall(r"^\| `(\w+)` \|", page, re.M)
    assert rows == [*RECORD_KEYS, "region", "context", "normalized", "file_line", "file_column"]
    # every key has words, not just a type
    assert all(len(text) > 10 for _, _, text in hooks.record_rows())


def test_the_defects_page_lists_every_defect_kind_and_key() -> None:
    from urisift.model import DefectKind
    from urisift.output.records import DEFECT_KEYS

    page = hooks.expand((DOCS / "reference" / "defects.md").read_text("utf-8"))
    kinds = dict(hooks.defect_kinds())
    assert list(kinds) == [kind.value for kind in DefectKind]
    assert all(kinds.values()), [k for k, v in kinds.items() if not v]
    for value in kinds:
        assert f"| `{value}` |" in page
    for key in DEFECT_KEYS:
        assert f"| `{key}` |" in page


def test_no_page_cites_a_document_outside_the_repository() -> None:
    for page in [ROOT / "README.md", *PAGES]:
        text = page.read_text("utf-8")
        assert not re.search(r"DESIGN §|\bissue \d", text), page


def test_the_link_check_finds_a_link_to_a_missing_file(tmp_path: Path) -> None:
    check_links = _module("check_links")
    (tmp_path / "a").mkdir()
    (tmp_path / "index.html").write_text('<a href="a/page.html#x">p</a> <img src="gone.png"> '
                                         '<a href="https://elsewhere.example/gone.html">out</a>')
    (tmp_path / "a" / "page.html").write_text('<a href="../index.html">home</a> <a href="./">here</a>')
    checked: list[int] = []
    broken = list(check_links.broken_links(tmp_path, checked))
    assert len(checked) == 4
    assert broken == ["a/page.html:1: <a href> -> a/: no such file in the site",
                      "index.html:1: <img src> -> gone.png: no such file in the site"]


def test_the_site_builds_strictly_and_its_links_hold(tmp_path: Path) -> None:
    for tool in ("mkdocs", "material", "mkdocstrings_handlers.python", "matplotlib"):
        pytest.importorskip(tool)
    site = tmp_path / "site"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    built = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
                           cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert built.returncode == 0, built.stderr[-3000:]
    check_links = _module("check_links")
    checked: list[int] = []
    assert list(check_links.broken_links(site, checked)) == []
    assert len(checked) > 100
    api = (site / "reference" / "api.html").read_text("utf-8")
    import urisift

    for name in urisift.__all__:
        assert re.search(rf'id="urisift\.(?:{name}\.)?{name}"', api), name
    assert not hooks.ROLE.search(api)  # no Sphinx role left raw in a rendered docstring


def test_a_docstrings_role_becomes_code_or_a_link_to_its_entry() -> None:
    page = '<h2 id="urisift.Record"></h2> see :class:<code>~urisift.Record</code> and :func:<code>helper</code>'
    assert hooks.roles(page) == ('<h2 id="urisift.Record"></h2> see <a href="#urisift.Record"><code>Record</code></a>'
                                 ' and <code>helper</code>')
