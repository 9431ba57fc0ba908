"""The ``urisift`` command, a contract (ARCHITECTURE.md, The record contract).

No PATH, or ``-``, reads standard input.  Directories are walked (sorted, so
the output order is stable).  Exit status (:class:`~urisift.uri.errors.ExitCode`):
0 when the run completed, defects or not; 1 when an input could not be read
at all or the output could not be written; 2 for usage errors; 130 on Ctrl-C.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import IO, Any, BinaryIO, cast

from ..model import Defect, DefectKind, Kind, Record
from ..output.stats import Stats
from ..output.writers import WRITERS, CsvWriter, EdgeWriter, Layout, Writer
from ..output.writing import Batched, Reporter, Select, write_all, writing
from ..pipeline.listing import listed
from ..pipeline.plan import WARC_RANGE_SIZE, plan
from ..pipeline.remote import configure, missing_backend
from ..pipeline.scan import ScanOptions, checked, scan_serial
from ..pipeline.sources import Input, file_size, interactive, printable_name, read_too_often
from ..pipeline.walking import walk
from ..pool.parallel import scan_parallel, writes_to
from ..stages.containment import Limits
from ..stages.extras import qr_missing
from ..stages.options import usage_refusal
from ..uri.errors import ExitCode, OutputError, RunError, UsageError
from .output_file import output_identity, same_file
from .parser import inapplicable, parser, unknown_schemes

#: the work (bytes of input) below which no progress bar is shown: over in a second or two
PROGRESS_MIN = 32 << 20


@dataclass(frozen=True)
class _Render:
    """A writer factory sent to workers: the format's writer over a text buffer (CSV: the parent writes its header)."""

    layout: Layout
    base: str | None

    def __call__(self, out: IO[str]) -> Writer:
        if self.layout.format == "csv":
            return CsvWriter(out, self.layout, header=False)
        if self.layout.format == "edges":
            return EdgeWriter(out, self.layout, base=self.base)
        return WRITERS[self.layout.format](out, self.layout)


def _worth_a_pool(sources: list[Input | Defect]) -> bool:
    """Whether worker processes can help: several inputs, or one large file
    (a pool costs a tenth of a second to start; standard input is read here)."""
    files = [s for s in sources if isinstance(s, Input)]
    if any(s.path == "-" for s in files):
        return False
    if len(files) > 1:
        return True
    return bool(files) and file_size(files[0].path) >= 2 * WARC_RANGE_SIZE


def _writer(args: argparse.Namespace, layout: Layout, out: IO[str], live: bool) -> tuple[Writer, IO[str]]:
    """The writer of ``--format``, and the text stream it writes to (through
    a :class:`Batched` one unless each line is awaited: a live input, a terminal)."""
    if args.format == "parquet":
        from ..output.parquet import ParquetWriter

        return ParquetWriter(out, layout, path=args.output), out
    to_file = args.output is not None and args.output != "-"  # ("-": standard output, as everywhere)
    try:
        target = open(args.output, "w", encoding="utf-8", newline="") if to_file else out  # noqa: SIM115
    except OSError as exc:  # the path named, not only what went wrong
        raise OutputError(f"urisift: cannot write {args.output}: {exc.strerror or exc}") from exc
    if not live and not (hasattr(target, "isatty") and target.isatty()):
        writer, _ = _writer_to(args, layout, cast(IO[str], Batched(target)))
        return writer, target
    return _writer_to(args, layout, target)


def _writer_to(args: argparse.Namespace, layout: Layout, target: IO[str]) -> tuple[Writer, IO[str]]:
    if args.format == "edges":
        return EdgeWriter(target, layout, base=args.base), target  # the source of an edge may be --base
    if args.format in ("graphml", "gexf"):
        from ..output.graph import GexfWriter, GraphmlWriter

        graph = GraphmlWriter if args.format == "graphml" else GexfWriter
        return graph(target, layout, base=args.base, hosts=args.graph == "hosts"), target  # (None: pages)
    return WRITERS[args.format](target, layout), target


def _usage(err: IO[str], message: str) -> int:
    err.write(f"urisift: {message}\n")
    return ExitCode.USAGE


def _progress(sized: Callable[[], int], err: IO[str], quiet: bool) -> Any:
    """A progress bar on standard error (tqdm) when it is a terminal and the
    work (``sized()`` bytes, asked only then: a stat an input) is large
    enough to wait for; else None."""
    if quiet or not (hasattr(err, "isatty") and err.isatty()):
        return None
    total = sized()
    if total < PROGRESS_MIN:
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    # bytes in MB of 10^6, as --stats counts them
    return tqdm(total=total, unit="B", unit_scale=True, unit_divisor=1000, file=err, desc="urisift",
                dynamic_ncols=True, leave=False)


def main(argv: list[str] | None = None, *, stdin: BinaryIO | None = None,
         stdout: IO[str] | None = None, stderr: IO[str] | None = None) -> int:
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    arguments = sys.argv[1:] if argv is None else argv
    if arguments[:1] == ["audit"]:  # the capture audit; a file named audit is ./audit
        from .audit import main as audit

        return audit(arguments[1:], out, err)
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
            args = parser().parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    if args.help_man or args.completion:
        from .docs import completion, manual

        out.write(manual(parser()) if args.help_man else completion(parser(), args.completion))
        return ExitCode.OK
    kind = Kind(args.kind)
    if kind is Kind.IMAGE and not args.qr:
        return _usage(err, "--kind image reads the codes drawn in images: give --qr too")
    if args.format == "parquet" and not args.output:
        return _usage(err, "--format parquet writes a file: give it with --output FILE")
    if (wrong := inapplicable(args)) is not None:
        return _usage(err, wrong)
    if args.from_list == "-" and "-" in args.paths:
        return _usage(err, "--from-list - reads the list from standard input, which cannot be an input too")
    try:
        in_list = listed(args.from_list, stdin) if args.from_list else []
    except OSError as exc:
        return _usage(err, f"--from-list {args.from_list}: {exc.strerror or exc}")
    # (a list read from standard input that names nothing is nothing to read, not standard input again)
    paths = [*args.paths, *in_list] or ([] if args.from_list == "-" else ["-"])
    too_often = read_too_often(paths, "--effective reads the inputs twice (the captures first)"
                               if args.effective else None)
    if too_often is not None:
        return _usage(err, too_often)
    for path in paths:  # a backend that is not installed: one line, before any input is read
        if (missing := missing_backend(path)) is not None:
            return _usage(err, missing)
    # text output's location: asked for (-H, -n), else grep's default for a person at a terminal (several
    # inputs, or a directory); into a pipe or a file, or with -0, the URLs alone: what the next program takes
    to_terminal = (args.output is None or args.output == "-") and hasattr(out, "isatty") and out.isatty()
    location = args.location if args.location is not None else to_terminal and not args.null and (
        len(paths) > 1 or any(os.path.isdir(p) for p in paths if p != "-"))
    layout = Layout(args.format, normalized=args.normalize != "none", flags=args.flags, location=location,
                    null=args.null, fields=args.fields, context=args.context > 0, resolution=args.resolve,
                    unwrap=args.unwrap, effective=args.effective, region=args.region is not None)
    if args.format in ("edges", "graphml", "gexf") and args.resolve == "both":
        return _usage(err, f"--format {args.format} draws one graph: give --resolve rfc or --resolve browser")
    # text and mail compute what a browser fetches where it is asked for, whatever the format (CSV
    # and Parquet then write an empty cell where JSON lines leave the key out: the same records)
    browser = args.resolve != "rfc" or (args.fields is not None and "browser_target" in args.fields)
    try:
        # a wrong --base or --charset is a usage error before any input is read
        usage_refusal(args.base, args.charset)
        options = checked(ScanOptions(base=args.base, kind=Kind.AUTO if kind is Kind.MAILDIR else kind,
                                      abbreviated=not args.no_abbreviated, charset=args.charset,
                                      strict=args.strict, comments=args.comments, code=args.code, refang=args.refang,
                                      wikilinks=args.wikilinks,
                                      content_location=args.content_location_base, context=args.context,
                                      browser=browser, timeout=args.timeout,
                                      limits=Limits(seconds=args.time_budget, inflated=args.inflate_budget),
                                      locations=args.format == "text" and location,
                                      fields=written_keys(args, layout), published_as=args.published_as,
                                      qr=args.qr))
    except UsageError as exc:
        return _usage(err, str(exc))
    if options.qr and (missing_extra := qr_missing()) is not None:
        # said before any input is read, as the defect the image reader would give each image: exit status 2
        err.write(f"urisift: {DefectKind.MISSING_EXTRA.value}: {missing_extra}\n")
        return ExitCode.USAGE
    configure(options.timeout)  # the walk lists remote inputs, the plan looks at their sizes
    for note in unknown_schemes(args.scheme, "--scheme") + unknown_schemes(args.pick_schemes, "--pick-schemes"):
        err.write(note + "\n")
    if args.pick_schemes and not args.pick:
        err.write("urisift: note: --pick-schemes chooses what --pick opens, and this run does not --pick\n")
    if args.pick:
        return _pick(args, options, paths, stdin, err)
    if kind is Kind.MAILDIR and (paths == ["-"] or not all(os.path.isdir(p) for p in paths)):
        return _usage(err, "--kind maildir names Maildir folders (with cur/ and new/); name a message's file "
                           "with --kind mail")
    live = paths == ["-"] and _live_stdin(stdin)
    # an output that is also an input: refused before anything is opened for writing ("-o t.txt t.txt"
    # would empty t.txt and read nothing), and skipped in a directory walk, as GNU grep does
    output = output_identity(args.output, out)
    if output is not None and (named := next((p for p in paths if same_file(p, output)), None)) is not None:
        return _usage(err, f"input file {printable_name(named)!r} is also the output")
    # the walk comes before the output is opened (opening empties it): an --output file that the walk
    # meets is refused as a named one is, before a byte of it is lost; standard output
    # redirected to a file in the tree (the shell made and emptied it already) is skipped below
    binaries: list[str] = []  # binary files a directory walk passed over: --stats counts them
    try:
        sources = list(walk(paths, hidden=args.hidden, maildir=kind is Kind.MAILDIR, follow=args.follow,
                            binary=binaries, names=args.names or (), exclude_dirs=args.exclude_dir or (),
                            images=args.qr))
    except RunError as exc:
        err.write(f"{exc}\n")
        return exc.exit_code
    to_file = args.output is not None and args.output != "-"
    if output is not None and to_file and (met := next(
            (s for s in sources if isinstance(s, Input) and same_file(s.path, output)), None)) is not None:
        return _usage(err, f"{args.output!r} is also an input: the walk meets it as {printable_name(met.path)!r} "
                           "(write the output elsewhere, or leave it out with --exclude)")
    try:
        with writing():  # a CSV header on a full disk is a write error like any other
            writer, target = _writer(args, layout, out, live)
    except ImportError as exc:
        return _usage(err, str(exc))
    except RunError as exc:
        err.write(f"{exc}\n")
        return exc.exit_code
    select = Select(args.scheme, args.normalize, args.unique, args.resolve, args.unwrap, args.effective, args.region)
    stats = Stats() if args.stats else None
    kinds: set[str] = set()  # the kinds of content the run read: the options none of them used are said
    status: int = ExitCode.OK
    try:
        output = output_identity(args.output, out)  # made by opening it, if it was not there before
        if output is not None:
            for source in [s for s in sources if isinstance(s, Input) and same_file(s.path, output)]:
                sources.remove(source)
                err.write(f"urisift: {source.name}: input file is also the output; skipped\n")
        if live and not args.quiet and stdin is None and sys.stdin is not None and sys.stdin.isatty():
            err.write("urisift: reading standard input (end with Ctrl-D; urisift --help for more)\n")
        bar = _progress(lambda: sum(file_size(s.path) for s in sources if isinstance(s, Input)), err, args.quiet)
        # a defect line goes through the bar (tqdm.write clears it, writes, draws it again): never cut
        reporter = Reporter(err, args.defects, None if bar is None else lambda line: bar.write(
            line.rstrip("\n"), file=err))
        flush = live or (hasattr(target, "isatty") and target.isatty())
        try:
            # --effective: a first pass reads the WARC inputs' captures into an index (crawl.index)
            index = None
            if args.effective:
                from ..crawl.captures import build_index

                index = build_index(sources, options, args.jobs)
            if args.jobs > 1 and not args.strict and _worth_a_pool(sources):
                render = _Render(layout, args.base) if select.passthrough and stats is None and args.format in (
                    "text", "jsonl", "csv", "edges") and index is None else None
                items: Any = scan_parallel(plan(sources, options), options, args.jobs, render,
                                           writes_to(target, writer.out) if render and not flush else None)
            else:
                # cut into ranges only for the progress bar's sake (one large file moves it)
                items = scan_serial(plan(sources, options, cut=bar is not None), options, stdin=stdin)
            if index is not None:
                from ..crawl.index import with_effective

                items = with_effective(items, index)
            status = write_all(items, writer, select, err, stats=stats, flush=flush,
                               progress=bar.update if bar is not None else None, reporter=reporter, kinds=kinds)
        finally:
            if bar is not None:
                bar.close()
        with writing():
            writer.close()
            if isinstance(writer.out, Batched):
                writer.out.drain()
            target.flush()
            if target is not out:
                target.close()
    except RunError as exc:
        err.write(f"{exc}\n")
        return exc.exit_code
    reporter.close()
    for note in unused_options(args, kinds):
        err.write(note + "\n")
    if stats is not None:
        stats.unprinted = getattr(writer, "empty", 0)
        stats.binary = len(binaries)
        stats.write(err, as_json=args.format == "jsonl")
    return status


#: the options that apply to some kinds of content only: (attribute, option, the kinds, what they are)
_READ_BY: tuple[tuple[str, str, frozenset[str], str], ...] = (
    ("comments", "--comments", frozenset({"html"}), "HTML"),
    ("region", "--region", frozenset({"html"}), "HTML"),
    ("effective", "--effective", frozenset({"warc"}), "WARC or ARC"),
    ("content_location_base", "--content-location-base", frozenset({"warc"}), "WARC or ARC"),
)


def unused_options(args: argparse.Namespace, kinds: set[str]) -> list[str]:
    """A note for each option given that applied to none of the content the
    run read (``--comments`` on text files), as for an unknown ``--scheme``:
    the run is right, but the option did nothing."""
    notes = []
    for name, option, applies, what in _READ_BY:
        if getattr(args, name) not in (None, False) and kinds and not kinds & applies:
            notes.append(f"urisift: note: {option} applies to {what} content, and none was read")
    if not args.code and kinds and not kinds & {"html", "markdown", "notebook", "rst", "asciidoc", "org", "latex",
                                                "wikitext"}:
        notes.append("urisift: note: --no-code applies to HTML, Markdown, notebooks, reStructuredText, AsciiDoc, Org, "
                     "LaTeX and wikitext, and none was read")
    return notes


def written_keys(args: argparse.Namespace, layout: Layout) -> frozenset[str] | None:
    """The record keys this run writes or reads (what the scan
    computes): JSON lines, CSV and Parquet their columns; text the target,
    the location, the flags, the URL it prints; the graphs their sources
    and targets; --unwrap, --effective and --resolve what they read.  None
    (every key) for --pick, which shows them all."""
    if args.pick:
        return None
    if args.format in ("jsonl", "csv", "parquet"):
        if args.fields is None and args.region is None:
            return None
        keys = set(layout.columns())
    elif args.format == "text":
        keys = {"uri", "target"}
        if layout.location:
            keys |= {"line", "column"}
        if args.flags:
            keys.add("risks")
    else:  # edges and the graph files: where a link stands and where it goes
        keys = {"uri", "target", "warc_target_uri", "file"}
    if args.resolve != "rfc":
        keys.add("browser_target")
    if args.unwrap:
        keys |= {"unwrapped", "wrapper"}
    if args.context:
        keys.add("context")
    if args.region is not None:
        keys.add("region")
    return frozenset(keys)


def _pick(args: argparse.Namespace, options: ScanOptions, paths: list[str], stdin: BinaryIO | None,
          err: IO[str]) -> int:
    """--pick: the links of the inputs (with 40 characters around each) in a terminal list."""
    try:
        import urwid  # noqa: F401 - the one-line message below, before any input is read

        from .pick import DEFAULT_SCHEMES, links_of, run
    except ImportError:
        return _usage(err, "--pick needs urwid: pip install 'urisift[pick]'")
    try:  # the list is drawn on, and read from, the terminal: there must be one (not cron, ssh -T, CI)
        with open("/dev/tty"):
            pass
    except OSError as exc:
        return _usage(err, f"--pick needs a terminal, and this run has none (/dev/tty: {exc.strerror or exc})")
    options = replace(options, context=options.context or 40)
    sources = list(walk(paths, hidden=args.hidden, follow=args.follow, names=args.names or (),
                        exclude_dirs=args.exclude_dir or ()))
    records = [i for i in scan_serial(plan(sources, options), options, stdin=stdin) if type(i) is Record]
    return run(links_of(records), args.pick_schemes or DEFAULT_SCHEMES)


def _live_stdin(stdin: BinaryIO | None) -> bool:
    if stdin is not None:
        return interactive(stdin)
    return sys.stdin is not None and interactive(sys.stdin.buffer)


def run() -> None:
    """Console-script entry point: see :func:`urisift.__main__.entry`."""
    try:
        code = main()
    except BrokenPipeError:
        # `urisift ... | head`: the reader went away; that is not an error.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        code = ExitCode.OK
    except KeyboardInterrupt:
        code = ExitCode.INTERRUPTED
    sys.exit(code)


if __name__ == "__main__":
    run()
