"""Markdown wikilinks, ``--wikilinks`` (issue 55): ``[[Page]]``, ``[[Page|label]]``,
``[[Page#Heading]]`` and ``![[file.png]]`` as relative references to the page,
never in code, and one that never closes is none."""

from __future__ import annotations

import time
from pathlib import Path

from urisift import Record, ScanOptions, iter_input
from urisift.readers.markup.wikilinks import wikilinks

from .test_cli import run

NOTE = ("# Notes\n\nSee [[My Page]] and [[Other Page#Some Heading|the heading]], or [[#Local]].\n"
        "![[diagram one.png]] and `[[in code]]` and [[never closes\n"
        "then [[After]].\n\n```\n[[fenced]]\n```\n\n    [[indented]]\n")


def _records(path: Path, **options: object) -> list[tuple[object, ...]]:
    return [(r.uri, r.target, r.style.value, r.element, r.attribute, r.text, tuple(r.span), r.line, r.column,
             tuple(f.value for f in r.flags))
            for r in iter_input(str(path), ScanOptions(base="https://wiki.example/notes/", **options))  # type: ignore[arg-type]
            if isinstance(r, Record)]


def test_wikilinks_are_relative_references_to_their_pages(tmp_path: Path) -> None:
    note = tmp_path / "note.md"
    note.write_text(NOTE, "utf-8")
    assert _records(note, wikilinks=True) == [
        ("My%20Page", "https://wiki.example/notes/My%20Page", "markup", "a", "href", "My Page", (15, 22), 3, 7,
         ("wikilink",)),
        ("Other%20Page#Some%20Heading", "https://wiki.example/notes/Other%20Page#Some%20Heading", "markup", "a",
         "href", "the heading", (31, 54), 3, 23, ("wikilink",)),
        ("#Local", "https://wiki.example/notes/#Local", "markup", "a", "href", "#Local", (75, 81), 3, 67,
         ("wikilink",)),
        ("diagram%20one.png", "https://wiki.example/notes/diagram%20one.png", "markup", "img", "src",
         "diagram one.png", (88, 103), 4, 4, ("wikilink",)),
        ("After", "https://wiki.example/notes/After", "markup", "a", "href", "After", (150, 155), 5, 8,
         ("wikilink",))]


def test_without_the_option_no_wikilink_is_read(tmp_path: Path) -> None:
    note = tmp_path / "note.md"
    note.write_text(NOTE, "utf-8")
    assert _records(note) == []
    code, out, _ = run(["--wikilinks", "--kind", "markdown", "--base", "https://w.example/", "-"],
                       b"[[A Page]] and ![[b.png]]\n")
    assert (code, out) == (0, "https://w.example/A%20Page\nhttps://w.example/b.png\n")


def test_a_wikilink_that_never_closes_is_none_and_the_rest_is_read() -> None:
    assert [f.reference for f in wikilinks("[[open " * 1000 + "\n[[Shut]] [[x]y]] [[]] [[a\nb]]")] == ["Shut"]


def test_wikilinks_are_linear() -> None:
    for shape in ("[[" * 300_000, "[[a" * 200_000, "[[" + "a" * 1023 + "\n" * 1, ("[[" + "a" * 1000) * 600,
                  "![[x]]" * 100_000):
        begun = time.perf_counter()
        list(wikilinks(shape))
        assert time.perf_counter() - begun < 5, shape[:10]
