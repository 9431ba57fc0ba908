#!/usr/bin/env python3
"""The ``region`` case (issue 39): where on the page a link stands, measured
on the 130 shared pages.

Agreement: for the ``<a href>`` links of each page, ``region == "main"``
against "the link is in Mozilla Readability's article", that is in the
page's ``expected.html`` of mozilla/readability's ``test/test-pages/``
(not copied here: give a checkout or its git directory with
``--readability PATH`` or ``URISIFT_READABILITY``).  Readability parses
each page as ``http://fakehost/test/page.html`` and writes every link of its
article absolute (WHATWG resolution against the document base URL), so a
link is known by its target: the page's records' ``browser_target`` (the
same resolution) against each expected href resolved the same way.  A
target may stand several times on a page (in the menu and in the article):
counts are compared, not sets: the true positives of a target are the
fewer of its main records and its expected links.  ``javascript:`` links
are left out (Readability removes them from its article: no answer).

Cost: ``scan_html`` on the 130 pages with every key but ``region``, with
every key (the target: at most twice the time without), the regions alone
(parse, walk, score), and trafilatura's ``extract(..., include_links=True)``
(the content extractor a Python user would reach for; pip-installed into
bench/.peers, not a dependency) on the same pages.

    python bench/bench_region.py --readability ~/src/readability [--rounds 3] [--worst 12]
"""

from __future__ import annotations

import argparse
import importlib
import os
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SHARED = Path(os.environ.get("URISIFT_SHARED", ROOT.parent / "shared"))
PAGES = "corpora/html-readability-pages"
#: where Readability's tests say each page was fetched from
DOCUMENT = "http://fakehost/test/page.html"
sys.path.insert(0, str(ROOT / "src"))
if (HERE / ".peers").is_dir():
    sys.path.append(str(HERE / ".peers"))

from urisift import Record, scan_html  # noqa: E402
from urisift.output import RECORD_KEYS  # noqa: E402

#: the keys the agreement reads
_AGREEMENT_KEYS = ("uri", "target", "browser_target", "element", "attribute", "region")


def pages(shared: Path) -> dict[str, bytes]:
    return {p.parent.name: p.read_bytes() for p in sorted((shared / PAGES).glob("*/source.html"))}


def expected_pages(readability: Path, names: list[str]) -> dict[str, bytes]:
    """Each page's expected.html, from a checkout of mozilla/readability or its git directory."""
    tree = readability / "test" / "test-pages"
    if tree.is_dir():
        return {n: (tree / n / "expected.html").read_bytes() for n in names if (tree / n / "expected.html").exists()}
    out = {}
    for name in names:
        shown = subprocess.run(["git", "--git-dir", str(readability), "show",
                                f"HEAD:test/test-pages/{name}/expected.html"], capture_output=True, check=False)
        if shown.returncode == 0:
            out[name] = shown.stdout
    return out


def _join(base: str, href: str) -> str:
    import ada_url

    try:
        return str(ada_url.join_url(base, href))
    except ValueError:
        return href  # as Readability keeps an href the URL parser refuses


def _article_links(expected: bytes, base: str) -> Counter[str]:
    from selectolax.lexbor import LexborHTMLParser

    return Counter(_join(base, (a.attributes.get("href") or "").strip())
                   for a in LexborHTMLParser(expected).css("a[href]"))


class Agreement:
    """Counts of one page, or of all: true and false positives, false negatives, links."""

    def __init__(self) -> None:
        self.tp = self.fp = self.fn = self.links = 0
        self.regions: Counter[str] = Counter()

    def add(self, other: Agreement) -> None:
        self.tp += other.tp
        self.fp += other.fp
        self.fn += other.fn
        self.links += other.links
        self.regions.update(other.regions)

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0

    @property
    def f1(self) -> float:
        return 2 * self.tp / (2 * self.tp + self.fp + self.fn) if self.tp + self.fp + self.fn else 1.0


def agreement_of(page: bytes, expected: bytes) -> Agreement:
    """How the page's ``region == "main"`` links agree with Readability's article."""
    main: Counter[str] = Counter()
    every: Counter[str] = Counter()
    out = Agreement()
    for record in scan_html(page, base=DOCUMENT, fields=_AGREEMENT_KEYS):
        if not isinstance(record, Record) or record.element != "a" or record.attribute != "href":
            continue
        if record.uri.lower().startswith("javascript:"):
            continue
        target = record.browser_target if isinstance(record.browser_target, str) else record.uri
        every[target] += 1
        out.regions[str(record.region)] += 1
        if record.region == "main":
            main[target] += 1
    # Readability writes its links absolute, but for "#..." when the page has no <base>: against its URL
    article = _article_links(expected, DOCUMENT)
    out.links = sum(every.values())
    out.tp = sum(min(n, article[t]) for t, n in main.items())
    out.fp = sum(main.values()) - out.tp
    out.fn = sum(min(n, every[t]) for t, n in article.items()) - out.tp
    return out


def agreement(sources: dict[str, bytes], expected: dict[str, bytes], worst: int) -> Agreement:
    """Print the agreement row and the pages that disagree most."""
    total = Agreement()
    rows = []
    for name, page in sources.items():
        if name not in expected:
            continue
        one = agreement_of(page, expected[name])
        total.add(one)
        rows.append((one.fp + one.fn, name, one))
    scored = [one.f1 for _, _, one in rows if one.tp + one.fn]
    macro = sum(scored) / len(scored) if scored else 0.0
    print(f"\n## region: agreement with Readability's article ({len(rows)} pages, {total.links:,} <a href> links, "
          f"{total.tp + total.fn:,} in the article)\n")
    print("| precision | recall | F1 | F1 a page (mean) | target F1 | met |")
    print("|---:|---:|---:|---:|---:|---|")
    print(f"| {total.precision:.3f} | {total.recall:.3f} | {total.f1:.3f} | {macro:.3f} | 0.90 | "
          f"{'yes' if total.f1 >= 0.90 else 'NO'} |")
    print("\nregions of the links: " + ", ".join(f"{k} {v:,}" for k, v in total.regions.most_common()))
    print("\n| page (most links disagreeing) | links | in article | main, agreeing | main, not in article | "
          "in article, not main | F1 |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for _, name, one in sorted(rows, key=lambda r: (-r[0], r[1]))[:worst]:
        print(f"| {name} | {one.links} | {one.tp + one.fn} | {one.tp} | {one.fp} | {one.fn} | {one.f1:.2f} |")
    return total


def _scan(sources: list[bytes], fields: tuple[str, ...] | None) -> Callable[[], object]:
    def run() -> int:
        n = 0
        for page in sources:
            for _ in scan_html(page, base=DOCUMENT, fields=fields):
                n += 1
        return n
    return run


def _regions_alone(sources: list[bytes]) -> Callable[[], object]:
    from urisift.readers.html.parse import parse
    from urisift.readers.html.region import page_regions

    def run() -> int:
        for page in sources:
            page_regions(parse(page)[0])
        return len(sources)
    return run


def _trafilatura(sources: list[bytes]) -> Callable[[], object] | None:
    try:
        extract = importlib.import_module("trafilatura").extract
    except ImportError:
        return None

    def run() -> int:
        for page in sources:
            extract(page, url=DOCUMENT, include_links=True)
        return len(sources)
    return run


def cost(sources: list[bytes], rounds: int, table: Callable[[str, str, float, list[tuple[str, float | None, str]], str],
                                                           None],
         timeit: Callable[[Callable[[], object], int], float]) -> dict[str, float | None]:
    """Print the cost rows: scan_html with region, without it, the regions alone, trafilatura."""
    # the region is a key a run adds when asked: every key of the record with it, and without it (the default)
    every = (*RECORD_KEYS, "region")
    times: dict[str, float | None] = {
        "scan_html, every key and the region": timeit(_scan(sources, every), rounds),
        "scan_html, every key (the default: no region)": timeit(_scan(sources, None), rounds),
        "regions alone (parse, walk, score)": timeit(_regions_alone(sources), rounds),
    }
    peer = _trafilatura(sources)
    times["trafilatura extract(include_links=True)"] = None if peer is None else timeit(peer, max(1, rounds // 2))
    size = sum(map(len, sources)) / 1e6
    table(f"region: cost on {len(sources)} pages ({size:.1f} MB)", "MB", size,
          [(name, t, "" if t is not None else "bench.py --install-peers (trafilatura, lxml_html_clean)")
           for name, t in times.items()], "scan_html, every key and the region")
    with_region = times["scan_html, every key and the region"]
    without_region = times["scan_html, every key (the default: no region)"]
    peer_time = times["trafilatura extract(include_links=True)"]
    assert with_region is not None and without_region is not None
    ratio = with_region / without_region
    print(f"\nwith region / without: {ratio:.2f} (target at most 2.00: {'met' if ratio <= 2 else 'NOT met'})")
    if peer_time is not None:
        print(f"trafilatura / scan_html with region: {peer_time / with_region:.2f} (target above 1: "
              f"{'met' if peer_time > with_region else 'NOT met'})")
    return times


def bench_region(rounds: int, shared: Path, readability: Path | None, table: Any, timeit: Any, worst: int = 12
                 ) -> None:
    """The case: agreement (when Readability's expected pages are at hand) and cost."""
    sources = pages(shared)
    if not sources:
        print(f"region: no pages under {shared / PAGES}: skipped", file=sys.stderr)
        return
    if readability is None:
        print("region: no Readability checkout (--readability PATH or URISIFT_READABILITY): agreement skipped",
              file=sys.stderr)
    else:
        agreement(sources, expected_pages(readability, list(sources)), worst)
    cost(list(sources.values()), rounds, table, timeit)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--readability", type=Path, default=os.environ.get("URISIFT_READABILITY"),
                        help="a checkout of mozilla/readability, or its git directory (env URISIFT_READABILITY)")
    parser.add_argument("--rounds", type=int, default=3, help="timed rounds (the median is given)")
    parser.add_argument("--worst", type=int, default=12, help="how many of the pages disagreeing most to list")
    parser.add_argument("--no-cost", action="store_true", help="the agreement only")
    args = parser.parse_args(argv)
    readability = Path(args.readability) if args.readability else None
    if args.no_cost:
        if readability is None:
            parser.error("--no-cost needs --readability")
        sources = pages(SHARED)
        agreement(sources, expected_pages(readability, list(sources)), args.worst)
        return 0
    from bench import table, timeit  # the tables and timing of every case

    bench_region(args.rounds, SHARED, readability, table, timeit, args.worst)
    return 0


if __name__ == "__main__":
    sys.exit(main())
