"""The ``remote`` case of bench.py (issue 22): the command reading from a
local S3 server (moto, on 127.0.0.1) against the same files on local disk,
one run each: the shared WARC samples and 40 pages, and the linux-mips
mbox (15 MB of xz).  The standalone cluster's case (two workers against
one) is ``python bench/spark_cluster.py --bench``: it starts JVMs."""

from __future__ import annotations

import io
import time
from collections.abc import Callable
from pathlib import Path


def bench_remote(shared: Path, table: Callable[..., None]) -> None:
    try:
        from spark_cluster import s3_objects
    except ImportError as exc:
        print(f"\n## remote: skipped ({exc})")
        return
    from urisift.cli.command import main

    def run(paths: list[str]) -> float:
        start = time.perf_counter()
        main(["--format", "jsonl", "-j", "1", "-q", *paths], stdout=io.StringIO(), stderr=io.StringIO())
        return time.perf_counter() - start

    local = {"mail/": [str(shared / "corpora" / "linux-mips-1996-2007" / "linux-mips-1996-2007.mboxrd.xz")],
             "warc/*.warc*": sorted(str(p) for p in (shared / "corpora" / "warc-samples" / "warcio-test-data")
                                    .glob("example*.warc*")),
             "pages/": sorted(str(p) for p in (shared / "corpora" / "html-readability-pages")
                              .glob("*/source.html"))[:40]}
    with s3_objects():
        for key, paths in local.items():
            mb = sum(Path(p).stat().st_size for p in paths) / 1e6
            ours = f"s3://crawls/{key} (moto on localhost)"
            table(f"remote: {key}, {mb:.1f} MB, from S3 against local disk (want >= 0.8)", "MB", mb,
                  [(ours, run([f"s3://crawls/{key}"]), ""), ("the same files on local disk", run(paths), "")], ours)
