"""Defanged indicators read back, ``--refang`` (issue 55): the rule table, the
records' ``uri`` as written and ``target`` refanged, bare defanged hosts, text
that is not defanged left alone, and the paired sample of ioc-fanger."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

from urisift import Record, ScanOptions, find_references, scan_html, scan_text
from urisift.stages.delimit.refang import refang

from .test_cli import run

SAMPLE = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "defanged-indicators"


def _records(text: str, **kwargs: bool) -> list[tuple[str, str | None, str, tuple[str, ...], tuple[int, int]]]:
    return [(r.uri, r.target, r.style.value, tuple(f.value for f in r.flags), tuple(r.span))
            for r in scan_text(text, **kwargs) if isinstance(r, Record)]


# (written, the target it stands for): each form of the rule table
FORMS = [
    ("hxxp://evil.example.com/a", "http://evil.example.com/a"),
    ("hXXps://evil.example.com/a", "https://evil.example.com/a"),
    ("fxp://files.example.com/a", "ftp://files.example.com/a"),
    ("h**p://evil.example.com/a", "http://evil.example.com/a"),
    ("[http]://evil.example.com/a", "http://evil.example.com/a"),
    ("http://evil[.]example[.]com/a", "http://evil.example.com/a"),
    ("http://evil(.)example(.)com/a", "http://evil.example.com/a"),
    ("http://evil{.}example{.}com/a", "http://evil.example.com/a"),
    ("http://evil[dot]example[DOT]com/a", "http://evil.example.com/a"),
    ("http://evil(dot)example(dot)com/a", "http://evil.example.com/a"),
    ("http://evil [.] example [.] com/a", "http://evil.example.com/a"),
    ("http://evil\\.example\\.com/a", "http://evil.example.com/a"),
    ("http[:]//evil.example.com/a", "http://evil.example.com/a"),
    ("https[://]evil.example.com/a", "https://evil.example.com/a"),
    ("hxxp [:] //evil.example.com/a", "http://evil.example.com/a"),
    ("http://evil.example.com[/]a[/]b", "http://evil.example.com/a/b"),
    ("hxxps[:]//login[.]example[.]com/x", "https://login.example.com/x"),
    ("hxxp://198[.]51[.]100[.]23/x", "http://198.51.100.23/x"),
    ("hxxp://evil[.]example[.]com:8080/a", "http://evil.example.com:8080/a"),
    ("evil[.]example[.]org", "http://evil.example.org"),
    ("evil(dot)example(dot)net", "http://evil.example.net"),
    ("198.51.100[.]23", "http://198.51.100.23"),
    ("198[.]51[.]100[.]23:8080", "http://198.51.100.23:8080"),
    ("www[.]evil[.]com", "http://www.evil.com"),
    ("abuse[@]example[.]org", "mailto:abuse@example.org"),
    ("abuse(at)example(dot)org", "mailto:abuse@example.org"),
    ("abuse [at] example [dot] org", "mailto:abuse@example.org"),
    ("abuse AT example DOT org", "mailto:abuse@example.org"),
]


@pytest.mark.parametrize(("written", "target"), FORMS)
def test_each_form_is_refanged_and_kept_as_written(written: str, target: str) -> None:
    line = f"Seen: {written} today."
    [record] = [r for r in scan_text(line, refang=True) if isinstance(r, Record)]
    assert (record.uri, record.target, record.span, tuple(f.value for f in record.flags)) == (
        written, target, (6, 6 + len(written)), ("defanged",))
    assert record.risks == ()  # judged by the URI it was written for, not by its brackets


def test_the_record_of_a_defanged_url_and_of_a_bare_host() -> None:
    text = "C2: hXXps://login[.]example[.]com/x\nand evil[.]example[.]org, then 198.51.100[.]23.\n"
    assert _records(text, refang=True) == [
        ("hXXps://login[.]example[.]com/x", "https://login.example.com/x", "bare", ("defanged",), (4, 35)),
        ("evil[.]example[.]org", "http://evil.example.org", "abbreviated", ("defanged",), (40, 60)),
        ("198.51.100[.]23", "http://198.51.100.23", "abbreviated", ("defanged",), (67, 82))]
    [_, second, _] = [r for r in scan_text(text, refang=True) if isinstance(r, Record)]
    assert (second.line, second.column) == (2, 5)


def test_without_refang_an_hxxp_uri_is_flagged_with_its_target_as_written() -> None:
    text = "C2: hXXps://login[.]example[.]com/x and evil[.]example[.]org"
    assert _records(text) == [
        ("hXXps://login[.]example[.]com/x", "hXXps://login[.]example[.]com/x", "bare", ("defanged",), (4, 35))]


def test_text_not_defanged_is_never_changed() -> None:
    text = ("See http://x.example/wiki/Foo_(at)_bar and (http://b.example/c). Mail me (at) noon; a file.exe, "
            "v1[.]2 and [.] alone, https://ok.example/a[1] stays.")
    plain = _records(text)
    assert _records(text, refang=True) == plain
    assert [uri for uri, *_ in plain] == ["http://x.example/wiki/Foo_(at)_bar", "http://b.example/c",
                                          "https://ok.example/a[1]"]


def test_refang_keeps_the_references_after_a_rewrite_at_their_place() -> None:
    text = "evil[.]example[.]org then http://plain.example/a"
    assert _records(text, refang=True)[1] == ("http://plain.example/a", "http://plain.example/a", "bare", (), (26, 48))


def test_a_bare_name_needs_a_top_level_domain_and_a_word_of_its_own() -> None:
    text = "run setup[.]exe from /tmp/evil[.]com or evil[.]example[.]invalidtld; keep x[.]com"
    assert [uri for uri, *_ in _records(text, refang=True)] == ["x[.]com"]


def test_bare_defanged_hosts_follow_abbreviated() -> None:
    assert [r for r in scan_text("evil[.]example[.]org", refang=True, abbreviated=False)
            if isinstance(r, Record)] == []


def test_refang_in_html_text_and_markdown() -> None:
    [record] = [r for r in scan_html("<p>C2 at hxxp://evil[.]example/x</p>", base="https://page.example/")
                if isinstance(r, Record)]
    assert record.target == "hxxp://evil[.]example/x"  # the library's HTML door has no refang: as written
    code, out, _ = run(["--refang", "--format", "jsonl", "--kind", "html", "-"],
                       b"<p>C2 at hxxp://evil[.]example/x</p>")
    assert code == 0
    assert [(r["uri"], r["target"], r["flags"]) for r in map(json.loads, out.splitlines())] == [
        ("hxxp://evil[.]example/x", "http://evil.example/x", ["defanged"])]
    code, out, _ = run(["--refang", "--kind", "html", "-"],
                       b'<p>C2 evil[.]example[.]org, <b>198.51.100[.]23</b></p><img alt="see bad[.]example[.]com">')
    assert (code, out) == (0, "http://evil.example.org\nhttp://198.51.100.23\nhttp://bad.example.com\n")
    code, out, _ = run(["--kind", "html", "-"], b"<p>C2 evil[.]example[.]org</p>")
    assert (code, out) == (0, "")
    code, out, _ = run(["--refang", "--format", "jsonl", "--kind", "markdown", "-"],
                       b"# IOCs\n\n* evil[.]example[.]org\n* `hxxp://code[.]example[.]com/`\n")
    assert [(r["uri"], r["target"], r["flags"]) for r in map(json.loads, out.splitlines())] == [
        ("evil[.]example[.]org", "http://evil.example.org", ["defanged"]),
        ("hxxp://code[.]example[.]com/", "http://code.example.com/", ["code", "defanged"])]


def test_refang_is_an_option_of_the_command_and_of_the_library() -> None:
    code, out, _ = run(["--refang", "-"], b"hxxp://evil[.]example[.]com/x\n")
    assert (code, out) == (0, "http://evil.example.com/x\n")
    assert ScanOptions(refang=True).refang is True
    with pytest.raises(TypeError):
        ScanOptions(refang="yes")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        list(scan_text("x", refang=1))  # type: ignore[arg-type]
    [found] = find_references("hxxp://evil[.]example[.]com/x", refang=True)
    assert (found.reference, found.expanded) == ("hxxp://evil[.]example[.]com/x", "http://evil.example.com/x")


def test_the_rewrite_keeps_its_places() -> None:
    fanged, edits = refang("a hxxp://x[.]example[.]com b")
    assert fanged == "a http://x.example.com b"
    assert [(e.new_start, e.new_end, e.old_start, e.old_end) for e in edits] == [
        (2, 6, 2, 6), (10, 11, 10, 13), (18, 19, 20, 23)]


def test_refang_is_linear() -> None:
    for shape in ("a[.]" * 200_000, "[.]" * 200_000, "x(at)" * 200_000, "hxxp:" * 200_000, "1.2.3[.]4 " * 60_000):
        begun = time.perf_counter()
        list(scan_text(shape, refang=True))
        assert time.perf_counter() - begun < 10, shape[:10]


@pytest.mark.skipif(not SAMPLE.is_dir(), reason="../shared/corpora/defanged-indicators is not here")
def test_the_paired_sample_refanged_gives_the_fanged_lines_urls() -> None:
    """Each line of ioc-fanger's defanged sample, refanged, must give the URLs
    of the same line of the fanged one: its references as urisift finds them,
    and each bare host, IPv4 address or mail address it holds as a word of its
    own (as the URI it names: http://host, mailto:address)."""
    defanged = (SAMPLE / "sample_text_defanged.txt").read_text("utf-8").split("\n")
    fanged = (SAMPLE / "sample_text_fanged.txt").read_text("utf-8").split("\n")
    assert len(defanged) == len(fanged) == 1018
    host = re.compile(r"(?:[A-Za-z0-9-]+\.)+[A-Za-z][A-Za-z0-9-]*|(?:[0-9]{1,3}\.){3}[0-9]{1,3}")
    exact = 0
    for written, wanted in zip(defanged, fanged, strict=True):
        got = [r.target for r in scan_text(written, refang=True) if isinstance(r, Record)]
        expected = [r.target for r in scan_text(wanted) if isinstance(r, Record)]
        for word in wanted.split():
            word = word.rstrip(".,;:")
            if "://" in word or word.lower().startswith("www."):
                continue
            if "@" in word and host.fullmatch(word.rpartition("@")[2]):
                expected.append("mailto:" + word)
            elif host.fullmatch(word.split("/")[0]):
                expected.append("http://" + word)
        exact += sorted(got) == sorted(expected)
    print(f"refang: {exact} of {len(defanged)} lines exactly ({exact / len(defanged):.2%})")
    assert exact == 1018
