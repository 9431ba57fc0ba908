"""Reading a WARC, and nothing more (issue 36): CPU seconds (median of
``--rounds``, ``time.process_time``) to iterate every record and read every
payload, with FastWARC alone, warcio alone, and urisift's WarcReader with
and without its fast path (FastWARC where the file is clean, warcio after).

    python bench/bench_warc_readers.py [--rounds 3] [WARC ...]

Without a WARC, the two of bench/.data: pages.warc.gz (the 130 shared pages
as 520 response records: ../shared/bench/make_pages_warc.py) and
cc-shape.warc.gz (request, response and metadata records, 60,000 small
ones: bench/make_cc_warc.py).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))


def fastwarc_alone(path: Path) -> int:
    from fastwarc.warc import ArchiveIterator

    with path.open("rb") as f:
        return sum(len(record.reader.read()) for record in ArchiveIterator(f))


def warcio_alone(path: Path) -> int:
    from warcio.archiveiterator import ArchiveIterator

    with path.open("rb") as f:
        return sum(len(record.content_stream().read()) for record in ArchiveIterator(f))


def urisift_reader(fast: bool) -> Callable[[Path], int]:
    def read(path: Path) -> int:
        from urisift.model import Origin
        from urisift.readers.warc import WarcReader

        total = 0
        with path.open("rb") as f:
            for unit in WarcReader(f, Origin(file=str(path)), fast=fast):
                payload = getattr(unit, "payload", None)
                if payload is not None:
                    total += len(payload.read())
        return total

    return read


READERS: dict[str, Callable[[Path], int]] = {
    "FastWARC alone": fastwarc_alone,
    "warcio alone": warcio_alone,
    "urisift, warcio only": urisift_reader(False),
    "urisift, fast path": urisift_reader(True),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("warcs", nargs="*", type=Path)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    paths = args.warcs or [p for p in (HERE / ".data" / "pages.warc.gz", HERE / ".data" / "cc-shape.warc.gz")
                           if p.exists()]
    if not paths:
        sys.exit("no WARC given, and none in bench/.data (bench/make_cc_warc.py makes one)")
    for path in paths:
        times: dict[str, list[float]] = {name: [] for name in READERS}
        for read in READERS.values():
            read(path)  # (imports, and the file in the page cache)
        for _ in range(args.rounds):  # the readers interleaved, so that a busy moment costs each alike
            for name, read in READERS.items():
                start = time.process_time()
                read(path)
                times[name].append(time.process_time() - start)
        print(f"\n## {path.name} ({path.stat().st_size / 1e6:.1f} MB)\n")
        print("| reader | CPU s (median) | runs |")
        print("|---|---:|---|")
        for name, runs in times.items():
            print(f"| {name} | {statistics.median(runs):.3f} | {', '.join(f'{t:.3f}' for t in runs)} |")


if __name__ == "__main__":
    main()
