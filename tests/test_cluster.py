"""Issue 22: the Spark job on a real standalone cluster (a master and two
workers as separate processes, from pyspark's own launcher) over a local S3
server's objects.  Opt-in (a minute or two, and JVMs): URISIFT_CLUSTER=1."""

from __future__ import annotations

import importlib.util
import os
import sys

import pytest

from .conftest import ROOT, shared_path

pytestmark = pytest.mark.skipif(os.environ.get("URISIFT_CLUSTER") != "1", reason="opt-in: URISIFT_CLUSTER=1")


def _cluster():  # type: ignore[no-untyped-def]
    for module in ("pyspark", "s3fs", "moto"):
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"{module} is not installed")
    shared_path("corpora", "warc-samples")
    sys.path.insert(0, str(ROOT / "bench"))
    import spark_cluster

    return spark_cluster


def test_the_cluster_gives_the_commands_records() -> None:
    result = _cluster().check(kill_worker=False)
    assert result["same"] is True and result["records"] == result["command"] > 20_000


def test_a_worker_killed_mid_job_still_gives_each_record_once() -> None:
    result = _cluster().check(kill_worker=True)
    assert result["same"] is True and result["records"] == result["command"]
