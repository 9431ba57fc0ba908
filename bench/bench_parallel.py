"""The ``parallel`` case of bench.py (issue 12): the command with ``--jobs 1``
and ``--jobs 2`` on the 124 MB linux-mips mbox, on one 31 MB file of link
lines, on the directory of 130 saved pages and on the 3,251 small message
files of SpamAssassin (issue 24: the pool hands them out in groups), each a subprocess writing
JSON lines to /dev/null; the outputs are checked to be identical; the peak
memory is the largest process of the run (the command or one of its workers)."""

from __future__ import annotations

import lzma
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

MBOX = "corpora/linux-mips-1996-2007/linux-mips-1996-2007.mboxrd.xz"
PAGES = "corpora/html-readability-pages"
SMALL = "corpora/spamassassin-2002"
# runs the command in a child and reports the largest process of its tree (ru_maxrss of the
# waited-for descendants), so that the bench's own memory is not counted
_HARNESS = (
    "import resource, subprocess, sys, hashlib\n"
    "p = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)\n"
    "print(hashlib.sha256(p.stdout).hexdigest(), p.returncode,"
    " resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
)


def _run(argv: list[str]) -> tuple[float, str, int]:
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", _HARNESS, *argv], capture_output=True, text=True, check=True)
    elapsed = time.perf_counter() - start
    digest, code, peak = done.stdout.split()
    assert code == "0", argv
    return elapsed, digest, int(peak)


def bench_parallel(rounds: int, shared: Path, table: Callable[..., None]) -> None:
    command = [sys.executable, "-m", "urisift", "--format", "jsonl", "-q"]
    with tempfile.TemporaryDirectory() as tmp:
        inputs: list[tuple[str, str, float]] = []
        if (shared / MBOX).exists():
            mbox = Path(tmp) / "linux-mips.mbox"
            with lzma.open(shared / MBOX) as src, open(mbox, "wb") as dst:
                while chunk := src.read(1 << 24):
                    dst.write(chunk)
            inputs.append(("the 124 MB linux-mips mbox", str(mbox), mbox.stat().st_size / 1e6))
        # one large file of link lines, cut into ranges: the workers' output is dense, and
        # each range's waits for its turn (--jobs 2 was no faster than 1 here until 512 KB ranges)
        from bench import link_dense

        text = Path(tmp) / "links.txt"
        link_dense(text, 800_000)
        inputs.append(("one 31 MB file of link lines", str(text), text.stat().st_size / 1e6))
        if (shared / PAGES).exists():
            size = sum(p.stat().st_size for p in (shared / PAGES).rglob("*") if p.is_file()) / 1e6
            inputs.append(("a directory of 130 saved pages", str(shared / PAGES), size))
        if (shared / SMALL).exists():
            files = [p for p in (shared / SMALL).rglob("*") if p.is_file()]
            inputs.append((f"{len(files):,} small message files (SpamAssassin)", str(shared / SMALL),
                           sum(p.stat().st_size for p in files) / 1e6))
        if not inputs:
            print("\n## parallel: skipped, no inputs in ../shared")
            return
        for title, path, size in inputs:
            rows = []
            digests = set()
            for jobs in ("1", "2"):
                runs = [_run([*command, "--jobs", jobs, path]) for _ in range(rounds)]
                digests |= {digest for _, digest, _ in runs}
                t = _Timed(statistics.median(elapsed for elapsed, _, _ in runs))
                t.peak = max(peak for _, _, peak in runs) / 1024
                rows.append((f"urisift --jobs {jobs}", t, ""))
            table(f"parallel: {title} (--format jsonl, output {'identical' if len(digests) == 1 else 'DIFFERENT'})",
                  "MB", size, rows, "urisift --jobs 2")
            for name, t, _ in rows:
                print(f"  {name}: peak {t.peak:.0f} MiB (the largest process)")
        print("\n(target of issue 12: --jobs 2 >= 1.7x --jobs 1, identical output)")


class _Timed(float):
    peak: float = 0.0
