"""The link graph as a file Gephi, networkx, Cytoscape and igraph read:
``--format graphml`` (GraphML 1.0) and ``--format gexf`` (GEXF
1.3), each edge a source page and a target with how many times the source
links to it (``weight``), beside ``--format edges``, which writes a line a
link.  ``--graph hosts`` draws the host-level graph instead: an edge from
the source's host to the target's.

Sources and targets are those of ``--format edges`` (the WARC record's
target URI, else the input's retrieval URI, else the file; the target ``--resolve`` and
``--unwrap`` pick), so the three agree: a test reads these files back with
networkx and counts the edges' lines.  The counts are held until the end
(one entry a distinct edge, not a link), then written.
"""

from __future__ import annotations

from collections import Counter
from typing import IO
from urllib.parse import urlsplit

from ..model import Record
from ..uri import patterns
from .writers import PLAIN, EdgeWriter, Layout

# what XML 1.0 cannot hold (§2.2): C0 controls but tab, LF, CR; surrogates; U+FFFE, U+FFFF
_NOT_XML = patterns.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _xml(value: str) -> str:
    value = _NOT_XML.sub("\ufffd", value)
    return value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def host_of(node: str) -> str:
    """A URI's host (lower case, no port), or the node itself when it has none (a file name)."""
    try:
        host = urlsplit(node).hostname
    except ValueError:
        return node
    return host or node


class GraphWriter(EdgeWriter):
    """Counts the edges of :class:`EdgeWriter` as records stream by; writes them at ``close``."""

    def __init__(self, out: IO[str], layout: Layout = PLAIN, *, base: str | None = None, hosts: bool = False) -> None:
        super().__init__(out, layout, base=base)
        self.hosts = hosts
        self.edges: Counter[tuple[str, str]] = Counter()

    def record(self, record: Record, normalized: str | None = None) -> None:
        edge = self.edge(record, normalized)
        if edge is None:
            return
        if self.hosts:
            edge = host_of(edge[0]), host_of(edge[1])
        self.edges[edge] += 1

    def nodes(self) -> list[str]:
        seen: dict[str, None] = {}
        for source, target in self.edges:
            seen.setdefault(source)
            seen.setdefault(target)
        return list(seen)


class GraphmlWriter(GraphWriter):
    def close(self) -> None:
        write = self.out.write
        write('<?xml version="1.0" encoding="UTF-8"?>\n'
              '<graphml xmlns="http://graphml.graphdrawing.org/xmlns">\n'
              '  <key id="weight" for="edge" attr.name="weight" attr.type="int"/>\n'
              '  <graph id="links" edgedefault="directed">\n')
        for node in self.nodes():
            write(f'    <node id="{_xml(node)}"/>\n')
        for (source, target), count in self.edges.items():
            write(f'    <edge source="{_xml(source)}" target="{_xml(target)}"><data key="weight">{count}</data>'
                  "</edge>\n")
        write("  </graph>\n</graphml>\n")


class GexfWriter(GraphWriter):
    def close(self) -> None:
        write = self.out.write
        write('<?xml version="1.0" encoding="UTF-8"?>\n'
              '<gexf xmlns="http://gexf.net/1.3" version="1.3">\n'
              '  <meta><creator>urisift</creator></meta>\n'
              '  <graph defaultedgetype="directed" mode="static">\n    <nodes>\n')
        for node in self.nodes():
            write(f'      <node id="{_xml(node)}" label="{_xml(node)}"/>\n')
        write("    </nodes>\n    <edges>\n")
        for number, ((source, target), count) in enumerate(self.edges.items()):
            write(f'      <edge id="{number}" source="{_xml(source)}" target="{_xml(target)}" weight="{count}"/>\n')
        write("    </edges>\n  </graph>\n</gexf>\n")
