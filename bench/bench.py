#!/usr/bin/env python3
"""urisift benchmarks: throughput side by side with peers, in one run.

    python bench/bench.py resolve            # RFC 3986 resolution vs urljoin, rfc3986
    python bench/bench.py scan               # scan_text vs linkify-it-py, urlextract, a bare regex
    python bench/bench.py adversarial        # growth ratios on inputs built to make scanners backtrack
    python bench/bench.py normalize          # normalize vs rfc3986's normalize()
    python bench/bench.py records            # link-dense input through the whole CLI vs a bare floor
    python bench/bench.py html               # scan_html vs lxml (and parse-only rows) on 130 real pages
    python bench/bench.py region --readability PATH   # region == main against Readability's article; its cost
    python bench/bench.py mail               # scan_mbox vs urlscan and a stdlib floor on 30 MB of linux-mips
    python bench/bench.py warc               # a 50 MB WARC of saved pages vs warcio + lxml
    python bench/bench.py stream             # peak RSS, first record, | head -1 on 123 MB text, 1 GB mbox and WARC
    python bench/bench.py hostile            # MB/s and peak RSS on each hostile HTML, mail and WARC shape
    python bench/bench.py markup             # Markdown vs lychee, markdown-it-py; other kinds vs 10 MB/s, peers; a dump
    python bench/bench.py qr                 # --qr: ms a 1000x1400 page (one code, six, none); RSS on a PNG bomb
    python bench/bench.py speed --rounds 3   # the table of issue 24: every speed target, ratio and whether met
    python bench/bench.py all

Peers are imported from the running environment or from bench/.peers (where
``--install-peers`` puts them with pip); a peer that cannot be imported is
skipped with a message.  Every case runs ``--rounds`` times; the table shows
the median time of a round, the throughput, and the ratio to urisift.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import os
import re
import statistics
import subprocess
import sys
import tarfile
import time
import tracemalloc
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PEERS_DIR = HERE / ".peers"
SHARED = Path(os.environ.get("URISIFT_SHARED", ROOT.parent / "shared"))
# (orjson and msgspec: the JSON encoders the speed case measures against the record writer)
# (fastwarc and selectolax: the Common Crawl user's script of the archive rows, ../shared/bench; trafilatura and
# lxml_html_clean: the content extractor the region case measures against)
PEER_PACKAGES = ["rfc3986", "linkify-it-py", "urlextract", "lxml", "html5lib", "urlscan", "orjson", "msgspec",
                 "fastwarc", "selectolax", "trafilatura", "lxml_html_clean"]

# the tree's src/ (the pure package of an editable install), unless the build installed in this
# interpreter is the one measured (URISIFT_BENCH_INSTALLED=1: a wheel's, compiled where it could be)
if os.environ.get("URISIFT_BENCH_INSTALLED") != "1":
    sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tests"))  # the adversarial inputs the tests use
sys.path.insert(0, str(HERE))
if PEERS_DIR.is_dir():
    sys.path.append(str(PEERS_DIR))


def install_peers() -> None:
    """pip-install the peers into bench/.peers (kept out of the project's environment)."""
    cmd = [sys.executable, "-m", "pip", "install", "--quiet", "--target", str(PEERS_DIR), *PEER_PACKAGES]
    print("installing peers:", " ".join(PEER_PACKAGES), file=sys.stderr)
    subprocess.run(cmd, check=True)
    if str(PEERS_DIR) not in sys.path:
        sys.path.append(str(PEERS_DIR))


class Timed(float):
    """A median time that also carries the peak of Python memory one call took (MiB)."""

    peak: float | None = None


#: contenders slower than this (s a call) are not run again under tracemalloc
PEAK_LIMIT = 8.0


def timeit(fn: Callable[[], object], rounds: int) -> float:
    """Median wall time of ``rounds`` calls (one warm-up call first, GC off
    while timing), and the peak Python memory of one more call (tracemalloc:
    the Python heap, not what C libraries allocate outside it)."""
    fn()
    times = []
    for _ in range(rounds):
        gc.disable()
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
        gc.enable()
    median = Timed(statistics.median(times))
    if median < PEAK_LIMIT:
        tracemalloc.start()
        fn()
        median.peak = tracemalloc.get_traced_memory()[1] / (1 << 20)
        tracemalloc.stop()
    return median


#: every row of every table of the run, for the summary and --json
RESULTS: list[dict[str, Any]] = []
#: the stream case's rows (input -> wall, peak RSS, first record, | head -1), for --json
STREAM: dict[str, dict[str, float]] = {}
#: the speed case's rows (row -> urisift and peer seconds, ratio, target), for --json
SPEED: dict[str, dict[str, float]] = {}


def table(title: str, unit: str, amount: float, rows: list[tuple[str, float | None, str]], ours: str) -> None:
    """Print one result table; ``rows`` are (name, median seconds or None, note)."""
    base_time = next((t for n, t, _ in rows if n == ours), None)
    for name, t, note in rows:
        RESULTS.append({"case": title, "contender": name, "seconds": t, "unit": unit,
                        "throughput": None if t is None else amount / t,
                        "urisift_is_x_faster": None if t is None or base_time is None else t / base_time,
                        "note": note or None, "ours": name == ours, "peak_mib": getattr(t, "peak", None)})
    print(f"\n## {title}\n")
    print(f"| contender | median s/round | {unit}/s | urisift is × faster |")
    print("|---|---:|---:|---:|")
    base = next((t for n, t, _ in rows if n == ours), None)
    for name, t, note in rows:
        if t is None:
            print(f"| {name} | — | — | skipped: {note} |")
            continue
        ratio = "1.00" if name == ours else (f"{t / base:.2f}" if base else "—")
        print(f"| {name} | {t:.4f} | {amount / t:,.0f} | {ratio} |")


def try_import(name: str):  # noqa: ANN201 - returns a module or None
    try:
        return __import__(name)
    except ImportError as exc:
        print(f"peer {name!r} unavailable ({exc}); run with --install-peers", file=sys.stderr)
        return None


def rfc3986_row(name: str, rounds: int, items: list[Any], op: Callable[[Any, Any], object]
                ) -> tuple[str, float | None, str]:
    """A table row for the rfc3986 package doing ``op(uri_reference, item)`` on every item."""
    rfc3986 = try_import("rfc3986")
    if rfc3986 is None:
        return ("rfc3986", None, "not installed")
    ref = rfc3986.uri_reference

    def run() -> None:
        for item in items:
            # the peer raises on some vectors; count the work it did anyway
            with contextlib.suppress(Exception):
                op(ref, item)

    return (name, timeit(run, rounds), "")


# -- resolve -----------------------------------------------------------------------

def resolve_pairs() -> list[tuple[str, str]]:
    path = SHARED / "vectors" / "resolve.json"
    if path.exists():
        vectors = json.loads(path.read_text(encoding="utf-8"))
        return [(v["base"], v["ref"]) for v in vectors if v["rfc"] == "3986" and not v.get("base_not_absolute")]
    # Without ../shared: seed 002 Appendix C against its base.
    refs = ["g:h", "g", "./g", "g/", "/g", "//g", "?y", "g?y", "#s", "g#s", "g?y#s", ";x", "g;x", "g;x?y#s",
            ".", "./", "..", "../", "../g", "../..", "../../", "../../g"]
    return [("http://a/b/c/d;p?q", r) for r in refs]


def bench_resolve(rounds: int, repeat: int) -> None:
    from urllib.parse import urljoin

    from urisift import resolve

    pairs = resolve_pairs() * repeat
    rows: list[tuple[str, float | None, str]] = []

    def ours() -> None:
        for b, r in pairs:
            str(resolve(r, b))

    def stdlib() -> None:
        for b, r in pairs:
            urljoin(b, r)

    rows.append(("urisift.resolve", timeit(ours, rounds), ""))
    rows.append(("urllib.parse.urljoin", timeit(stdlib, rounds), ""))
    rows.append(rfc3986_row("rfc3986 uri_reference(r).resolve_with(b)", rounds, pairs,
                            lambda ref, pair: ref(pair[1]).resolve_with(pair[0]).unsplit()))
    table(f"resolve: {len(pairs):,} RFC 3986 (base, reference) pairs", "pairs", len(pairs), rows, "urisift.resolve")


# -- scan --------------------------------------------------------------------------

def rfc_texts(limit: int) -> list[str]:
    """Up to ``limit`` RFC texts from ../shared/corpora/rfc-text, else the seeds."""
    archive = SHARED / "corpora" / "rfc-text" / "rfc6000-latest.tar.xz"
    texts: list[str] = []
    if archive.exists():
        with tarfile.open(archive) as tar:
            for member in tar:
                if not member.isfile() or not member.name.endswith(".txt"):
                    continue
                f = tar.extractfile(member)
                if f is None:
                    continue
                texts.append(f.read().decode("utf-8", "replace"))
                if len(texts) >= limit:
                    break
    if not texts:
        seeds = SHARED / "seeds"
        texts = [p.read_text("utf-8", "replace") for p in sorted(seeds.glob("*.txt"))] if seeds.exists() else []
    if not texts:
        texts = [(ROOT / "README.md").read_text("utf-8")]
    return texts


def bench_scan(rounds: int, limit: int) -> None:
    from urisift import scan_text

    texts = rfc_texts(limit)
    n_texts = len(texts)
    text = "\n".join(texts)
    mb = len(text.encode("utf-8")) / 1e6
    rows: list[tuple[str, float | None, str]] = []
    counts: dict[str, int] = {}

    def ours() -> None:
        counts["urisift"] = sum(1 for _ in scan_text(text))

    rows.append(("urisift.scan_text", timeit(ours, rounds), ""))
    bare = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:[^\s<>\"]+")

    def regex_pass() -> None:
        counts["bare regex"] = sum(1 for _ in bare.finditer(text))

    rows.append(("re.finditer bare regex", timeit(regex_pass, rounds), ""))
    linkify = try_import("linkify_it")
    if linkify is None:
        rows.append(("linkify-it-py", None, "not installed"))
    else:
        from linkify_it import LinkifyIt

        lk = LinkifyIt()

        def peer_linkify() -> None:
            counts["linkify-it-py"] = len(lk.match(text) or [])

        rows.append(("linkify-it-py", timeit(peer_linkify, max(1, rounds // 2)), ""))
    urlextract = try_import("urlextract")
    if urlextract is None:
        rows.append(("urlextract", None, "not installed"))
    else:
        extractor = urlextract.URLExtract()

        def peer_urlextract() -> None:
            counts["urlextract"] = len(extractor.find_urls(text))

        rows.append(("urlextract", timeit(peer_urlextract, 1), "1 round"))
    table(f"scan: {n_texts} texts, {mb:.1f} MB", "MB", mb, rows, "urisift.scan_text")
    print("\nreferences found:", ", ".join(f"{k} {v:,}" for k, v in counts.items()))


# -- records: the per-record path end to end -------------------------------------------

def _floor_program() -> str:
    from bench_speed import floor

    return floor('json.dumps({"uri": uri}) + "\\n"')


def link_dense(path: Path, n: int) -> None:
    """``n`` URLs one a line (deterministic): web, ftp and mail schemes, hosts from
    a pool, paths of one to four segments, a third with a query, some fragments."""
    import random

    rng = random.Random(1)
    hosts = [f"{w}.example.{t}" for w in ("www", "docs", "mail", "cdn", "api", "lists", "git", "wiki", "news", "shop")
             for t in ("com", "org", "net", "de", "jp")]
    words = ["index", "about", "a", "b", "2024", "news", "item", "view", "page", "docs", "src", "main", "img", "user"]
    with open(path, "w", encoding="utf-8") as f:
        for _ in range(n):
            scheme = rng.choice(("http", "https", "https", "ftp"))
            segments = "/".join(rng.choice(words) for _ in range(rng.randint(1, 4)))
            query = f"?id={rng.randint(1, 99999)}&p={rng.randint(1, 9)}" if rng.random() < 0.3 else ""
            fragment = "#sec" if rng.random() < 0.05 else ""
            f.write(f"{scheme}://{rng.choice(hosts)}/{segments}{query}{fragment}\n")


def _run(cmd: list[str]) -> float:
    """Seconds to run ``cmd`` with its output read (and dropped) through a
    pipe, as a consumer downstream would: not to /dev/null, where GNU grep
    stops at the first match, nor to a disk file, which charges the larger
    records for the disk."""
    from bench_speed import piped

    return piped(cmd)


def bench_records(rounds: int, n: int) -> None:
    """Link-dense input through the whole CLI (found → base → resolve → record
    → JSON, risk flags included) against a bare Python floor that only runs
    re.finditer and one json.dumps per URL, and grep -o; each a subprocess,
    rounds interleaved so that a noisy machine treats them alike."""
    path = HERE / "results" / f"urls-{n}.txt"
    path.parent.mkdir(exist_ok=True)
    if not path.exists():
        link_dense(path, n)
    contenders = {
        "urisift --format jsonl": [sys.executable, "-m", "urisift", "--format", "jsonl", str(path)],
        "python floor (re.finditer + json.dumps)": [sys.executable, "-c", _floor_program(), str(path)],
        "grep -o": ["grep", "-oE", "[A-Za-z][A-Za-z0-9+.-]*:[^[:space:]<>\"]+", str(path)],
    }
    times: dict[str, list[float]] = {name: [] for name in contenders}
    for _ in range(rounds):
        for name, cmd in contenders.items():
            times[name].append(_run(cmd))
    ours = statistics.median(times["urisift --format jsonl"])
    print(f"\n## records: {n:,} URLs one a line, end to end through the CLI ({rounds} rounds, medians)\n")
    print("| contender | median s | records/s | urisift's speed ÷ this one's |")
    print("|---|---:|---:|---:|")
    for name, ts in times.items():
        t = statistics.median(ts)
        print(f"| {name} | {t:.2f} | {n / t:,.0f} | {t / ours:.2f} |")
    print("\n(target: urisift >= 0.5x the python floor's records/s)")


# -- adversarial -------------------------------------------------------------------

def bench_adversarial(rounds: int, sizes: Iterable[int]) -> None:
    from adversarial import ADVERSARIAL

    from urisift import scan_text
    from urisift.stages.delimit import Scanner

    sizes = list(sizes)
    print("\n## adversarial inputs: scan_text seconds by input size (growth = t(max)/t(min) ÷ size ratio), "
          "and the scanner's MB/s at the largest size (target >= 5 MB/s but for inputs dense with URIs)\n")
    print("| input | " + " | ".join(f"n={n:,}" for n in sizes) + " | growth | scanner MB/s | URIs/MB |")
    print("|---|" + "---:|" * len(sizes) + "---:|---:|---:|")
    for name, make in ADVERSARIAL.items():
        times = []
        for n in sizes:
            text = make(n)
            times.append(timeit(lambda text=text: sum(1 for _ in scan_text(text)), rounds))
        found = sum(1 for _ in Scanner(text))
        scanner = timeit(lambda text=text: sum(1 for _ in Scanner(text)), rounds)
        mb = len(text.encode("utf-8")) / 1e6
        growth = (times[-1] / max(times[0], 1e-9)) / (sizes[-1] / sizes[0])
        print(f"| {name} | " + " | ".join(f"{t:.4f}" for t in times)
              + f" | {growth:.2f} | {mb / scanner:.1f} | {found / mb:,.0f} |")


# -- normalize ---------------------------------------------------------------------

def bench_normalize(rounds: int, repeat: int) -> None:
    from urisift import normalize

    path = SHARED / "vectors" / "normalize.json"
    if not path.exists():
        print("normalize: ../shared/vectors/normalize.json absent, skipped", file=sys.stderr)
        return
    vectors = json.loads(path.read_text(encoding="utf-8"))
    inputs = [v["input"] for v in vectors if "input" in v] * repeat
    rows: list[tuple[str, float | None, str]] = []

    def ours() -> None:
        for u in inputs:
            normalize(u)

    rows.append(("urisift.normalize", timeit(ours, rounds), ""))
    rows.append(rfc3986_row("rfc3986 uri_reference(u).normalize()", rounds, inputs,
                            lambda ref, u: ref(u).normalize().unsplit()))
    table(f"normalize: {len(inputs):,} vector inputs", "URIs", len(inputs), rows, "urisift.normalize")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("case", choices=["resolve", "scan", "adversarial", "normalize", "records", "html", "mail",
                                         "warc", "parallel", "stream", "hostile", "browser", "payloads", "remote",
                                         "region", "speed", "markup", "qr", "all"])
    parser.add_argument("--rounds", type=int, default=5, help="timed rounds per contender (median reported)")
    parser.add_argument("--repeat", type=int, default=20, help="repetitions of the vector set per round")
    parser.add_argument("--rfcs", type=int, default=400, help="RFC texts for the scan case")
    parser.add_argument("--sizes", default="10000,100000,1000000", help="adversarial input sizes")
    parser.add_argument("--urls", type=int, default=1_000_000, help="URLs in the link-dense input of 'records'")
    parser.add_argument("--stream-inputs", default="text,mbox,warc",
                        help="the large inputs of 'stream' (built once in bench/.data: 123 MB of text, "
                             "1 GB mbox, 1 GB WARC)")
    parser.add_argument("--rows", default="",
                        help="speed: only these rows (comma-separated: archive,html,records,text,fields,mail,"
                             "parallel,encoders)")
    parser.add_argument("--readability", default=os.environ.get("URISIFT_READABILITY"),
                        help="region: a checkout of mozilla/readability or its git directory, for its test pages' "
                             "expected articles (env URISIFT_READABILITY; without it, the cost rows only)")
    parser.add_argument("--install-peers", action="store_true", help="pip-install the peers into bench/.peers first")
    parser.add_argument("--json", action="store_true",
                        help="print the results as one JSON document on standard output (the tables go to stderr)")
    args = parser.parse_args(argv)
    if args.json:
        real_stdout = sys.stdout
        sys.stdout = sys.stderr
    if args.install_peers:
        install_peers()
    cases = (["resolve", "scan", "adversarial", "normalize", "records", "html", "browser", "payloads", "mail", "warc",
              "parallel"]
             if args.case == "all" else [args.case])
    when = time.strftime("%Y-%m-%d %H:%M")
    print(f"# urisift bench ({when}, Python {sys.version.split()[0]}, {os.cpu_count()} cores)")
    for case in cases:
        if case == "resolve":
            bench_resolve(args.rounds, args.repeat)
        elif case == "scan":
            bench_scan(args.rounds, args.rfcs)
        elif case == "adversarial":
            bench_adversarial(args.rounds, [int(s) for s in args.sizes.split(",")])
        elif case == "normalize":
            bench_normalize(args.rounds, args.repeat)
        elif case == "records":
            bench_records(args.rounds, args.urls)
        elif case == "html":
            from bench_html import bench_html

            bench_html(args.rounds, SHARED, ROOT, timeit, table)
        elif case == "region":
            from bench_region import bench_region

            bench_region(args.rounds, SHARED, Path(args.readability) if args.readability else None,
                         table=table, timeit=timeit)
        elif case == "browser":
            from bench_browser import bench_browser

            bench_browser(args.rounds, SHARED, rfc_texts(args.rfcs), timeit, table)
        elif case == "payloads":
            from bench_payloads import bench_payloads

            bench_payloads(args.rounds, timeit, table)
        elif case == "remote":
            from bench_remote import bench_remote

            bench_remote(SHARED, table)
        elif case == "warc":
            from bench_warc import bench_warc

            bench_warc(args.rounds, SHARED, timeit, table)
        elif case == "mail":
            from bench_mail import bench_mail

            bench_mail(args.rounds, SHARED, timeit, table)
        elif case == "parallel":
            from bench_parallel import bench_parallel

            bench_parallel(max(1, args.rounds // 2), SHARED, table)
        elif case == "speed":
            from bench_speed import bench_speed

            urls = HERE / "results" / "urls-200000.txt"
            urls.parent.mkdir(exist_ok=True)
            if not urls.exists():
                link_dense(urls, 200_000)
            SPEED.update(bench_speed(args.rounds, SHARED, urls, set(args.rows.split(",")) if args.rows else None))
        elif case == "markup":
            from bench_markup import bench_markup_all

            bench_markup_all(args.rounds, SHARED)
        elif case == "hostile":
            from bench_hostile import main as bench_hostile

            bench_hostile([])
        elif case == "qr":
            from bench_qr import bench_qr

            bench_qr(args.rounds, timeit, table)
        elif case == "stream":
            from bench_stream import bench_stream

            STREAM.update(bench_stream(args.stream_inputs.split(",")))
    summary()
    if args.json:
        sys.stdout = real_stdout
        print(json.dumps({"when": when, "python": sys.version.split()[0], "cores": os.cpu_count(),
                          "results": RESULTS, "stream": STREAM, "speed": SPEED}, indent=1))
    return 0


def summary() -> None:
    """One table of every comparison of the run: urisift's row of each case
    and its ratio to each peer and floor."""
    print("\n## Summary: every comparison of this run\n")
    print("| case | contender | median s | throughput | urisift is × faster | peak MiB |")
    print("|---|---|---:|---:|---:|---:|")
    for row in RESULTS:
        t, rate, ratio, peak = row["seconds"], row["throughput"], row["urisift_is_x_faster"], row.get("peak_mib")
        cells = ["—" if t is None else f"{t:.3f}", "—" if rate is None else f"{rate:,.0f} {row['unit']}/s",
                 "—" if ratio is None else f"{ratio:.2f}", "—" if peak is None else f"{peak:.0f}"]
        print(f"| {row['case'][:48]} | {row['contender'][:48]} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    sys.exit(main())
