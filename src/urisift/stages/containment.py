"""The guarantees at the nesting boundary (ARCHITECTURE.md, The nesting boundary): wherever one
content holds another (a message's part, a WARC record's payload, a
package's member, a PDF's page or object, a feed's HTML, an iframe's
srcdoc), the inner reading

- **fails there and only there**: :func:`contained` turns an exception out
  of the inner reader into one ``scan-failed`` defect naming what was being
  read, and the outer reading goes on with what comes after it;
- **spends a budget the pipeline gives it**: a :class:`Budget` per document
  (time, and bytes inflated out of its compressed parts), made from the
  run's :class:`Limits` by the scan when it routes the content, never by
  the reader, so that a reader added later is bounded without a line of
  its own.  A reader asks :meth:`Budget.expired` between the steps it can
  stop at (a page, a member, a thousand elements) and :meth:`Budget.inflate`
  before it inflates; what was left unread is a ``bomb`` defect that says so.
- **is metered by the pipeline, whatever the reader**: the scan feeds a
  reader its byte stream through :class:`Metered`, which asks the budget
  as the bytes go by (its time; and, for bytes inflated as they are read,
  a compressed input or a payload's content coding, RFC 9110 §8.4, the
  inflate budget; for a reader that holds its document whole, the bytes
  it may hold) and ends the stream where it is spent; and the scan asks
  the time again every :data:`EVERY` items the reader yields, so that a
  reader that holds its document whole (a page, a style sheet) is stopped
  too.  A reader added later asks nothing and is bounded all the same.

The time budget is a safety net for what no bound on sizes foresees: the
readers' own bounds (pages, members, text a page, depth) stop the shapes
known to amplify long before it, so that a scan's output does not depend
on how busy the machine is.
"""

from __future__ import annotations

import io
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import BinaryIO, TypeVar

from ..model import Defect, DefectKind, Origin, Unit
from ..uri.errors import RunError
from .streams import replayed_file

T = TypeVar("T")

#: a document's time, by default: minutes of work no real document needs
DOCUMENT_SECONDS = 60.0
#: the bytes a document may inflate out of its compressed parts, by default
DOCUMENT_INFLATED = 512 << 20
#: the bytes of a document a reader holds whole (a page, a style sheet, a
#: message, a PDF): three to four times as much memory once decoded and
#: parsed, so that at this bound a document stays within 300 MB
DOCUMENT_WHOLE = 64 << 20


@dataclass(frozen=True, slots=True)
class Limits:
    """What any one document may cost (``--time-budget``, ``--inflate-budget``):
    picklable, part of the scan's options."""

    seconds: float = DOCUMENT_SECONDS
    inflated: int = DOCUMENT_INFLATED
    whole: int = DOCUMENT_WHOLE

    def budget(self) -> Budget:
        """A fresh account for one document, its clock started now."""
        return Budget(self)


class Budget:
    """One document's account against its :class:`Limits`: the time left
    and the bytes it may still inflate.  Shared by the readings nested in
    the document (a feed and its entries' HTML, a page and its srcdoc), so
    that nesting cannot multiply it."""

    __slots__ = ("limits", "deadline", "inflatable", "told")

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.deadline = time.monotonic() + limits.seconds
        self.inflatable = limits.inflated
        self.told = False  # whether the document's time-out was said (once a document: over_time)

    def renew(self) -> None:
        """A new document begins on the same account (a dump's next page, whose
        stream is the same): its clock starts now, its inflate budget whole."""
        self.deadline = time.monotonic() + self.limits.seconds
        self.inflatable = self.limits.inflated
        self.told = False  # (its time-out not said yet: the new document's own)

    def expired(self) -> bool:
        """Whether the document's time is up."""
        return time.monotonic() > self.deadline

    def inflate(self, size: int) -> bool:
        """Take ``size`` bytes of inflation from the account: False (and
        nothing taken) when fewer are left."""
        if size > self.inflatable:
            return False
        self.inflatable -= size
        return True

    def take(self, size: int) -> int:
        """Take up to ``size`` bytes of inflation from the account: how many
        were taken (fewer than ``size`` once it is spent)."""
        taken = min(size, self.inflatable)
        self.inflatable -= taken
        return taken

    def over_time(self, what: str, origin: Origin) -> tuple[Defect, ...]:
        """The defect of a document whose time ran out before ``what`` was
        read, or none when it was said already: one document, one ``bomb``
        defect, whichever of its readings met the end first (the bytes of a
        message, the text of its part: each stops, and the first to see the
        time up says so).  A tuple, for ``yield from``."""
        if self.told:
            return ()
        self.told = True
        return (Defect(DefectKind.BOMB, f"the document's time budget ({self.limits.seconds:g} s, --time-budget) "
                       f"ran out: {what} not read", origin, None),)

    def over_inflation(self, what: str, size: int, origin: Origin) -> Defect:
        """The defect of ``what`` (which would inflate ``size`` bytes) not read."""
        return Defect(DefectKind.BOMB, f"{what} would inflate {size} bytes, past what is left of the document's "
                      f"inflate budget ({self.inflatable} of {self.limits.inflated}, --inflate-budget): not read",
                      origin, None)


#: the items a reader yields between two looks at the clock (one look is
#: tens of nanoseconds, an item microseconds: the cost is lost in the noise)
EVERY = 256
#: the bytes a :class:`Metered` stream hands on between two looks at the clock
_METER_STEP = 1 << 18


class Metered(io.RawIOBase):
    """The byte stream a reader is fed, metered against its document's
    :class:`Budget`: it ends, as a stream ends, once the document's time is
    up or (``inflated``: its bytes are inflated out of compressed ones as
    they are read) once the bytes it gave spend the inflate budget; what
    was left unread is then :attr:`defect`, for the scan to yield after the
    reader's records.  The reader sees a shorter stream and reads on, so
    what it found before the end is kept."""

    def __init__(self, inner: BinaryIO, budget: Budget, origin: Origin, inflated: bool,
                 whole: int | None = None) -> None:
        self.inner = inner  # closed by whoever opened it, not here
        self.budget = budget
        self.origin = origin
        self.inflated = inflated
        self.whole = whole  # the most bytes handed on: the reader holds them all at once
        self.done = inner.tell() if self.seekable() else 0  # where in the stream its next byte is
        self._read = getattr(inner, "read1", inner.read)  # what has arrived: a live stream's lines are not held
        self.defect: Defect | None = None
        self.timed_out = False  # ``defect`` says the time ran out (not that a bound on bytes was met)
        # ``done`` at which the clock is next looked at: a document's first bytes are always
        # read, and a reader that asks the budget itself says more precisely what it left
        self._next_look = self.done + _METER_STEP

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        # a reader that seeks (a ZIP package's directory is at its end) seeks in the file itself
        return not self.inflated and self.inner.seekable()

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        if not self.seekable():
            raise io.UnsupportedOperation("seek")
        self.done = self.inner.seek(offset, whence)
        return self.done

    def tell(self) -> int:
        return self.done

    def rewound(self) -> BinaryIO | None:
        """The file this meter's stream replays, rewound (:func:`~urisift.stages.streams.replayed_file`),
        when it shows a file whole: never inflated bytes, which the meter counts as they are read."""
        return None if self.inflated else replayed_file(self.inner)

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        if self.defect is not None or self.timed_out:
            return 0
        if self.done >= self._next_look:
            self._next_look = self.done + _METER_STEP
            if self.budget.expired():
                self.timed_out = True
                # (None when another reading of the document said its time-out first)
                self.defect = next(iter(self.budget.over_time(f"its bytes from byte {self.done} on", self.origin)),
                                   None)
                return 0
        wanted = len(buffer)
        if self.whole is not None:
            if self.done >= self.whole:
                if self._read(1):  # (a document of exactly this size is whole: only a longer one is cut)
                    self.defect = Defect(DefectKind.BOMB, f"its reader holds it whole, and it is longer than "
                                         f"{self.whole} bytes, the bound of a document held whole: its bytes from "
                                         f"byte {self.whole} on not read", self.origin, None)
                return 0
            wanted = min(wanted, self.whole - self.done)
        data = self._read(wanted)
        n = len(data)
        if self.inflated and n:
            taken = self.budget.take(n)
            if taken < n:
                n = taken
                self.defect = Defect(
                    DefectKind.BOMB, f"it inflates past the document's inflate budget ({self.budget.limits.inflated} "
                    f"bytes, --inflate-budget): what it inflates to from byte {self.done + n} on not read",
                    self.origin, None)
        buffer[:n] = data[:n]
        self.done += n
        return n


def metered(items: Iterable[T], budget: Budget, origin: Origin, what: Callable[[], str | None]
            ) -> Iterator[T | Defect]:
    """The items of a reader's reading of one document, ended with a ``bomb``
    defect once the document's time is up, naming ``what()`` was left
    unread (asked then: where the reading had got to; None when that was
    said already, by the stream that fed the reader); the clock is looked
    at every :data:`EVERY` items."""
    count = 0
    for item in items:
        yield item
        count += 1
        if count >= EVERY:
            count = 0
            if budget.expired():
                unread = what()
                if unread is not None:
                    yield from budget.over_time(unread, origin)
                return


def contained(items: Iterable[T], what: str, origin: Origin, position: int | None = None,
              unit: Unit = Unit.BYTE) -> Iterator[T | Defect]:
    """The items of an inner reading (``what``: "part 1.2 (html)", "member
    word/document.xml", "page 3"), with its failure caught here: an
    exception out of it ends that reading only, as one ``scan-failed``
    defect, and the caller's reading goes on.  What ends the run
    (:class:`~urisift.uri.errors.RunError`: ``--strict``, a kind this version
    cannot read being asked for) passes through."""
    try:
        yield from items
    except RunError:
        raise
    except Exception as exc:  # noqa: BLE001 - the boundary: one inner failure must not cost the rest
        yield failed(what, exc, origin, position, unit)


def failed(what: str, exc: BaseException, origin: Origin, position: int | None = None,
           unit: Unit = Unit.BYTE) -> Defect:
    """The defect of an inner reading that failed (a bug, or a case its reader
    did not foresee): what was being read, and the error."""
    return Defect(DefectKind.SCAN_FAILED, f"reading {what} failed ({type(exc).__name__}: {exc}); the rest is read; "
                  "please report it", origin, position, unit)


__all__ = ["DOCUMENT_INFLATED", "DOCUMENT_SECONDS", "DOCUMENT_WHOLE", "EVERY", "Budget", "Limits", "Metered",
           "contained", "failed", "metered"]
