"""Issue 36: pay only for what is asked.  The output's keys travel down to
the scan; what no key asks for is not computed, reads False on the record,
and is never written as a null; what is computed is the same whatever was
asked: every key of every sample, written alone, is the key of the whole
record."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from urisift import Record, ScanOptions, iter_input, scan_html, scan_message, scan_text
from urisift.cli.command import main
from urisift.model.needs import KEY_NEEDS, needs_of
from urisift.output import RECORD_KEYS, record_json
from urisift.output.records import NotComputed

from .conftest import ROOT

CORPORA = ROOT / "corpora"
#: a sample of each kind, scanned as if retrieved from where its golden file says
INPUTS = [str(CORPORA / name) for name in (
    "html/links-and-bases.html", "html/srcset-css-lazy.html", "html/tree-edges.html", "mail/archive.mbox",
    "mail/related-page.eml", "text/prose.txt", "xml/feed.atom", "css/site.css", "office/invoice.docx")] + [
    str(p) for p in sorted((CORPORA / "warc").glob("*.warc*"))]


def _lines(argv: list[str]) -> list[dict[str, Any]]:
    out, err = io.StringIO(), io.StringIO()
    assert main(["--format", "jsonl", "-j", "1", "--base", "https://corpus.example/p/", *argv, *INPUTS],
                stdout=out, stderr=err) == 0, err.getvalue()
    return [json.loads(line) for line in out.getvalue().splitlines() if not line.startswith('{"defect"')]


@pytest.fixture(scope="module")
def whole() -> dict[str, list[dict[str, Any]]]:
    return {"rfc": _lines([]), "both": _lines(["--resolve", "both"])}


@pytest.mark.parametrize("key", [*RECORD_KEYS, "context"])
def test_a_key_written_alone_is_the_key_of_the_whole_record(key: str, whole: dict[str, list[dict[str, Any]]]
                                                            ) -> None:
    # browser_target asked for is computed for text and mail as --resolve both computes it
    reference = whole["both" if key == "browser_target" else "rfc"]
    extra = ["--context", "20"] if key == "context" else []
    alone = _lines(["--fields", key, *extra])
    if key == "context":
        reference = _lines(extra)
    assert len(alone) == len(reference)
    assert [line[key] for line in alone] == [line.get(key) for line in reference]


def test_what_is_not_asked_for_is_not_computed_and_reads_false() -> None:
    page = ('<a href="https://safelinks.protection.outlook.com/?url=http%3A%2F%2Fx.example%2F" rel="me">'
            'look</a> <p>see http://u:p@h.example/</p>')
    record = next(r for r in scan_html(page, fields=["uri", "target"]) if isinstance(r, Record))
    wrapped = "https://safelinks.protection.outlook.com/?url=http%3A%2F%2Fx.example%2F"
    assert (record.uri, record.target) == (wrapped, wrapped)
    assert (record.span, record.line, record.column, record.risks, record.browser_target, record.unwrapped,
            record.wrapper, record.text) == (False,) * 8
    assert record.rel == ("me",)  # what costs nothing is there
    with pytest.raises(NotComputed, match="the record's 'risks' was not computed"):
        record_json(record)
    # asked for, each is the whole record's
    full = next(r for r in scan_html(page) if isinstance(r, Record))
    asked = next(r for r in scan_html(page, fields=["unwrapped", "risks", "text"]) if isinstance(r, Record))
    assert (asked.unwrapped, asked.wrapper, asked.risks, asked.text) == (full.unwrapped, full.wrapper, full.risks,
                                                                        full.text) != (False,) * 4


def test_each_key_needs_what_holds_it() -> None:
    assert needs_of(frozenset({"uri", "target", "element"})) == frozenset()
    assert needs_of(frozenset({"risks"})) == {"risks", "browser", "anchor", "unwrap"}
    assert needs_of(None) == needs_of(frozenset(RECORD_KEYS))
    assert set(KEY_NEEDS) <= {*RECORD_KEYS, "context", "region", "file_line", "file_column"}
    # the region (issue 39) is a key a run adds when asked, never computed for every key of the contract
    assert "region" not in needs_of(None) and needs_of(frozenset({"region"})) == {"region"}


def test_the_library_checks_the_keys_at_the_door() -> None:
    with pytest.raises(ValueError, match=r"^scan_text\(\): fields: no record key 'targte'"):
        scan_text("x", fields=["targte"])
    with pytest.raises(TypeError, match=r"^scan_message\(\): fields must be record keys"):
        scan_message(b"", fields="uri")
    with pytest.raises(ValueError, match=r"^ScanOptions\(\): fields: no record key 'nope'"):
        ScanOptions(fields=frozenset({"nope"}))


def test_text_output_asks_for_little(tmp_path: Any) -> None:
    # the same targets, and the scan asked only for the target (and the location when shown)
    from urisift.cli.command import written_keys
    from urisift.cli.parser import parser
    from urisift.output.writers import Layout

    args = parser().parse_args(["-n", "x"])
    assert written_keys(args, Layout()) == {"uri", "target"}
    args = parser().parse_args(["-H", "--flags", "--unwrap", "x"])
    assert written_keys(args, Layout(location=True)) == {"uri", "target", "line", "column", "risks", "unwrapped",
                                                         "wrapper"}
    args = parser().parse_args(["--format", "edges", "--resolve", "browser", "x"])
    assert written_keys(args, Layout(format="edges")) == {"uri", "target", "warc_target_uri", "file", "browser_target"}
    assert written_keys(parser().parse_args(["--format", "jsonl", "x"]), Layout(format="jsonl")) is None


def test_an_archive_scan_asked_for_five_keys_gives_the_five_of_the_whole() -> None:
    warc = next(p for p in INPUTS if p.endswith(".warc.gz"))
    five = ["uri", "target", "element", "attribute", "warc_target_uri"]
    whole = [r for r in iter_input(warc) if isinstance(r, Record)]
    asked = [r for r in iter_input(warc, ScanOptions(fields=frozenset(five))) if isinstance(r, Record)]
    assert [[record_json(r, five)[k] for k in five] for r in asked] == [[record_json(r)[k] for k in five]
                                                                        for r in whole]
