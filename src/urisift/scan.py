"""Orchestration: text in, records out (DESIGN §1).

``scan_text`` delimits references in a string, resolves each one against the
base that applies, and yields :class:`~urisift.record.Record` objects.
``scan_stream`` (and ``scan_path`` for a file name) does the same for bytes,
decoding them chunk by chunk so that memory stays constant however large the
input is, and yields a :class:`~urisift.record.Defect` for every part of the
input that could not be decoded.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from .charset import decode_stream
from .delimit import Found, Scanner
from .errors import UriError
from .record import BaseSource, CharsetSource, Defect, Record, Style
from .reference import UriReference
from .resolve import resolve
from .risk import risks

_parse = UriReference.parse


@dataclass(frozen=True, slots=True)
class Context:
    """What every record of one input shares."""

    base: str | None = None
    base_source: BaseSource | None = None
    file: str | None = None
    charset: str | None = None
    charset_source: CharsetSource | None = None
    abbreviated: bool = True


def _target(found: Found, ctx: Context) -> tuple[UriReference, UriReference | None, str | None, BaseSource | None]:
    """The reference parsed, its target (RFC 3986 §5.2; None when relative with
    no base), and the base used for it."""
    if found.style is Style.ABBREVIATED:
        # Appendix F: an abbreviated URI is absolute by heuristic, never relative
        assert found.expanded is not None
        expanded = _parse(found.expanded)
        return expanded, expanded, None, None
    ref = _parse(found.reference)
    if ref.scheme is not None:
        # An absolute reference needs no base; §5.2.2 still removes its dot segments.
        return ref, resolve(ref, ref), None, None
    if ctx.base is None:
        return ref, None, None, None
    try:
        return ref, resolve(ref, ctx.base), ctx.base, ctx.base_source
    except UriError:
        return ref, None, None, None


class _Lines:
    """Turns code-point offsets into 1-based line/column, walking forward only."""

    __slots__ = ("text", "line", "line_start", "upto")

    def __init__(self, text: str, first_line: int = 1) -> None:
        self.text = text
        self.line = first_line
        self.line_start = 0
        self.upto = 0

    def at(self, pos: int) -> tuple[int, int]:
        text = self.text
        if pos > self.upto:
            newlines = text.count("\n", self.upto, pos)
            if newlines:
                self.line += newlines
                self.line_start = text.rfind("\n", self.upto, pos) + 1
            self.upto = pos
        return self.line, pos - self.line_start + 1


def _records(text: str, ctx: Context, offset: int = 0, first_line: int = 1) -> Iterator[Record]:
    lines = _Lines(text, first_line)
    for found in Scanner(text, abbreviated=ctx.abbreviated):
        ref, target, base, base_source = _target(found, ctx)
        line, column = lines.at(found.start)
        yield Record(
            uri=found.reference,
            target=None if target is None else str(target),
            style=found.style,
            span=(found.start + offset, found.end + offset),
            line=line,
            column=column,
            alternatives=found.alternatives,
            flags=found.flags,
            base=base,
            base_source=base_source,
            file=ctx.file,
            charset=ctx.charset,
            charset_source=ctx.charset_source,
            risks=risks(target if target is not None else ref),
        )


def scan_text(text: str, *, base: str | None = None, file: str | None = None,
              abbreviated: bool = True) -> Iterator[Record]:
    """Yield a record for every URI reference in ``text`` (DESIGN §2, §3).

    ``base`` is the retrieval URI (RFC 3986 §5.1.3): relative references,
    which plain text only holds inside ``<URL:...>``, resolve against it.
    ``abbreviated=False`` leaves ``www.``/``ftp.`` forms out.
    """
    ctx = Context(base=base, base_source=BaseSource.RETRIEVAL if base else None, file=file,
                  abbreviated=abbreviated)
    return _records(text, ctx)


def _cut(chunk: str) -> int:
    """Where a chunk can be split so that no reference spans the split.

    A blank line is safe: no delimiting rule joins across one.  Failing that,
    the start of a line, moved back before an unclosed "<" or a line that
    ends in "-" or "//" (both may continue on the next line); failing that,
    the last white space; failing that the whole chunk (a single run of more
    than a chunk without white space).
    """
    cut = max(chunk.rfind("\n\n"), chunk.rfind("\n\r\n"))
    if cut != -1:
        return cut + 1
    cut = chunk.rfind("\n")
    if cut != -1:
        cut += 1
        lt = chunk.rfind("<", 0, cut)
        if lt > chunk.rfind(">", 0, cut):
            cut = chunk.rfind("\n", 0, lt) + 1  # keep the open bracket with what follows
        while cut > 0 and chunk[max(0, cut - 4) : cut].rstrip("\r\n").endswith(("-", "//")):
            cut = chunk.rfind("\n", 0, cut - 1) + 1  # a hyphen or "scheme://" at a line end
        if cut > 0:
            return cut
    for i in range(len(chunk) - 1, -1, -1):
        if chunk[i].isspace():
            return i + 1
    return len(chunk)


def scan_chunks(chunks: Iterable[str], ctx: Context) -> Iterator[Record]:
    """Scan text that arrives in pieces; offsets and lines are for the whole text."""
    carry = ""
    offset = 0
    line = 1
    for piece in chunks:
        chunk = carry + piece
        cut = _cut(chunk)
        head, carry = chunk[:cut], chunk[cut:]
        yield from _records(head, ctx, offset, line)
        offset += len(head)
        line += head.count("\n")
    if carry:
        yield from _records(carry, ctx, offset, line)


def scan_stream(stream: BinaryIO, *, base: str | None = None, file: str | None = None,
                declared: str | None = None, abbreviated: bool = True,
                chunk_size: int = 1 << 20) -> Iterator[Record | Defect]:
    """Scan a binary stream of plain text in constant memory.

    Yields records, and a :class:`Defect` for every run of bytes that is not
    in the chosen charset (they are decoded as U+FFFD and the scan goes on).
    """
    choice, pieces = decode_stream(stream, declared=declared, file=file, chunk_size=chunk_size)
    ctx = Context(base=base, base_source=BaseSource.RETRIEVAL if base else None, file=file,
                  charset=choice.charset, charset_source=choice.source, abbreviated=abbreviated)
    defects: list[Defect] = []

    def texts() -> Iterator[str]:
        for text, found_defects in pieces:
            defects.extend(found_defects)
            yield text

    for record in scan_chunks(texts(), ctx):
        while defects:
            yield defects.pop(0)
        yield record
    yield from defects


def scan_path(path: str | Path, *, base: str | None = None, abbreviated: bool = True
              ) -> Iterator[Record | Defect]:
    """Scan one file of plain text."""
    name = str(path)
    with open(path, "rb") as stream:
        yield from scan_stream(stream, base=base, file=name, abbreviated=abbreviated)
