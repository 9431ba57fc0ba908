"""``--jobs N``: units of work scanned by worker processes, the output
written in the order of a serial run, in memory bounded by the number of
workers, whatever the size of the input (issue 19; DESIGN §1).

The pool only maps units and renumbers: it builds no base and reads no
format (:func:`~urisift.scan.scan_unit` does, in the worker).

- Units are handed out in input order to whichever worker has room: each
  holds the unit it scans and the next (more while they are small: a few
  small files, up to :data:`HELD_BYTES`), so that it never waits for the
  parent between two units (:mod:`urisift.plan` cut large files into ranges).
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
- With a ``render`` factory, a worker writes the records out itself
  (:class:`~urisift.model.Rendered` text): formatting is half the work on
  link-dense input, and text is cheaper to send than records.  An mbox
  range comes back as records, numbered by the parent
  (:class:`~urisift.units.Renumbering`) once the ranges before it are done.
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

from .model import Defect, Kind, Record, Rendered, Tally
from .pieces import Pieces
from .scan import ScanOptions, scan_failed, scan_unit
from .units import Renumbering, WorkUnit

if TYPE_CHECKING:  # multiprocessing is imported by the first pool: a serial run never loads it
    from multiprocessing.connection import Connection

#: a batch is sent when it holds this many records ...
BATCH_RECORDS = 10_000
#: ... or this many characters of rendered output ...
BATCH_BYTES = 1 << 20
#: ... or when its first item has waited this long (the first record of a sparse input comes out soon)
BATCH_SECONDS = 0.25
#: batches a worker may have sent that the parent has not written yet: enough
#: for a worker to scan a whole range ahead of the one being written (a 2 MB
#: range of link-dense text renders to about 18 MB of JSON), few enough to
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

#: a writer factory a worker renders a batch with: (text buffer) -> an object with record() and defect()
Render = Callable[[IO[str]], Any]
Item = Record | Defect | Rendered | Tally


def _ranged_mbox(unit: WorkUnit) -> bool:
    """Whether the unit's messages are numbered by the parent (an mbox range)."""
    return unit.start is not None and unit.kind is Kind.MBOX


# -- the worker ----------------------------------------------------------------------------

def _worker(conn: Connection, options: ScanOptions, render: Render | None, inherited: list[Connection]) -> None:
    """A worker's loop: units in, batches out, within its credit; it ends
    quietly when the parent is gone (killed, or ended early)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle: one clean exit
    for other in inherited:
        # the parent's ends of the pipes to this worker and to those forked
        # before it: held open here, they would keep a worker from seeing the
        # parent go (and blocked on a full pipe for ever)
        other.close()
    with contextlib.suppress(EOFError, OSError):
        _serve(conn, options, render)


def _serve(conn: Connection, options: ScanOptions, render: Render | None) -> None:
    owed = 0  # batches sent and not yet written by the parent
    queued: deque[tuple[int, WorkUnit]] = deque()  # units handed out ahead, met while waiting for credit

    def send(message: tuple[Any, ...]) -> None:
        nonlocal owed
        while owed >= CREDIT:
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
        message = queued.popleft() if queued else conn.recv()
        if message is None:
            return
        if message == "ack":
            owed -= 1
            continue
        index, unit = message
        _work(unit, options, render if not _ranged_mbox(unit) else None, partial(_batch, send, index))
        conn.send(("done", index, None))


def _batch(send: Callable[[tuple[Any, ...]], None], index: int, batch: Any) -> None:
    send(("batch", index, batch))


def _work(unit: WorkUnit, options: ScanOptions, render: Render | None, send: Callable[[Any], None]) -> None:
    """Scan ``unit``, sending its output in batches; the last is its tally
    (a unit that trips the scanner is a scan-failed defect, never a dead worker)."""
    out = Pieces()
    writer = render(cast(IO[str], out)) if render is not None else None
    items: list[Record | Defect] = []
    defects: list[Defect] = []
    count = 0
    first = 0.0
    started = False

    def flush() -> None:
        nonlocal items, defects, count
        if writer is not None:
            if count:
                send(Rendered(out.take(), tuple(defects)))
                defects = []
        elif items:
            send(items)
            items = []
        count = 0

    try:
        for item in scan_unit(unit, options):
            if type(item) is Tally:
                flush()
                send(item)
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
    except Exception as exc:  # noqa: BLE001 - one unit that trips the scanner must not cost the run
        flush()
        send([scan_failed(unit, exc)])
        send(Tally(size=unit.size))


# -- the parent ----------------------------------------------------------------------------

def scan_parallel(units: Iterable[WorkUnit | Defect], options: ScanOptions, jobs: int,
                  render: Render | None = None) -> Iterator[Item]:
    """The records and defects of ``units`` (or their rendered batches),
    each unit followed by its tally, scanned by ``jobs`` worker processes,
    in the order and numbering of a serial run (see the module doc)."""
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    context: Any = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    # the parent's objects stay where they are in the workers' copies of its
    # memory: a collection there would write to them (and copy their pages)
    gc.freeze()
    workers: list[tuple[Any, Connection]] = []
    completed = False
    try:
        for _ in range(jobs):
            parent, child = context.Pipe()
            inherited = [conn for _, conn in workers] + [parent] if context.get_start_method() == "fork" else []
            process = context.Process(target=_worker, args=(child, options, render, inherited), daemon=True)
            process.start()
            child.close()
            workers.append((process, parent))
        yield from _ordered(iter(units), [conn for _, conn in workers])
        completed = True
    finally:
        # done: the workers are idle and told to go; cut short (the reader of
        # `| head` went away, Ctrl-C, an error): they are stopped at once
        for process, conn in workers:
            if completed:
                conn.send(None)
            else:
                process.terminate()
        for process, conn in workers:
            process.join()
            conn.close()


def _ordered(units: Iterator[WorkUnit | Defect], conns: list[Connection]) -> Iterator[Item]:
    """Hand out units, take batches back, give them out in input order."""
    from multiprocessing.connection import wait

    numbering = Renumbering()
    order: deque[tuple[int, WorkUnit | Defect]] = deque()  # the units handed out (or defects), in input order
    kept: dict[int, deque[Any]] = {}  # index -> batches received and not yet given out
    finished: set[int] = set()
    held: dict[Connection, dict[int, int]] = {conn: {} for conn in conns}  # units handed out, not done: their sizes
    owner: dict[int, Connection] = {}
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
            conn.send((index, unit))
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
            if at in owner:
                owner[at].send("ack")
            if type(batch) is Tally:
                numbering.end(batch)
                yield batch
            elif type(batch) is Rendered:
                yield batch
            else:
                renumber = numbering if isinstance(unit, WorkUnit) and _ranged_mbox(unit) else None
                for item in batch:
                    yield renumber(item) if renumber is not None else item
        if at in finished:
            order.popleft()
            del kept[at]
            owner.pop(at, None)
            head_begun = False
            continue
        # wait for more
        for ready in wait([conn for conn, mine in held.items() if mine]):
            conn = cast("Connection", ready)
            try:
                what, unit_index, batch = conn.recv()
            except EOFError as exc:
                raise RuntimeError("a worker process ended unexpectedly") from exc
            if what == "done":
                finished.add(unit_index)
                del held[conn][unit_index]
                hand_out(conn)
            else:
                kept[unit_index].append(batch)


def scan_serial(units: Iterable[WorkUnit | Defect], options: ScanOptions, *, stdin: Any = None
                ) -> Iterator[Record | Defect | Tally]:
    """What :func:`scan_parallel` gives, in this process (records, never rendered)."""
    numbering = Renumbering()
    for unit in units:
        if isinstance(unit, Defect):
            yield unit
            continue
        numbering.begin(unit)
        renumber = _ranged_mbox(unit)
        for item in scan_unit(unit, options, stdin=stdin):
            if type(item) is Tally:
                numbering.end(item)  # type: ignore[arg-type]
                yield item
            else:
                yield numbering(item) if renumber else item  # type: ignore[arg-type]
