"""Issue 53, the audit and the link graph: a non-ASCII link matches its
capture (RFC 3987 §3.1), an HTTP ``Link`` header's external resources are
embeds as ``<link>``'s are, and a ``<base href>`` is neither an outlink nor
an edge."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from .conftest import run_cli

SITE = "http://s.example"
PAGE = ('<html><head><base href="http://s.example/"><base href="http://ignored.example/">'
        '<link rel="preload" href="/font.woff2" as="font"></head>'
        '<body><a href="/café/menü">menu</a> <a href="http://s.example/caf%C3%A9/">dir</a></body></html>').encode()
LINK = '</style.css>; rel=preload; as=style, </main.css>; rel="stylesheet", </next>; rel=next'


@pytest.fixture
def crawl(tmp_path: Path) -> Path:
    pytest.importorskip("warcio")
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    path = tmp_path / "site.warc"
    with path.open("wb") as out:
        writer = WARCWriter(out, gzip=False)
        for uri, headers, body, second in [
                (f"{SITE}/", [("Content-Type", "text/html"), ("Link", LINK)], PAGE, "00"),
                (f"{SITE}/caf%C3%A9/men%C3%BC", [("Content-Type", "text/plain")], b"soup", "01"),
                (f"{SITE}/style.css", [("Content-Type", "text/plain")], b"", "02")]:
            http = StatusAndHeaders("200 OK", [*headers, ("Content-Length", str(len(body)))], protocol="HTTP/1.1")
            date = {"WARC-Date": f"2024-05-03T12:00:{second}Z"}
            writer.write_record(writer.create_warc_record(uri, "response", payload=io.BytesIO(body), http_headers=http,
                                                          warc_headers_dict=date))
    return path


def _out(*argv: str) -> str:
    code, out, err = run_cli(["audit", "-j", "1", *argv[1:]] if argv[0] == "audit" else ["-j", "1", *argv])
    assert (code, err) == (0, ""), err
    return out


def test_the_audit_matches_an_iri_to_its_capture_counts_link_headers_and_skips_bases(crawl: Path) -> None:
    home = json.loads(_out("audit", "--format", "jsonl", str(crawl)).splitlines()[0])
    assert home["outlinks"] == {"link": {"total": 3, "captured": 1, "missing": 2},
                                "embed": {"total": 3, "captured": 1, "missing": 2},
                                "redirect": {"total": 0, "captured": 0, "missing": 0}}
    assert home["captured"] == [
        {"target": f"{SITE}/café/menü", "kind": "link", "capture": "2024-05-03T12:00:01Z"},
        {"target": f"{SITE}/style.css", "kind": "embed", "capture": "2024-05-03T12:00:02Z"}]
    assert home["missing"] == [{"target": f"{SITE}/next", "kind": "link"},
                               {"target": f"{SITE}/caf%C3%A9/", "kind": "link"},
                               {"target": f"{SITE}/main.css", "kind": "embed"},
                               {"target": f"{SITE}/font.woff2", "kind": "embed"}]


def test_effective_finds_the_capture_of_an_iri(crawl: Path) -> None:
    rows = [json.loads(line) for line in _out("--effective", "--format", "jsonl", "--fields",
                                              "uri,effective_target,effective_status", str(crawl)).splitlines()]
    assert {"uri": "/café/menü", "effective_target": f"{SITE}/café/menü", "effective_status": 200} in rows


def test_a_base_is_no_edge_of_the_link_graph(crawl: Path) -> None:
    edges = _out("--format", "edges", str(crawl)).splitlines()
    assert edges == [f"{SITE}/\t{SITE}/style.css", f"{SITE}/\t{SITE}/main.css", f"{SITE}/\t{SITE}/next",
                     f"{SITE}/\t{SITE}/font.woff2", f"{SITE}/\t{SITE}/café/menü", f"{SITE}/\t{SITE}/caf%C3%A9/"]
    graph = _out("--format", "graphml", str(crawl))
    assert "ignored.example" not in graph and f'target="{SITE}/"' not in graph
    assert graph.count("<edge ") == 6
