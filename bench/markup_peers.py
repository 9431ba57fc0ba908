"""The link-finding scripts a Python user would write with each kind's own
parser, run as child processes by bench_markup_kinds.py on the files named
in argv.  Each prints one JSON line: links found, files that failed to parse.

A script that fails on one file counts it and goes on, so a peer's failures
are a column of the table, not a crash of the bench.
"""

from __future__ import annotations

#: the shared frame: run ``links(text) -> int`` on each file, count the failures
_FRAME = """
import json, sys
{body}
found = failed = 0
for path in sys.argv[1:]:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            found += links(handle.read())
    except Exception:
        failed += 1
print(json.dumps({{"links": found, "failed": failed, "failed_blocks": globals().get("FAILED_BLOCKS", 0)}}))
"""

#: docutils: the doctree of each file, its reference, image and target nodes
DOCUTILS = """
import docutils.core, docutils.nodes as n
SETTINGS = {"report_level": 5, "halt_level": 5, "file_insertion_enabled": False, "raw_enabled": False,
            "warning_stream": False}
def links(text):
    tree = docutils.core.publish_doctree(text, settings_overrides=SETTINGS)
    count = 0
    for node in tree.findall(lambda x: isinstance(x, (n.reference, n.image, n.target))):
        count += bool(node.get("refuri") or node.get("uri"))
    return count
"""

#: mwparserfromhell: external links and wikilinks of the parsed page
MWPARSER = """
import mwparserfromhell
def links(text):
    code = mwparserfromhell.parse(text)
    return len(code.filter_external_links()) + len(code.filter_wikilinks())
"""

#: nbformat: each notebook read (and validated), nothing more
NBFORMAT = """
import nbformat
def links(text):
    nb = nbformat.reads(text, as_version=4)
    return len(nb.cells)
"""

#: nbformat, then markdown-it-py's links and images in each markdown cell
NBFORMAT_MD = """
import nbformat
from markdown_it import MarkdownIt
md = MarkdownIt("commonmark")
def walk(tokens):
    count = 0
    for token in tokens:
        if token.type in ("link_open", "image"):
            count += (token.attrGet("href") or token.attrGet("src")) is not None
        if token.children:
            count += walk(token.children)
    return count
def links(text):
    nb = nbformat.reads(text, as_version=4)
    return sum(walk(md.parse(cell.source)) for cell in nb.cells if cell.cell_type == "markdown")
"""

#: orgparse: it parses headings, bodies, properties and dates but not links, so a regex on each node's raw text
ORGPARSE = r"""
import re, orgparse
LINK = re.compile(r"\[\[([^\]\[]+)\](?:\[[^\]]*\])?\]")
def links(text):
    count = 0
    for node in orgparse.loads(text):
        raw = node.get_body(format="raw") if node.is_root() else (
            node.get_heading(format="raw") + "\n" + node.get_body(format="raw"))
        count += len(LINK.findall(raw))
    return count
"""

#: pylatexenc: the node tree of each file, walked for \url, \href, \includegraphics, \input, \include
PYLATEXENC = """
from pylatexenc.latexwalker import LatexWalker, LatexMacroNode, LatexGroupNode
WANTED = {"url", "href", "includegraphics", "input", "include"}
def walk(nodes):
    count = 0
    for i, node in enumerate(nodes or ()):
        if node is None:
            continue
        if isinstance(node, LatexMacroNode) and node.macroname in WANTED:
            args = [a for a in (node.nodeargd.argnlist if node.nodeargd else ()) if a is not None]
            if any(isinstance(a, LatexGroupNode) and a.delimiters == ("{", "}") for a in args):
                count += 1
            elif i + 1 < len(nodes) and isinstance(nodes[i + 1], LatexGroupNode):
                count += 1  # a macro its database does not know (\\href): the next group is its argument
        count += walk(getattr(node, "nodelist", None))
        if getattr(node, "nodeargd", None) is not None:
            count += walk(node.nodeargd.argnlist)
    return count
def links(text):
    nodes, _, _ = LatexWalker(text, tolerant_parsing=True).get_latex_nodes()
    return walk(nodes)
"""

#: bibtexparser 2: each entry's url and doi fields (a file's failed blocks count as failures too)
BIBTEXPARSER = """
import bibtexparser
FAILED_BLOCKS = 0
def links(text):
    global FAILED_BLOCKS
    library = bibtexparser.parse_string(text)
    FAILED_BLOCKS += len(library.failed_blocks)
    return sum(("url" in e.fields_dict) + ("doi" in e.fields_dict) for e in library.entries)
"""


def script(body: str) -> str:
    """The whole child script of a peer's ``links`` body."""
    return _FRAME.format(body=body)
