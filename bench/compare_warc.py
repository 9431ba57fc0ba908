#!/usr/bin/env python3
"""Per WARC record: the links urisift resolves against those of the loop
people write today (warcio, lxml.html, ``make_links_absolute`` with the
target URI, ``iterlinks``), on the WARC samples (issue 11).

    python bench/compare_warc.py ../shared/corpora/warc-samples/warcio-test-data corpora/warc
"""

from __future__ import annotations

import collections
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from urisift import Record, iter_input  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_warc import warcio_lxml_links  # noqa: E402


def theirs(path: Path) -> dict[int, set[str]]:
    links: dict[int, set[str]] = collections.defaultdict(set)
    try:
        with open(path, "rb") as f:
            for offset, found in warcio_lxml_links(f, ("response", "resource", "revisit")):
                links[offset] |= set(found)
    except Exception as exc:  # noqa: BLE001
        links[-1].add(f"(the loop stopped: {type(exc).__name__})")
    return links


def ours(path: Path) -> dict[int, set[str]]:
    links: dict[int, set[str]] = collections.defaultdict(set)
    for item in iter_input(str(path)):
        if isinstance(item, Record) and item.target and item.origin.offset is not None:
            links[item.origin.offset].add(item.target)
    return links


def main(folders: list[str]) -> int:
    print("| file | record offset | both | only urisift | only warcio+lxml |\n|---|---:|---:|---|---|")
    for folder in folders:
        for path in sorted(p for p in Path(folder).iterdir() if ".warc" in p.name or ".arc" in p.name):
            if path.name.endswith(".jsonl"):
                continue
            a, b = ours(path), theirs(path)
            for offset in sorted(set(a) | set(b)):
                mine, other = a.get(offset, set()), b.get(offset, set())
                if not mine and not other:
                    continue
                print(f"| {path.name} | {offset} | {len(mine & other)} | {', '.join(sorted(mine - other))[:160]} | "
                      f"{', '.join(sorted(other - mine))[:160]} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or ["../shared/corpora/warc-samples/warcio-test-data", "corpora/warc"]))
