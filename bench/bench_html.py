"""The ``html`` case of bench.py: scan_html against lxml on real pages.

The floor is what a user of lxml writes to get absolute links from a page:
``lxml.html.document_fromstring`` + ``make_links_absolute`` + ``iterlinks``.
urisift does more in its time (the first <base> rather than the last,
srcset candidates, CSS, meta refresh, anchor text and rel, text URIs,
positions, the charset chain).  Parse-only rows show what each tree builder
costs on its own, and a row scans BeautifulSoup trees handed in already built.
Peak memory is the resident maximum of a child process doing only that job.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

PAGES = "corpora/html-readability-pages"
BASE = "http://example.com/dir/page.html"


def load_pages(shared: Path) -> list[bytes]:
    return [p.read_bytes() for p in sorted((shared / PAGES).glob("*/source.html"))]


def small_documents(n: int = 5_000) -> list[bytes]:
    """Pages the size of an HTML mail part: a paragraph, a link, an image."""
    return [f'<html><body><p>Hello <a href="../{i}/post.html">next</a> <img src="fig{i}.png"></p></body></html>'
            .encode() for i in range(n)]


def _lexbor_only(pages: list[bytes]) -> Callable[[], object]:
    from selectolax.lexbor import LexborHTMLParser

    def run() -> int:
        for page in pages:
            LexborHTMLParser(page)
        return len(pages)
    return run


def _floor(pages: list[bytes]) -> Callable[[], object] | None:
    try:
        import lxml.html
    except ImportError:
        return None

    def run() -> int:
        n = 0
        for page in pages:
            doc = lxml.html.document_fromstring(page)
            doc.make_links_absolute(BASE)
            for _ in doc.iterlinks():
                n += 1
        return n
    return run


def _urisift(pages: list[bytes], positions: bool = True, fields: tuple[str, ...] | None = None
             ) -> Callable[[], object]:
    from urisift import scan_html

    def run() -> int:
        n = 0
        for page in pages:
            for _ in scan_html(page, base=BASE, positions=positions, fields=fields):
                n += 1
        return n
    return run


def _parse_rows(pages: list[bytes]) -> list[tuple[str, Callable[[], object] | None, str]]:
    rows: list[tuple[str, Callable[[], object] | None, str]] = []

    def each(parse: Callable[[bytes], Any]) -> Callable[[], object]:
        return lambda: [parse(page) for page in pages]

    from selectolax.lexbor import LexborHTMLParser
    rows.append(("parse only: lexbor (selectolax)", each(LexborHTMLParser), ""))
    try:
        import lxml.html
        rows.append(("parse only: lxml.html", each(lxml.html.document_fromstring), ""))
    except ImportError:
        rows.append(("parse only: lxml.html", None, "lxml not installed"))
    from bs4 import BeautifulSoup
    for builder in ("lxml", "html.parser", "html5lib"):
        try:
            BeautifulSoup(b"<p>", builder)
        except Exception as exc:  # bs4.FeatureNotFound: the builder's library is missing
            rows.append((f"parse only: BeautifulSoup + {builder}", None, str(exc)[:60]))
            continue
        rows.append((f"parse only: BeautifulSoup + {builder}", each(partial(_soup, builder=builder)), ""))
    return rows


def _soup(page: bytes, builder: str) -> Any:
    from bs4 import BeautifulSoup

    return BeautifulSoup(page, builder)


def _soup_walk(pages: list[bytes]) -> Callable[[], object]:
    """scan_html on BeautifulSoup trees built beforehand (the walk through bs4's API only)."""
    from bs4 import BeautifulSoup

    from urisift import scan_html
    soups = [BeautifulSoup(page, "html.parser") for page in pages]

    def run() -> int:
        return sum(1 for soup in soups for _ in scan_html(soup, base=BASE))
    return run


_MEMORY_JOBS = {
    "urisift scan_html": "from urisift import scan_html\nfor p in pages:\n    for _ in scan_html(p, base=B): pass",
    "lxml floor": ("import lxml.html\nfor p in pages:\n    d = lxml.html.document_fromstring(p)\n"
                   "    d.make_links_absolute(B)\n    for _ in d.iterlinks(): pass"),
}


def peak_memory(shared: Path, root: Path) -> list[tuple[str, float | None, float | None]]:
    """Peak resident memory (MiB) of a child doing one job over all the pages:
    its VmHWM, which exec resets (ru_maxrss would carry the parent's peak over)."""
    out: list[tuple[str, float | None, float | None]] = []
    for name, job in _MEMORY_JOBS.items():
        code = ("import pathlib, resource, sys\n"
                f"sys.path.insert(0, {str(root / 'src')!r})\n"
                f"B = {BASE!r}\n"
                f"folder = pathlib.Path({str(shared / PAGES)!r})\n"
                "pages = [p.read_bytes() for p in sorted(folder.glob('*/source.html'))]\n"
                "def hwm():\n"
                "    for line in open('/proc/self/status'):\n"
                "        if line.startswith('VmHWM:'): return int(line.split()[1])\n"
                "    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
                "before = hwm()\n"
                f"{job}\n"
                "print(hwm(), before)")
        try:
            done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
            peak, before = map(int, done.stdout.split())
            out.append((name, peak / 1024, before / 1024))
        except (subprocess.CalledProcessError, ValueError):
            out.append((name, None, None))
    return out


def bench_html(rounds: int, shared: Path, root: Path, timeit: Callable[[Callable[[], object], int], float],
               table: Callable[..., None]) -> None:
    pages = load_pages(shared)
    if not pages:
        print(f"\n## html: skipped, no pages under {shared / PAGES}")
        return
    size = sum(map(len, pages)) / 1e6
    rows: list[tuple[str, float | None, str]] = []
    ours = "urisift scan_html, positions=False (everything the issue lists)"
    rows.append((ours, timeit(_urisift(pages, positions=False), rounds), ""))
    rows.append(("urisift scan_html (and the span/line/column of every value)", timeit(_urisift(pages), rounds), ""))
    floor = _floor(pages)
    rows.append(("lxml: document_fromstring + make_links_absolute + iterlinks",
                 None if floor is None else timeit(floor, rounds), "lxml not installed"))
    rows.append(("urisift scan_html on BeautifulSoup trees (walk only)", timeit(_soup_walk(pages), rounds), ""))
    for name, run, note in _parse_rows(pages):
        slow = "html5lib" in name
        rows.append((name, None if run is None else timeit(run, 1 if slow else rounds), note))
    table(f"html: {len(pages)} real pages, {size:.1f} MB (lower ratio = faster than urisift)", "MB", size, rows, ours)
    small = small_documents()
    small_mb = sum(map(len, small)) / 1e6
    floor = _floor(small)
    table(f"html, small documents: {len(small):,} one-paragraph pages with two links each, as mail parts and "
          f"feed entries are, {small_mb:.1f} MB (what a document costs before its links)", "MB", small_mb,
          [("urisift scan_html", timeit(_urisift(small), rounds), ""),
           ("lxml: document_fromstring + make_links_absolute + iterlinks",
            None if floor is None else timeit(floor, rounds), "lxml not installed"),
           ("selectolax: LexborHTMLParser only (the parser urisift uses)", timeit(_lexbor_only(small), rounds), "")],
          "urisift scan_html")
    print("\nPeak resident memory of a process doing only that job over all pages"
          " (and before it began: the interpreter, its imports, the 26 MB of pages):\n")
    for name, mib, before in peak_memory(shared, root):
        print(f"- {name}: {'—' if mib is None else f'{mib:.0f} MiB (before: {before:.0f} MiB)'}")
