"""The ``urisift`` command (DESIGN §2, a contract).

    urisift [--format text|jsonl|csv] [--base URI] [--kind KIND] [--charset LABEL]
            [--normalize none|syntax|scheme] [--unique] [--scheme LIST] [--flags]
            [--strict] [--hidden] [--no-abbreviated] [--comments] [PATH ...]

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
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import IO, BinaryIO

from . import __version__
from .columnar import EdgeWriter, ParquetWriter
from .errors import ExitCode, OutputError, RunError
from .model import Defect, DefectKind, Kind, Record
from .normalize import normalize
from .output import WRITERS, CsvWriter, Writer
from .parallel import RANGE_SIZE, Rendered, scan_parallel
from .reference import UriReference
from .scan import ScanOptions, iter_input
from .sources import BUILT_KINDS, Input, walk


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="urisift",
        description="Find URI references in plain text and resolve each against its base (RFC 3986).",
    )
    p.add_argument("paths", nargs="*", metavar="PATH",
                   help="files or directories (.gz, .bz2, .xz read transparently); none or '-' reads standard input")
    p.add_argument("--format", choices=("text", "jsonl", "csv", "parquet", "edges"), default="text",
                   help="text: one target (or the reference, when it has none) a line; jsonl: one record a line; "
                        "csv: the same columns; parquet: the same columns, fixed Arrow schema, zstd (needs "
                        "--output and pyarrow); edges: 'source<TAB>target' a link (source: the WARC record's "
                        "target URI, else --base, else the file)")
    p.add_argument("--output", "-o", metavar="FILE", help="write here instead of standard output (parquet: required)")
    p.add_argument("--base", metavar="URI",
                   help="the retrieval URI of the input (RFC 3986 §5.1.3); one that cannot serve is a defect")
    p.add_argument("--kind", choices=[k.value for k in Kind], default="auto",
                   help="what the inputs hold; auto (the default) sniffs the content, then the file name")
    p.add_argument("--charset", metavar="LABEL",
                   help="the inputs' charset, as a container would declare it (a byte-order mark still wins)")
    p.add_argument("--no-abbreviated", action="store_true", help="leave www./ftp. forms out")
    p.add_argument("--comments", action="store_true", help="HTML: scan the text of comments too")
    p.add_argument("--content-location-base", action="store_true",
                   help="WARC: an HTTP response's Content-Location is the base of its body (RFC 2616 §14.14 "
                        "said so; RFC 7231 §3.1.4.2 took it back, so it is off by default)")
    p.add_argument("--normalize", choices=("none", "syntax", "scheme"), default="none",
                   help="add a 'normalized' key: the target normalized at this level (RFC 3986 §6.2)")
    p.add_argument("--unique", action="store_true",
                   help="keep only the first record per normalized target (level: --normalize, else syntax)")
    p.add_argument("--scheme", metavar="LIST", type=_scheme_list,
                   help="keep only targets with these schemes, comma-separated (http,https,mailto)")
    p.add_argument("--flags", action="store_true", help="text format: show the RFC 3986 §7 risk flags")
    p.add_argument("--strict", action="store_true", help="stop at the first defect in the input (exit 1)")
    p.add_argument("--hidden", action="store_true", help="walk hidden files and directories (.git, .venv) too")
    p.add_argument("--jobs", "-j", type=_jobs, default=os.cpu_count() or 1, metavar="N",
                   help="worker processes (default: the number of cores); files, and ranges of a large mbox, "
                        "are scanned in parallel, and the output is the same as with --jobs 1, in the same order")
    p.add_argument("--version", action="version", version=f"urisift {__version__}")
    return p


def _jobs(value: str) -> int:
    try:
        jobs = int(value)
    except ValueError:
        jobs = 0
    if jobs < 1:
        raise argparse.ArgumentTypeError(f"expected a number of processes, 1 or more: {value!r}")
    return jobs


def _scheme_list(value: str) -> frozenset[str]:
    schemes = frozenset(s.strip().lower() for s in value.split(",") if s.strip())
    if not schemes:
        raise argparse.ArgumentTypeError("expected a comma-separated list of schemes")
    return schemes


class _Select:
    """--scheme, --normalize and --unique, applied to records as they stream by."""

    def __init__(self, schemes: frozenset[str] | None, level: str, unique: bool) -> None:
        self.schemes = schemes
        self.level = level
        self.unique = unique
        self.seen: set[str] = set()
        self.passthrough = schemes is None and level == "none" and not unique

    def __call__(self, record: Record) -> tuple[bool, str | None]:
        """Whether to keep the record, and its normalized target (or None)."""
        target = record.target
        if self.schemes is not None:
            scheme = target.partition(":")[0].lower() if target and ":" in target else None
            if scheme not in self.schemes:
                return False, None
        normalized = None
        if target is not None and (self.level != "none" or self.unique):
            normalized = normalize(target, level=self.level if self.level != "none" else "syntax")  # type: ignore[arg-type]
        if self.unique:
            key = normalized if normalized is not None else record.uri
            if key in self.seen:
                return False, normalized
            self.seen.add(key)
        return True, normalized if self.level != "none" else None


def _emit(items: Iterable[Record | Defect | Rendered], writer: Writer, select: _Select, err: IO[str]) -> int:
    """Write the items; the exit status they call for (1 if an input could not be read)."""
    status: int = ExitCode.OK
    record = writer.record
    passthrough = select.passthrough
    with _writing():
        for item in items:
            if type(item) is Rendered:
                writer.out.write(item.text)
                for defect in item.defects:
                    status = max(status, _report(defect, err))
                continue
            if type(item) is Record:
                if passthrough:
                    record(item)
                    continue
                keep, normalized = select(item)
                if keep:
                    record(item, normalized)
                continue
            assert isinstance(item, Defect)
            status = max(status, _report(item, err))
            writer.defect(item)
    return status


def _report(defect: Defect, err: IO[str]) -> int:
    """A defect on standard error; the exit status it calls for."""
    if defect.kind is DefectKind.UNREADABLE:
        err.write(f"urisift: {defect.file}: cannot read: {defect.detail}\n")
        return ExitCode.INPUT
    err.write(f"urisift: {defect}\n")
    return ExitCode.OK


@contextlib.contextmanager
def _writing() -> Iterator[None]:
    """A write error (a full disk) ends the run as an OutputError, never blamed
    on an input; a closed pipe (`| head`) is left to run(), which ends quietly."""
    try:
        yield
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise OutputError(f"urisift: cannot write the output: {exc.strerror or exc}") from exc


@dataclass(frozen=True)
class _Render:
    """A writer factory a worker can be sent: the format's writer over a
    text buffer (CSV without its header, which the parent writes once)."""

    format: str
    flags: bool

    def __call__(self, out: IO[str]) -> Writer:
        if self.format == "csv":
            return CsvWriter(out, header=False)
        return WRITERS[self.format](out, flags=self.flags)


def _worth_a_pool(sources: list[Input | Defect]) -> bool:
    """Whether worker processes can help: several inputs, or one large file
    (a pool costs a tenth of a second to start; standard input is read here)."""
    files = [s for s in sources if isinstance(s, Input)]
    if any(s.path == "-" for s in files):
        return False
    if len(files) > 1:
        return True
    try:
        return bool(files) and os.path.getsize(files[0].path) >= 2 * RANGE_SIZE
    except OSError:
        return False


def _writer(args: argparse.Namespace, out: IO[str]) -> tuple[Writer, IO[str]]:
    """The writer of ``--format``, and the text stream it writes to."""
    normalized = args.normalize != "none"
    if args.format == "parquet":
        return ParquetWriter(out, normalized=normalized, path=args.output), out
    target = open(args.output, "w", encoding="utf-8", newline="") if args.output else out  # noqa: SIM115
    if args.format == "edges":
        return EdgeWriter(target, normalized=normalized, base=args.base), target
    return WRITERS[args.format](target, normalized=normalized, flags=args.flags), target


def _usage(err: IO[str], message: str) -> int:
    err.write(f"urisift: {message}\n")
    return ExitCode.USAGE


def main(argv: list[str] | None = None, *, stdin: BinaryIO | None = None,
         stdout: IO[str] | None = None, stderr: IO[str] | None = None) -> int:
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    parser = _parser()
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
            args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    if args.base is not None and UriReference.parse(args.base).scheme is None:
        return _usage(err, f"--base must be an absolute URI (RFC 3986 §5.1), with a scheme: {args.base!r}")
    kind = Kind(args.kind)
    if kind is not Kind.AUTO and kind not in BUILT_KINDS:
        return _usage(err, f"--kind {kind}: reading {kind} input is not built yet; this version reads "
                           + ", ".join(sorted(k.value for k in BUILT_KINDS)))
    options = ScanOptions(base=args.base, kind=kind, abbreviated=not args.no_abbreviated,
                          charset=args.charset, strict=args.strict, comments=args.comments,
                          # the text format shows no positions: HTML need not search for them
                          positions=args.format not in ("text", "edges"),
                          content_location=args.content_location_base)
    if args.format == "parquet" and not args.output:
        return _usage(err, "--format parquet writes a file: give it with --output FILE")
    try:
        writer, target = _writer(args, out)
    except (ImportError, OSError) as exc:
        return _usage(err, str(exc))
    select = _Select(args.scheme, args.normalize, args.unique)
    status: int = ExitCode.OK
    try:
        sources = list(walk(args.paths or ["-"], hidden=args.hidden))
        if args.jobs > 1 and not args.strict and _worth_a_pool(sources):
            rendered = select.passthrough and args.format in ("text", "jsonl", "csv")
            render = _Render(args.format, args.flags) if rendered else None
            status = _emit(scan_parallel(sources, options, args.jobs, render), writer, select, err)
        else:
            for source in sources:
                items = [source] if isinstance(source, Defect) else iter_input(source, options, stdin=stdin)
                status = max(status, _emit(items, writer, select, err))
        with _writing():
            writer.close()
            target.flush()
            if target is not out:
                target.close()
    except RunError as exc:
        err.write(f"{exc}\n")
        return exc.exit_code
    return status


def run() -> None:
    """Console-script entry point."""
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
