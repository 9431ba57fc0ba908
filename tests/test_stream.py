"""Issue 19: one unit of work, memory bounded by the batches, and the pool's
output that of a serial run, byte for byte."""

from __future__ import annotations

import io
import json
import os
import threading
from pathlib import Path

import pytest

from urisift.cli.command import main
from urisift.model import Defect, Kind, Record, Rendered, Tally
from urisift.output.writers import JsonlWriter, Layout
from urisift.pipeline import plan, scan, units
from urisift.pipeline.units import WorkUnit
from urisift.pipeline.walking import walk
from urisift.pool import parallel
from urisift.stages.options import ScanOptions

from .conftest import shared_path


def _run(args: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(args, stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def _text(lines: int) -> str:
    """Paragraphs of links, some wrapped across lines inside <...>, some
    hyphenated at a line end, with non-ASCII words: what a cut must not break."""
    out = []
    for i in range(lines):
        out.append(f"Zürich café {i} http://h{i % 7}.example/a/{i}?q=é and <http://wrap.example/x/\n  {i}/y>\n")
        if i % 5 == 4:
            out.append(f"see http://hyphen.example/draft-{i}-\n  tail.txt\n\n")  # a paragraph ends
    return "".join(out)


def test_a_large_text_file_is_cut_at_blank_lines_with_the_serial_records(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    big = tmp_path / "big.txt"
    big.write_text(_text(3000), "utf-8")
    monkeypatch.setattr(plan, "TEXT_RANGE_SIZE", 16 << 10)
    units = list(plan.plan(walk([str(big)])))
    assert len(units) > 5 and all(isinstance(u, WorkUnit) and u.kind is Kind.TEXT for u in units)
    data = big.read_bytes()
    for unit in units[1:]:
        assert isinstance(unit, WorkUnit) and unit.start is not None
        assert data[unit.start - 1:unit.start + 1] == b"\n\n" or data[unit.start - 1:unit.start + 2] == b"\n\r\n"
        assert unit.characters == len(data[:unit.start].decode("utf-8"))
        assert unit.lines == data[:unit.start].count(b"\n")
    serial = _run(["--format", "jsonl", "-j1", str(big)])
    pooled = _run(["--format", "jsonl", "-j2", str(big)])
    assert pooled == serial and serial[0] == 0
    records = [json.loads(line) for line in serial[1].splitlines()]
    assert len(records) == 3000 * 2 + 600
    text = data.decode("utf-8")
    for record in records[::97]:  # every span and line is the whole file's
        start, end = record["span"]
        assert text.count("\n", 0, start) + 1 == record["line"]
        assert start - (text.rfind("\n", 0, start) + 1) + 1 == record["column"]
        assert "".join(text[start:end].split()).replace(">", "") .startswith(record["uri"][:10])


def test_bytes_not_in_the_charset_end_the_cutting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    big = tmp_path / "mixed.txt"
    half = _text(800).encode("utf-8")
    big.write_bytes(half + b"caf\xe9 http://latin1.example/\n\n" + half)
    monkeypatch.setattr(plan, "TEXT_RANGE_SIZE", 16 << 10)
    units = [u for u in plan.plan(walk([str(big)])) if isinstance(u, WorkUnit)]
    last = units[-1]
    assert last.end is None and last.start is not None and last.start < len(half) + 30
    serial = _run(["--format", "jsonl", "-j1", str(big)])
    assert _run(["--format", "jsonl", "-j2", str(big)]) == serial
    defects = [json.loads(line) for line in serial[1].splitlines() if '"defect"' in line]
    assert [(d["defect"], d["position"]) for d in defects] == [("undecodable-bytes", len(half) + 3)]


def test_a_text_in_a_charset_with_state_or_a_bom_of_utf16_is_never_cut(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(plan, "TEXT_RANGE_SIZE", 4 << 10)
    wide = tmp_path / "wide.txt"
    wide.write_bytes(_text(300).encode("utf-16"))
    assert list(plan.plan(walk([str(wide)]))) == [WorkUnit(walk([str(wide)]).__next__())]  # type: ignore[arg-type]


def _sources(tmp_path: Path, count: int) -> list[str]:
    paths = []
    for i in range(count):
        p = tmp_path / f"f{i:03}.txt"
        p.write_text("".join(f"http://f{i}.example/{j}\n" for j in range(i * 7 % 50)))
        paths.append(str(p))
    return paths


@pytest.mark.parametrize("render", [False, True])
def test_the_pool_keeps_input_order_with_tiny_batches_and_little_credit(tmp_path: Path, render: bool,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Batches of 3 records and a credit of 1: every unit's output waits in
    the reorder buffer or at a worker, and still comes out in input order."""
    monkeypatch.setattr(parallel, "BATCH_RECORDS", 3)
    monkeypatch.setattr(parallel, "CREDIT", 1)
    monkeypatch.setattr(units, "GROUP_INPUTS", 1)  # a task a file: 40 units to keep in order
    paths = _sources(tmp_path, 40)
    options = ScanOptions()
    layout = Layout("jsonl")
    serial = list(scan.scan_serial(plan.plan(walk(paths)), options))
    pooled = list(parallel.scan_parallel(plan.plan(walk(paths)), options, 3,
                                         (lambda out: JsonlWriter(out, layout)) if render else None))
    assert sum(isinstance(i, Tally) for i in pooled) == 40
    if render:
        out = io.StringIO()
        writer = JsonlWriter(out, layout)
        for item in serial:
            if isinstance(item, Record):
                writer.record(item)
        assert "".join(i.text for i in pooled if isinstance(i, Rendered)) == out.getvalue()
    else:
        assert [i for i in pooled if not isinstance(i, Tally)] == [i for i in serial if not isinstance(i, Tally)]


@pytest.mark.parametrize("inputs_a_task", [1, 64])
def test_a_worker_that_raises_is_a_defect_and_the_run_goes_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               inputs_a_task: int) -> None:
    """Alone or in a group of small inputs, the file the scanner trips on is
    a defect, and every other file's records come out as a serial run's."""
    monkeypatch.setattr(units, "GROUP_INPUTS", inputs_a_task)
    paths = _sources(tmp_path, 4)
    real = scan.scan_unit

    def tripping(unit, options, **kw):  # type: ignore[no-untyped-def]
        if unit.source.path.endswith("f002.txt"):
            raise MemoryError("pretend")
        return real(unit, options, **kw)

    expected = [i for i in scan.scan_serial(plan.plan(walk(paths)), ScanOptions()) if type(i) is Record]
    monkeypatch.setattr(scan, "scan_unit", tripping)
    items = [i for i in parallel.scan_parallel(plan.plan(walk(paths)), ScanOptions(), 2) if not isinstance(i, Tally)]
    defects = [i for i in items if isinstance(i, Defect)]
    assert [(d.kind.value, d.file) for d in defects] == [("scan-failed", paths[2])]
    assert [i for i in items if isinstance(i, Record)] == [r for r in expected if r.origin.file != paths[2]]
    assert items.index(defects[0]) == sum(1 for r in expected if r.origin.file in paths[:2])  # in its place


def test_small_inputs_go_to_the_workers_in_groups_with_the_output_of_a_serial_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """300 small files, a larger one among them and a missing one: tasks of
    at most 64 small inputs each (one tally each, their sum the serial
    run's), the records and defects (the missing file's, from inside a
    group) those of a serial run, in its order."""
    paths = _sources(tmp_path, 300)
    big = tmp_path / "f150.txt"
    big.write_text("".join(f"http://big.example/{j}\n" for j in range(8000)))  # 190 KB: a task of its own
    paths.insert(200, str(tmp_path / "missing.txt"))
    serial = list(scan.scan_serial(plan.plan(walk(paths)), ScanOptions()))
    tasks = list(units.grouped(plan.plan(walk(paths))))
    assert [len(t.units) if isinstance(t, units.UnitGroup) else type(t).__name__ for t in tasks] == \
        [64, 64, 22, "WorkUnit", 64, 64, 22]
    pooled = list(parallel.scan_parallel(plan.plan(walk(paths)), ScanOptions(), 2))
    assert [i for i in pooled if type(i) is not Tally] == [i for i in serial if type(i) is not Tally]
    total, whole = Tally(), Tally()
    for tally in (i for i in pooled if type(i) is Tally):
        total.add(tally)
    for tally in (i for i in serial if type(i) is Tally):
        whole.add(tally)
    assert sum(type(i) is Tally for i in pooled) == 7 and total == whole and total.inputs == 301
    assert [d.file for d in pooled if type(d) is Defect] == [paths[200]]


def test_stats_on_a_fifo_ends_and_counts_what_the_scan_saw(tmp_path: Path) -> None:
    fifo = tmp_path / "in.fifo"
    os.mkfifo(fifo)
    mbox = (b"From a@example.org Mon Jan  1 00:00:00 2024\nSubject: one\n\nhttp://one.example/\n\n"
            b"From b@example.org Mon Jan  1 00:00:00 2024\nSubject: two\n\nno link\n")

    def feed() -> None:
        with open(fifo, "wb") as f:
            f.write(mbox)

    writer = threading.Thread(target=feed)
    writer.start()
    code, out, err = _run(["--stats", "--format", "jsonl", "--kind", "mbox", str(fifo)])
    writer.join()
    stats = json.loads(err.splitlines()[-1])["stats"]
    assert code == 0 and len(out.splitlines()) == 1
    assert {k: stats[k] for k in ("inputs", "bytes", "bytes_decompressed", "messages", "parts", "records")} == {
        "inputs": 1, "bytes": len(mbox), "bytes_decompressed": len(mbox), "messages": 2, "parts": 2, "records": 1}


def test_stats_count_every_warc_and_arc_record_by_type_and_compressed_bytes(tmp_path: Path) -> None:
    import gzip

    arc = shared_path("corpora", "warc-samples", "warcio-test-data", "example.arc")
    arc_gz = shared_path("corpora", "warc-samples", "warcio-test-data", "example.arc.gz")
    gz = tmp_path / "notes.txt.gz"
    gz.write_bytes(gzip.compress(b"http://c.example/\n" * 1000))
    code, _, err = _run(["--stats", "--format", "jsonl", "-j1", str(arc), str(arc_gz), str(gz)])
    stats = json.loads(err.splitlines()[-1])["stats"]
    assert code == 0
    assert stats["warc_record_types"] == {"warcinfo": 2, "response": 2} and stats["warc_records"] == 4
    assert stats["records"] == 1002 and stats["inputs"] == 3
    assert stats["bytes"] == arc.stat().st_size + arc_gz.stat().st_size + gz.stat().st_size
    # an ARC or WARC file is read record by record (member by member when compressed): its reader
    # counts the bytes it inflates (issue 37: this was null)
    assert stats["bytes_decompressed"] == arc.stat().st_size + len(gzip.decompress(arc_gz.read_bytes())) + 18_000
    code, _, err = _run(["--stats", "--format", "jsonl", str(gz)])
    stats = json.loads(err.splitlines()[-1])["stats"]
    assert (stats["bytes"], stats["bytes_decompressed"]) == (gz.stat().st_size, 18_000)


def test_a_text_without_blank_lines_is_cut_at_safe_line_starts(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """One link a line and no blank line (a log, a link list): cut at line
    starts, never after a line ending in "-" or "//" nor inside an open "<"."""
    lines = []
    for i in range(4000):
        if i % 50 == 10:
            lines.append(f"wrapped <http://open.example/{i}/\n   rest/{i}> and http://dash.example/{i}-\n  more\n")
        else:
            lines.append(f"log line {i}: fetched http://h{i % 13}.example/p/{i}\n")
    big = tmp_path / "log.txt"
    big.write_text("".join(lines), "utf-8")
    monkeypatch.setattr(plan, "TEXT_RANGE_SIZE", 8 << 10)
    units = [u for u in plan.plan(walk([str(big)])) if isinstance(u, WorkUnit)]
    assert len(units) > 10
    data = big.read_bytes()
    for unit in units[1:]:
        assert unit.start is not None and data[unit.start - 1:unit.start] == b"\n"
        before = data[:unit.start]
        assert before.rfind(b"<") < before.rfind(b">") and not before.rstrip(b"\n").endswith((b"-", b"//"))
    serial = _run(["--format", "jsonl", "-j1", str(big)])
    assert _run(["--format", "jsonl", "-j2", str(big)]) == serial
    uris = [json.loads(line)["uri"] for line in serial[1].splitlines()]
    assert "http://open.example/10/rest/10" in uris and "http://dash.example/10-more" in uris
    assert len(uris) == 4000 + 80


def test_mbox_ranges_are_numbered_on_in_the_pool_as_in_a_serial_run(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Messages streamed through the renumbering one by one (their origins
    freed as they go: an id() seen before may come back for another one)."""
    mbox = tmp_path / "big.mbox"
    mbox.write_bytes(b"".join(b"From u%d@example.org Mon Jan  1 00:00:00 2024\nSubject: m%d\n\nsee http://m.example/%d "
                              b"and http://n.example/%d\n\n" % (i, i, i, i) for i in range(600)))
    monkeypatch.setattr(plan, "MBOX_RANGE_SIZE", 2048)
    assert len(list(plan.plan(walk([str(mbox)])))) > 20
    serial = _run(["--format", "jsonl", "-j1", str(mbox)])
    assert _run(["--format", "jsonl", "-j2", str(mbox)]) == serial
    records = [json.loads(line) for line in serial[1].splitlines()]
    assert [(r["message"], r["uri"]) for r in records] == [
        (i, f"http://{host}.example/{i}") for i in range(600) for host in ("m", "n")]


def test_symbolic_links_to_directories_are_said_and_followed_once_with_follow(tmp_path: Path) -> None:
    """Issue 20: a linked directory was skipped without a word; --follow
    walks it (as find -L), each directory once, a loop stopped."""
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "a.txt").write_text("http://a.example/\n")
    (tmp_path / "top.txt").write_text("http://top.example/\n")
    (tmp_path / "real" / "up").symlink_to(tmp_path)  # a loop
    (tmp_path / "zlink").symlink_to(tmp_path / "real")  # a second way to real/
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "b.txt").write_text("http://b.example/\n")
    (tmp_path / "alias").symlink_to(tmp_path / "elsewhere")
    code, out, err = _run(["-n", str(tmp_path)])
    assert (code, out) == (0, "http://top.example/\nhttp://b.example/\nhttp://a.example/\n")
    said = "not-a-file: a symbolic link to a directory; not walked (--follow walks it)"
    assert err == (f"urisift: {tmp_path / 'alias'}: {said}\nurisift: {tmp_path / 'zlink'}: {said}\n"
                   f"urisift: {tmp_path / 'real' / 'up'}: {said}\n")
    code, out, err = _run(["--follow", "-H", str(tmp_path)])
    assert (code, out) == (0, f"{tmp_path / 'top.txt'}:1:1:http://top.example/\n"
                              f"{tmp_path / 'alias' / 'b.txt'}:1:1:http://b.example/\n"
                              f"{tmp_path / 'real' / 'a.txt'}:1:1:http://a.example/\n")
    again = "walked already (a loop, or a second way to it); not walked again"
    assert err == (f"urisift: {tmp_path / 'elsewhere'}: not-a-file: a directory {again}\n"
                   f"urisift: {tmp_path / 'zlink'}: not-a-file: a symbolic link to a directory {again}\n"
                   f"urisift: {tmp_path / 'real' / 'up'}: not-a-file: a symbolic link to a directory {again}\n")


def test_pieces_cut_inside_long_lines_keep_the_whole_texts_positions() -> None:
    """Lines longer than a chunk are cut at white space: the columns of the
    next piece go on from the cut (found by the fuzz helper)."""
    import random

    from urisift import scan_stream, scan_text

    rng = random.Random(1)
    text = "".join("w" * rng.randint(0, 900) + f" http://h{i}.example/p " + ("\n" if rng.random() < 0.3 else "")
                   for i in range(3000))
    whole = [(r.uri, r.span, r.line, r.column) for r in scan_text(text) if isinstance(r, Record)]
    assert len(whole) == 3000
    for chunk_size in (512, 4096):
        pieces = scan_stream(io.BytesIO(text.encode()), chunk_size=chunk_size)
        assert [(r.uri, r.span, r.line, r.column) for r in pieces if isinstance(r, Record)] == whole


def test_standard_input_may_be_a_raw_pipe_without_read1() -> None:
    """Its bytes are counted for --stats through a wrapper that reads a pipe
    as it comes, whether the stream is buffered (read1) or raw (read)."""
    r, w = os.pipe()
    os.write(w, b"see http://a.example/\n")
    os.close(w)
    out, err = io.StringIO(), io.StringIO()
    with open(r, "rb", buffering=0) as raw:
        assert main(["-n", "--stats", "--format", "jsonl", "-"], stdin=raw, stdout=out, stderr=err) == 0
    assert json.loads(out.getvalue())["uri"] == "http://a.example/"
    assert json.loads(err.getvalue().splitlines()[-1])["stats"]["bytes"] == 22


def test_a_group_holds_whole_small_inputs_up_to_its_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A run is cut before the input that would take it past GROUP_BYTES; an
    input of GROUP_BYTES or more, standard input, a range and a defect of
    the plan each stand alone, and a run of one stays a unit."""
    from urisift.model import DefectKind, Origin
    from urisift.pipeline.sources import Input

    monkeypatch.setattr(units, "GROUP_BYTES", 100)
    whole = []
    for i, size in enumerate((40, 40, 40, 10, 100, 30, 20)):
        (tmp_path / f"{i}.txt").write_bytes(b"x" * size)
        whole.append(WorkUnit(Input(str(tmp_path / f"{i}.txt"))))
    stdin, ranged = WorkUnit(Input("-")), WorkUnit(Input(str(tmp_path / "0.txt")), 0, 20, Kind.MBOX)
    defect = Defect(DefectKind.UNREADABLE, "a symlinked directory", Origin(file="d"))
    tasks = list(units.grouped([*whole[:6], stdin, whole[6], ranged, whole[0], defect, whole[1], whole[3]]))
    assert tasks == [units.UnitGroup((whole[0], whole[1]), 80), units.UnitGroup((whole[2], whole[3]), 50), whole[4],
                     whole[5], stdin, whole[6], ranged, whole[0], defect, units.UnitGroup((whole[1], whole[3]), 50)]


def test_a_worker_gone_after_a_failed_write_is_its_error_not_a_closed_pipe(tmp_path: Path) -> None:
    """A worker whose write failed says why and ends; the parent, handing
    it its next unit, meets EPIPE on that worker's pipe.  That is the
    worker's ENOSPC, never the `| head` the command ends quietly for
    (which made a full disk under --jobs 2 exit 0, now and then, with
    nothing said)."""
    import errno
    import multiprocessing

    from urisift.pipeline.sources import Input

    parent_end, worker_end = multiprocessing.Pipe()
    worker_end.send(("write-failed", -1, OSError(errno.ENOSPC, "No space left on device")))
    worker_end.close()
    units_ = iter([WorkUnit(Input(str(tmp_path / f"{i}.txt"))) for i in range(3)])
    with pytest.raises(OSError) as raised:
        list(parallel._ordered(units_, [parent_end]))
    assert type(raised.value) is OSError and raised.value.errno == errno.ENOSPC
    gone, silent = multiprocessing.Pipe()
    silent.close()  # a worker that ended and said nothing
    with pytest.raises(RuntimeError, match="a worker process ended unexpectedly"):
        list(parallel._ordered(iter([WorkUnit(Input(str(tmp_path / "0.txt")))]), [gone]))


def test_a_small_document_is_read_whole_and_a_longer_one_streams_on_from_its_first_byte() -> None:
    """sources.read_small: bytes up to the bound (the smaller of SMALL_DOCUMENT and
    the budget's bytes held whole), past it a stream that gives every byte, in order."""
    from urisift.pipeline.sources import SMALL_DOCUMENT, read_small

    assert read_small(io.BytesIO(b"# T\n\n[a](b.md)\n"), 1 << 20) == b"# T\n\n[a](b.md)\n"
    assert read_small(io.BytesIO(b"x" * 10), 10) == b"x" * 10
    longer = read_small(io.BytesIO(b"0123456789abc"), 10)
    assert not isinstance(longer, bytes) and longer.read() == b"0123456789abc"
    big = b"y" * (SMALL_DOCUMENT + 5)
    streamed = read_small(io.BytesIO(big), 1 << 30)
    assert not isinstance(streamed, bytes) and streamed.read() == big
