"""``urisift audit WARC...``, the command line of the crawl audit
(:mod:`urisift.crawl.audit` says what it counts).  It is the command's, not the
crawl's: it parses its options as the command does (:mod:`urisift.cli.usage`)
and writes what the audit finds, so that the crawl's index and audit stay below
the front ends."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from typing import IO

from ..crawl.audit import PageAudit, audit, summary
from ..crawl.captures import build_index
from ..model import Defect, Kind, Record
from ..output.records import defect_line
from ..output.writing import report
from ..pipeline.plan import plan
from ..pipeline.scan import scan_serial
from ..pipeline.sources import read_too_often
from ..pipeline.walking import walk
from ..stages.options import ScanOptions
from ..uri.errors import ExitCode
from .usage import OneLineParser


def main(argv: list[str], out: IO[str], err: IO[str]) -> int:
    """The audit's command: its exit status and defects are the scan's (1
    when an input could not be read; a broken or non-WARC input is a
    ``broken-warc`` defect on standard error, and a ``{"defect": ...}`` line
    with ``--format jsonl``)."""
    parser = OneLineParser(prog="urisift audit", description="What a crawl missed: each page's outlinks "
                                     "(link, embed, redirect) captured in the same WARCs or not.")
    parser.add_argument("paths", nargs="+", metavar="WARC", help="WARC or ARC files, or directories of them")
    parser.add_argument("--format", choices=("text", "jsonl"), default="text",
                        help="text: the summary table (default); jsonl: one line a page, and defect lines")
    parser.add_argument("--jobs", "-j", type=int, default=1, metavar="N", help="processes for the first pass")
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
            args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    too_often = read_too_often(args.paths, "the audit reads the inputs twice (the captures first)")
    if too_often is not None:
        err.write(f"urisift audit: {too_often}\n")
        return ExitCode.USAGE
    # the inputs are crawls: each is read as WARC or ARC, whatever its name (one that is not says so)
    options = ScanOptions(kind=Kind.WARC, positions=False)
    sources = list(walk(args.paths))
    index = build_index(sources, options, args.jobs)
    status: int = ExitCode.OK

    def records() -> Iterator[Record]:
        nonlocal status
        for item in scan_serial(plan(sources, options), options):
            if type(item) is Record:
                yield item
            elif type(item) is Defect:
                status = max(status, report(item, err))
                if args.format == "jsonl":
                    out.write(defect_line(item) + "\n")

    pages: list[PageAudit] = []
    for page in audit(records(), index):
        if args.format == "jsonl":
            out.write(json.dumps(page.to_json(), ensure_ascii=False) + "\n")
        else:
            pages.append(page)
    if args.format == "text":
        summary(pages, out)
    return status
