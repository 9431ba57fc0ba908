"""``urisift-spark``: the same scan as a PySpark job (an optional
extra, ``pip install 'urisift[spark]'``; pyspark is imported only here, and
only when the job runs).

    urisift-spark [--master local[2]] [--format jsonl|parquet|edges|edge-counts]
                  [--from-list FILE] --output DIR PATH ...

- Inputs are paths, directories and globs (or a file listing them, a line
  each, as cc-pyspark takes: ``--from-list``, read by the command's own
  :func:`~urisift.pipeline.sources.listed`, plain or gzip, local or remote, Common
  Crawl's ``warc.paths.gz``; ``--input-list`` is its older name), walked on
  the driver as the command walks them.  The work is the command's units (:mod:`urisift.pool.parallel`): a file
  each, and a large mbox cut at envelope lines, so that one big archive does
  not serialise the job.  An mbox's messages are numbered as in the command:
  a first stage counts the messages of each range, the driver adds them up.
- Each task runs :func:`~urisift.pool.parallel.work` (``scan_input`` for a whole
  file), so the records are the command's, byte for byte in JSONL.
- ``--output DIR`` gets ``records/`` (JSON lines, or Parquet with the fixed
  Arrow schema of :mod:`urisift.output.parquet`) and ``defects/`` (JSON lines, the
  command's defect lines): a broken input, or a task that fails on one, is
  defect rows, never a failed job; an input that could not be read (or that
  a task failed on) is also said on standard error as the command says it,
  and the exit status is the command's, 1.  ``edges`` writes
  ``source<TAB>target`` lines; ``edge-counts`` (source host, target host,
  count) rows, as cc-pyspark's host-link job does.
"""

from __future__ import annotations

import glob
import io
import json
import os
import shutil
import socket
import sys
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any
from urllib.parse import urlsplit

from .. import __version__
from ..cli.usage import OneLineParser
from ..model import Defect, DefectKind, Kind, Record, Tally
from ..output.records import defect_line, record_line
from ..output.writers import edge_source
from ..output.writing import report
from ..pipeline.listing import listed
from ..pipeline.plan import plan as plan_units
from ..pipeline.remote import is_remote, local_path
from ..pipeline.scan import ScanOptions, messages_in, scan_failed, scan_unit
from ..pipeline.units import Renumbering, WorkUnit
from ..pipeline.walking import walk
from ..stages.options import refusal
from ..stages.publishing import MODES as PUBLISHED
from ..uri.errors import ExitCode, UsageError

FORMATS = ("jsonl", "parquet", "edges", "edge-counts")


_NEEDS_PYSPARK = "urisift-spark needs pyspark: pip install 'urisift[spark]' (and Java 17)"


def _pyspark() -> Any:
    try:
        import pyspark
    except ImportError as exc:
        raise UsageError(_NEEDS_PYSPARK) from exc
    return pyspark


def paths_of(inputs: list[str], from_list: str | None = None) -> list[str]:
    """The paths named: each as given, a glob expanded (sorted); with
    ``from_list``, the paths that listing names too (:func:`~urisift.pipeline.sources.listed`:
    an ``OSError`` when it cannot be read)."""
    named = [*inputs, *(listed(from_list) if from_list is not None else [])]
    out: list[str] = []
    for path in named:
        if is_remote(path):
            out.append(path)  # listed by the store, in the task that plans it (remote.expand)
            continue
        path = local_path(path)
        matches = sorted(glob.glob(path)) if any(c in path for c in "*?[") else [path]
        # absolute: the executors of a cluster run in their own directories (a shared
        # filesystem has the same absolute paths everywhere; a relative one is nowhere)
        out += [os.path.abspath(m) for m in matches] or [os.path.abspath(path)]
    return out


def plan(paths: list[str], options: ScanOptions) -> list[WorkUnit | Defect]:
    """The units of work, in the command's output order (:mod:`urisift.pipeline.plan`)."""
    return list(plan_units(walk(paths, images=options.qr), options))


def _input(functions: Any) -> Any:
    return functions.coalesce(functions.col("file"), functions.lit("-"))


def _target_host(functions: Any) -> Any:
    return functions.coalesce(functions.lower(functions.expr("try_parse_url(target, 'HOST')")), functions.lit("none"))


def _date(functions: Any) -> Any:
    return functions.coalesce(functions.substring(functions.col("warc_date"), 1, 10), functions.lit("none"))


#: --partition-by: the column Parquet output is partitioned by (a directory level, not a record key)
PARTITION_KEYS = {"input": ("input", _input), "host": ("target_host", _target_host), "date": ("date", _date)}


def count_messages(job: tuple[int, WorkUnit | Defect, ScanOptions]) -> tuple[int, int]:
    """(index, messages in the unit) for an mbox range."""
    index, unit, _ = job
    assert isinstance(unit, WorkUnit)
    return index, messages_in(unit)


def _mbox_range(job: tuple[int, WorkUnit | Defect, ScanOptions]) -> bool:
    unit = job[1]
    return isinstance(unit, WorkUnit) and unit.start is not None and unit.kind is Kind.MBOX


def scan_lines(job: tuple[int, WorkUnit | Defect, ScanOptions], firsts: dict[int, int]
               ) -> Iterator[tuple[int, str, str] | tuple[int, str, str, str]]:
    """The lines of one unit: (unit index, "record" or "defect", JSON line),
    a record's with the source of its edge after it, streamed.  Whatever
    goes wrong is a defect line; the task never fails."""
    index, unit, options = job
    if isinstance(unit, Defect):
        yield from _defect_rows(index, unit)
        return
    numbering = Renumbering()
    numbering.begin(unit)
    numbering.first = firsts.get(index, 0)  # counted by the first stage
    try:
        for item in scan_unit(unit, options):
            if type(item) is Tally:
                continue
            item = numbering(item)  # type: ignore[arg-type]
            if type(item) is Record:
                # (the edge's source beside its line: the retrieval URI is not a record key)
                yield index, "record", record_line(item), edge_source(item.origin)
            else:
                yield from _defect_rows(index, _on_this_host(item))  # type: ignore[arg-type]
    except Exception as exc:  # noqa: BLE001 - a per-input failure is a defect row, and the job goes on
        yield from _defect_rows(index, scan_failed(unit, exc))


def _defect_rows(index: int, defect: Defect) -> Iterator[tuple[int, str, str]]:
    """A defect's row; and, for one that makes the command exit 1 (an input
    not read, a scan that failed), a "failed" row: the line the command
    writes for it on standard error (:func:`~urisift.output.writing.report`)."""
    yield index, "defect", defect_line(defect)
    said = io.StringIO()
    if report(defect, said, prog="urisift-spark") != ExitCode.OK:
        yield index, "failed", said.getvalue()


def _on_this_host(defect: Defect) -> Defect:
    """An input a task could not read names the executor's host: on a
    cluster, a path may exist on the driver and not there."""
    if defect.kind is DefectKind.UNREADABLE:
        return replace(defect, detail=f"{defect.detail} (on host {socket.gethostname()})")
    return defect


def edge(row: tuple[int, str, str, str]) -> tuple[str, str] | None:
    """(source, target) of a record's row (its line and its edge's source:
    :func:`~urisift.output.writers.edge_source`), as ``--format edges`` draws it."""
    target = json.loads(row[2])["target"]
    if target is None:
        return None
    return row[3], target


def host(uri: str) -> str:
    try:
        return (urlsplit(uri).hostname or "").lower()
    except ValueError:
        return ""


def session(master: str | None = None) -> Any:
    """A SparkSession for the job (``master`` None: what spark-submit configured)."""
    _pyspark()
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName("urisift").config("spark.ui.showConsoleProgress", "false")
    if master is not None:
        builder = builder.master(master)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def run(paths: list[str], output: str, *, fmt: str = "jsonl", master: str | None = None,
        options: ScanOptions | None = None, partitions: int | None = None, spark: Any = None,
        partition_by: str | None = None, failed: Callable[[str], object] | None = None) -> dict[str, int]:
    """Run the job; the counts of what it wrote.  ``spark``: a session to
    run in (kept open); else one is made (and stopped, with ``master``).
    ``failed``: called on the driver, in input order, with the line the
    command writes on standard error for each input that could not be read."""
    pyspark = _pyspark()
    options = options if options is not None else ScanOptions()
    own = spark is None
    spark = spark if spark is not None else session(master)
    try:
        return _job(spark, pyspark, paths, output, fmt, options, partitions, partition_by, failed)
    finally:
        if own and master is not None:
            spark.stop()


def plan_in_tasks(sc: Any, paths: list[str], options: ScanOptions) -> list[WorkUnit | Defect]:
    """The units of work, in output order: the driver lists the inputs (a
    store lists a glob or prefix in one call), the tasks cut them into
    ranges (which reads each large file: never on the driver)."""
    sources = list(enumerate(walk(paths, images=options.qr)))
    if not sources:
        return []

    def cut(item: tuple[int, Any]) -> list[tuple[int, int, WorkUnit | Defect]]:
        index, source = item
        return [(index, j, unit) for j, unit in enumerate(plan_units([source], options))]

    planned = sc.parallelize(sources, max(1, min(len(sources), sc.defaultParallelism * 4))).flatMap(cut).collect()
    return [unit for _, _, unit in sorted(planned, key=lambda t: (t[0], t[1]))]


def _job(spark: Any, pyspark: Any, paths: list[str], output: str, fmt: str, options: ScanOptions,
         partitions: int | None, partition_by: str | None = None,
         failed: Callable[[str], object] | None = None) -> dict[str, int]:
    sc = spark.sparkContext
    jobs = [(i, unit, options) for i, unit in enumerate(plan_in_tasks(sc, paths, options))]
    slices = max(1, min(len(jobs), partitions or len(jobs)))
    units_rdd = sc.parallelize(jobs, slices)
    # stage 1: the messages of each mbox range, so that stage 2 numbers them as the command does
    counts = dict(units_rdd.filter(_mbox_range).map(count_messages).collect())
    numbering = Renumbering()
    firsts: dict[int, int] = {}
    for index, unit, _ in jobs:
        if isinstance(unit, WorkUnit):
            numbering.begin(unit)
            if _mbox_range((index, unit, options)):
                firsts[index] = numbering.first
                numbering.end(Tally(messages=counts[index]))
    shared = sc.broadcast(firsts)
    lines = units_rdd.flatMap(lambda job: scan_lines(job, shared.value)).cache()
    rows = lines.filter(lambda row: row[1] == "record")
    records = rows.map(lambda row: row[2])
    defects = lines.filter(lambda row: row[1] == "defect").map(lambda row: row[2])
    defects.saveAsTextFile(f"{output}/defects")
    result = {"units": len(jobs), "defects": defects.count()}
    if failed is not None:  # (the units are sliced in order: collect() gives them in input order)
        for said in lines.filter(lambda row: row[1] == "failed").map(lambda row: row[2]).collect():
            failed(said)
    if fmt == "jsonl":
        records.saveAsTextFile(f"{output}/records")
    elif fmt == "parquet":
        from ..output.parquet import schema

        arrow = schema()
        frame = spark.createDataFrame(records.map(json.loads).map(
            lambda row: pyspark.sql.Row(**{k: row.get(k) for k in arrow.names})), _spark_schema(arrow))
        writer = frame.write.option("compression", "zstd")
        if partition_by is not None:
            # Spark's own writer and commit protocol: a retried task's files replace its first attempt's
            name, column = PARTITION_KEYS[partition_by]
            frame = frame.withColumn(name, column(pyspark.sql.functions))
            writer = frame.write.option("compression", "zstd").partitionBy(name)
        writer.parquet(f"{output}/records")
    elif fmt == "edges":
        rows.map(edge).filter(lambda e: e is not None).map(lambda e: f"{e[0]}\t{e[1]}").saveAsTextFile(
            f"{output}/edges")
    elif fmt == "edge-counts":
        counted = (rows.map(edge).filter(lambda e: e is not None)
                   .map(lambda e: ((host(e[0]), host(e[1])), 1)).reduceByKey(lambda a, b: a + b)
                   .map(lambda kv: json.dumps({"source_host": kv[0][0], "target_host": kv[0][1], "count": kv[1]})))
        counted.saveAsTextFile(f"{output}/edge-counts")
    result["records"] = records.count()
    lines.unpersist()
    return result


def _spark_schema(arrow: Any) -> Any:
    """The fixed Arrow schema as Spark SQL types (string, int64, bool, lists, the risk struct)."""
    from pyspark.sql import types as T

    def convert(arrow_type: Any) -> Any:
        import pyarrow as pa

        if pa.types.is_string(arrow_type):
            return T.StringType()
        if pa.types.is_integer(arrow_type):
            return T.LongType()
        if pa.types.is_boolean(arrow_type):
            return T.BooleanType()
        if pa.types.is_list(arrow_type):
            return T.ArrayType(convert(arrow_type.value_type))
        if pa.types.is_struct(arrow_type):
            return T.StructType([T.StructField(f.name, convert(f.type)) for f in arrow_type])
        raise TypeError(arrow_type)

    return T.StructType([T.StructField(f.name, convert(f.type)) for f in arrow])


def main(argv: list[str] | None = None) -> int:
    p = OneLineParser(prog="urisift-spark", description="urisift's scan as a PySpark job.")
    p.add_argument("paths", nargs="*", metavar="PATH", help="files, directories or globs")
    p.add_argument("--from-list", "--input-list", dest="from_list", metavar="FILE",
                   help="read the inputs named in FILE too, one path or URL a line (gzip or not, local or remote: "
                        "Common Crawl's warc.paths.gz with each line prefixed by s3://commoncrawl/); --input-list "
                        "is its older name")
    p.add_argument("--output", required=True, metavar="DIR", help="where records/ (or edges/, edge-counts/) "
                                                                 "and defects/ are written")
    p.add_argument("--format", choices=FORMATS, default="jsonl",
                   help="jsonl (default): records/ of the command's JSON lines; parquet: records/ with the fixed "
                        "Arrow schema; edges: edges/ of source<TAB>target lines; edge-counts: edge-counts/ of "
                        "JSON lines, each source host and target host with the count of their links")
    p.add_argument("--published-as", choices=PUBLISHED,
                   help="a documentation tree as its generator publishes it (as the command's --published-as)")
    p.add_argument("--version", "-V", action="version", version=f"urisift-spark {__version__}")
    p.add_argument("--master", help="the Spark master (local[2] ...); default: what spark-submit gives")
    p.add_argument("--partitions", type=int, help="tasks to cut the work into (default: a unit each)")
    p.add_argument("--base", metavar="URI", help="the retrieval URI of the inputs")
    p.add_argument("--overwrite", action="store_true", help="replace what --output already holds")
    p.add_argument("--partition-by", choices=sorted(PARTITION_KEYS),
                   help="parquet: records/ partitioned by the input file, the target's host or the WARC date")
    p.add_argument("--refang", action="store_true",
                   help="read defanged indicators back (hxxp:, [.], (at) ...), as the command's --refang")
    p.add_argument("--wikilinks", action="store_true", help="Markdown: [[Page]] wikilinks, as the command's")
    args = p.parse_args(argv)
    try:  # a missing extra: a usage error, as the command's, before any input is read
        _pyspark()
    except UsageError as exc:
        print(exc, file=sys.stderr)
        return ExitCode.USAGE
    try:
        paths = paths_of(args.paths, args.from_list)
    except OSError as exc:  # the command's words and exit status (a usage error, before any input is read)
        print(f"urisift-spark: --from-list {args.from_list}: {exc.strerror or exc}", file=sys.stderr)
        return ExitCode.USAGE
    if not paths:
        p.error("name inputs, or a file listing them with --from-list")
    # checked before the job starts, not after it ran (Spark's own error is a long trace at the end)
    if os.path.exists(args.output) and not args.overwrite:
        print(f"urisift-spark: --output {args.output} exists; name another, or add --overwrite to replace it",
              file=sys.stderr)
        return 2
    if os.path.isdir(args.output):
        shutil.rmtree(args.output)
    elif os.path.exists(args.output):
        os.remove(args.output)
    if (wrong := refusal(args.base, None)) is not None:  # the command's usage error, in its words
        print(f"urisift-spark: --{wrong}", file=sys.stderr)
        return ExitCode.USAGE
    failed: list[str] = []
    # Parquet has no absent value: its browser_target column is computed for every record
    counts = run(paths, args.output, fmt=args.format, master=args.master,
                 options=ScanOptions(base=args.base, browser=args.format == "parquet",
                                     published_as=args.published_as, refang=args.refang,
                                     wikilinks=args.wikilinks), partitions=args.partitions,
                 partition_by=args.partition_by, failed=failed.append)
    sys.stderr.writelines(failed)
    print(json.dumps(counts), file=sys.stderr)
    # as the command: 1 when an input could not be read (the others were, and their records written)
    return ExitCode.INPUT if failed else ExitCode.OK


def entry() -> None:
    sys.exit(main())


if __name__ == "__main__":
    entry()


__all__ = ["main", "paths_of", "plan", "run", "scan_lines", "session"]
