"""The hostile shapes of issue 52 (the markup readers), for bench_hostile.py:
each class at the sizes the issue gives, and at a quarter of them (4x the
input must take at most 5x the time: the scan is linear), and a run of each
scanner under ``--time-budget`` (it ends within 1 s of the budget, with a
defect).  The rows' builders are expressions, evaluated in the child that
scans them (``hp`` is bench/hostile_payloads.py, ``hm`` this module)."""

from __future__ import annotations

#: name -> (kind, Python expression building the input's bytes), scanned as --kind KIND from a stream;
#: rows ending "(1x)" and "(4x)" are pairs, whose ratio bench_hostile prints
PAIRS = {
    "AsciiDoc: a word of http:// (140 KB)": ("asciidoc", "b'http://' * 20_000 + hm.AFTER"),
    "AsciiDoc: a word of http:// (560 KB)": ("asciidoc", "b'http://' * 80_000 + hm.AFTER"),
    "AsciiDoc: a word of link: (140 KB)": ("asciidoc", "b'link:' * 28_000 + hm.AFTER"),
    "AsciiDoc: a word of link: (560 KB)": ("asciidoc", "b'link:' * 112_000 + hm.AFTER"),
    "AsciiDoc: a word of xref: (140 KB)": ("asciidoc", "b'xref:' * 28_000 + hm.AFTER"),
    "AsciiDoc: a word of xref: (560 KB)": ("asciidoc", "b'xref:' * 112_000 + hm.AFTER"),
    "AsciiDoc: unclosed <<a, (160 KB)": ("asciidoc", "b'<<a,' * 40_000 + hm.AFTER"),
    "AsciiDoc: unclosed <<a, (640 KB)": ("asciidoc", "b'<<a,' * 160_000 + hm.AFTER"),
    "Org: quote blocks before one end (70 KB)": ("org", "hm.org_quotes(5_000)"),
    "Org: quote blocks before one end (280 KB)": ("org", "hm.org_quotes(20_000)"),
    "Org: unclosed blocks of as many names (72 KB)": ("org", "hm.org_names(5_000)"),
    "Org: unclosed blocks of as many names (289 KB)": ("org", "hm.org_names(18_000)"),
    "rST: one-target references (15 MB)": ("rst", "hm.rst_references(5_000_000)"),
    "rST: one-target references (60 MB)": ("rst", "hm.rst_references(20_000_000)"),
    "LaTeX: \\url{} (16.5 MB)": ("latex", "b'\\\\url{http://u.example/} ' * 690_000 + hm.AFTER"),
    "LaTeX: \\url{} (66 MB)": ("latex", "b'\\\\url{http://u.example/} ' * 2_760_000 + hm.AFTER"),
    "LaTeX: \\verb!x! on one line (1.45 MB)": ("latex", "b'\\\\verb!x! ' * 161_000 + hm.AFTER"),
    "LaTeX: \\verb!x! on one line (5.8 MB)": ("latex", "b'\\\\verb!x! ' * 644_000 + hm.AFTER"),
    "BibTeX: quoted url fields on one line (2.9 MB)": ("bibtex", "hm.bib_quoted(106_000)"),
    "BibTeX: quoted url fields on one line (11.5 MB)": ("bibtex", "hm.bib_quoted(426_000)"),
    "Markdown: 5 MB in an unclosed comment": ("markdown", "hm.markdown_run_on(b'<!--', 150_000)"),
    "Markdown: 20 MB in an unclosed comment": ("markdown", "hm.markdown_run_on(b'<!--', 600_000)"),
    "Markdown: 5 MB in an unclosed fence": ("markdown", "hm.markdown_run_on(b'```', 150_000)"),
    "Markdown: 20 MB in an unclosed fence": ("markdown", "hm.markdown_run_on(b'```', 600_000)"),
    "notebook: a value nested 1,000 deep (10 KB)": ("notebook", "hm.notebook_deep(1)"),
    "notebook: 4 values nested 1,000 deep (40 KB)": ("notebook", "hm.notebook_deep(4)"),
}

#: name -> (the file's name, Python expression building its bytes, --time-budget): scanned by name
BUDGETED = {
    "AsciiDoc: 60 MB of URL macros, --time-budget 2": (
        "a.adoc", "b'link:http://a.example/[a] ' * 2_300_000", 2.0),
    "AsciiDoc: 60 MB word of link:, --time-budget 2": ("w.adoc", "b'link:' * 12_000_000", 2.0),
    "Org: 60 MB of links, --time-budget 2": ("o.org", "b'[[http://o.example/]] ' * 2_700_000", 2.0),
    "Org: 60 MB of quote blocks before one end, --time-budget 2": (
        "q.org", "b'#+begin_quote\\nhttp://q.example/\\n' * 1_900_000 + b'#+end_quote\\n'", 2.0),
    "rST: 60 MB of one-target references, --time-budget 2": ("r.rst", "hm.rst_references(20_000_000)", 2.0),
    "LaTeX: 60 MB of \\url{}, --time-budget 2": ("l.tex", "b'\\\\url{http://u.example/} ' * 2_500_000", 2.0),
    "BibTeX: 60 MB of quoted url fields, --time-budget 2": (
        "b.bib", "b'url = \"http://u.example/\" ' * 2_200_000", 2.0),
    "MediaWiki dump of a million small pages, --time-budget 2": ("pages.xml", "hm.small_dump(1_000_000)", 2.0),
    # one piece the parser reads whole: the clock is looked at inside it, not only before it
    "Markdown: 34 MB in an unclosed <pre>, --time-budget 2": ("pre.md", "hm.markdown_open_pre(400_000)", 2.0),
    "Markdown: 17 MB in a list item's unclosed fence, --time-budget 2": (
        "fence.md", "hm.markdown_item_fence(400_000)", 2.0),
    # each page its own budgets: a dump that inflates past the inflate budget (512 MiB) is read to its end
    "MediaWiki dump inflating to 600 MiB (.xml.bz2), each page its budgets": (
        "pages.xml.bz2", "hm.big_dump_bz2(600 << 20)", 120.0),
}

AFTER = b"\nhttp://after.example/\n"


def bib_quoted(n: int) -> bytes:
    """``n`` quoted url fields on one line (27 bytes each); then a link."""
    return b'url = "http://u.example/" ' * n + AFTER


def org_quotes(n: int) -> bytes:
    """``n`` quote blocks opened before one end; then a link."""
    return b"#+begin_quote\n" * n + b"#+end_quote\n" + AFTER


def org_names(n: int) -> bytes:
    """``n`` blocks opened, each of its own name, never ended; then a link."""
    return b"".join(b"#+begin_n%d\n" % i for i in range(n)) + b"[[http://after.example/]]\n"


def rst_references(n: int) -> bytes:
    """One hyperlink target and ``n`` references to it (three bytes each)."""
    return b".. _t: http://t.example/\n\n" + b"t_ " * n + AFTER


def markdown_run_on(opener: bytes, n: int) -> bytes:
    """A block that runs on to the end (``<!--``, a fence) over ``n`` paragraphs of a link (34 bytes each)."""
    return b"intro http://a.example/\n\n" + opener + b"\n" + b'<a href="http://x.example/">x</a>\n\n' * n


def notebook_deep(values: int) -> bytes:
    """A notebook whose cells' metadata each hold a value nested 1,000 deep, each cell a link."""
    cell = (b'{"cell_type": "markdown", "metadata": {"m": ' + b"[" * 1000 + b"]" * 1000
            + b'}, "source": "see http://after.example/"}')
    return b'{"cells": [' + b", ".join([cell] * values) + b"]}"


def markdown_open_pre(n: int) -> bytes:
    """A ``<pre>`` never closed (CommonMark §4.6, kind 1: it runs to the end) over ``n`` lines of links."""
    return b"# t\n\n<pre>\n" + b"".join(b'line %d https://x.example/%d and <a href="https://a.example/%d">a</a>\n'
                                          % (i, i, i) for i in range(n))


def markdown_item_fence(n: int) -> bytes:
    """A fence in a list item never closed, over ``n`` lines of code (the document cannot be cut: one piece)."""
    return b"- item\n\n  ```\n" + b"".join(b"    code %d https://c.example/%d\n" % (i, i) for i in range(n))


def big_dump_bz2(size: int) -> bytes:
    """A bzip2 MediaWiki dump of pages of 1 MB each, ``size`` bytes inflated, a link at the end of the last."""
    import bz2

    squeezer = bz2.BZ2Compressor(1)
    out = [squeezer.compress(b'<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.11/" version="0.11">\n')]
    body = b"x " * (1 << 19)
    for n in range(size >> 20):
        link = b" see [https://last.example/ the end]" if n == (size >> 20) - 1 else b""
        out.append(squeezer.compress(b"<page><title>P%d</title><revision><id>%d</id><text>" % (n, n) + body + link
                                     + b"</text></revision></page>\n"))
    out.append(squeezer.compress(b"</mediawiki>\n"))
    out.append(squeezer.flush())
    return b"".join(out)


def small_dump(pages: int) -> bytes:
    """A MediaWiki dump of ``pages`` small pages, a link each."""
    head = b'<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.11/" version="0.11">\n'
    page = b"<page><title>P%d</title><revision><id>%d</id><text>see [https://p.example/%d p]</text></revision></page>\n"
    return head + b"".join(page % (n, n, n) for n in range(pages)) + b"</mediawiki>\n"
