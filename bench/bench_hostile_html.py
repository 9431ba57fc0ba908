#!/usr/bin/env python3
"""Hostile HTML shapes (issue 20): throughput and peak memory of scan_html.

    python bench/bench_hostile_html.py            # every shape
    python bench/bench_hostile_html.py --only "closed nesting"

Each shape is built and scanned in a child process of its own (every record
and defect read), so that its peak resident memory (``ru_maxrss``) is that
shape's alone; the child also reports the resident memory before the scan
(the interpreter, its imports and the input).  Wall and CPU time are both
shown: on a shared machine the CPU time is the steadier.  The target is 2 MB/s or more
for every shape: the shapes on which an HTML5 tree builder is quadratic
(depth, attributes) are capped by html/guard.py before lexbor sees them.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: name -> Python expression building the page (str), evaluated in the child
SHAPES = {
    # 100,000 nested <div>, all closed (1.1 MB): lexbor alone took 21.5 s
    "closed nesting": "'<div>' * 100_000 + '<a href=\"x.html\">x</a>' + '</div>' * 100_000",
    # the same, unclosed (0.5 MB)
    "open nesting": "'<div>' * 100_000 + '<a href=\"x.html\">x</a>'",
    # one element with 200,000 attributes (2.9 MB): lexbor alone took over 60 s
    "many attributes": "'<a ' + ' '.join(f'data-a{i}=\"{i}\"' for i in range(200_000)) + ' href=\"w.html\">w</a>'",
    # a 4 MB page of images (a record each) and line breaks: once sent to the fallback parser (11.5 s)
    "many void elements": "''.join(f'<img src=\"/img/p{i}.jpg\" alt=\"photo {i}\"><br>\\n' for i in range(80_000))",
    # 20 MB of "<": text, no tag
    "20 MB of <": "'<' * 20_000_000",
    # one 10 MB attribute value
    "10 MB attribute value": "'<a href=\"' + 'a' * 10_000_000 + '\">x</a>'",
    # 1,000 nested templates (RecursionError in the walk before), repeated to 1 MB
    "nested templates": "('<template>' * 1000 + '<a href=\"t.html\">t</a>' + '</template>' * 1000) * 48",
    # end tags the tree builder ignores (a div is the current node): 1 MB
    "span around div": "'<span><div></span>' * 55_000",
}

_CHILD = r"""
import json, resource, sys, time
sys.path.insert(0, {src!r})
from urisift import scan_html
from urisift.model import Defect
page = {expr}
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t0, c0 = time.perf_counter(), time.process_time()
records = defects = 0
for item in scan_html(page, base="http://example.com/d/p.html"):
    if isinstance(item, Defect):
        defects += 1
    else:
        records += 1
seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({{"mb": len(page.encode()) / 1e6, "seconds": seconds, "cpu": cpu, "records": records,
                  "defects": defects, "rss_before": before / 1024, "rss_peak": peak / 1024}}))
"""


def run(name: str) -> dict[str, float]:
    code = _CHILD.format(src=str(ROOT / "src"), expr=SHAPES[name])
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=600)
    result: dict[str, float] = json.loads(done.stdout)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=sorted(SHAPES), action="append")
    args = parser.parse_args(argv)
    print("| shape | MB | seconds | MB/s | CPU s | MB/CPU s | records | defects | RSS before MiB | peak RSS MiB |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name in args.only or SHAPES:
        r = run(name)
        print(f"| {name} | {r['mb']:.1f} | {r['seconds']:.2f} | {r['mb'] / r['seconds']:.1f} | {r['cpu']:.2f} "
              f"| {r['mb'] / r['cpu']:.1f} | {r['records']:,} "
              f"| {r['defects']} | {r['rss_before']:.0f} | {r['rss_peak']:.0f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
