"""The guarantees at the nesting boundary (issue 35; DESIGN §1): wherever one
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

The time budget is a safety net for what no bound on sizes foresees: the
readers' own bounds (pages, members, text a page, depth) stop the shapes
known to amplify long before it, so that a scan's output does not depend
on how busy the machine is.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TypeVar

from .errors import RunError
from .model import Defect, DefectKind, Origin, Unit

T = TypeVar("T")

#: a document's time, by default: minutes of work no real document needs
DOCUMENT_SECONDS = 60.0
#: the bytes a document may inflate out of its compressed parts, by default
DOCUMENT_INFLATED = 512 << 20


@dataclass(frozen=True, slots=True)
class Limits:
    """What any one document may cost (``--time-budget``, ``--inflate-budget``):
    picklable, part of the scan's options."""

    seconds: float = DOCUMENT_SECONDS
    inflated: int = DOCUMENT_INFLATED

    def budget(self) -> Budget:
        """A fresh account for one document, its clock started now."""
        return Budget(self)


class Budget:
    """One document's account against its :class:`Limits`: the time left
    and the bytes it may still inflate.  Shared by the readings nested in
    the document (a feed and its entries' HTML, a page and its srcdoc), so
    that nesting cannot multiply it."""

    __slots__ = ("limits", "deadline", "inflatable")

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.deadline = time.monotonic() + limits.seconds
        self.inflatable = limits.inflated

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

    def over_time(self, what: str, origin: Origin) -> Defect:
        """The defect of a document whose time ran out before ``what`` was read."""
        return Defect(DefectKind.BOMB, f"the document's time budget ({self.limits.seconds:g} s, --time-budget) "
                      f"ran out: {what} not read", origin, None)

    def over_inflation(self, what: str, size: int, origin: Origin) -> Defect:
        """The defect of ``what`` (which would inflate ``size`` bytes) not read."""
        return Defect(DefectKind.BOMB, f"{what} would inflate {size} bytes, past what is left of the document's "
                      f"inflate budget ({self.inflatable} of {self.limits.inflated}, --inflate-budget): not read",
                      origin, None)


def contained(items: Iterable[T], what: str, origin: Origin, position: int | None = None,
              unit: Unit = Unit.BYTE) -> Iterator[T | Defect]:
    """The items of an inner reading (``what``: "part 1.2 (html)", "member
    word/document.xml", "page 3"), with its failure caught here: an
    exception out of it ends that reading only, as one ``scan-failed``
    defect, and the caller's reading goes on.  What ends the run
    (:class:`~urisift.errors.RunError`: ``--strict``, a kind this version
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


__all__ = ["DOCUMENT_INFLATED", "DOCUMENT_SECONDS", "Budget", "Limits", "contained", "failed"]
