"""The ``urisift`` command (DESIGN §2, a contract; issue 12).

No PATH, or ``-``, reads standard input.  Directories are walked (sorted, so
the output order is stable).  Exit status (:class:`~urisift.errors.ExitCode`):
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
from typing import IO, Any, BinaryIO, NoReturn, cast

from . import __version__
from .errors import ExitCode, RunError, UsageError
from .model import Defect, Kind, Record, Region
from .output.choice import RESOLUTIONS
from .output.stats import Stats
from .output.writers import FIELDS, WRITERS, CsvWriter, EdgeWriter, Layout, Writer
from .output.writing import Batched, Select, write_all, writing
from .parallel import scan_parallel, writes_to
from .plan import WARC_RANGE_SIZE, plan
from .remote import missing_backend
from .scan import ScanOptions, checked, scan_serial
from .sources import Input, file_size, interactive, listed, walk

EXAMPLES = """\
examples:
  urisift notes.txt                          every URI in a text file, one target a line
  urisift --base https://example.org/a/ page.html   resolve a saved page's links against where it came from
  urisift --format jsonl archive.mbox        one JSON record a link, with message, part, base and position
  urisift --format csv --fields uri,target,file,line mail/   chosen columns of a Maildir's links
  urisift ~/archive/ --jobs 4 --stats        a directory of mbox, Maildir, HTML, WARC and notes, 4 processes
  urisift --format parquet -o links.parquet crawl.warc.gz    a crawl's links for an indexer
  urisift --format edges crawl.warc.gz | sort -u             a link graph: page<TAB>target
  urisift --scheme http,https --unique --normalize syntax notes/   distinct web links
  urisift --region main --format edges crawl.warc.gz         a link graph of the pages' own content only
  urisift --kind mbox --charset latin-1 < old.mbox           standard input, its kind and charset given
  tail -f app.log | urisift --with-location  links as log lines arrive, with file:line:column
  urisift -0 docs/ | xargs -0 -n1 echo       NUL-terminated, for xargs -0
  urisift --context 30 --format jsonl a.txt  each record with 30 characters around it

exit status: 0 the run completed (defects in the input are reported, not errors); 1 an input could not
be read or the output not written; 2 the command line is wrong; 130 interrupted (Ctrl-C).
"""


#: the work (bytes of input) below which no progress bar is shown: over in a second or two
PROGRESS_MIN = 32 << 20


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        # one line and a hint, not the whole usage (DESIGN §2: usage errors exit 2)
        self.exit(ExitCode.USAGE, f"urisift: {message} (see urisift --help)\n")


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="urisift", formatter_class=argparse.RawDescriptionHelpFormatter, epilog=EXAMPLES,
                description="Find URI references in text, mail (messages, mbox, Maildir, MHTML), HTML and web "
                            "archives (WARC, ARC), and resolve each against the base that applies to it (RFC 3986).")
    p.add_argument("paths", nargs="*", metavar="PATH",
                   help="files or directories (.gz, .bz2, .xz read transparently); none or '-': standard input")
    out = p.add_argument_group("output")
    out.add_argument("--format", choices=("text", "jsonl", "csv", "parquet", "edges", "graphml", "gexf"),
                     default="text",
                     help="text (default): one target a line (the reference when it has none); jsonl: one JSON "
                          "record a line, defects too; csv: the same keys, RFC 4180; parquet: the same columns, a "
                          "fixed Arrow schema, zstd (needs --output, pyarrow); edges: 'source<TAB>target'; "
                          "graphml, gexf: the link graph with each edge's count, for Gephi and networkx")
    out.add_argument("--graph", choices=("pages", "hosts"), default="pages",
                     help="graphml/gexf: an edge from page to target (default), or from host to host")
    out.add_argument("--output", "-o", metavar="FILE", help="write to FILE, not standard output (parquet: required)")
    out.add_argument("--fields", metavar="LIST", type=_fields,
                     help="jsonl/csv/parquet: only these keys, in this order (e.g. uri,target,file,line)")
    out.add_argument("--with-location", "-H", dest="location", action="store_true", default=None,
                     help="text: 'file:line:column:' before each target (the default with several inputs or a "
                          "directory, as grep does)")
    out.add_argument("--no-location", "-n", dest="location", action="store_false", help="text: never the location")
    out.add_argument("--null", "-0", action="store_true", help="text: end each line with NUL, not a line break")
    out.add_argument("--context", type=_count, default=0, metavar="N",
                     help="add a 'context' key: N characters either side of the reference (jsonl/csv/parquet)")
    out.add_argument("--normalize", choices=("none", "syntax", "scheme"), default="none",
                     help="add a 'normalized' key: the target normalized at this level (RFC 3986 §6.2)")
    out.add_argument("--unique", action="store_true",
                     help="only the first record per normalized target (level: --normalize, else syntax)")
    out.add_argument("--scheme", metavar="LIST", type=_scheme_list,
                     help="only targets with these schemes, comma-separated (http,https,mailto)")
    out.add_argument("--region", metavar="LIST", type=_region_list, help="HTML: only links in these regions of the "
                     "page: main (its own content), nav, header, footer, aside, comments, other (others: none)")
    out.add_argument("--flags", action="store_true", help="text: the RFC 3986 §7 risk flags after a tab")
    out.add_argument("--unwrap", action="store_true",
                     help="text output, --scheme, --normalize, --unique and edges use the URL behind a link-protection "
                          "service's, a redirector's or a web archive's wrapping (Safe Links, Proofpoint, Barracuda, "
                          "Google, Wayback ...), where it can be recovered; the records' 'unwrapped' key has it always")
    out.add_argument("--effective", action="store_true",
                     help="WARC: follow each target through the crawl's captured 3xx Location, meta refresh and "
                          "rel=canonical to where it ends (the effective_* keys; a first pass reads the captures); "
                          "text output, --unique and edges use it")
    out.add_argument("--resolve", choices=RESOLUTIONS, default="rfc",
                     help="which URL text output prints and --scheme/--normalize/--unique/edges use: rfc (default, "
                          "RFC 3986 resolution), browser (what the WHATWG URL parser gives: what a browser fetches), "
                          "both (text: the two, tab-separated); browser or both also computes browser_target for "
                          "text and mail (HTML and WARC records always carry it)")
    read = p.add_argument_group("reading")
    read.add_argument("--from-list", metavar="FILE",
                      help="read the inputs named in FILE too, one path or URL a line (gzip or not, local or remote: "
                           "Common Crawl's warc.paths.gz with each line prefixed by s3://commoncrawl/)")
    read.add_argument("--base", metavar="URI",
                      help="the retrieval URI of the inputs (RFC 3986 §5.1.3); one that cannot serve is a defect")
    read.add_argument("--kind", choices=[k.value for k in Kind], default="auto",
                      help="what the inputs hold; auto (default) sniffs the content, then the file name")
    read.add_argument("--charset", metavar="LABEL",
                      help="the inputs' charset, as a container would declare it (a byte-order mark still wins)")
    read.add_argument("--no-abbreviated", action="store_true", help="leave www./ftp. forms out")
    read.add_argument("--comments", action="store_true", help="HTML: scan the text of comments too")
    read.add_argument("--content-location-base", action="store_true",
                      help="WARC: an HTTP response's Content-Location is the base of its body (RFC 2616 §14.14 "
                           "said so; RFC 7231 §3.1.4.2 took it back, so it is off by default)")
    read.add_argument("--hidden", action="store_true", help="walk hidden files and directories (.git, .venv) too")
    read.add_argument("--follow", "-L", action="store_true",
                      help="walk symbolic links to directories too (each directory once: no loops); without it they "
                           "are skipped, and said so on standard error")
    read.add_argument("--strict", action="store_true", help="stop at the first defect in the input (exit 1)")
    run_ = p.add_argument_group("running")
    run_.add_argument("--jobs", "-j", type=_jobs, default=os.cpu_count() or 1, metavar="N",
                      help="worker processes (default: the cores); files, and ranges of a large mbox, in parallel; "
                           "the output is --jobs 1's, in the same order")
    run_.add_argument("--stats", action="store_true",
                      help="counts at the end on standard error (inputs, messages, parts, records by style and base, "
                           "defects, time, MB/s); JSON with --format jsonl")
    run_.add_argument("--pick", action="store_true",
                      help="a terminal list of the links of one message or page: Enter opens one with $BROWSER, y "
                           "copies it, / searches (pip install 'urisift[pick]')")
    run_.add_argument("--pick-schemes", metavar="LIST", type=_scheme_list, default=None,
                      help="--pick: the schemes Enter opens (default http,https,mailto)")
    run_.add_argument("--quiet", "-q", action="store_true", help="no progress bar, no note on reading a terminal")
    run_.add_argument("--version", action="version", version=f"urisift {__version__}")
    return p


def _jobs(value: str) -> int:
    jobs = int(value) if value.isdigit() else 0
    if jobs < 1:
        raise argparse.ArgumentTypeError(f"expected a number of processes, 1 or more: {value!r}")
    return jobs


def _count(value: str) -> int:
    if not value.isdigit():
        raise argparse.ArgumentTypeError(f"expected a number of characters: {value!r}")
    return int(value)


def _fields(value: str) -> tuple[str, ...]:
    fields = tuple(f.strip() for f in value.split(",") if f.strip())
    unknown = [f for f in fields if f not in FIELDS]
    if not fields or unknown:
        raise argparse.ArgumentTypeError(f"unknown field {unknown[0]!r}; the fields are {', '.join(FIELDS)}"
                                         if unknown else "expected a comma-separated list of keys")
    return fields


def _listed(what: str, known: tuple[str, ...] = ()) -> Callable[[str], frozenset[str]]:
    def names(value: str) -> frozenset[str]:  # a comma-separated list of ``what`` (one of ``known``, if given)
        listed = frozenset(s.strip().lower() for s in value.split(",") if s.strip())
        unknown = sorted(listed - set(known)) if known else []
        if not listed or unknown:
            raise argparse.ArgumentTypeError(f"no {what} {unknown[0]!r}; the {what}s are {', '.join(known)}"
                                             if unknown else f"expected a comma-separated list of {what}s")
        return listed
    return names


_scheme_list = _listed("scheme")
_region_list = _listed("region", tuple(r.value for r in Region))


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
        from .output.parquet import ParquetWriter

        return ParquetWriter(out, layout, path=args.output), out
    target = open(args.output, "w", encoding="utf-8", newline="") if args.output else out  # noqa: SIM115
    if not live and not (hasattr(target, "isatty") and target.isatty()):
        writer, _ = _writer_to(args, layout, cast(IO[str], Batched(target)))
        return writer, target
    return _writer_to(args, layout, target)


def _writer_to(args: argparse.Namespace, layout: Layout, target: IO[str]) -> tuple[Writer, IO[str]]:
    if args.format == "edges":
        return EdgeWriter(target, layout, base=args.base), target  # the source of an edge may be --base
    if args.format in ("graphml", "gexf"):
        from .output.graph import GexfWriter, GraphmlWriter

        graph = GraphmlWriter if args.format == "graphml" else GexfWriter
        return graph(target, layout, base=args.base, hosts=args.graph == "hosts"), target
    return WRITERS[args.format](target, layout), target


def _usage(err: IO[str], message: str) -> int:
    err.write(f"urisift: {message}\n")
    return ExitCode.USAGE


def _progress(total: int, err: IO[str], quiet: bool) -> Any:
    """A progress bar on standard error (tqdm) when it is a terminal and the
    work is large enough to wait for; else None."""
    if quiet or total < PROGRESS_MIN or not (hasattr(err, "isatty") and err.isatty()):
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm(total=total, unit="B", unit_scale=True, unit_divisor=1024, file=err, desc="urisift",
                dynamic_ncols=True, leave=False)


def main(argv: list[str] | None = None, *, stdin: BinaryIO | None = None,
         stdout: IO[str] | None = None, stderr: IO[str] | None = None) -> int:
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    arguments = sys.argv[1:] if argv is None else argv
    if arguments[:1] == ["audit"]:  # the capture audit (issue 23); a file named audit is ./audit
        from .crawl.audit import main as audit

        return audit(arguments[1:], out, err)
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
            args = _parser().parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    kind = Kind(args.kind)
    if args.format == "parquet" and not args.output:
        return _usage(err, "--format parquet writes a file: give it with --output FILE")
    try:
        in_list = listed(args.from_list) if args.from_list else []
    except OSError as exc:
        return _usage(err, f"--from-list {args.from_list}: {exc.strerror or exc}")
    paths = [*args.paths, *in_list] or ["-"]
    for path in paths:  # a backend that is not installed: one line, before any input is read
        if (missing := missing_backend(path)) is not None:
            return _usage(err, missing)
    location = args.location if args.location is not None else (
        len(paths) > 1 or any(os.path.isdir(p) for p in paths if p != "-"))
    layout = Layout(args.format, normalized=args.normalize != "none", flags=args.flags, location=location,
                    null=args.null, fields=args.fields, context=args.context > 0, resolution=args.resolve,
                    unwrap=args.unwrap, effective=args.effective)
    if args.format in ("edges", "graphml", "gexf") and args.resolve == "both":
        return _usage(err, f"--format {args.format} draws one graph: give --resolve rfc or --resolve browser")
    # a key that is written is computed: JSON lines leave browser_target out
    # where it was not asked for, CSV and Parquet have no absent value
    fields = args.fields
    browser = args.resolve != "rfc" or (fields is not None and "browser_target" in fields) or (
        fields is None and args.format in ("csv", "parquet"))
    # positions cost an HTML page a search per value: made only where written (or --context needs them)
    wants_positions = args.context > 0 or (location if args.format == "text" else args.format not in (
        "edges", "graphml", "gexf") and (fields is None or not {"span", "line", "column"}.isdisjoint(fields)))
    try:
        # a wrong --base or --charset is a usage error before any input is read
        options = checked(ScanOptions(base=args.base, kind=Kind.AUTO if kind is Kind.MAILDIR else kind,
                                      abbreviated=not args.no_abbreviated, charset=args.charset,
                                      strict=args.strict, comments=args.comments, positions=wants_positions,
                                      content_location=args.content_location_base, context=args.context,
                                      browser=browser))
    except UsageError as exc:
        return _usage(err, str(exc))
    if args.pick:
        return _pick(args, options, paths, stdin, err)
    if kind is Kind.MAILDIR and (paths == ["-"] or not all(os.path.isdir(p) for p in paths)):
        return _usage(err, "--kind maildir names Maildir folders (with cur/ and new/); name a message's file "
                           "with --kind mail")
    live = paths == ["-"] and _live_stdin(stdin)
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
    status: int = ExitCode.OK
    try:
        sources = list(walk(paths, hidden=args.hidden, maildir=kind is Kind.MAILDIR, follow=args.follow))
        if live and not args.quiet and stdin is None and sys.stdin is not None and sys.stdin.isatty():
            err.write("urisift: reading standard input (end with Ctrl-D; urisift --help for more)\n")
        bar = _progress(sum(file_size(s.path) for s in sources if isinstance(s, Input)), err, args.quiet)
        flush = live or (hasattr(target, "isatty") and target.isatty())
        try:
            # --effective: a first pass reads the WARC inputs' captures (the index of issue 23)
            index = None
            if args.effective:
                from .crawl.captures import build_index

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
                from .crawl.index import with_effective

                items = with_effective(items, index)
            status = write_all(items, writer, select, err, stats=stats, flush=flush,
                               progress=bar.update if bar is not None else None)
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
    if stats is not None:
        stats.write(err, as_json=args.format == "jsonl")
    return status


def _pick(args: argparse.Namespace, options: ScanOptions, paths: list[str], stdin: BinaryIO | None,
          err: IO[str]) -> int:
    """--pick: the links of the inputs (with 40 characters around each) in a terminal list."""
    try:
        import urwid  # noqa: F401 - the one-line message below, before any input is read

        from .pick import DEFAULT_SCHEMES, links_of, run
    except ImportError:
        return _usage(err, "--pick needs urwid: pip install 'urisift[pick]'")
    options = replace(options, context=options.context or 40)
    sources = list(walk(paths, hidden=args.hidden, follow=args.follow))
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
