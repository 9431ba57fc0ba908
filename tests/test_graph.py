"""Issue 23: the link graph as GraphML and GEXF, read back with networkx,
gives the same edges and counts as --format edges; the host-level graph."""

from __future__ import annotations

import io
from collections import Counter
from pathlib import Path

import pytest

from urisift.cli.command import main

from .conftest import ROOT

nx = pytest.importorskip("networkx")
INPUTS = [str(ROOT / "corpora" / "warc" / "crawl.warc.gz"), str(ROOT / "corpora" / "html" / "links-and-bases.html")]


def _run(*argv: str) -> str:
    out, err = io.StringIO(), io.StringIO()
    assert main(list(argv), stdout=out, stderr=err) == 0
    return out.getvalue()


def _edge_lines(*paths: str) -> Counter[tuple[str, str]]:
    lines = _run("--format", "edges", *paths).splitlines()
    return Counter(tuple(line.split("\t")) for line in lines)  # type: ignore[misc]


def _weights(graph: object) -> Counter[tuple[str, str]]:
    return Counter({(u, v): int(data["weight"]) for u, v, data in graph.edges(data=True)})  # type: ignore[attr-defined]


@pytest.mark.parametrize("fmt", ["graphml", "gexf"])
def test_the_graph_read_back_has_the_edges_and_counts_of_edges(fmt: str, tmp_path: Path) -> None:
    path = tmp_path / f"links.{fmt}"
    repeats = tmp_path / "repeats.html"  # a page that links to one place three times
    repeats.write_text('<base href="https://r.example/"><a href="a">1</a><a href="a">2</a><img src="a"><a href=b>3</a>')
    inputs = (*INPUTS, str(repeats))
    _run("--format", fmt, "-o", str(path), *inputs)
    graph = nx.read_graphml(path) if fmt == "graphml" else nx.read_gexf(path, relabel=True)
    assert graph.is_directed()
    expected = _edge_lines(*inputs)
    assert _weights(graph) == expected
    assert sum(expected.values()) > len(expected)  # some links stand more than once: counts are tested
    assert set(graph.nodes) == {node for edge in expected for node in edge}


def test_the_host_graph_sums_the_page_graph_by_host(tmp_path: Path) -> None:
    path = tmp_path / "hosts.graphml"
    _run("--format", "graphml", "--graph", "hosts", "-o", str(path), *INPUTS)
    pages = _edge_lines(*INPUTS)
    hosts: Counter[tuple[str, str]] = Counter()
    from urllib.parse import urlsplit
    for (source, target), count in pages.items():
        hosts[(urlsplit(source).hostname or source, urlsplit(target).hostname or target)] += count
    assert _weights(nx.read_graphml(path)) == hosts


def test_graph_formats_draw_one_resolution_and_escape_what_xml_cannot_hold(tmp_path: Path) -> None:
    out, err = io.StringIO(), io.StringIO()
    assert main(["--format", "gexf", "--resolve", "both"], stdin=io.BytesIO(b""), stdout=out, stderr=err) == 2
    page = tmp_path / "odd.html"
    page.write_bytes(b'<a href="x?a=1&amp;b=&lt;2&gt;&quot;">x</a>')
    path = tmp_path / "odd.graphml"
    _run("--format", "graphml", "--base", "https://h.example/\u00e9/", "-o", str(path), str(page))
    graph = nx.read_graphml(path)
    assert list(graph.edges) == [("https://h.example/\u00e9/", "https://h.example/\u00e9/x?a=1&b=%3C2%3E%22")]
