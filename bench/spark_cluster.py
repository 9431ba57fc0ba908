"""A Spark standalone cluster on this machine (issue 22): a master and
workers as separate processes, started with pyspark's own launcher
(``spark-class ...Master`` / ``...Worker``), running ``urisift-spark`` over
objects in a local S3 server (moto), checked against the command.

    python bench/spark_cluster.py                 # 2 workers: the job's records == the command's
    python bench/spark_cluster.py --kill-worker   # a worker killed mid-job: each record still once
    python bench/spark_cluster.py --bench         # 2 workers against 1, one run each

Each worker gets one core and 1 GB; every JVM started here is stopped at
the end.  The opt-in test (``URISIFT_CLUSTER=1 pytest tests/test_cluster.py``)
runs the first two.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("URISIFT_SHARED", ROOT.parent / "shared"))
sys.path.insert(0, str(ROOT / "src"))


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_port(port: int, timeout: float = 60) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.3)
    raise RuntimeError(f"nothing listens on {port}")


@contextmanager
def s3_objects(plain_mbox: bool = False) -> Iterator[tuple[list[str], dict[str, str]]]:
    """A moto S3 server with the shared WARC samples, pages and the linux-mips mbox: (URLs, environment).
    ``plain_mbox``: the mbox decompressed (124 MB), so that it is cut into ranges the workers share."""
    import boto3
    from moto.server import ThreadedMotoServer

    port = _port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port)
    server.start()
    env = {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing", "AWS_DEFAULT_REGION": "us-east-1",
           "FSSPEC_S3_ENDPOINT_URL": f"http://127.0.0.1:{port}"}
    os.environ.update(env)
    client = boto3.client("s3", endpoint_url=env["FSSPEC_S3_ENDPOINT_URL"])
    client.create_bucket(Bucket="crawls")
    for path in sorted((SHARED / "corpora" / "warc-samples" / "warcio-test-data").glob("example*.warc*")):
        client.upload_file(str(path), "crawls", f"warc/{path.name}")
    for path in sorted((SHARED / "corpora" / "html-readability-pages").glob("*/source.html"))[:40]:
        client.upload_file(str(path), "crawls", f"pages/{path.parent.name}.html")
    xz = SHARED / "corpora" / "linux-mips-1996-2007" / "linux-mips-1996-2007.mboxrd.xz"
    if plain_mbox:
        import lzma

        plain = ROOT / "bench" / ".data" / "linux-mips.mboxrd"
        if not plain.exists():
            plain.parent.mkdir(exist_ok=True)
            plain.write_bytes(lzma.decompress(xz.read_bytes()))
        client.upload_file(str(plain), "crawls", "mail/linux-mips.mboxrd")
    else:
        client.upload_file(str(xz), "crawls", "mail/linux-mips.mboxrd.xz")
    try:
        yield ["s3://crawls/mail/", "s3://crawls/warc/*.warc*", "s3://crawls/pages/"], env
    finally:
        server.stop()


@contextmanager
def cluster(workers: int, env: dict[str, str]) -> Iterator[tuple[str, list[subprocess.Popen[bytes]]]]:
    """A standalone master and ``workers`` workers; yields the master URL and the worker processes."""
    import pyspark

    spark_class = str(Path(pyspark.__file__).parent / "bin" / "spark-class")
    work = Path(tempfile.mkdtemp(prefix="urisift-cluster-"))
    environ = {**os.environ, **env, "SPARK_LOCAL_IP": "127.0.0.1", "PYSPARK_PYTHON": sys.executable,
               "PYTHONPATH": str(ROOT / "src"), "SPARK_NO_DAEMONIZE": "1"}
    port = _port()
    started: list[subprocess.Popen[bytes]] = []
    log = (work / "jvm.log").open("wb")
    try:
        started.append(subprocess.Popen(
            [spark_class, "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1", "--port", str(port),
             "--webui-port", str(_port())], env=environ, stdout=log, stderr=log, start_new_session=True))
        _wait_port(port)
        master = f"spark://127.0.0.1:{port}"
        nodes = []
        for n in range(workers):
            nodes.append(subprocess.Popen(
                [spark_class, "org.apache.spark.deploy.worker.Worker", master, "--cores", "1", "--memory", "1g",
                 "--webui-port", str(_port()), "--work-dir", str(work / f"worker{n}")],
                env=environ, stdout=log, stderr=log, start_new_session=True))
        started += nodes
        time.sleep(4)  # the workers register with the master
        yield master, nodes
    finally:
        for process in reversed(started):
            with suppress(ProcessLookupError):  # a worker the test killed already
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        log.close()
        shutil.rmtree(work, ignore_errors=True)


def job(master: str, inputs: list[str], output: str, env: dict[str, str], kill: subprocess.Popen[bytes] | None = None
        ) -> tuple[list[str], float]:
    """The job's record lines (sorted) and its wall time; ``kill``: a worker killed a few seconds in."""
    from pyspark.sql import SparkSession

    from urisift.spark import driver as spark

    builder = (SparkSession.builder.master(master).appName("urisift-cluster")
               .config("spark.executor.cores", "1").config("spark.executor.memory", "900m")
               .config("spark.task.maxFailures", "8").config("spark.ui.showConsoleProgress", "false"))
    for key, value in {**env, "PYTHONPATH": str(ROOT / "src")}.items():
        builder = builder.config(f"spark.executorEnv.{key}", value)
    session = builder.getOrCreate()
    session.sparkContext.setLogLevel("ERROR")
    if kill is not None:
        threading.Timer(6.0, lambda: os.killpg(kill.pid, signal.SIGKILL)).start()
    start = time.perf_counter()
    try:
        spark.run(spark.paths_of(inputs), output, spark=session)
    finally:
        took = time.perf_counter() - start
        session.stop()
    lines = sorted(line for part in sorted(Path(output, "records").glob("part-*"))
                   for line in part.read_text("utf-8").splitlines())
    return lines, took


def command(inputs: list[str]) -> list[str]:
    from urisift.cli.command import main

    out = io.StringIO()
    main(["--format", "jsonl", "--jobs", "1", "-q", *inputs], stdout=out, stderr=io.StringIO())
    return sorted(line for line in out.getvalue().splitlines() if not line.startswith('{"defect"'))


def check(kill_worker: bool) -> dict[str, object]:
    with s3_objects() as (inputs, env), cluster(2, env) as (master, workers):
        out = tempfile.mkdtemp(prefix="urisift-out-")
        try:
            records, took = job(master, inputs, f"{out}/job", env, workers[0] if kill_worker else None)
        finally:
            shutil.rmtree(out, ignore_errors=True)
        expected = command(inputs)
        # the sorted lines equal: every record of the command once, none twice (a killed worker's tasks rerun)
        return {"records": len(records), "command": len(expected), "same": records == expected,
                "seconds": round(took, 1)}


def bench() -> dict[str, float]:
    times = {}
    with s3_objects(plain_mbox=True) as (inputs, env):
        for workers in (1, 2):
            with cluster(workers, env) as (master, _):
                out = tempfile.mkdtemp(prefix="urisift-out-")
                try:
                    times[f"{workers} workers"] = round(job(master, inputs, f"{out}/job", env)[1], 1)
                finally:
                    shutil.rmtree(out, ignore_errors=True)
    times["speed-up"] = round(times["1 workers"] / times["2 workers"], 2)
    return times


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kill-worker", action="store_true")
    parser.add_argument("--bench", action="store_true")
    args = parser.parse_args()
    print(json.dumps(bench() if args.bench else check(args.kill_worker)))
