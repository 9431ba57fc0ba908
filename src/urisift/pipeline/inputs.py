"""One input as the library reads it (:func:`urisift.iter_input`): a file, standard
input, a URL, or a directory, walked as the command walks it, its files in the
command's order."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import replace
from typing import BinaryIO

from ..model import Defect, Kind, Record, Tally
from ..stages.options import DEFAULTS, ScanOptions
from ..uri import arguments as check
from .remote import is_remote
from .scan import Items, scan_serial, scan_unit
from .sources import Input
from .units import WorkUnit


def iter_input(source: Input | str | os.PathLike[str], options: ScanOptions = DEFAULTS, *,
               stdin: BinaryIO | None = None) -> Items:
    """Records and defects of one input, streamed, in constant memory.
    Its arguments are checked at the call (:mod:`urisift.uri.arguments`)."""
    check.instance("iter_input", "source", source, (Input, str, os.PathLike), "a path (str, os.PathLike) or an Input")
    check.instance("iter_input", "options", options, ScanOptions, "a ScanOptions")
    if stdin is not None:
        check.binary_stream("iter_input", "stdin", stdin)
    source = source if isinstance(source, Input) else Input(os.fspath(source))
    return _iter_input(source, options, stdin)


def _iter_input(source: Input, options: ScanOptions, stdin: BinaryIO | None) -> Items:
    if source.path != "-" and not is_remote(source.path) and os.path.isdir(source.path):
        items: Iterable[Record | Defect | Tally] = _walked(source, options)
    else:
        items = scan_unit(WorkUnit(source), options, stdin=stdin)
    for item in items:
        if type(item) is not Tally:
            yield item  # type: ignore[misc]


def _walked(folder: Input, options: ScanOptions) -> Iterator[Record | Defect | Tally]:
    """A directory, walked as the command walks it (a Maildir's messages known to
    be mail, hidden and binary files passed over), its files in the command's
    order; each file's path under the directory (after ``folder.under``, when the
    directory itself stands under a root) gives it its retrieval URI."""
    from .plan import plan
    from .walking import walk

    walked = walk([folder.path], maildir=options.kind is Kind.MAILDIR, images=options.qr)
    if folder.under is not None:
        walked = (replace(i, under=f"{folder.under.rstrip('/')}/{i.under}") if isinstance(i, Input) and i.under
                  else i for i in walked)
    return scan_serial(plan(walked, options, cut=False), options)


__all__ = ["iter_input"]
