"""The ``speed`` case of bench.py (issue 24): every row of the issue's table,
each the median of ``rounds`` runs of urisift against its peer or floor in
the same run, with the ratio and the target.

- html: ``scan_html`` with positions on the 130 shared pages against lxml
  (``document_fromstring`` + ``make_links_absolute`` + ``iterlinks``), each
  run the best of three passes (the steady state);
- records, text, fields: 200,000 link lines through the command, and a Python
  floor doing ``re.finditer`` and writing the same thing (a dict with the
  record's keys through ``json.dumps``; the match; a dict of ``uri`` and
  ``target``), both subprocesses writing to a pipe;
- mail: ``scan_mbox`` on the first 30 MB of linux-mips against urlscan and the
  stdlib floor of bench_mail;
- parallel: the command with ``--jobs 2`` against ``--jobs 1`` on the 130 pages,
  and in the same rounds what this machine gives two CPU-bound processes
  side by side (its ceiling for the row: a shared VM's two cores do not
  always run two processes at twice the speed of one);
- encoders (not a row of the issue's table: the choice it asks for): the
  JSON lines of the 200,000 link lines' records and of the 130 pages'
  records written by the record writer (``RecordLines``) against orjson,
  msgspec and ``json.dumps`` of each record's object, and whether their
  bytes are the writer's.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: row name -> (the target ratio, what the ratio is of)
TARGETS: dict[str, float] = {
    # issue 36: what an archive user picks instead (its table's "want" column)
    "archive: 520 WARC records, every key ÷ FastWARC + lexbor script": 0.5,
    "archive: the script's five keys ÷ the same script": 0.8,
    "html: scan_html, every feature ÷ lxml": 1.6,
    "html: scan_html, the script's five keys ÷ lxml": 2.2,
    "records: --format jsonl ÷ re + json.dumps(all keys)": 1.2,
    "text: --no-location ÷ re + write": 0.6,
    "fields: --fields uri,target ÷ re + json.dumps(2 keys)": 0.8,
    "mail: scan_mbox ÷ urlscan": 8.0,
    "mail: scan_mbox ÷ stdlib floor": 0.7,
    "parallel: --jobs 2 ÷ --jobs 1, 130 pages": 1.7,
}

# the floors of the record rows: what a user would write with the stdlib, a
# line at a time, writing for each match what ``write`` says (uri: the match)
_FLOOR = r"""
import json, re, sys
pattern = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:[^\s<>\"]+")
out = sys.stdout
name = sys.argv[1]
offset = 0
with open(name, encoding="utf-8") as f:
    for number, line in enumerate(f, 1):
        for m in pattern.finditer(line):
            uri = m.group()
            out.write(WRITE)
        offset += len(line)
"""
_ALL_KEYS = r'''json.dumps({
    "uri": uri, "target": uri, "alternatives": [], "base": None, "base_source": None,
    "style": "bare", "where": "text", "element": None, "attribute": None, "header": None,
    "file": name, "message": None, "message_id": None, "part": None, "offset": None,
    "warc_record_id": None, "warc_target_uri": None, "warc_date": None, "rel": None,
    "text": None, "span": [offset + m.start(), offset + m.end()], "line": number,
    "column": m.start() + 1, "flags": [], "charset": "utf-8", "charset_source": "detected",
    "risks": [], "points_to": None, "unwrapped": None, "wrapper": [], "effective_target": None,
    "effective_hops": None, "effective_status": None, "effective_loop": None, "page": None,
    "member": None}) + "\n"'''


def floor(write: str) -> str:
    """The floor program writing ``write`` (an expression) for each match."""
    return _FLOOR.replace("WRITE", write)


_FLOOR_ALL_KEYS = floor(_ALL_KEYS)
_FLOOR_TEXT = floor('uri + "\\n"')
_FLOOR_FIELDS = floor('json.dumps({"uri": uri, "target": uri}) + "\\n"')


def piped(cmd: list[str]) -> float:
    """Seconds to run ``cmd`` with its output read (and dropped) through a pipe."""
    t0 = time.perf_counter()
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL) as proc:
        assert proc.stdout is not None
        while proc.stdout.read(1 << 20):
            pass
    if proc.returncode:
        raise subprocess.CalledProcessError(proc.returncode, cmd)
    return time.perf_counter() - t0


def _best_of(fn: Callable[[], object], passes: int = 3) -> float:
    fn()
    best = float("inf")
    for _ in range(passes):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def _pair(rounds: int, ours: Callable[[], float], theirs: Callable[[], float]) -> tuple[float, float]:
    """Median seconds of ours and theirs, interleaved round by round so that a
    noisy machine treats them alike."""
    a, b = [], []
    for _ in range(rounds):
        a.append(ours())
        b.append(theirs())
    return statistics.median(a), statistics.median(b)


#: the keys the peer script writes (../shared/bench/peer_fastwarc_lexbor.py)
FIVE = ("uri", "target", "element", "attribute", "warc_target_uri")


def _html_rows(rounds: int, shared: Path) -> dict[str, tuple[float, float]]:
    from bench_html import _floor, _urisift, load_pages

    pages = load_pages(shared)
    floor = _floor(pages)
    if not pages or floor is None:
        return {}
    every, five = _urisift(pages), _urisift(pages, fields=FIVE)
    return {"html: scan_html, every feature ÷ lxml": _pair(rounds, lambda: _best_of(every), lambda: _best_of(floor)),
            "html: scan_html, the script's five keys ÷ lxml":
                _pair(rounds, lambda: _best_of(five), lambda: _best_of(floor))}


def cpu_of(cmd: list[str], env: dict[str, str] | None = None) -> float:
    """CPU seconds (user and system) of ``cmd`` run to its end, its output
    dropped: steadier than the wall clock on a shared machine, and a
    one-process run's cost either way."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _archive_rows(rounds: int, shared: Path) -> dict[str, tuple[float, float]]:
    """The command (one process) on the 130 pages as 520 WARC response
    records, against the FastWARC + selectolax script a Common Crawl user
    writes (both from ../shared/bench; the WARC built once in bench/.data)."""
    import os

    script, maker = shared / "bench" / "peer_fastwarc_lexbor.py", shared / "bench" / "make_pages_warc.py"
    if not script.exists() or not (shared / "corpora" / "html-readability-pages").exists():
        print("archive rows: skipped (no peer script or pages under the shared folder)", file=sys.stderr)
        return {}
    data = Path(__file__).resolve().parent / ".data"
    data.mkdir(exist_ok=True)
    warc = data / "pages.warc.gz"
    if not warc.exists():
        subprocess.run([sys.executable, str(maker), str(warc)], check=True)
    peers = Path(__file__).resolve().parent / ".peers"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(peers), os.environ.get("PYTHONPATH")]))}
    try:
        cpu_of([sys.executable, str(script), str(warc), os.devnull], env)
    except subprocess.CalledProcessError:
        print("the peer script cannot run (fastwarc, selectolax): bench.py --install-peers", file=sys.stderr)
        return {}
    command = [sys.executable, "-m", "urisift", "-j", "1", "-q", "--format", "jsonl", "-o", os.devnull, str(warc)]
    peer = [sys.executable, str(script), str(warc), os.devnull]
    return {
        "archive: 520 WARC records, every key ÷ FastWARC + lexbor script":
            _pair(rounds, lambda: cpu_of(command), lambda: cpu_of(peer, env)),
        "archive: the script's five keys ÷ the same script":
            _pair(rounds, lambda: cpu_of([*command[:-1], "--fields", ",".join(FIVE), str(warc)]),
                  lambda: cpu_of(peer, env)),
    }


def _record_rows(rounds: int, urls: Path) -> dict[str, tuple[float, float]]:
    command = [sys.executable, "-m", "urisift"]
    rows = {
        "records: --format jsonl ÷ re + json.dumps(all keys)":
            ([*command, "--format", "jsonl", str(urls)], [sys.executable, "-c", _FLOOR_ALL_KEYS, str(urls)]),
        "text: --no-location ÷ re + write":
            ([*command, "--no-location", str(urls)], [sys.executable, "-c", _FLOOR_TEXT, str(urls)]),
        "fields: --fields uri,target ÷ re + json.dumps(2 keys)":
            ([*command, "--format", "jsonl", "--fields", "uri,target", str(urls)],
             [sys.executable, "-c", _FLOOR_FIELDS, str(urls)]),
    }
    return {name: _pair(rounds, lambda o=ours: piped(o), lambda t=theirs: piped(t))
            for name, (ours, theirs) in rows.items()}


def _mail_rows(rounds: int, shared: Path) -> dict[str, tuple[float, float]]:
    from bench_mail import ARCHIVE, _floor, _urisift, _urlscan, load

    if not (shared / ARCHIVE).exists():
        return {}
    data = load(shared)
    ours_fn = _urisift(data)

    def timed(fn: Callable[[], object]) -> Callable[[], float]:
        def run() -> float:
            t0 = time.perf_counter()
            fn()
            return time.perf_counter() - t0
        return run

    ours_fn()  # warm: imports, caches
    rows = {"mail: scan_mbox ÷ stdlib floor": _pair(rounds, timed(ours_fn), timed(_floor(data)))}
    peer = _urlscan(data)
    if peer is not None:
        rows["mail: scan_mbox ÷ urlscan"] = _pair(rounds, timed(ours_fn), timed(peer))
    return rows


# a job that two cores run twice as fast as one, if the machine gives two cores' worth:
# pure Python arithmetic, no I/O, no shared memory (about the CPU of a --jobs 1 run)
_SPIN = "s = 0\nfor i in range(9_000_000):\n    s += i * i\n"


def _side_by_side(copies: int) -> float:
    """Seconds for ``copies`` processes of _SPIN started together to end."""
    t0 = time.perf_counter()
    procs = [subprocess.Popen([sys.executable, "-c", _SPIN]) for _ in range(copies)]
    for proc in procs:
        proc.wait()
    return time.perf_counter() - t0


def _parallel_row(rounds: int, shared: Path) -> tuple[tuple[float, float], float] | None:
    """The row, and the machine's own ceiling measured in the same rounds:
    two copies of a CPU-bound job side by side against one alone, scaled
    to the work of two (2 x one ÷ two), which a shared VM keeps below 2."""
    from bench_html import PAGES

    if not (shared / PAGES).exists():
        return None
    command = [sys.executable, "-m", "urisift", "--format", "jsonl", "-q", str(shared / PAGES)]
    ours, theirs, ceilings = [], [], []
    for _ in range(rounds):
        ours.append(piped([*command, "--jobs", "2"]))
        theirs.append(piped([*command, "--jobs", "1"]))
        ceilings.append(2 * _side_by_side(1) / _side_by_side(2))
    return (statistics.median(ours), statistics.median(theirs)), statistics.median(ceilings)


def encoders(rounds: int, shared: Path, urls: Path) -> list[tuple[str, str, float, str]]:
    """(records, encoder, median seconds, whether its lines are the writer's
    bytes) for the record writer and the JSON encoders a user might reach
    for; each encoder is given the record's object (``record_json``), which
    it needs, and that building is timed with it."""
    import json

    from bench_html import BASE, load_pages

    from urisift import scan_html, scan_text
    from urisift.output.records import RecordLines, record_json

    candidates: list[tuple[str, Callable[[Any], str]]] = [
        ("json.dumps", lambda obj: json.dumps(obj, ensure_ascii=False))]
    try:
        import orjson

        candidates.append(("orjson", lambda obj: orjson.dumps(obj).decode("utf-8")))
    except ImportError:
        pass
    try:
        import msgspec

        encode = msgspec.json.Encoder().encode
        candidates.append(("msgspec", lambda obj: encode(obj).decode("utf-8")))
    except ImportError:
        pass
    from urisift import Record

    sets = [("200,000 link lines", [r for r in scan_text(urls.read_text("utf-8")) if type(r) is Record])]
    pages = load_pages(shared)
    if pages:
        sets.append(("130 pages", [r for page in pages for r in scan_html(page, base=BASE) if type(r) is Record]))
    out = []
    for name, records in sets:
        sample = records[:2000]

        def ours(records: list[Any] = records) -> object:
            lines = RecordLines()
            return [lines(r) for r in records]
        expected = ours(sample)
        out.append((name, "RecordLines (the writer)", _median(rounds, ours), "yes"))
        for label, dumps in candidates:
            def theirs(records: list[Any] = records, dumps: Callable[[Any], str] = dumps) -> object:
                return [dumps(record_json(r)) for r in records]
            same = "yes" if theirs(sample) == expected else "no"
            out.append((name, f"record_json + {label}", _median(rounds, theirs), same))
    return out


def _median(rounds: int, fn: Callable[[], object]) -> float:
    fn()
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def bench_speed(rounds: int, shared: Path, urls: Path, only: set[str] | None = None) -> dict[str, dict[str, float]]:
    """Run the rows (``only``: their first words, e.g. {"html", "mail"}) and
    print one table; returns row -> {ours, theirs, ratio, target}."""
    def wanted(word: str) -> bool:
        return only is None or word in only

    # the project's modules compiled to bytecode first, as an installed package
    # has them (pip compiles on install; an editable checkout may have none, and
    # PYTHONDONTWRITEBYTECODE would keep every run compiling them again)
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(Path(__file__).resolve().parent.parent / "src")],
                   check=True)

    timings: dict[str, tuple[float, float]] = {}
    if wanted("archive"):
        timings.update(_archive_rows(rounds, shared))
    if wanted("html"):
        timings.update(_html_rows(rounds, shared))
    if wanted("records") or wanted("text") or wanted("fields"):
        timings.update((k, v) for k, v in _record_rows(rounds, urls).items() if wanted(k.split(":")[0]))
    if wanted("mail"):
        timings.update(_mail_rows(rounds, shared))
    ceiling = None
    if wanted("parallel") and (measured := _parallel_row(rounds, shared)) is not None:
        timings["parallel: --jobs 2 ÷ --jobs 1, 130 pages"], ceiling = measured
    print(f"\n## speed: the rows of issue 24 (median of {rounds} runs each, interleaved)\n")
    print("| row | urisift s | peer/floor s | ratio (peer ÷ urisift) | target | met |")
    print("|---|---:|---:|---:|---:|:---:|")
    out = {}
    for name, (ours, theirs) in timings.items():
        ratio = theirs / ours
        target = TARGETS[name]
        out[name] = {"ours": ours, "theirs": theirs, "ratio": ratio, "target": target}
        met = "yes" if ratio >= target else "no"
        print(f"| {name} | {ours:.3f} | {theirs:.3f} | {ratio:.2f} | {target:.1f} | {met} |")
    if ceiling is not None:
        row = out["parallel: --jobs 2 ÷ --jobs 1, 130 pages"]
        row["ceiling"] = ceiling
        print(f"\nparallel: this machine's ceiling in the same rounds, two CPU-bound processes side by side "
              f"against one (2 x one ÷ two), was {ceiling:.2f}; the row's ratio is {row['ratio'] / ceiling:.0%} of it")
    if wanted("encoders"):
        print("\n## encoders: JSON lines of records, the writer against the JSON encoders "
              f"(median of {rounds} runs; 'same bytes': every line is the writer's)\n")
        print("| records | encoder | s | ÷ the writer's time | same bytes |")
        print("|---|---|---:|---:|:---:|")
        rows = encoders(rounds, shared, urls)
        writer = {name: seconds for name, label, seconds, _ in rows if label.startswith("RecordLines")}
        for name, label, seconds, same in rows:
            print(f"| {name} | {label} | {seconds:.3f} | {seconds / writer[name]:.2f} | {same} |")
    return out
