"""The project's own golden corpus (corpora/text/) and the shared RFC corpus."""

from __future__ import annotations

import io
import os
import re
import tarfile
import time
from pathlib import Path

import pytest

from urisift import Flag, Style, registered_schemes, scan_text
from urisift.cli.command import main

from .conftest import ROOT, shared_path

CORPUS = ROOT / "corpora" / "text"
GOLDEN = ROOT / "tests" / "golden"
INPUTS = sorted(CORPUS.glob("*.txt"))


def test_corpus_is_there() -> None:
    assert {p.name for p in INPUTS} >= {"prose.txt", "mail-quoting.txt", "wrapped-hyphenated.txt", "code.txt",
                                       "tables.txt", "emails.txt", "urns-ipv6-iri.txt", "negative.txt",
                                       "markup-and-edges.txt"}


# After a deliberate change of the records, regenerate the golden files with
#     URISIFT_REGENERATE=1 python -m pytest tests/test_corpus.py -k golden
# and read the diff (git diff tests/golden/) before committing it.
REGENERATE = os.environ.get("URISIFT_REGENERATE") == "1"


def golden_run(path: Path, golden: Path, *options: str) -> tuple[str, str]:
    """The CLI's jsonl output for ``path`` (run from the project's root) and its
    standard error, the output compared with ``golden`` (rewritten when regenerating)."""
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        out, err = io.StringIO(), io.StringIO()
        assert main(["--format", "jsonl", *options, path.relative_to(ROOT).as_posix()], stdout=out, stderr=err) == 0
    finally:
        os.chdir(cwd)
    if REGENERATE:
        golden.write_text(out.getvalue(), "utf-8")
    assert out.getvalue() == golden.read_text("utf-8")
    return out.getvalue(), err.getvalue()


def golden(path: Path, name: str) -> Path:
    """The golden file of a sample of ``corpora/``: ``name`` + ``.expected.jsonl`` in the same
    folder under ``tests/golden/`` (kept out of the samples' folders, so that a walk of
    ``corpora/`` reads only samples)."""
    return GOLDEN / path.parent.relative_to(ROOT / "corpora") / (name + ".expected.jsonl")


def defect_lines(out: str) -> list[str]:
    return [line for line in out.splitlines() if line.startswith('{"defect"')]


@pytest.mark.parametrize("path", INPUTS, ids=[p.name for p in INPUTS])
def test_golden_jsonl(path: Path) -> None:
    _, err = golden_run(path, golden(path, path.stem))
    assert err == ""


HTML = ROOT / "corpora" / "html"
HTML_INPUTS = sorted(HTML.glob("*.html"))
#: the retrieval URI the HTML samples are scanned with, as a crawler would give it
HTML_BASE = "http://doc.example/p/index.html"


def test_html_corpus_is_there() -> None:
    assert {p.name for p in HTML_INPUTS} == {"links-and-bases.html", "srcset-css-lazy.html", "tree-edges.html",
                                            "bad-base.html", "windows-1251.html"}


@pytest.mark.parametrize("path", HTML_INPUTS, ids=[p.name for p in HTML_INPUTS])
def test_golden_html_jsonl(path: Path) -> None:
    out, err = golden_run(path, golden(path, path.stem), "--base", HTML_BASE)
    # every defect in the records is on standard error too, and nothing else is
    assert len(err.splitlines()) == len(defect_lines(out))


MAIL = ROOT / "corpora" / "mail"
MAIL_INPUTS = sorted(MAIL.iterdir())


def test_mail_corpus_is_there() -> None:
    assert {p.name for p in MAIL_INPUTS} == {"related-page.eml", "forwarded.eml", "flowed-and-base64.eml",
                                            "page.mhtml", "archive.mbox", "report.msg", "winmail.dat"}


def test_the_outlook_samples_are_what_their_builder_writes(tmp_path: Path) -> None:
    import importlib.util
    import sys

    pytest.importorskip("compressed_rtf")  # (the builder's writer of compressed RTF: a test dependency)
    spec = importlib.util.spec_from_file_location("outlook_maker", ROOT / "tests" / "sample_makers" / "outlook.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (its dataclasses look their module up)
    spec.loader.exec_module(module)
    module.write(tmp_path)
    for name in ("report.msg", "winmail.dat"):
        assert (tmp_path / name).read_bytes() == (MAIL / name).read_bytes(), name


@pytest.mark.parametrize("path", MAIL_INPUTS, ids=[p.name for p in MAIL_INPUTS])
def test_golden_mail_jsonl(path: Path) -> None:
    out, err = golden_run(path, golden(path, path.name))
    assert len(err.splitlines()) == len(defect_lines(out))


WARC = ROOT / "corpora" / "warc"
WARC_INPUTS = [WARC / "crawl.warc.gz", WARC / "plain.warc"]


def test_the_warc_samples_are_what_their_builder_writes() -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("build", ROOT / "tests" / "sample_makers" / "warc.py")
    assert spec is not None and spec.loader is not None
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    assert (WARC / "crawl.warc.gz").read_bytes() == build.crawl()
    assert (WARC / "plain.warc").read_bytes() == build.plain()


@pytest.mark.parametrize("path", WARC_INPUTS, ids=[p.name for p in WARC_INPUTS])
def test_golden_warc_jsonl(path: Path) -> None:
    out, err = golden_run(path, golden(path, path.name))
    assert len(err.splitlines()) == len(defect_lines(out))


# issue 21: style sheets, the XML family, robots.txt, PDF, office files and wikitext, each
# scanned as if retrieved from https://corpus.example/<folder>/<name>
PAYLOADS = sorted(p for folder in ("css", "xml", "pdf", "office", "wiki")
                  for p in (ROOT / "corpora" / folder).rglob("*") if p.is_file())


def test_payload_corpus_is_there() -> None:
    assert {p.relative_to(ROOT / "corpora").as_posix() for p in PAYLOADS} == {
        "css/site.css", "css/base.css", "css/fonts/fonts.css",
        "xml/feed.atom", "xml/news.rss", "xml/sitemap-index.xml", "xml/sitemap-pages.xml", "xml/subscriptions.opml",
        "xml/drawing.svg", "xml/robots.txt", "xml/catalog-unknown-vocabulary.xml",
        "wiki/article.wiki", "wiki/pages-articles.xml",
        "pdf/links-and-base.pdf", "office/invoice.docx", "office/sheet.xlsx", "office/notes.odt"}


@pytest.mark.parametrize("path", PAYLOADS, ids=[p.name for p in PAYLOADS])
def test_golden_payload_jsonl(path: Path) -> None:
    retrieved = "https://corpus.example/" + path.relative_to(ROOT / "corpora").as_posix()
    _, err = golden_run(path, golden(path, path.name), "--base", retrieved)
    assert err == ""


def test_negative_file_yields_nothing() -> None:
    assert list(scan_text((CORPUS / "negative.txt").read_text("utf-8"))) == []


@pytest.mark.parametrize("path", INPUTS, ids=[p.name for p in INPUTS])
def test_spans_point_at_the_reference(path: Path) -> None:
    text = path.read_text("utf-8")
    for record in scan_text(text):
        start, end = record.span
        raw = text[start:end]
        if Flag.QUOTE_MARKERS in record.flags:
            raw = re.sub(r"\n[ \t>]*", "", raw)
        assert re.sub(r"\s+", "", raw) == record.uri


# -- the shared RFC corpus -----------------------------------------------------------------

# Independent oracles, deliberately simpler than the scanner: an absolute URI
# in angle brackets whose content holds a line break, and a bare URI whose
# last character is a hyphen at the end of a line with the rest indented on
# the next line.
_WRAPPED_ANGLE = re.compile(r"<(?:URL:\s*)?(([A-Za-z][A-Za-z0-9+.-]*):([^<>\"]*\n[^<>\"]*))>")
_BARE_HYPHEN = re.compile(r"(?<![<\w/.\"])((?:https?|ftp)://[^\s<>\"]*-)\n[ \t]+(?:\|[ \t]+)?([^\s<>\"|]+)")


def _rfc_texts():  # noqa: ANN202 - generator of (name, text)
    archive = shared_path("corpora", "rfc-text", "rfc6000-latest.tar.xz")
    for p in sorted(shared_path("corpora", "rfc-text", "selected").glob("*.txt")):
        yield p.name, p.read_text("utf-8", "replace")
    with tarfile.open(archive) as tar:
        for member in tar:
            if member.isfile() and member.name.endswith(".txt"):
                f = tar.extractfile(member)
                assert f is not None
                yield member.name, f.read().decode("utf-8", "replace")


@pytest.mark.skipif(os.environ.get("URISIFT_SKIP_SLOW") == "1", reason="URISIFT_SKIP_SLOW=1")
def test_rfc_corpus_rejoins_every_wrapped_uri_and_reports_hyphen_breaks_both_ways() -> None:
    schemes = registered_schemes()
    wrapped = wrapped_ok = hyphen = hyphen_ok = files = 0
    hyphen_records = {Style.ANGLE: 0, Style.ANGLE_URL: 0, Style.BARE: 0}
    problems: list[str] = []
    slowest = 0.0
    for name, text in _rfc_texts():
        files += 1
        t0 = time.perf_counter()
        records = list(scan_text(text))
        slowest = max(slowest, time.perf_counter() - t0)
        by_start = {r.span[0]: r for r in records}
        for r in records:
            if Flag.HYPHEN_BREAK in r.flags:
                assert len(r.alternatives) == 1 and "-" not in r.alternatives[0][-1:]
                hyphen_records[r.style] += 1
        # the oracles do not know <...>: ignore their matches inside a longer angle reference
        inside = [(r.span[0], r.span[1]) for r in records if r.style in (Style.ANGLE, Style.ANGLE_URL)]

        def within_angle(pos: int, inside: list[tuple[int, int]] = inside) -> bool:
            return any(s < pos < e for s, e in inside)

        for m in _WRAPPED_ANGLE.finditer(text):
            scheme, rest = m.group(2).lower(), m.group(3)
            if scheme not in schemes and not rest.startswith("//"):
                continue  # not a URI by the registered-scheme rule: prose or markup in brackets
            if re.search(r"\n[ \t]*\n", m.group(1)) or "\n" not in m.group(1).strip():
                continue  # a blank line inside, or the break is only before the closing ">"
            wrapped += 1
            record = by_start.get(m.start(1))
            expected = re.sub(r"\s+", "", m.group(1))
            if record is not None and record.uri == expected and Flag.WRAPPED in record.flags:
                wrapped_ok += 1
            elif len(problems) < 20:
                problems.append(f"{name}: wrapped {expected!r} -> {record.uri if record else None!r}")
        for m in _BARE_HYPHEN.finditer(text):
            if within_angle(m.start(1)):
                continue
            hyphen += 1
            record = by_start.get(m.start(1))
            head, tail = m.group(1), m.group(2)
            if (record is not None and Flag.HYPHEN_BREAK in record.flags
                    and record.uri.startswith(head + tail[:1])
                    and record.alternatives and record.alternatives[0].startswith(head[:-1] + tail[:1])):
                hyphen_ok += 1
            elif len(problems) < 20:
                problems.append(f"{name}: hyphen {head + tail!r} -> {record.uri if record else None!r}")
    print(f"\nRFC corpus: {files} files; wrapped in <>: {wrapped_ok}/{wrapped} rejoined; "
          f"bare hyphen breaks: {hyphen_ok}/{hyphen} reported both ways; records with hyphen-break by style: "
          f"{ {k.value: v for k, v in hyphen_records.items()} }; slowest file {slowest:.3f}s")
    assert problems == []
    assert files > 3000 and wrapped > 5700 and hyphen > 90
    assert slowest < 5.0
