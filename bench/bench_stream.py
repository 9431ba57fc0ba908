"""The streaming case (issue 19): one large input through the command with
the default ``--jobs``, as a new user runs it.

For each input -- a 123 MB text file of 3,000,000 links, a 1 GB mbox and a
1 GB WARC built from the shared corpora -- three runs of
``urisift --format jsonl INPUT`` (default jobs), each a subprocess:

- to ``-o /dev/null``: the wall time and the peak RSS of the largest
  process of the run (``ru_maxrss`` of the children, in a child of its own
  so that no other run counts);
- to a pipe: how long until the first record arrives;
- ``| head -1``: how long until the pipeline ends.

    python bench/bench.py stream [--stream-inputs text,mbox,warc]

The inputs are built once in ``bench/.data`` (not in the repository).
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / ".data"
SHARED = Path(os.environ.get("URISIFT_SHARED", HERE.parent.parent / "shared"))
GB = 1 << 30


def text_input() -> Path:
    """123 MB, 3,000,000 links, one a line with words around it."""
    path = DATA / "links-3M.txt"
    if not path.exists():
        DATA.mkdir(exist_ok=True)
        with open(path, "w", encoding="ascii") as f:
            for i in range(3_000_000):
                f.write(f"see http://h{i % 9973}.example/p/{i}?q=1 now\n")
    return path


def mbox_input() -> Path:
    """1 GB: the linux-mips archive (124 MB), again and again."""
    path = DATA / "linux-mips-1G.mbox"
    if not path.exists():
        import lzma

        source = SHARED / "corpora" / "linux-mips-1996-2007" / "linux-mips-1996-2007.mboxrd.xz"
        data = lzma.decompress(source.read_bytes())
        DATA.mkdir(exist_ok=True)
        with open(path, "wb") as out:
            while out.tell() < GB:
                out.write(data if data.endswith(b"\n") else data + b"\n")
    return path


def warc_input() -> Path:
    """1 GB: the 130 saved pages as response records, a gzip member each
    (``bench_warc``'s 50 MB crawl), again and again."""
    path = DATA / "pages-1G.warc.gz"
    if not path.exists():
        sys.path.insert(0, str(HERE))
        from bench_warc import build

        blob = build(SHARED)
        DATA.mkdir(exist_ok=True)
        with open(path, "wb") as out:
            while out.tell() < GB:
                out.write(blob)
    return path


INPUTS = {"text": text_input, "mbox": mbox_input, "warc": warc_input}
COMMAND = [sys.executable, "-m", "urisift", "--format", "jsonl"]


def _child(code: str) -> dict[str, float]:
    """Run ``code`` in a fresh interpreter; it prints one line of results."""
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    return eval(out.stdout.strip().splitlines()[-1])  # noqa: S307 - our own child's dict literal


def whole_run(path: Path) -> dict[str, float]:
    """Wall time and the peak RSS (MB) of the largest process of one run to /dev/null."""
    code = f"""
import resource, subprocess, time
start = time.perf_counter()
subprocess.run({COMMAND + [str(path), "-o", os.devnull]!r}, check=True)
wall = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print({{"wall_s": round(wall, 2), "peak_rss_mb": round(peak, 1)}})
"""
    return _child(code)


def first_record(path: Path) -> float:
    """Seconds until the first record arrives on a pipe."""
    start = time.perf_counter()
    with subprocess.Popen(COMMAND + [str(path)], stdout=subprocess.PIPE) as proc:
        assert proc.stdout is not None
        proc.stdout.readline()
        took = time.perf_counter() - start
        proc.kill()
    return took


def head_one(path: Path) -> float:
    """Seconds until ``urisift ... | head -1`` ends."""
    start = time.perf_counter()
    subprocess.run(f"{' '.join(COMMAND)} {path} | head -1 > /dev/null", shell=True, check=True)  # noqa: S602
    return time.perf_counter() - start


def bench_stream(kinds: list[str]) -> dict[str, dict[str, float]]:
    results: dict[str, dict[str, float]] = {}
    print(f"{'input':<28} {'size':>8} {'wall s':>8} {'peak RSS MB':>12} {'1st record s':>13} {'| head -1 s':>12}")
    for kind in kinds:
        path = INPUTS[kind]()
        row = whole_run(path)
        row["first_record_s"] = round(first_record(path), 2)
        row["head_1_s"] = round(head_one(path), 2)
        row["size_mb"] = round(path.stat().st_size / 1e6, 1)
        results[kind] = row
        print(f"{path.name:<28} {row['size_mb']:>7}M {row['wall_s']:>8} {row['peak_rss_mb']:>12} "
              f"{row['first_record_s']:>13} {row['head_1_s']:>12}", flush=True)
    print("targets: peak RSS <= 150 MB, first record <= 2 s, | head -1 <= 2 s (issue 19)")
    return results


if __name__ == "__main__":
    assert resource  # the children's rusage is read in the child interpreter
    bench_stream(sys.argv[1].split(",") if len(sys.argv) > 1 else list(INPUTS))
