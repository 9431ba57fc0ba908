"""The other kinds with a link syntax of their own, and a streamed dump (``bench.py markup``).

    python bench/bench_markup_kinds.py [--rounds 3] [--mirrors /work/.mirror] [--no-dump]

Each kind is read from real documents in a bare git mirror (``owner+name/repo``
under ``--mirrors``, env URISIFT_MIRRORS), extracted at run time into
bench/.data/kinds/KIND (never committed); a small corpus is repeated (copies)
to about 10 MB so that the process start (its CPU time is printed) does not dominate.  A kind whose mirror
is absent is skipped with a note.

- urisift: ``python -m urisift -j 1 --format jsonl TREE``, CPU seconds (user
  and system) of the child, the median of ``rounds``; its MB/s against its
  floor (10 MB/s, record-dense wikitext 5), set on a machine where lychee takes
  0.31 CPU s on the Markdown corpus: run from ``bench.py markup``, each rate is
  also scaled by lychee's time in the same run over 0.31 s, and the scaled one is held to the floor.
- the peer, the script a Python user would write with the parser the kind's
  ecosystem trusts (bench/markup_peers.py), timed the same way on the tree's
  first files up to a few MB (the slow ones would take minutes on all of it): docutils,
  mwparserfromhell, nbformat (alone, and with markdown-it-py on the markdown
  cells), orgparse, pylatexenc, bibtexparser 2.  A file a peer fails on is
  counted, not fatal.  AsciiDoc has no Python parser to compare (Asciidoctor
  is Ruby; asciidoc-py only renders).
- the dump: MediaWiki exports of two sizes made by hostile_payloads'
  generator, written to a temporary file, each scanned by the command; MB/s
  and the child's peak RSS (wait4's ru_maxrss), to show that memory does not
  grow with the input.

The peers are bench-only (pip install docutils mwparserfromhell nbformat
orgparse pylatexenc bibtexparser markdown-it-py); one that cannot be imported
is skipped with a note.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import markup_peers as mp
from bench_speed import cpu_of

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
MIRRORS = Path(os.environ.get("URISIFT_MIRRORS", "/work/.mirror"))
FLOOR = 10.0  # MB/s, the floor of each kind but Markdown (whose row is a ratio to lychee) and wikitext
FLOORS = {"wikitext": 5.0}  # record-dense wikitext's own floor
#: lychee's CPU seconds on the Markdown corpus of the machine the floors are set on: a run reports each rate
#: scaled by this over lychee's own time in the same run, so that a slower machine does not read as a slower reader
REFERENCE_LYCHEE = 0.31


@dataclass
class Peer:
    name: str
    module: str  # what it imports, to skip it with a note when absent
    body: str  # the links(text) body of its script (markup_peers)
    positions: str  # what position it gives a link, if any
    sample_mb: float = 4.0  # the peer runs on the tree's first files up to this size


@dataclass
class Corpus:
    kind: str
    mirror: str
    suffixes: tuple[str, ...]
    copies: int
    peers: list[Peer] = field(default_factory=list)


KINDS = [
    Corpus("reStructuredText", "python+peps", (".rst",), 1, [
        Peer("docutils publish_doctree, walk of reference/image/target", "docutils", mp.DOCUTILS,
             "a line on block-level nodes only (none on inline references); no column", 0.5)]),
    Corpus("AsciiDoc", "asciidoctor+asciidoctor", (".adoc",), 14),
    Corpus("notebooks", "jakevdp+PythonDataScienceHandbook", (".ipynb",), 1, [
        Peer("nbformat.reads (cells only, no links)", "nbformat", mp.NBFORMAT, "none: cells, no offsets", 8.0),
        Peer("nbformat + markdown-it-py walk of markdown cells", "nbformat", mp.NBFORMAT_MD,
             "a line range of block tokens (token.map) within a cell; no column", 8.0)]),
    Corpus("Org", "bzg+org-mode", (".org",), 10, [
        Peer("orgparse nodes + a [[link]] regex (it parses no links)", "orgparse", mp.ORGPARSE,
             "the heading's line only (node.linenumber); the link is the user's regex")]),
    Corpus("LaTeX", "plk+biblatex", (".tex",), 8, [
        Peer("pylatexenc LatexWalker, walk for \\url \\href \\includegraphics \\input", "pylatexenc",
             mp.PYLATEXENC, "yes: a character offset (node.pos; pos_to_lineno_colno)", 1.4)]),
    Corpus("BibTeX", "plk+biblatex", (".bib",), 150, [
        Peer("bibtexparser 2 parse_string, url and doi fields", "bibtexparser", mp.BIBTEXPARSER,
             "the entry's first line (entry.start_line); not the field's", 3.0)]),
    Corpus("wikitext", "sweble+sweble-wikitext", (".wikitext",), 4, [
        Peer("mwparserfromhell filter_external_links + filter_wikilinks", "mwparserfromhell", mp.MWPARSER,
             "none: nodes carry no offsets", 2.4)]),
]


def child_env() -> dict[str, str]:
    """This worktree's sources first, and bench/.peers (``bench.py --install-peers``) last."""
    paths = [str(ROOT / "src"), os.environ.get("PYTHONPATH", ""), str(HERE / ".peers")]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in paths if p)}


def extract(corpus: Corpus, mirrors: Path) -> Path | None:
    """The kind's files of the mirror's HEAD in bench/.data/kinds/KIND/c00, and its copies; None without a mirror."""
    repo = mirrors / corpus.mirror / "repo"
    if not repo.is_dir():
        print(f"({corpus.kind}: no mirror at {repo}, its rows are skipped)")
        return None
    tree = HERE / ".data" / "kinds" / corpus.kind
    done = tree / ".complete"  # holds the number of copies it was made with
    if done.exists() and done.read_text() == str(corpus.copies):
        return tree
    shutil.rmtree(tree, ignore_errors=True)
    first = tree / "c00"
    first.mkdir(parents=True)
    names = subprocess.run(["git", "-C", str(repo), "ls-tree", "-r", "-z", "--name-only", "HEAD"],
                           capture_output=True, check=True).stdout.decode().split("\0")
    wanted = [n for n in names if n.endswith(corpus.suffixes)]
    archive = subprocess.Popen(["git", "-C", str(repo), "archive", "HEAD", "--", *wanted], stdout=subprocess.PIPE)
    subprocess.run(["tar", "-x", "-C", str(first)], stdin=archive.stdout, check=True)
    archive.stdout.close()
    if archive.wait() != 0:
        raise RuntimeError(f"git archive failed on {repo}")
    for copy in range(1, corpus.copies):
        shutil.copytree(first, tree / f"c{copy:02d}")
    done.write_text(str(corpus.copies))
    return tree


def files_of(tree: Path, suffixes: tuple[str, ...]) -> list[Path]:
    return sorted(p for p in tree.rglob("*") if p.is_file() and p.name.endswith(suffixes))


def records_of(cmd: list[str]) -> int:
    """The lines the command writes (its records), read as they come."""
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=child_env()) as child:
        count = sum(1 for _ in child.stdout)
    return count


def importable(module: str) -> bool:
    probe = subprocess.run([sys.executable, "-c", f"import {module}"], env=child_env(),
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return probe.returncode == 0


def sample(files: list[Path], mb: float) -> list[Path]:
    """The tree's first files (c00's, then c01's ...), in order, up to ``mb`` (at least one)."""
    chosen, size = [], 0
    for path in files:
        if chosen and size + path.stat().st_size > mb * 1e6:
            break
        chosen.append(path)
        size += path.stat().st_size
    return chosen


def bench_kinds(rounds: int, mirrors: Path = MIRRORS, lychee: float | None = None) -> list[dict[str, object]]:
    """The urisift row and the peer rows of every kind; the two tables printed.  ``lychee``: its CPU
    seconds on the Markdown corpus in the same run (bench_markup), to scale each rate to the reference."""
    ours_rows: list[dict[str, Any]] = []
    peer_rows: list[dict[str, Any]] = []
    scale = 1.0 if lychee is None else lychee / REFERENCE_LYCHEE
    for corpus in KINDS:
        tree = extract(corpus, mirrors)
        if tree is None:
            continue
        files = files_of(tree, corpus.suffixes)
        size = sum(p.stat().st_size for p in files) / 1e6
        cmd = [sys.executable, "-m", "urisift", "-j", "1", "--format", "jsonl", str(tree)]
        records = records_of(cmd)
        cpu = statistics.median(cpu_of(cmd, env=child_env()) for _ in range(rounds))
        ours_rows.append({"kind": corpus.kind, "files": len(files), "mb": size, "cpu": cpu, "rate": size / cpu,
                          "scaled": size / cpu * scale, "floor": FLOORS.get(corpus.kind, FLOOR), "records": records})
        print(f"  {corpus.kind}: urisift {size / cpu:.1f} MB/s", file=sys.stderr)
        for peer in corpus.peers:
            if not importable(peer.module):
                print(f"({corpus.kind}: {peer.module} cannot be imported, its peer row is skipped: "
                      f"pip install {peer.module})")
                continue
            chosen = sample(files, peer.sample_mb)
            mb = sum(p.stat().st_size for p in chosen) / 1e6
            peer_cmd = [sys.executable, "-c", mp.script(peer.body), *map(str, chosen)]
            said = json.loads(subprocess.run(peer_cmd, capture_output=True, check=True, env=child_env(),
                                             text=True).stdout.strip().splitlines()[-1])
            peer_cpu = statistics.median(cpu_of(peer_cmd, env=child_env()) for _ in range(rounds))
            peer_rows.append({"kind": corpus.kind, "peer": peer.name, "files": len(chosen), "mb": mb, "cpu": peer_cpu,
                              "rate": mb / peer_cpu, "x": (size / cpu) / (mb / peer_cpu), **said,
                              "positions": peer.positions})
            print(f"  {corpus.kind}: {peer.name} {mb / peer_cpu:.2f} MB/s", file=sys.stderr)
    if ours_rows:
        start = statistics.median(cpu_of([sys.executable, "-m", "urisift", "-j", "1", "--format", "jsonl", os.devnull],
                                         env=child_env()) for _ in range(rounds))
        print(f"\n## The other kinds: urisift on one core (CPU s, median of {rounds}) against their floors "
              f"({FLOOR:.0f} MB/s, wikitext {FLOORS['wikitext']:.0f})\n")
        if lychee is None:
            print("(lychee was not timed in this run: the rates are this machine's, not scaled)\n")
        else:
            print(f"Scaled: MB/s × lychee's {lychee:.3f} CPU s on the Markdown corpus in this run ÷ "
                  f"{REFERENCE_LYCHEE} s (the reference machine's), the rate the floor is set for.\n")
        print("| kind | files | MB | CPU s | MB/s | scaled MB/s | floor | met | ratio (scaled ÷ floor) | records |")
        print("|---|---:|---:|---:|---:|---:|---:|:-:|---:|---:|")
        for r in ours_rows:
            met = "yes" if r["scaled"] >= r["floor"] else "NO"
            print(f"| {r['kind']} | {r['files']:,} | {r['mb']:.1f} | {r['cpu']:.3f} | {r['rate']:.1f} | "
                  f"{r['scaled']:.1f} | {r['floor']:.0f} | {met} | {r['scaled'] / r['floor']:.2f} | "
                  f"{r['records']:,} |")
        print(f"\nThe command's start alone (on an empty input) takes {start:.3f} CPU s; it is included above.")
    if peer_rows:
        print("\n## Their peers: the script a Python user would write (the tree's first files, CPU s, "
              f"median of {rounds})\n")
        print("| kind | peer | files | MB | CPU s | MB/s | urisift is × faster | links | files failed | "
              "a link's position |")
        print("|---|---|---:|---:|---:|---:|---:|---:|---:|---|")
        for r in peer_rows:
            failed = f"{r['failed']}" + (f" ({r['failed_blocks']} blocks)" if r["failed_blocks"] else "")
            print(f"| {r['kind']} | {r['peer']} | {r['files']} | {r['mb']:.2f} | {r['cpu']:.3f} | {r['rate']:.2f} | "
                  f"{r['x']:.1f} | {r['links']:,} | {failed} | {r['positions']} |")
    return ours_rows + peer_rows


def scan_with_peak(cmd: list[str]) -> tuple[float, float]:
    """CPU seconds and peak resident MiB of this one child (wait4 gives its own rusage)."""
    child = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=child_env())
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise RuntimeError(f"{cmd} exited with {child.returncode}")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def bench_dump(rounds: int, sizes: tuple[int, ...] = (50_000, 200_000)) -> list[dict[str, float]]:
    """MediaWiki dumps of ``sizes`` pages (about 60 and 240 MB), each streamed by the command."""
    from hostile_payloads import mediawiki_dump_parts

    rows = []
    with tempfile.TemporaryDirectory(prefix="urisift-dump-") as folder:
        for pages in sizes:
            path = Path(folder) / f"dump-{pages}.xml"
            with open(path, "wb") as out:
                for part in mediawiki_dump_parts(pages):
                    out.write(part)
            mb = path.stat().st_size / 1e6
            cmd = [sys.executable, "-m", "urisift", "-j", "1", "--format", "jsonl", str(path)]
            runs = [scan_with_peak(cmd) for _ in range(rounds)]
            cpu = statistics.median(c for c, _ in runs)
            rows.append({"pages": pages, "mb": mb, "cpu": cpu, "rate": mb / cpu, "peak": max(p for _, p in runs)})
            print(f"  dump of {pages:,} pages: {mb / cpu:.1f} MB/s", file=sys.stderr)
            path.unlink()
    print(f"\n## A MediaWiki dump streamed: two sizes (CPU s, median of {rounds}; peak RSS of the child, the most "
          "of its rounds)\n")
    print("| dump | MB | CPU s | MB/s | peak RSS MiB |")
    print("|---|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['pages']:,} pages | {r['mb']:.0f} | {r['cpu']:.2f} | {r['rate']:.1f} | {r['peak']:.1f} |")
    if len(rows) > 1:
        growth = rows[-1]["peak"] / rows[0]["peak"]
        print(f"\nInput × {rows[-1]['mb'] / rows[0]['mb']:.1f}, peak RSS × {growth:.2f}: "
              f"{'within' if growth <= 1.10 else 'NOT within'} 10%.")
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3, help="timed rounds of each contender (median reported)")
    parser.add_argument("--mirrors", type=Path, default=MIRRORS, help="the folder of the bare git mirrors")
    parser.add_argument("--no-dump", action="store_true", help="leave out the dump rows")
    args = parser.parse_args(argv)
    bench_kinds(args.rounds, args.mirrors)
    if not args.no_dump:
        bench_dump(args.rounds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
