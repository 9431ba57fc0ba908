"""turns: pool workers write their own output, each unit in its turn (issue 24)."""

from __future__ import annotations

import io
import multiprocessing
import os
import threading
import time
from pathlib import Path
from typing import Any

import pytest

import urisift.pipeline.plan
import urisift.pool.turns
from urisift.cli.command import main
from urisift.pool.turns import Turn, TurnOutput, WriteFailed, writes_to

from .conftest import trip_the_scan_of

pytestmark = pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(),
                                reason="workers write the output only where they are forked")


def _output(tmp_path: Path) -> tuple[Turn, TurnOutput, list[tuple[int, Any]], Any]:
    turn = Turn(multiprocessing.get_context("fork"))
    out = open(tmp_path / "out", "wb")  # noqa: SIM115 - closed by the test
    written: list[tuple[int, Any]] = []
    return turn, TurnOutput(turn, out.fileno(), "utf-8", "strict", lambda i, note: written.append((i, note))), \
        written, out


def test_a_unit_is_written_at_once_in_its_turn_and_kept_before_it(tmp_path: Path) -> None:
    turn, output, written, out = _output(tmp_path)
    output.begin(1)
    output.add("one-a ")
    output.end("note 1")
    output.begin(2)
    output.add("two-a ")
    assert (tmp_path / "out").read_bytes() == b"" and output.waiting and written == []
    os.write(out.fileno(), b"zero ")  # unit 0, written by another
    turn.pass_on(0)
    output.add("two-b ")  # unit 1 has the turn now: written first, then unit 2 (which then has it)
    output.end("note 2")
    out.close()
    assert (tmp_path / "out").read_bytes() == b"zero one-a two-a two-b "
    assert written == [(1, "note 1"), (2, "note 2")] and turn.now == 3 and not output.waiting


def test_what_a_worker_keeps_is_bounded_it_waits_for_its_turn(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(urisift.pool.turns, "KEPT_BYTES", 10)
    turn, output, written, out = _output(tmp_path)
    output.begin(1)
    output.add("12345")  # kept: unit 0 has the turn

    passed = []

    def other() -> None:  # the worker of unit 0 ends it a little later
        time.sleep(0.3)
        os.write(out.fileno(), b"zero ")
        passed.append(time.perf_counter())
        turn.pass_on(0)

    thread = threading.Thread(target=other)
    thread.start()
    output.add("6789012345")  # past the bound: waits for unit 1's turn, then writes
    returned = time.perf_counter()
    thread.join()
    output.end(None)
    out.close()
    assert passed and returned >= passed[0]
    assert (tmp_path / "out").read_bytes() == b"zero 123456789012345" and written == [(1, None)]


def test_a_write_that_fails_is_a_write_failed(tmp_path: Path) -> None:
    read, write = os.pipe()
    os.close(read)  # the reader went away
    output = TurnOutput(Turn(multiprocessing.get_context("fork")), write, "utf-8", "strict", lambda i, n: None)
    output.begin(0)
    with pytest.raises(WriteFailed) as failed:
        output.add("x")
    os.close(write)
    assert isinstance(failed.value.error, BrokenPipeError)


def test_a_stream_without_a_descriptor_has_no_destination() -> None:
    assert writes_to(io.StringIO(), io.StringIO()) is None
    with open(os.devnull, "w", encoding="utf-8") as target:
        destination = writes_to(target, target)
        assert destination is not None and (destination.fd, destination.encoding) == (target.fileno(), "utf-8")


def _inputs(tmp_path: Path) -> list[str]:
    (tmp_path / "a.txt").write_text("see http://a.example/1 and http://a.example/2\n")
    messages = "".join(f"From x@example.com Mon Jan  1 00:00:{i % 60:02d} 2001\nSubject: {i}\n\n"
                       f"message {i}: http://mbox.example/{i}\n\n" for i in range(600))
    (tmp_path / "b.mbox").write_text(messages)  # cut into ranges below: numbered, and written, by the parent
    (tmp_path / "c.html").write_text('<a href="/c">c</a> <img src="http://c.example/i.png">')
    (tmp_path / "d.txt").write_text("".join(f"http://d.example/{i}\n" for i in range(3000)))
    (tmp_path / "boom.txt").write_text("http://boom.example/\n")
    (tmp_path / "tree" / "elsewhere").mkdir(parents=True)
    (tmp_path / "tree" / "e.txt").write_text("http://e.example/\n")
    (tmp_path / "tree" / "link").symlink_to(tmp_path / "tree" / "elsewhere")  # a defect of the plan: the parent's
    return [str(tmp_path / name) for name in ("a.txt", "missing.txt", "b.mbox", "tree", "c.html", "boom.txt",
                                              "d.txt")]


@pytest.mark.parametrize("output_format", ["jsonl", "csv", "text"])
def test_workers_writing_their_own_output_write_what_one_process_writes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, output_format: str) -> None:
    monkeypatch.setattr(urisift.pipeline.plan, "MBOX_RANGE_SIZE", 4096)
    trip_the_scan_of(monkeypatch, "boom.txt")
    inputs = _inputs(tmp_path)
    runs = []
    for jobs in ("1", "2"):
        path = tmp_path / f"out-{jobs}"
        err = io.StringIO()
        with open(path, "w", encoding="utf-8", newline="") as out:  # a real descriptor: the workers write it
            code = main(["--jobs", jobs, "--format", output_format, *inputs], stdout=out, stderr=err)
        runs.append((code, path.read_bytes(), err.getvalue()))
    assert runs[0] == runs[1]
    code, data, errors = runs[0]
    assert code == 1  # the scan that failed
    assert errors.count("\n") == 3 and "missing.txt: cannot read" in errors and "boom.txt: scan-failed" in errors
    assert "link: not-a-file" in errors
    # each record names it once in text, as uri and target in JSON lines and CSV (mail computes no
    # browser_target unless asked: its CSV cell is empty, as JSON lines leave the key out; issue 37)
    per_record = {"text": 1, "jsonl": 2, "csv": 2}[output_format]
    assert data.count(b"http://mbox.example/") == 600 * per_record
    assert data.count(b"http://d.example/") == 3000 * per_record


def test_where_workers_are_spawned_they_send_their_output_back(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    # a spawned worker inherits no descriptor, and nothing of the parent's stream may be sent to it
    monkeypatch.setattr(multiprocessing, "get_all_start_methods", lambda: ["spawn"])
    inputs = [str(tmp_path / "a.txt"), str(tmp_path / "c.html")]
    (tmp_path / "a.txt").write_text("see http://a.example/1 and http://a.example/2\n")
    (tmp_path / "c.html").write_text('<a href="/c">c</a> <img src="http://c.example/i.png">')
    runs = []
    for jobs in ("2", "1"):
        with open(tmp_path / f"out-{jobs}", "w", encoding="utf-8") as out:
            runs.append((main(["--jobs", jobs, "-n", *inputs], stdout=out, stderr=io.StringIO()),
                         (tmp_path / f"out-{jobs}").read_text()))
    assert runs[0] == runs[1] == (0, "http://a.example/1\nhttp://a.example/2\n/c\nhttp://c.example/i.png\n")
