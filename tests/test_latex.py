"""LaTeX and BibTeX: \\url, \\href, \\includegraphics, \\input/\\include as
references never read; verbatim, lstlisting and \\verb told apart by the
``code`` flag; comments not scanned; a BibTeX entry's url and doi fields
(a doi as https://doi.org/<doi>); exact records and positions."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import json_rows as rows
from .conftest import run_cli as run

CORPUS = Path(__file__).parent.parent / "corpora" / "latex"
FIELDS = "uri,style,where,element,attribute,flags,line,column"


LATEX = [
    ("https://www.latex-project.org/", "markup", "latex", "a", "href", [], 4, 10),
    ("https://ctan.org/pkg/hyperref#doc", "markup", "latex", "a", "href", [], 4, 52),  # (\# read as #)
    ("figures/plot.pdf", "markup", "latex", "img", "src", [], 5, 39),
    ("https://bare.example/p", "bare", "latex", "a", "href", ["trimmed"], 5, 61),
    ("chapters/intro", "markup", "latex", "input", None, [], 6, 8),  # never read
    ("appendix", "markup", "latex", "include", None, [], 6, 33),
    # (the comment's URLs, \url and all, are not found; "50\%" starts no comment)
    ("http://verb.example/", "bare", "latex", None, None, ["trimmed", "code"], 8, 25),
    ("http://verbatim.example/", "bare", "latex", None, None, ["code"], 10, 1),
    ("http://listing.example/", "quote", "latex", None, None, ["code"], 13, 8),
    # (the comment environment's URL is not found)
]
BIBTEX = [
    ("https://doi.org/10.1093/comjnl/27.2.97", "markup", "bibtex", "a", "href", [], 4, 10),
    ("https://academic.oup.com/comjnl/article/27/2/97/343244", "markup", "bibtex", "a", "href", [], 5, 10),
    ("https://www.example.org/page_1", "markup", "bibtex", "a", "href", [], 8, 10),
    ("http://note.example/", "bare", "bibtex", "a", "href", [], 9, 19),
    ("https://doi.org/10.1000/182", "markup", "bibtex", "a", "href", [], 10, 10),  # ("doi:" left out)
]


@pytest.mark.parametrize("name, expected", [("sample.tex", LATEX), ("sample.bib", BIBTEX)])
def test_each_construct_is_a_record_with_its_html_element_and_position(tmp_path: Path, name: str,
                                                                       expected: list[tuple[object, ...]]) -> None:
    doc = tmp_path / name
    doc.write_bytes((CORPUS / name).read_bytes())
    code, out, err = run(["--format", "jsonl", "--fields", FIELDS, str(doc)])
    assert (code, err) == (0, "")
    assert rows(out) == expected


def test_urls_in_code_can_be_left_out(tmp_path: Path) -> None:
    doc = tmp_path / "doc.tex"
    doc.write_bytes((CORPUS / "sample.tex").read_bytes())
    out = run(["--no-code", "--format", "jsonl", "--fields", FIELDS, str(doc)])[1]
    assert rows(out) == [e for e in LATEX if "code" not in e[5]]


@pytest.mark.parametrize("doc, expected", [
    # an argument never closed before a blank line is none; the search goes on after it
    ("\\url{http://u.example/\n\n\\url{http://v.example/}\n", [("http://u.example/", []), ("http://v.example/", [])]),
    # nested braces; an escaped backslash before % starts a comment
    ("\\href{http://a.example/{x}}{t} \\\\% http://c.example/\n", [("http://a.example/{x}", ["encoded"])]),
    # an environment never ended is none
    ("\\begin{verbatim}\nhttp://p.example/\n", [("http://p.example/", [])]),
])
def test_edges(tmp_path: Path, doc: str, expected: list[tuple[str, list[str]]]) -> None:
    path = tmp_path / "e.tex"
    path.write_text(doc)
    out = run(["--format", "jsonl", "--fields", "uri,flags,where", str(path)])[1]
    assert [tuple(row) for row in rows(out)] == [(uri, flags, "latex") for uri, flags in expected]
