"""The code cites its map, ARCHITECTURE.md, by the names of its sections,
and no file outside the repository; a docstring keeps the why of a change
and leaves its history to the commit message."""

from __future__ import annotations

import re

from .conftest import ROOT

SOURCES = [p for p in (ROOT / "src" / "urisift").rglob("*") if p.suffix in {".py", ".pyi", ".c", ".json"}]


def _headings() -> set[str]:
    text = (ROOT / "ARCHITECTURE.md").read_text("utf-8")
    return set(re.findall(r"^#{2,3} (.+)$", text, re.M))


def test_every_citation_names_a_section_of_architecture_md() -> None:
    headings = _headings()
    cited = {(path.name, names.split(";")[0].rstrip(" .,"))
             for path in SOURCES for names in re.findall(r"ARCHITECTURE\.md, ([^)\n]+)", path.read_text("utf-8"))}
    assert len(cited) > 40
    assert sorted((name, section) for name, section in cited if section not in headings) == []


def test_nothing_cites_the_first_design_an_issue_or_the_shared_seeds() -> None:
    pattern = re.compile(r"DESIGN §|[Ii]ssues? [0-9]|\bseed [0-9]|\.\./shared")
    found = [f"{path.relative_to(ROOT)}:{n}" for path in SOURCES
             for n, line in enumerate(path.read_text("utf-8").splitlines(), 1) if pattern.search(line)]
    assert found == []
