"""The command's write loop: records and defects, as they stream
in from a serial or parallel scan (or batches a worker already wrote out),
through ``--scheme``, ``--normalize`` and ``--unique`` to the writer;
defects to standard error; each unit's tally to ``--stats`` and the
progress bar; and the write errors that end a run."""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from time import monotonic
from typing import IO, Any

from ..model import Defect, DefectKind, Record, Rendered, Tally
from ..model.pieces import Pieces
from ..uri.errors import ExitCode, OutputError
from ..uri.normalization import normalize
from .choice import chosen_target
from .stats import Stats
from .writers import CONTROLS, Writer


class Select:
    """--region, --scheme, --normalize and --unique, applied to records as they
    stream by, on the URL --resolve picks (:func:`~.choice.chosen_target`)."""

    def __init__(self, schemes: frozenset[str] | None, level: str, unique: bool, resolution: str = "rfc",
                 unwrap: bool = False, effective: bool = False, regions: frozenset[str] | None = None) -> None:
        self.schemes = schemes
        self.regions = regions
        self.effective = effective
        self.resolution = resolution
        self.unwrap = unwrap
        self.level = level
        self.unique = unique
        self.seen: set[str] = set()
        self.passthrough = schemes is None and level == "none" and not unique and regions is None

    def __call__(self, record: Record) -> tuple[bool, str | None]:
        """Whether to keep the record, and its normalized target (or None)."""
        if self.regions is not None and record.found.place.region not in self.regions:
            return False, None  # (before --unique: a target seen first in the menu still counts in the article)
        target = chosen_target(record, self.resolution, self.unwrap, self.effective)
        if self.schemes is not None:
            scheme = target.partition(":")[0].lower() if target and ":" in target else None
            if scheme not in self.schemes:
                return False, None
        normalized = None
        if target is not None and (self.level != "none" or self.unique):
            normalized = normalize(target, level=self.level if self.level != "none" else "syntax")  # type: ignore[arg-type]
        if self.unique:
            key = normalized if normalized is not None else record.uri
            if self.resolution == "both":  # distinct pairs: the same RFC target may be two browser URLs
                browser = record.browser_target
                key += "\t" + (normalize(browser) if isinstance(browser, str) else "")
            if key in self.seen:
                return False, normalized
            self.seen.add(key)
        return True, normalized if self.level != "none" else None


class Batched(Pieces):
    """A text stream's writes gathered and written a batch at a time (the
    command's output when nobody waits for each line: a pipe, a file): one
    write call a few hundred records, not one a record.  :func:`write_all`
    drains it every :data:`BATCH` records."""

    __slots__ = ("target",)

    def __init__(self, target: IO[str]) -> None:
        super().__init__()
        self.target = target

    def drain(self) -> None:
        if self.parts:
            self.target.write(self.take())

    def flush(self) -> None:
        self.drain()
        self.target.flush()


#: records written to a :class:`Batched` stream between two writes to its target,
#: or fewer when the first of them has waited this long
BATCH = 512
BATCH_SECONDS = 0.05


class Reporter:
    """The defects on standard error, as ``--defects`` asks: a
    line each (``lines``), or their counts in one line at the end
    (``count``), or nothing (``none``); an input that cannot be read at all
    (``unreadable``, ``scan-failed``: exit status 1) or that needs an extra
    that is not installed (``missing-extra``: exit status 2, as a missing
    extra the options need) is said in every mode.
    ``write`` writes a line (through the progress bar, on a terminal, so
    that the two never cut each other); :meth:`close` writes the counts."""

    def __init__(self, err: IO[str], mode: str = "lines", write: Callable[[str], None] | None = None, *,
                 prog: str = "urisift") -> None:
        self.err = err
        self.mode = mode
        self.prog = prog
        self.write = write if write is not None else err.write
        self.counts: Counter[str] = Counter()

    def __call__(self, defect: Defect) -> int:
        """Say ``defect`` (or count it); the exit status it calls for."""
        failed = defect.kind in (DefectKind.UNREADABLE, DefectKind.SCAN_FAILED)
        missing = defect.kind is DefectKind.MISSING_EXTRA
        if self.mode == "lines" or failed or missing:
            self.write(line_of(defect, self.prog))
        else:
            self.counts[defect.kind.value] += 1
        return ExitCode.USAGE if missing else ExitCode.INPUT if failed else ExitCode.OK

    def close(self) -> None:
        if self.mode == "count" and self.counts:
            total = sum(self.counts.values())
            each = ", ".join(f"{kind} {n}" for kind, n in self.counts.most_common())
            self.err.write(f"urisift: {total} defect{'s' if total != 1 else ''} in the inputs: {each} "
                           "(--defects lines shows each)\n")


def write_all(items: Iterable[Record | Defect | Rendered | Tally], writer: Writer, select: Select, err: IO[str], *,
              stats: Stats | None = None, flush: bool = False, progress: Any = None,
              reporter: Reporter | None = None, kinds: set[str] | None = None) -> int:
    """Write the items; the exit status they call for (1 if an input could
    not be read).  ``flush``: after every record (a live input, a terminal);
    ``reporter`` says the defects (default: a line each on ``err``);
    ``kinds`` gathers the kinds of content the units read."""
    report = reporter if reporter is not None else Reporter(err)
    status: int = ExitCode.OK
    record = writer.record
    out = writer.out
    fast = select.passthrough and stats is None and not flush
    batched: Batched | None = out if isinstance(out, Batched) else None
    count = 0
    first = 0.0
    started = False
    with writing():
        try:
            for item in items:
                kind = type(item)
                if kind is Record:
                    assert isinstance(item, Record)
                    if fast:
                        record(item)
                    else:
                        keep, normalized = select(item)
                        if not keep:
                            continue
                        record(item, normalized)
                        if stats is not None:
                            stats.record(item)
                        if flush:
                            out.flush()
                    if batched is not None:
                        if not count:
                            first = monotonic()
                        count += 1
                        # (the run's first record, and a sparse input's, do not wait for a full batch)
                        if count >= BATCH or not started or monotonic() - first >= BATCH_SECONDS:
                            batched.drain()
                            count = 0
                            started = True
                    continue
                if kind is Rendered:
                    assert isinstance(item, Rendered)
                    if batched is not None:  # a worker's batch goes straight on, after what waits
                        batched.drain()
                        batched.target.write(item.text)
                    else:
                        out.write(item.text)
                    for defect in item.defects:
                        status = max(status, report(defect))
                        if stats is not None:
                            stats.defect(defect)
                    continue
                if kind is Tally:
                    assert isinstance(item, Tally)
                    if stats is not None:
                        stats.tally(item)
                    if kinds is not None:
                        kinds |= item.kinds
                    if progress is not None:
                        progress(item.size)
                    continue
                assert isinstance(item, Defect)
                status = max(status, report(item))
                if stats is not None:
                    stats.defect(item)
                writer.defect(item)
        finally:
            if batched is not None:  # what the run wrote before it ended (an error, the last record)
                batched.drain()
    return status


def line_of(defect: Defect, prog: str = "urisift") -> str:
    """A defect's line on standard error, said by ``prog``: one line, whatever the
    name or the detail holds (a control character as ``\\xNN``, as text output's
    ``-H`` writes a file name)."""
    if defect.kind is DefectKind.UNREADABLE:
        return f"{prog}: {defect.file}: cannot read: {defect.detail}".translate(CONTROLS) + "\n"
    return f"{prog}: {defect}".translate(CONTROLS) + "\n"


def report(defect: Defect, err: IO[str], prog: str = "urisift") -> int:
    """A defect on standard error, a line; the exit status it calls for.
    ``prog``: the program that says it (the Spark job says it as the command does)."""
    return Reporter(err, prog=prog)(defect)


@contextlib.contextmanager
def writing() -> Iterator[None]:
    """A write error (a full disk) ends the run as an OutputError, never blamed
    on an input; a closed pipe (`| head`) is left to run(), which ends quietly."""
    try:
        yield
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise OutputError(f"urisift: cannot write the output: {exc.strerror or exc}") from exc
