"""Every link of the CommonMark 0.31.2 spec's examples, and of GitHub's
autolink extension's, is found: the ``href`` of each ``<a>`` and the
``src`` of each ``<img>`` in an example's expected HTML (raw HTML's
included) is a record's ``uri`` or ``target``, compared percent-decoded.
The spec files are vendored with their licence (tests/data/)."""

from __future__ import annotations

import html.parser
from pathlib import Path
from urllib.parse import unquote

import pytest

from urisift import Record, scan_path

DATA = Path(__file__).resolve().parent / "data"
_FENCE = "`" * 32


def examples(path: Path, info: str = "example") -> list[tuple[int, str, str]]:
    """(number, Markdown, expected HTML) of each example of a spec file."""
    found = []
    lines = path.read_text("utf-8").split("\n")
    i = 0
    while i < len(lines):
        if lines[i].startswith(_FENCE + " " + info):
            end = lines.index(_FENCE, i + 1)
            block = "\n".join(lines[i + 1:end])
            markdown, _, expected = block.partition("\n.\n")
            if markdown == ".":
                markdown, expected = "", block[2:]
            found.append((len(found) + 1, markdown.replace("\u2192", "\t") + "\n", expected.replace("\u2192", "\t")))
            i = end
        i += 1
    return found


class _Links(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        wanted = {"a": "href", "img": "src"}.get(tag)
        for name, value in attrs:
            if name == wanted and value is not None:
                self.urls.append(value)


def expected_urls(expected: str) -> list[str]:
    links = _Links()
    links.feed(expected)
    links.close()
    return links.urls


def comparable(url: str) -> str:
    """A URL percent-decoded, without the tabs and line breaks a browser
    removes from it (WHATWG URL: raw HTML's ``href="foo\\nbar"``)."""
    return unquote(url).replace("\t", "").replace("\n", "").replace("\r", "")


def found_urls(markdown: str, tmp_path: Path) -> set[str]:
    path = tmp_path / "example.md"
    path.write_text(markdown, "utf-8")
    found = set()
    for item in scan_path(path):
        if isinstance(item, Record):
            found.add(comparable(item.uri))
            if item.target is not None:
                found.add(comparable(item.target))
    return found


SPEC = examples(DATA / "commonmark" / "spec.txt")
AUTOLINKS = examples(DATA / "gfm" / "autolinks.txt", "example autolink")


def test_the_spec_files_hold_their_examples() -> None:
    assert (len(SPEC), len(AUTOLINKS)) == (655, 11)
    assert (sum(1 for _, _, e in SPEC if expected_urls(e)),
            sum(len(expected_urls(e)) for _, _, e in SPEC)) == (144, 155)


@pytest.mark.parametrize(("number", "markdown", "expected"), SPEC, ids=[f"spec-{n}" for n, _, _ in SPEC])
def test_each_link_of_the_commonmark_spec_is_found(number: int, markdown: str, expected: str, tmp_path: Path) -> None:
    wanted = [comparable(url) for url in expected_urls(expected)]
    found = found_urls(markdown, tmp_path) if wanted else set()
    assert [url for url in wanted if url not in found] == []


@pytest.mark.parametrize(("number", "markdown", "expected"), AUTOLINKS, ids=[f"gfm-{n}" for n, _, _ in AUTOLINKS])
def test_each_link_of_gfms_autolink_extension_is_found(number: int, markdown: str, expected: str,
                                                       tmp_path: Path) -> None:
    wanted = [comparable(url) for url in expected_urls(expected)]
    found = found_urls(markdown, tmp_path)
    assert [url for url in wanted if url not in found] == []
