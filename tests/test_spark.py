"""The Spark job (issue 13), in local[2] mode: the command's records, edges
and edge counts, defects as rows, an mbox cut into ranges."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from urisift.cli.command import main

from .conftest import ROOT

pytest.importorskip("pyspark")
if shutil.which("java") is None:
    pytest.skip("Spark needs Java", allow_module_level=True)

from urisift.pipeline import plan
from urisift.pipeline.units import WorkUnit  # noqa: E402
from urisift.spark import driver as spark  # noqa: E402
from urisift.uri.errors import UsageError  # noqa: E402

CORPORA = ROOT / "corpora"
INPUTS = [str(CORPORA / "text"), str(CORPORA / "html"), str(CORPORA / "mail"), str(CORPORA / "warc" / "*.warc*")]


@pytest.fixture(scope="module")
def session():  # type: ignore[no-untyped-def]
    s = spark.session("local[2]")
    yield s
    s.stop()


def _lines(folder: Path) -> list[str]:
    return sorted(line for part in sorted(folder.glob("part-*")) for line in part.read_text("utf-8").splitlines())


def _cli(*argv: str) -> list[str]:
    out = io.StringIO()
    assert main(["--format", "jsonl", "--jobs", "1", *argv], stdout=out, stderr=io.StringIO()) in (0, 1)
    return sorted(out.getvalue().splitlines())


def test_the_jobs_records_are_the_commands(session, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    paths = spark.paths_of(INPUTS)
    assert str(CORPORA / "warc" / "crawl.warc.gz") in paths and not any(p.endswith(".py") for p in paths)
    counts = spark.run(paths, str(tmp_path / "out"), spark=session)
    cli = _cli(*paths)
    records = _lines(tmp_path / "out" / "records")
    defects = _lines(tmp_path / "out" / "defects")
    assert records == [line for line in cli if not line.startswith('{"defect"')]
    assert defects == [line for line in cli if line.startswith('{"defect"')]
    assert counts == {"units": len(spark.plan(paths, spark.ScanOptions())), "defects": 3, "records": len(records)}
    kinds = {json.loads(line)["where"] for line in records}
    assert kinds == {"text", "html", "header"}


def test_parquet_has_the_fixed_schema(session, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    pq = pytest.importorskip("pyarrow.parquet")
    from urisift.output.parquet import schema

    paths = [str(CORPORA / "warc" / "crawl.warc.gz")]
    spark.run(paths, str(tmp_path / "out"), fmt="parquet", spark=session)
    table = pq.read_table(tmp_path / "out" / "records")
    assert table.schema.names == schema().names
    rows = sorted(json.dumps(row, sort_keys=True) for row in table.to_pylist())
    expected = sorted(json.dumps(json.loads(line), sort_keys=True) for line in _cli(*paths)
                      if not line.startswith('{"defect"'))
    assert rows == expected


def test_edges_and_edge_counts_by_hand(session, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    page = b"<a href='/a'>a</a> <a href='/b'>b</a> <a href='http://other.example/x'>x</a> <a href='rel'>r</a>"
    block = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n" + page
    warc = tmp_path / "small.warc"
    warc.write_bytes(b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://site.example/d/\r\n"
                     b"Content-Length: %d\r\n\r\n" % len(block) + block + b"\r\n\r\n")
    spark.run([str(warc)], str(tmp_path / "e"), fmt="edges", spark=session)
    assert _lines(tmp_path / "e" / "edges") == [
        "http://site.example/d/\thttp://other.example/x", "http://site.example/d/\thttp://site.example/a",
        "http://site.example/d/\thttp://site.example/b", "http://site.example/d/\thttp://site.example/d/rel"]
    spark.run([str(warc)], str(tmp_path / "c"), fmt="edge-counts", spark=session)
    rows = sorted((r["source_host"], r["target_host"], r["count"])
                  for r in map(json.loads, _lines(tmp_path / "c" / "edge-counts")))
    assert rows == [("site.example", "other.example", 1), ("site.example", "site.example", 3)]


def test_edges_of_a_mirror_under_base_are_the_commands(session, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    # each file's retrieval URI is --base joined with its path under the directory: the source of its edges
    mirror = tmp_path / "mirror"
    (mirror / "a").mkdir(parents=True)
    (mirror / "a" / "page.html").write_bytes(b'<a href="x.html">x</a>')
    (mirror / "index.html").write_bytes(b'<a href="a/page.html">p</a>')
    spark.run(spark.paths_of([str(mirror)]), str(tmp_path / "e"), fmt="edges", spark=session,
              options=spark.ScanOptions(base="https://site.example/"))
    expected = ["https://site.example/a/page.html\thttps://site.example/a/x.html",
                "https://site.example/index.html\thttps://site.example/a/page.html"]
    assert _lines(tmp_path / "e" / "edges") == expected
    out = io.StringIO()
    assert main(["--format", "edges", "--base", "https://site.example/", str(mirror)], stdout=out) == 0
    assert sorted(out.getvalue().splitlines()) == expected


def test_a_corrupt_input_is_defect_rows_and_the_job_succeeds(session, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "junk.gz").write_bytes(b"\x1f\x8b\x08\x00" + bytes(range(256)) * 4)
    (tmp_path / "ok.txt").write_text("see http://ok.example/\n")
    paths = [str(tmp_path / "junk.gz"), str(tmp_path / "ok.txt"), str(tmp_path / "missing-*.txt"),
             str(tmp_path / "missing.txt")]
    counts = spark.run(spark.paths_of(paths), str(tmp_path / "out"), spark=session)
    defects = [json.loads(line) for line in _lines(tmp_path / "out" / "defects")]
    assert sorted(d["defect"] for d in defects) == ["corrupt-compression", "unreadable", "unreadable"]
    assert [json.loads(line)["target"] for line in _lines(tmp_path / "out" / "records")] == ["http://ok.example/"]
    assert counts["records"] == 1


def test_a_large_mbox_is_cut_into_ranges_and_numbered_as_the_command(session, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    mbox = tmp_path / "big.mbox"
    mbox.write_bytes(b"".join(b"From u%d@example.org Mon Jan  1 00:00:00 2024\nSubject: m%d\n\nsee http://m.example/%d\n\n"
                              % (i, i, i) for i in range(300)))
    monkeypatch.setattr(plan, "MBOX_RANGE_SIZE", 2048)
    units = spark.plan([str(mbox)], spark.ScanOptions())
    assert len(units) > 5 and all(isinstance(u, WorkUnit) and u.start is not None for u in units)
    spark.run([str(mbox)], str(tmp_path / "out"), spark=session)
    assert _lines(tmp_path / "out" / "records") == _cli(str(mbox))
    numbers = sorted(json.loads(line)["message"] for line in _lines(tmp_path / "out" / "records"))
    assert numbers == list(range(300))


def test_without_pyspark_the_message_is_clear(monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    real = builtins.__import__

    def no_pyspark(name: str, *args, **kwargs):  # type: ignore[no-untyped-def]
        if name.startswith("pyspark"):
            raise ImportError("No module named 'pyspark'")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pyspark)
    with pytest.raises(UsageError, match=r"pip install 'urisift\[spark\]'"):
        spark.run(["x"], "out")


def test_an_existing_output_is_a_usage_error_before_the_job_starts(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 20: one line and exit 2, before Spark is started (it used to run
    the whole job, then end in a 96-line trace)."""
    (tmp_path / "out").mkdir()
    (tmp_path / "a.txt").write_text("http://a.example/\n")
    assert spark.main([str(tmp_path / "a.txt"), "--output", str(tmp_path / "out")]) == 2
    assert capsys.readouterr().err == (f"urisift-spark: --output {tmp_path / 'out'} exists; name another, or add "
                                       "--overwrite to replace it\n")


def test_overwrite_replaces_the_output(session, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "out"
    out.mkdir()
    (out / "stale.txt").write_text("from an earlier run\n")
    (tmp_path / "a.txt").write_text("http://a.example/\n")
    assert spark.main([str(tmp_path / "a.txt"), "--output", str(out), "--overwrite"]) == 0
    assert not (out / "stale.txt").exists()
    assert _lines(out / "records") == _cli(str(tmp_path / "a.txt"))


def test_refang_and_wikilinks_are_the_commands(session, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "ioc.txt").write_text("seen: hxxps://login[.]example[.]com/x and evil[.]example[.]org\n")
    (tmp_path / "notes.md").write_text("See [[Other Page#Part|there]] and ![[diagram.png]].\n")
    inputs = [str(tmp_path / "ioc.txt"), str(tmp_path / "notes.md")]
    assert spark.main([*inputs, "--output", str(tmp_path / "out"), "--refang", "--wikilinks"]) == 0
    records = _lines(tmp_path / "out" / "records")
    assert records == _cli(*inputs, "--refang", "--wikilinks")
    assert sorted((json.loads(line)["uri"], json.loads(line)["target"]) for line in records) == [
        ("Other%20Page#Part", None), ("diagram.png", None), ("evil[.]example[.]org", "http://evil.example.org"),
        ("hxxps://login[.]example[.]com/x", "https://login.example.com/x")]


def test_parquet_partitioned_by_a_key_through_sparks_writer(session, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    pq = pytest.importorskip("pyarrow.parquet")
    paths = [str(CORPORA / "warc" / "crawl.warc.gz")]
    spark.run(paths, str(tmp_path / "out"), fmt="parquet", spark=session, partition_by="host")
    folders = sorted(p.name for p in (tmp_path / "out" / "records").iterdir() if p.is_dir())
    cli = [json.loads(line) for line in _cli(*paths) if not line.startswith('{"defect"')]
    hosts = {(urlsplit(r["target"]).hostname or "none") if r["target"] else "none" for r in cli}
    assert folders == sorted(f"target_host={h}" for h in hosts)
    table = pq.read_table(tmp_path / "out" / "records")
    assert table.num_rows == len(cli)


def test_planning_happens_in_tasks_and_gives_the_drivers_plan(session) -> None:  # type: ignore[no-untyped-def]
    paths = spark.paths_of(INPUTS)
    assert spark.plan_in_tasks(session.sparkContext, paths, spark.ScanOptions()) == spark.plan(paths,
                                                                                             spark.ScanOptions())


def test_a_path_missing_on_a_worker_is_a_defect_naming_its_host(session, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    import socket

    missing = str(tmp_path / "not-on-this-worker.warc")
    counts = spark.run(spark.paths_of([missing]), str(tmp_path / "out"), spark=session)
    (line,) = _lines(tmp_path / "out" / "defects")
    assert counts["records"] == 0
    assert json.loads(line)["detail"] == f"No such file or directory (on host {socket.gethostname()})"


# -- issue 38: the inputs read as the command reads them ------------------------------------------------

@pytest.fixture
def served(tmp_path: Path):  # type: ignore[no-untyped-def]
    """A web server on 127.0.0.1 serving ``tmp_path``; its base URL."""
    import functools
    import http.server
    import threading

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class's name
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(tmp_path)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_a_gzip_listing_on_a_web_server_as_the_commands_from_list(session, tmp_path: Path, served: str,  # type: ignore[no-untyped-def]
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("aiohttp")
    import gzip

    for name, text in [("one.txt", "see http://one.example/a\n"), ("two.txt", "and <http://two.example/b>\n")]:
        (tmp_path / name).write_text(text)
    # Common Crawl's form: gzip, a path a line; and a comment and a blank line
    (tmp_path / "warc.paths.gz").write_bytes(gzip.compress(
        f"# two inputs\n{tmp_path / 'one.txt'}\n\n{tmp_path / 'two.txt'}\n".encode()))
    listing = f"{served}/warc.paths.gz"
    assert spark.paths_of([], listing) == [str(tmp_path / "one.txt"), str(tmp_path / "two.txt")]
    assert spark.main(["--from-list", listing, "--output", str(tmp_path / "out")]) == 0
    assert capsys.readouterr().err == '{"units": 2, "defects": 0, "records": 2}\n'
    assert _lines(tmp_path / "out" / "records") == _cli("--from-list", listing)
    assert [json.loads(line)["target"] for line in _lines(tmp_path / "out" / "records")] == [
        "http://one.example/a", "http://two.example/b"]
    # --input-list is the same option (its older name), a local listing the same
    assert spark.main(["--input-list", str(tmp_path / "warc.paths.gz"), "--output", str(tmp_path / "again")]) == 0
    assert _lines(tmp_path / "again" / "records") == _lines(tmp_path / "out" / "records")


@pytest.mark.parametrize(("content", "problem"), [
    (None, "No such file or directory"),
    (b"\x1f\x8b\x08\x00" + bytes(range(64)), "not a gzip stream that can be read: Error -3 while decompressing data: "
                                             "invalid block type"),
])
def test_a_listing_that_cannot_be_read_is_the_commands_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                   content: bytes | None, problem: str) -> None:
    listing = tmp_path / "warc.paths.gz"
    if content is not None:
        listing.write_bytes(content)
    err = io.StringIO()
    assert main(["--from-list", str(listing)], stdout=io.StringIO(), stderr=err) == 2
    assert err.getvalue() == f"urisift: --from-list {listing}: {problem}\n"
    assert spark.main(["--input-list", str(listing), "--output", str(tmp_path / "out")]) == 2
    assert capsys.readouterr().err == f"urisift-spark: --from-list {listing}: {problem}\n"
    assert not (tmp_path / "out").exists()


def test_an_input_that_does_not_exist_exits_as_the_command_does(session, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    import socket

    (tmp_path / "here.txt").write_text("see http://here.example/\n")
    missing = tmp_path / "gone.txt"
    err = io.StringIO()
    assert main([str(tmp_path / "here.txt"), str(missing)], stdout=io.StringIO(), stderr=err) == 1
    assert err.getvalue() == f"urisift: {missing}: cannot read: No such file or directory\n"
    assert spark.main([str(tmp_path / "here.txt"), str(missing), "--output", str(tmp_path / "out")]) == 1
    # the same line, from the host whose task could not read it; the other input is read
    assert capsys.readouterr().err == (f"urisift-spark: {missing}: cannot read: No such file or directory (on host "
                                       f"{socket.gethostname()})\n" '{"units": 2, "defects": 1, "records": 1}\n')
    assert _lines(tmp_path / "out" / "records") == _cli(str(tmp_path / "here.txt"))
