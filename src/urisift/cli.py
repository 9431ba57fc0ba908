"""The ``urisift`` command (DESIGN §2, a contract).

    urisift [--format text|jsonl|csv] [--base URI] [--kind auto|text]
            [--normalize none|syntax|scheme] [--unique] [--scheme LIST] [--flags] [PATH ...]

No PATH, or ``-``, reads standard input.  Directories are walked (sorted, so
the output order is stable).  Exit status: 0 when the run completed, defects
or not; 2 for usage errors; 1 when an input could not be read at all.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import json
import os
import sys
from collections.abc import Iterable, Iterator
from typing import IO, BinaryIO

from . import __version__
from .errors import UriSyntaxError
from .normalize import normalize
from .record import RECORD_KEYS, Defect, Record
from .reference import validate
from .scan import scan_stream

KINDS = ("auto", "text")


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="urisift",
        description="Find URI references in plain text and resolve each against its base (RFC 3986).",
    )
    p.add_argument("paths", nargs="*", metavar="PATH", help="files or directories; none or '-' reads standard input")
    p.add_argument("--format", choices=("text", "jsonl", "csv"), default="text",
                   help="text: one target (or the reference, when it has none) a line; jsonl: one record a line")
    p.add_argument("--base", metavar="URI", help="the retrieval URI of the input (RFC 3986 §5.1.3)")
    p.add_argument("--kind", choices=KINDS, default="auto", help="input kind (plain text for now)")
    p.add_argument("--no-abbreviated", action="store_true", help="leave www./ftp. forms out")
    p.add_argument("--normalize", choices=("none", "syntax", "scheme"), default="none",
                   help="add a 'normalized' key: the target normalized at this level (RFC 3986 §6.2)")
    p.add_argument("--unique", action="store_true",
                   help="keep only the first record per normalized target (level: --normalize, else syntax)")
    p.add_argument("--scheme", metavar="LIST", type=_scheme_list,
                   help="keep only targets with these schemes, comma-separated (http,https,mailto)")
    p.add_argument("--flags", action="store_true", help="text format: show the RFC 3986 §7 risk flags")
    p.add_argument("--version", action="version", version=f"urisift {__version__}")
    return p


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


def _walk(paths: list[str], failed: list[OSError]) -> Iterator[str]:
    """The files to scan, directories walked in sorted order; directories that
    cannot be listed go to ``failed``."""
    for path in paths:
        if path != "-" and os.path.isdir(path):
            for root, dirs, files in os.walk(path, onerror=failed.append):
                dirs.sort()
                for name in sorted(files):
                    yield os.path.join(root, name)
        else:
            yield path


class _Writer:
    def __init__(self, fmt: str, out: IO[str], *, normalized: bool = False, flags: bool = False) -> None:
        self.fmt = fmt
        self.out = out
        self.normalized = normalized
        self.flags = flags
        self.keys = RECORD_KEYS + (("normalized",) if normalized else ())
        self.csv = csv.writer(out, lineterminator="\n") if fmt == "csv" else None
        if self.csv is not None:
            self.csv.writerow(self.keys)

    def record(self, record: Record, normalized: str | None = None) -> None:
        if self.fmt == "text":
            line = normalized if self.normalized and normalized is not None else (record.target or record.uri)
            if self.flags and record.risks:
                line += "\t" + "; ".join(str(r) for r in record.risks)
            self.out.write(line + "\n")
            return
        row = record.to_json()
        if self.normalized:
            row["normalized"] = normalized
        if self.fmt == "jsonl":
            self.out.write(json.dumps(row, ensure_ascii=False) + "\n")
        else:
            assert self.csv is not None
            self.csv.writerow([_csv_cell(row[k]) for k in self.keys])

    def defect(self, defect: Defect) -> None:
        if self.fmt == "jsonl":
            self.out.write(json.dumps(defect.to_json(), ensure_ascii=False) + "\n")


def _csv_cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, list):
        return " ".join(v["flag"] if isinstance(v, dict) else str(v) for v in value)
    return str(value)


def _emit(items: Iterable[Record | Defect], writer: _Writer, select: _Select, err: IO[str]) -> None:
    for item in items:
        if isinstance(item, Defect):
            err.write(f"urisift: {item}\n")
            writer.defect(item)
            continue
        keep, normalized = select(item)
        if keep:
            writer.record(item, normalized)


def _report_unreadable(path: object, error: OSError, err: IO[str]) -> int:
    err.write(f"urisift: {path}: cannot read: {error.strerror or error}\n")
    return 1


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
    if args.base is not None:
        try:
            validate(args.base, "IRI")
        except UriSyntaxError as exc:
            err.write(f"urisift: --base must be an absolute URI: {exc}\n")
            return 2
    writer = _Writer(args.format, out, normalized=args.normalize != "none", flags=args.flags)
    select = _Select(args.scheme, args.normalize, args.unique)
    status = 0
    abbreviated = not args.no_abbreviated
    failed: list[OSError] = []
    for path in _walk(args.paths or ["-"], failed):
        while failed:
            error = failed.pop(0)
            status = _report_unreadable(error.filename, error, err)
        if path == "-":
            stream = stdin or sys.stdin.buffer
            _emit(scan_stream(stream, base=args.base, file="-", abbreviated=abbreviated), writer, select, err)
            continue
        try:
            with open(path, "rb") as handle:
                _emit(scan_stream(handle, base=args.base, file=path, abbreviated=abbreviated), writer, select, err)
        except BrokenPipeError:
            raise  # the reader of our output went away: not this input's fault
        except OSError as exc:
            status = _report_unreadable(path, exc, err)
    for error in failed:
        status = _report_unreadable(error.filename, error, err)
    out.flush()
    return status


def run() -> None:
    """Console-script entry point."""
    try:
        code = main()
    except BrokenPipeError:
        # `urisift ... | head`: the reader went away; that is not an error.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        code = 0
    except KeyboardInterrupt:
        code = 130
    sys.exit(code)


if __name__ == "__main__":
    run()
