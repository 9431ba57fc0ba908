"""``--jobs N``: units of work scanned by worker processes, the output
written in the order of a serial run, in memory bounded by the number of
workers, whatever the size of the input (ARCHITECTURE.md, Layers).

The pool only maps units and renumbers: it builds no base and reads no
format (:func:`~urisift.pipeline.scan.scan_unit` does, in the worker).

- Units are handed out in input order to whichever worker has room: each
  holds the unit it scans and the next (more while they are small: a few
  small files, up to :data:`HELD_BYTES`), so that it never waits for the
  parent between two units (:mod:`urisift.pipeline.plan` cut large files into ranges).
  A run of small whole inputs goes as one task (:func:`~urisift.pipeline.units.grouped`):
  one message each way and one turn at the output for up to 64 files.
- A worker sends a unit's output back in batches as it goes (its first
  item at once, then :data:`BATCH_RECORDS` records, :data:`BATCH_BYTES`
  characters of output, or what came within :data:`BATCH_SECONDS` of a
  batch's first item, whichever comes first), then the unit's
  :class:`~urisift.model.Tally`.
- The parent writes the batches of the unit at the head of the input order
  as they arrive, and keeps those of later units until their turn: a
  reorder buffer.  Back-pressure bounds it: a worker may have at most
  :data:`CREDIT` batches not yet written; then it waits for the parent to
  write one.  The unit at the head is never kept waiting (its batches are
  written as they come), so the run always moves on; peak memory is about
  ``jobs × CREDIT × batch``.
- With a ``render`` factory, a worker formats the records itself (half the
  work on link-dense input), and with a file descriptor to write to, writes
  them there in its unit's turn (:mod:`urisift.pool.turns`; else it sends the
  :class:`~urisift.model.Rendered` text).  An mbox range comes back as
  records, numbered (:class:`~urisift.pipeline.units.Renumbering`) and written by the parent.
"""

from __future__ import annotations

import contextlib
import gc
import signal
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from typing import IO, TYPE_CHECKING, Any, cast

from ..model import Defect, Record, Rendered, Tally
from ..model.pieces import Pieces
from ..pipeline.scan import ScanOptions, scan_failed, scan_task
from ..pipeline.units import Renumbering, Task, WorkUnit, grouped
from .turns import Destination, Turn, TurnOutput, WriteFailed
from .turns import writes_to as writes_to  # (the CLI's: it asks the pool where its workers may write)

if TYPE_CHECKING:  # multiprocessing is imported by the first pool: a serial run never loads it
    from multiprocessing.connection import Connection

#: a batch is sent when it holds this many records ...
BATCH_RECORDS = 10_000
#: ... or this many characters of rendered output ...
BATCH_BYTES = 1 << 20
#: ... or when its first item has waited this long (the first record of a sparse input comes out soon)
BATCH_SECONDS = 0.25
#: batches a worker may have sent that the parent has not written yet: enough
#: for a worker to scan a whole range ahead of the one being written (a 512 KB
#: range of link-dense text renders to about 8 MB of JSON), few enough to
#: bound the parent's memory (jobs x CREDIT x BATCH_BYTES)
CREDIT = 16

#: units a worker is handed at a time (the one it scans, and the next) ...
HELD_UNITS = 2
#: ... or more, while the units it holds come to less than this many bytes
#: (few: a unit not at the head of the order waits in the reorder buffer,
#: and its worker for credit) ...
HELD_BYTES = 256 << 10
#: ... up to this many
HELD_SMALL = 8

#: how long a worker that holds output waiting for its turn looks at the turn between looks at its pipe (s)
TURN_POLL = 0.001

#: a writer factory a worker renders a batch with: (text buffer) -> an object with record() and defect()
Render = Callable[[IO[str]], Any]
Item = Record | Defect | Rendered | Tally


# -- the worker ----------------------------------------------------------------------------

def _worker(conn: Connection, options: ScanOptions, render: Render | None, inherited: list[Connection],
            turn: Turn | None = None, destination: Destination | None = None) -> None:
    """A worker's loop: units in, batches out, within its credit; it ends
    quietly when the parent is gone (killed, or ended early)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle: one clean exit
    for other in inherited:
        # the parent's ends of the pipes to this worker and to those forked
        # before it: held open here, they would keep a worker from seeing the
        # parent go (and blocked on a full pipe for ever)
        other.close()
    output = None if turn is None or destination is None else TurnOutput(
        turn, destination.fd, destination.encoding, destination.errors, lambda i, note: conn.send(("written", i, note)))
    with contextlib.suppress(EOFError, OSError):
        try:
            _serve(conn, options, render, output)
        except WriteFailed as failed:
            conn.send(("write-failed", -1, failed.error))


def _serve(conn: Connection, options: ScanOptions, render: Render | None, output: TurnOutput | None) -> None:
    owed = 0  # batches sent and not yet written by the parent
    queued: deque[tuple[int, Task]] = deque()  # units handed out ahead, met while waiting for credit

    def serve_turns() -> None:
        # output kept for a unit whose turn may come: written when it does,
        # while nothing comes from the parent (else it would wait on a pipe
        # for a parent that waits for this output)
        while output is not None and output.waiting and not conn.poll(0):
            output.write_due(TURN_POLL)

    def send(message: tuple[Any, ...]) -> None:
        nonlocal owed
        while owed >= CREDIT:
            serve_turns()
            reply = conn.recv()
            if reply is None:
                raise SystemExit(0)
            if reply == "ack":
                owed -= 1
            else:
                queued.append(reply)
        conn.send(message)
        owed += 1

    while True:
        if not queued:
            serve_turns()
        message = queued.popleft() if queued else conn.recv()
        if message is None:
            return
        if message == "ack":
            owed -= 1
            continue
        index, unit = message
        ranged = unit.mbox_range
        if output is not None and not ranged:
            output.begin(index)
        _work(unit, options, render if not ranged else None, partial(_batch, send, index),
              output if not ranged else None)
        conn.send(("done", index, None))


def _batch(send: Callable[[tuple[Any, ...]], None], index: int, batch: Any) -> None:
    send(("batch", index, batch))


def _work(unit: Task, options: ScanOptions, render: Render | None, send: Callable[[Any], None],
          output: TurnOutput | None = None) -> None:
    """Scan ``unit`` (a task), sending its output in batches; the last is its tally
    (a unit that trips the scanner is a scan-failed defect, never a dead worker).
    With ``output``, the rendered batches are written there in the unit's
    turn, and its defects and tally go with the word that it is written."""
    out = Pieces()
    writer = render(cast(IO[str], out)) if render is not None else None
    direct = output if writer is not None else None
    items: list[Record | Defect] = []
    defects: list[Defect] = []
    count = 0
    first = 0.0
    started = False

    def flush() -> None:
        nonlocal items, defects, count
        if direct is not None:
            if count:
                direct.add(out.take())
        elif writer is not None:
            if count:
                send(Rendered(out.take(), tuple(defects)))
                defects = []
        elif items:
            send(items)
            items = []
        count = 0

    def end(tally: Tally) -> None:
        flush()
        if direct is not None:
            direct.end((tuple(defects), tally))
        else:
            send(tally)

    try:
        for item in scan_task(unit, options):
            if type(item) is Tally:
                end(item)
                return
            if not count:
                first = time.monotonic()
            count += 1
            if writer is not None:
                if type(item) is Record:
                    writer.record(item)
                else:
                    writer.defect(item)
                    defects.append(item)  # type: ignore[arg-type]
                # (the size is looked at every 64 records: a record is far below a batch)
                full = not count & 63 and out.holds(BATCH_BYTES)
            else:
                items.append(item)  # type: ignore[arg-type]
                full = False
            # a unit's first item goes at once (the first record of a run on a
            # pipe, however sparse the links), the rest in batches
            if full or count >= BATCH_RECORDS or not started or time.monotonic() - first >= BATCH_SECONDS:
                flush()
                started = True
    except WriteFailed:
        raise  # the output, not the unit: the run ends
    except Exception as exc:  # noqa: BLE001 - one unit that trips the scanner must not cost the run
        # (a group's units are each caught in _scanned: what reaches here
        # from a group tripped the writer, and is told as its first input's)
        failed = scan_failed(unit if isinstance(unit, WorkUnit) else unit.units[0], exc)
        if direct is not None and writer is not None:
            writer.defect(failed)
            defects.append(failed)
            count += 1
        else:
            flush()
            send([failed])
        end(Tally(size=unit.size))


# -- the parent ----------------------------------------------------------------------------

def scan_parallel(units: Iterable[WorkUnit | Defect], options: ScanOptions, jobs: int,
                  render: Render | None = None, destination: Destination | None = None) -> Iterator[Item]:
    """The records and defects of ``units`` (or their rendered batches),
    each unit followed by its tally, scanned by ``jobs`` worker processes,
    in the order and numbering of a serial run (see the module doc).

    With ``render`` and a ``destination``, the workers write their rendered
    output there themselves, in input order (:mod:`urisift.pool.turns`): what
    comes out here is then their defects and tallies, and what the parent
    writes itself (the plan's defects, mbox ranges), which
    ``destination.drain`` pushes through before the next unit's turn."""
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    context: Any = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    fork = context.get_start_method() == "fork"
    # the workers inherit the output's descriptor: only where they are forked
    turn = Turn(context) if render is not None and destination is not None and fork else None
    destination = destination if turn is not None else None  # (not sent to spawned workers: drain is the parent's)
    if destination is not None:
        destination.drain()  # what the parent wrote first (a CSV header) goes first
    # the parent's objects stay where they are in the workers' copies of its
    # memory: a collection there would write to them (and copy their pages)
    gc.freeze()
    workers: list[tuple[Any, Connection]] = []
    completed = False
    try:
        for _ in range(jobs):
            parent, child = context.Pipe()
            inherited = [conn for _, conn in workers] + [parent] if fork else []
            process = context.Process(target=_worker, args=(child, options, render, inherited, turn, destination),
                                      daemon=True)
            process.start()
            child.close()
            workers.append((process, parent))
        yield from _ordered(grouped(units), [conn for _, conn in workers], turn,
                            destination.drain if destination is not None else None)
        completed = True
    finally:
        # done: the workers are idle and told to go; cut short (the reader of
        # `| head` went away, Ctrl-C, an error): they are stopped at once
        for process, conn in workers:
            if completed:
                with contextlib.suppress(OSError):  # (a worker gone after the last unit: nothing is lost)
                    conn.send(None)
            else:
                process.terminate()
        for process, conn in workers:
            process.join()
            conn.close()


def _ordered(units: Iterator[Task | Defect], conns: list[Connection], turn: Turn | None = None,
             drain: Callable[[], None] | None = None) -> Iterator[Item]:
    """Hand out units, take batches back, give them out in input order.
    With a ``turn``, the workers write the output of the units they render
    themselves (``direct``); the parent passes the turn on after the units
    whose output it gives out, once ``drain`` has pushed it through."""
    from multiprocessing.connection import wait

    numbering = Renumbering()
    order: deque[tuple[int, Task | Defect]] = deque()  # the units handed out (or defects), in input order
    kept: dict[int, deque[Any]] = {}  # index -> batches received and not yet given out
    finished: set[int] = set()
    held: dict[Connection, dict[int, int]] = {conn: {} for conn in conns}  # units handed out, not done: their sizes
    owner: dict[int, Connection] = {}
    direct: set[int] = set()  # the units whose workers write their output
    index = 0
    exhausted = False
    head_begun = False

    def hand_out(conn: Connection) -> None:
        # a worker holds the unit it scans and the next ones, up to
        # HELD_UNITS, or more while they are small (HELD_BYTES): it never
        # waits for the parent between two units, and a directory of small
        # pages costs the pool a message a page, not a round trip
        nonlocal index, exhausted
        mine = held[conn]
        while not exhausted and (len(mine) < HELD_UNITS or sum(mine.values()) < HELD_BYTES) \
                and len(mine) < HELD_SMALL:
            unit = next(units, None)
            if unit is None:
                exhausted = True
                return
            order.append((index, unit))
            if isinstance(unit, Defect):
                finished.add(index)
                kept[index] = deque([[unit]])
                index += 1
                continue
            kept[index] = deque()
            if turn is not None and not unit.mbox_range:
                direct.add(index)
            _send(conn, (index, unit))
            mine[index] = unit.size
            owner[index] = conn
            index += 1

    for conn in conns:
        hand_out(conn)
    while order:
        # give out what the head unit has
        at, unit = order[0]
        if isinstance(unit, WorkUnit) and not head_begun:
            numbering.begin(unit)
            head_begun = True
        batches = kept[at]
        while batches:
            batch = batches.popleft()
            if at in owner and at not in direct:  # (a worker writing its own output spends no credit)
                _send(owner[at], "ack")
            if type(batch) is Tally:
                numbering.end(batch)
                yield batch
            elif type(batch) is Rendered:
                yield batch
            else:
                renumber = numbering if isinstance(unit, WorkUnit) and unit.mbox_range else None
                for item in batch:
                    yield renumber(item) if renumber is not None else item
        if at in finished:
            if turn is not None and at not in direct:
                assert drain is not None
                drain()  # what was given out is written through before the next unit's turn
                turn.pass_on(at)
            order.popleft()
            del kept[at]
            owner.pop(at, None)
            head_begun = False
            continue
        # wait for more
        # (with a turn, a worker done scanning may still owe the word that its output is written)
        for ready in wait(conns if turn is not None else [conn for conn, mine in held.items() if mine]):
            conn = cast("Connection", ready)
            try:
                what, unit_index, batch = conn.recv()
            except EOFError as exc:
                raise RuntimeError("a worker process ended unexpectedly") from exc
            if what == "done":
                if unit_index not in direct:
                    finished.add(unit_index)
                del held[conn][unit_index]
                hand_out(conn)
            elif what == "written":  # a unit its worker wrote: its defects and tally
                defects, tally = batch
                if defects:
                    kept[unit_index].append(Rendered("", defects))
                kept[unit_index].append(tally)
                finished.add(unit_index)
            elif what == "write-failed":
                raise batch  # (an OSError: BrokenPipeError when the reader went away)
            else:
                kept[unit_index].append(batch)


def _send(conn: Connection, message: Any) -> None:
    """Send a worker ``message``; when it is gone, raise what it said before it went (a full disk's
    ENOSPC): its pipe's EPIPE is not the output's, which the command takes for ``| head`` gone."""
    try:
        conn.send(message)
    except OSError as exc:
        raise _why_gone(conn) from exc


def _why_gone(conn: Connection) -> BaseException:
    """The error a worker gone sent before it went, else that it ended unexpectedly."""
    with contextlib.suppress(EOFError, OSError):
        while conn.poll():
            what, _, batch = conn.recv()
            if what == "write-failed":
                return cast(BaseException, batch)
    return RuntimeError("a worker process ended unexpectedly")
