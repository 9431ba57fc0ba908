#!/usr/bin/env python3
"""The hostile sweep: byte flips, cuts and splices of real files, each scanned
under a cap of time, its peak memory and its output's digest kept.

    python bench/mutation_sweep.py --count 5000 --out /tmp/sweep-pure.json
    /path/to/compiled/venv/bin/python bench/mutation_sweep.py --count 5000 --installed --out /tmp/sweep-c.json
    python bench/mutation_sweep.py --compare /tmp/sweep-pure.json /tmp/sweep-c.json

The mutated files are made from a fixed seed (the same files on every run and
interpreter) out of the project's samples and the shared corpora, each named
with its original's extension, so that the name says its kind as it did.  One
worker process scans them one at a time, as the command does
(``iter_input(path)``, every record and defect as its JSON line, hashed); the
parent gives each file ``--seconds`` (30) and, past them, kills the worker and
counts a hang.  The worker's peak RSS is reset before each file
(``/proc/self/clear_refs``), so a file's peak is its own.  ``--compare`` holds
two runs' digests equal file by file (compiled = pure).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing as mp
import os
import random
import shutil
import sys
import tempfile
import time
from multiprocessing.connection import Connection
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SHARED = Path(os.environ.get("URISIFT_SHARED", ROOT.parent / "shared")) / "corpora"
#: the largest original a mutation is made of (a sweep is many small files, as a fuzzer's are)
LARGEST = 2 << 20


#: the names of the markup kinds' files (``--markup``: a sweep of those alone)
MARKUP = (".md", ".markdown", ".ipynb", ".rst", ".adoc", ".asciidoc", ".org", ".tex", ".bib", ".wiki", ".mediawiki")


def originals(suffixes: tuple[str, ...] | None = None) -> list[Path]:
    """The files mutations are made of: the project's samples and the shared corpora's (of those
    ``suffixes`` alone, when given)."""
    found = []
    for root in (ROOT / "corpora", SHARED):
        if root.is_dir():
            found += [p for p in sorted(root.rglob("*"))
                      if p.is_file() and 0 < p.stat().st_size <= LARGEST and not p.name.endswith(".jsonl")
                      and not p.name.endswith(".xz") and (suffixes is None or p.name.endswith(suffixes))]
    return found


def mutated(count: int, seed: int, out: Path, suffixes: tuple[str, ...] | None = None) -> list[Path]:
    """``count`` mutated files in ``out``: a third byte flips, a third cuts, a third splices."""
    rng = random.Random(seed)
    sources = originals(suffixes)
    made = []
    for n in range(count):
        original = rng.choice(sources)
        data = bytearray(original.read_bytes())
        way = n % 3
        if way == 0 and data:
            for _ in range(rng.randint(1, 16)):
                data[rng.randrange(len(data))] = rng.randrange(256)
        elif way == 1 and data:
            data = data[:rng.randrange(len(data))]
        else:
            other = rng.choice(sources).read_bytes()
            cut, at = rng.randrange(len(data) + 1), rng.randrange(len(other) + 1)
            data = data[:cut] + other[at:]
        path = out / f"{n:05d}-{original.name}"
        path.write_bytes(bytes(data))
        made.append(path)
    return made


def _peak_kb() -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def _worker(conn: Connection, installed: bool) -> None:
    if not installed:
        sys.path.insert(0, str(ROOT / "src"))
    from urisift import Defect, iter_input, record_line
    from urisift.output.records import defect_line

    while True:
        path = conn.recv()
        if path is None:
            return
        with open("/proc/self/clear_refs", "w") as clear:
            clear.write("5")  # the peak RSS of this file alone
        started = time.perf_counter()
        digest = hashlib.sha1()
        records = defects = 0
        for item in iter_input(path):
            if isinstance(item, Defect):
                defects += 1
                digest.update(defect_line(item).encode("utf-8", "surrogatepass"))
            else:
                records += 1
                digest.update(record_line(item).encode("utf-8", "surrogatepass"))
        conn.send((digest.hexdigest(), records, defects, _peak_kb(), time.perf_counter() - started))


def sweep(files: list[Path], seconds: float, installed: bool) -> dict[str, dict[str, object]]:
    results: dict[str, dict[str, object]] = {}
    context = mp.get_context("spawn")

    def start() -> tuple[mp.process.BaseProcess, Connection]:
        parent, child = context.Pipe()
        process = context.Process(target=_worker, args=(child, installed), daemon=True)
        process.start()
        return process, parent

    process, conn = start()
    for n, path in enumerate(files):
        conn.send(str(path))
        if conn.poll(seconds):
            try:
                digest, records, defects, peak, took = conn.recv()
                results[path.name] = {"digest": digest, "records": records, "defects": defects, "peak_mb": peak / 1024,
                                      "seconds": round(took, 3)}
            except EOFError:  # the worker died (killed for its memory, or crashed)
                results[path.name] = {"died": True}
                process, conn = start()
        else:
            process.kill()
            process.join()
            results[path.name] = {"hang": True}
            process, conn = start()
        if (n + 1) % 500 == 0:
            print(f"{n + 1} files", file=sys.stderr, flush=True)
    conn.send(None)
    process.join(5)
    return results


def summary(results: dict[str, dict[str, object]]) -> dict[str, object]:
    done = [r for r in results.values() if "digest" in r]
    return {
        "files": len(results), "hangs": sum(1 for r in results.values() if r.get("hang")),
        "died": sum(1 for r in results.values() if r.get("died")),
        "over_300_mb": sorted(k for k, r in results.items() if float(r.get("peak_mb", 0)) > 300),  # type: ignore[arg-type]
        "peak_mb_max": max((float(r["peak_mb"]) for r in done), default=0.0),  # type: ignore[arg-type]
        "seconds_max": max((float(r["seconds"]) for r in done), default=0.0),  # type: ignore[arg-type]
        "records": sum(int(r["records"]) for r in done),  # type: ignore[call-overload]
        "defects": sum(int(r["defects"]) for r in done),  # type: ignore[call-overload]
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=46)
    parser.add_argument("--seconds", type=float, default=30.0, help="the cap of one file")
    parser.add_argument("--installed", action="store_true", help="scan with the installed build, not src/")
    parser.add_argument("--out", type=Path, help="write every file's result here (JSON)")
    parser.add_argument("--markup", action="store_true", help="mutate the markup kinds' files alone (issue 52)")
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "urisift-sweep",
                        help="where the mutated files are made (the same path in every run: records name it)")
    parser.add_argument("--compare", nargs=2, type=Path, metavar="RUN", help="two runs' outputs: equal digests?")
    args = parser.parse_args(argv)
    if args.compare:
        one, two = (json.loads(p.read_text())["files"] for p in args.compare)
        differ = sorted(k for k in one if one[k].get("digest") != two.get(k, {}).get("digest"))
        print(json.dumps({"files": len(one), "differ": differ[:50], "differing": len(differ)}, indent=1))
        return 1 if differ else 0
    shutil.rmtree(args.work, ignore_errors=True)
    args.work.mkdir(parents=True)
    try:
        files = mutated(args.count, args.seed, args.work, MARKUP if args.markup else None)
        started = time.perf_counter()
        results = sweep(files, args.seconds, args.installed)
        report = {"summary": summary(results), "seconds": round(time.perf_counter() - started, 1), "files": results}
    finally:
        shutil.rmtree(args.work, ignore_errors=True)
    print(json.dumps(report["summary"], indent=1))
    if args.out:
        args.out.write_text(json.dumps(report))
    return 0 if not report["summary"]["hangs"] and not report["summary"]["over_300_mb"] else 1  # type: ignore[index]


if __name__ == "__main__":
    sys.exit(main())
